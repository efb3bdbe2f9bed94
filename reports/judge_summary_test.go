package reports_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

// judgedResult is a run of one unit whose invariants the judge read as
// given: one judgement per check status/verdict pair ("" verdict: the
// judgement failed).
func judgedResult(pairs ...[2]string) *result.Result {
	var cs []result.CheckResult
	for i, p := range pairs {
		j := &result.Judgement{Verdict: p[1]}
		if p[1] == "" {
			j.Error = "judge down"
		}
		cs = append(cs, result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: string(rune('a' + i)), Status: result.Status(p[0]), Judge: j})
	}
	r := &result.Result{Config: result.RunConfig{Judge: "exec:judge", Summarizers: []string{"s"}, Trials: 1}}
	u := result.Unit{Summarizer: "s", Generations: []result.Generation{{N: 1, Checks: cs}}}
	u.Scenario.ID = "sc"
	r.Units = []result.Unit{u}
	r.Aggregate()
	return r
}

// TestJudgeMarkdownClaimsOnlyWhatHappened: with no disagreement of either
// kind the Markdown must not say the judge agrees with every check when it
// did not: a passed check the judge calls missing is no agreement, and a
// judge whose every judgement failed agreed with nothing.
func TestJudgeMarkdownClaimsOnlyWhatHappened(t *testing.T) {
	md := func(r *result.Result) string {
		var b bytes.Buffer
		if err := reports.WriteMarkdown(&b, r, reports.Options{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for name, tc := range map[string]struct {
		r    *result.Result
		want string
	}{
		"pass judged missing": {judgedResult([2]string{"pass", "kept"}, [2]string{"pass", "missing"}), "1 passed check the judge calls missing"},
		"judge down":          {judgedResult([2]string{"pass", ""}, [2]string{"fail", ""}), "The judge gave no verdict (2 judgements failed)"},
	} {
		out := md(tc.r)
		if strings.Contains(out, "agrees with every check") {
			t.Errorf("%s: the report claims full agreement:\n%s", name, out)
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: the report does not say %q:\n%s", name, tc.want, out)
		}
	}
	if out := md(judgedResult([2]string{"pass", "kept"}, [2]string{"fail", "missing"})); !strings.Contains(out, "The judge agrees with every check it gave a verdict on.") {
		t.Errorf("full agreement not reported:\n%s", out)
	}
}

// TestJudgeMarkdownWorstFirst: the disagreements list a pass the judge
// calls contradicted (a loss the checks may have missed) before a fail it
// calls kept, whatever order the run met them in.
func TestJudgeMarkdownWorstFirst(t *testing.T) {
	r := judgedResult([2]string{"fail", "kept"}, [2]string{"pass", "contradicted"})
	var b bytes.Buffer
	if err := reports.WriteMarkdown(&b, r, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	pc, fk := strings.Index(out, "constraint `b`"), strings.Index(out, "constraint `a`")
	if pc < 0 || fk < 0 || pc > fk {
		t.Errorf("pass→contradicted (b) at %d, fail→kept (a) at %d: want b listed first:\n%s", pc, fk, out)
	}
}
