package verdict

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/google/go-cmp/cmp"
)

// One order everywhere (issue 35): the console's failures, the Markdown
// report, the step summary and the annotations list the same findings in
// the same order: errors, decision regressions, invariant failures, then
// the rest, whatever order the units came in.
func TestOneOrderEverywhere(t *testing.T) {
	inv := func(id string, st result.Status) result.CheckResult {
		return result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: id, Status: st, Message: id + " " + string(st), Pos: result.Pos{Line: 7}}
	}
	units := []result.Unit{
		{Scenario: result.ScenarioRef{ID: "a", File: "a.yaml"}, Summarizer: "s", Status: result.UnitOK,
			Generations: []result.Generation{{N: 1, Checks: []result.CheckResult{
				inv("a-lost", result.Fail),
				{Check: "compression", Kind: result.KindStructural, Status: result.Fail, Message: "too long"},
				inv("a-doubt", result.Uncertain),
			}}},
			Probes: []result.Probe{{ID: "a-probe", Class: result.CompactionRegression, Pos: result.Pos{Line: 20}}}},
		{Scenario: result.ScenarioRef{ID: "b", File: "b.yaml"}, Summarizer: "s", Status: result.UnitOK,
			Generations: []result.Generation{{N: 1, Checks: []result.CheckResult{inv("b-lost", result.Fail)}}},
			Probes:      []result.Probe{{ID: "b-probe", Class: result.CompactionRegression, Pos: result.Pos{Line: 21}}}},
		{Scenario: result.ScenarioRef{ID: "c", File: "c.yaml"}, Summarizer: "s", Status: result.UnitError, Error: "summarizer: boom"},
	}
	r := &result.Result{ResultVersion: result.ResultVersion, RunID: "r", Config: result.RunConfig{Summarizers: []string{"s"}, Trials: 1, Paths: []string{"."}}, Units: units}
	r.Aggregate()
	want := []string{"c unit", "a decisions/a-probe", "b decisions/b-probe", "a constraint/a-lost", "b constraint/b-lost", "a compression", "a constraint/a-doubt"}

	b := New()
	for i := range units {
		b.Add(&units[i])
	}
	list, _ := b.Failures()
	var console []string
	for _, f := range list {
		console = append(console, f.Scenario+" "+f.Label())
	}

	var md bytes.Buffer
	if err := reports.WriteMarkdown(&md, r, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	var ann bytes.Buffer
	if err := reports.WriteGitHub(r, reports.Options{}, summary, &ann); err != nil {
		t.Fatal(err)
	}
	step, _ := os.ReadFile(summary)
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `[^`]+` \\| [^|]+ \\| `([^`]+)` \\|")
	rows := func(s string) []string {
		var out []string
		for _, m := range row.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1]+" "+m[2])
		}
		return out
	}
	var annotations []string
	for _, l := range strings.Split(strings.TrimSpace(ann.String()), "\n") {
		// ::level file=…,line=…,title=TITLE::SCENARIO · SUMMARIZER: …
		// (a property's ':' and ',' are escaped, so "::" ends them)
		head, msg, _ := strings.Cut(strings.TrimPrefix(l, "::"), "::")
		_, title, ok := strings.Cut(head, ",title=")
		if !ok {
			continue // a notice with no file
		}
		label, _, _ := strings.Cut(title, " ")
		if strings.Contains(title, " errored (trial ") {
			label = "unit"
		}
		scenario, _, _ := strings.Cut(msg, " · ")
		annotations = append(annotations, scenario+" "+strings.TrimSuffix(label, ":"))
	}
	for name, got := range map[string][]string{"console": console, "markdown": rows(md.String()), "step summary": rows(string(step)), "annotations": annotations} {
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s order (-want +got):\n%s", name, d)
		}
	}
}
