package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// doubtful runs the real checks, then makes the invariants of ids
// uncertain: a stand-in for a reader that cannot classify a clause.
func doubtful(ids ...string) func(*checks.Input) []result.CheckResult {
	return func(in *checks.Input) []result.CheckResult {
		out := checks.Run(in)
		for i := range out {
			for _, id := range ids {
				if out[i].Kind == result.KindInvariant && out[i].Invariant == id {
					out[i].Status, out[i].Message = result.Uncertain, "cannot classify the clause on "+id
				}
			}
		}
		return out
	}
}

// cascadeJudge answers over the wire: contradicted for the correction,
// kept for the quantity, kept for everything else; a refusal for the
// pending operation.
func cascadeJudge(r llmtest.Request) llmtest.Reply {
	user := strings.Join(r.Messages("user"), "\n")
	switch {
	case strings.Contains(user, "The fact (correction)"):
		return llmtest.Text(`{"verdict":"contradicted","quote":"was logs-eu-1","reason":"the old bucket is still named"}`)
	case strings.Contains(user, "The fact (quantity)"):
		return llmtest.Text(`{"verdict":"kept","quote":"Pool timeout 1650 ms","reason":"the value is stated"}`)
	case strings.Contains(user, "The fact (pending operation)"):
		return llmtest.Reply{Refusal: "I cannot grade this."}
	case strings.Contains(user, "The fact (constraint)"):
		return llmtest.Text(`{"verdict":"kept","quote":"READ-ONLY run: never write to prod","reason":"the rule is stated"}`)
	}
	return llmtest.Status(500, "unexpected judge request")
}

func cascadeRun(t *testing.T, scope string, check func(*checks.Input) []result.CheckResult) (*result.Result, *llmtest.Server) {
	t.Helper()
	sc := judgedScenario(t)
	srv := llmtest.New(t)
	srv.SetDefault(cascadeJudge)
	out := filepath.Join(t.TempDir(), "run")
	opts := Options{Summarizers: []Summarizer{fixedSummarizer()}, Agent: agents.Reference{}, AgentName: "builtin:reference",
		Out: out, Now: fixedNow, Judge: judgeOf(t, srv, t.TempDir()), JudgeName: "openai:judge-model", JudgeScope: scope, Check: check}
	res, err := Run(context.Background(), []*scenarios.Scenario{sc}, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	return r, srv
}

// TestJudgeCascade: with the default scope only the uncertain invariants
// go to the judge, exactly one call each; its verdict settles them
// (recorded as such), a judge with no verdict leaves the doubt standing,
// and the checks that could tell are not asked about.
func TestJudgeCascade(t *testing.T) {
	r, srv := cascadeRun(t, "", doubtful("bucket", "pool", "op"))
	if n := srv.Count(); n != 3 {
		t.Errorf("%d judge calls; want 3, one per uncertain invariant (bucket, pool, op)", n)
	}
	for i, req := range srv.Requests() {
		if req.Contains("The fact (constraint)") {
			t.Errorf("request %d asks about the constraint, which its check passed", i)
		}
	}
	if r.Config.JudgeScope != result.JudgeScopeUncertain {
		t.Errorf("config judge_scope %q; want uncertain (the default)", r.Config.JudgeScope)
	}
	got := judgedChecks(t, r)
	type want struct {
		status  result.Status
		settled result.Status
		judged  bool
		msg     string
	}
	for id, w := range map[string]want{
		"ro":     {result.Pass, "", false, "constraint"},
		"bucket": {result.Fail, result.Uncertain, true, "judge: contradicted (the old bucket is still named); the check could not tell: cannot classify the clause on bucket"},
		"pool":   {result.Pass, result.Uncertain, true, "judge: kept (the value is stated); the check could not tell: cannot classify the clause on pool"},
		"op":     {result.Uncertain, "", true, "cannot classify the clause on op"},
		"token":  {result.Fail, "", false, "secret"},
	} {
		c := got[id]
		if c.Status != w.status || (c.Judge != nil) != w.judged || !strings.Contains(c.Message, w.msg) {
			t.Errorf("%s: status %s, judged %v, message %q; want %s, judged %v, message ~%q", id, c.Status, c.Judge != nil, c.Message, w.status, w.judged, w.msg)
			continue
		}
		if c.Judge != nil && c.Judge.Settled != w.settled {
			t.Errorf("%s: settled %q; want %q", id, c.Judge.Settled, w.settled)
		}
	}
	if c := got["op"]; c.Judge == nil || !strings.Contains(c.Judge.Error, "refused") {
		t.Errorf("op: the refusal is not recorded: %+v", c.Judge)
	}
	s := r.Judge[0]
	if s.Judged != 3 || s.Settled != 2 || s.Agree != 0 || s.PassContradicted != 0 || s.FailKept != 0 || s.Errors != 1 {
		t.Errorf("judge summary %+v; want 3 judged, 2 settled, 1 error, no agreement or disagreement", s)
	}
	if len(r.Disagreements) != 0 {
		t.Errorf("a settled check counted as a disagreement: %+v", r.Disagreements)
	}
	sum := r.Summaries[0]
	if sum.InvariantPass != 2 || sum.InvariantFail != 2 || sum.InvariantUncertain != 1 {
		t.Errorf("invariants pass %d fail %d uncertain %d; want 2 (ro, pool) 2 (bucket, token) 1 (op)", sum.InvariantPass, sum.InvariantFail, sum.InvariantUncertain)
	}
}

// With nothing uncertain the default scope makes no judge call at all: a
// judge costs calls only where patterns cannot decide.
func TestJudgeCascadeNothingUncertain(t *testing.T) {
	_, srv := cascadeRun(t, "", nil)
	if n := srv.Count(); n != 0 {
		t.Errorf("%d judge calls with no uncertain invariant; want 0", n)
	}
}

// --judge-scope all asks about every judged invariant (4: the secret is
// never judged) and still settles the uncertain ones.
func TestJudgeScopeAll(t *testing.T) {
	r, srv := cascadeRun(t, result.JudgeScopeAll, doubtful("pool"))
	if n := srv.Count(); n != 4 {
		t.Errorf("%d judge calls; want 4, one per judged invariant", n)
	}
	got := judgedChecks(t, r)
	if c := got["pool"]; c.Status != result.Pass || c.Judge == nil || c.Judge.Settled != result.Uncertain {
		t.Errorf("pool: %+v; want settled to pass", c)
	}
	if c := got["bucket"]; c.Status != result.Pass || c.Judge == nil || c.Judge.Verdict != "contradicted" || c.Judge.Settled != "" {
		t.Errorf("bucket: %+v; want the check's pass kept, the verdict beside it", c)
	}
	if r.Config.JudgeScope != result.JudgeScopeAll {
		t.Errorf("config judge_scope %q; want all", r.Config.JudgeScope)
	}
}

func TestJudgeScopeValidated(t *testing.T) {
	o := Options{Summarizers: []Summarizer{fixedSummarizer()}, Agent: agents.Reference{}, Out: t.TempDir(), JudgeScope: "some"}
	if err := o.validate(); err == nil || !strings.Contains(err.Error(), `judge scope "some": want uncertain or all`) {
		t.Errorf("validate: %v", err)
	}
}
