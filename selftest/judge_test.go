package selftest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
)

func judgeSuite(t *testing.T) []*scenarios.Scenario {
	t.Helper()
	all, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenarios.Scenario
	for _, s := range all {
		switch s.ID {
		case "correction-report-recipient", "readonly-audit-no-push", "unresolved-canary-timeout", "secret-in-tool-output":
			out = append(out, s)
		}
	}
	if len(out) != 4 {
		t.Fatalf("%d scenarios", len(out))
	}
	return out
}

// labelledJudge answers from the planted labels themselves: a judge that
// is right by construction (oracle kept, inversion contradicted, omission
// missing, structural classes kept), so the table must show full
// agreement.
func labelledJudge(t *testing.T, list []*scenarios.Scenario) judges.Judge {
	labels := map[string]string{}
	for _, sc := range list {
		p, err := NewPlan(context.Background(), sc, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Variants {
			if v.Target.Kind == KindInvariant {
				labels[sc.ID+"\x00"+v.Target.ID+"\x00"+string(v.Document)] = string(v.Class)
			}
		}
	}
	return judges.Func(func(ctx context.Context, req *judges.Request) (*judges.Verdict, error) {
		switch labels[req.ScenarioID+"\x00"+req.Invariant.ID+"\x00"+string(req.Summary)] {
		case string(Invert):
			return &judges.Verdict{Verdict: judges.Contradicted}, nil
		case string(Omit):
			return &judges.Verdict{Verdict: judges.Missing}, nil
		}
		return &judges.Verdict{Verdict: judges.Kept}, nil
	})
}

func constant(verdict string, calls *int, mu *sync.Mutex) judges.Judge {
	return judges.Func(func(ctx context.Context, req *judges.Request) (*judges.Verdict, error) {
		mu.Lock()
		*calls++
		mu.Unlock()
		if req.Invariant.Type == result.TypeSecret {
			return nil, errors.New("a secret was judged")
		}
		if verdict == "" {
			return nil, errors.New("the judge is down")
		}
		return &judges.Verdict{Verdict: verdict}, nil
	})
}

func row(r *JudgeReport, class string) JudgeClass {
	for _, c := range r.Classes {
		if c.Class == class {
			return c
		}
	}
	return JudgeClass{}
}

// TestMeasureJudge scores judges of known behaviour against the planted
// labels: one right by construction, a credulous one that calls
// everything kept, an alarmist that calls everything contradicted, and one
// that always fails.
func TestMeasureJudge(t *testing.T) {
	list := judgeSuite(t)
	ctx := context.Background()

	r, err := MeasureJudge(ctx, list, labelledJudge(t, list), JudgeOptions{Name: "labelled", Jobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Classes) < 3 || r.Classes[0].Class != FaithfulClass {
		t.Fatalf("classes %+v", r.Classes)
	}
	for _, c := range []string{FaithfulClass, string(Invert), string(Omit)} {
		if x := row(r, c); x.Judged == 0 || x.Agree != x.Judged || x.Errors != 0 {
			t.Errorf("%s: %+v, want full agreement", c, x)
		}
	}
	if r.InversionsCaught == nil || *r.InversionsCaught != 1 || r.FalseAlarms == nil || *r.FalseAlarms != 0 {
		t.Errorf("inversions %v false alarms %v", r.InversionsCaught, r.FalseAlarms)
	}
	if r.Unusable != "" || r.Usable.N != len(r.Judgements) || !r.Labels.BetterThanChance() || r.Labels.Correct != r.Labels.Of {
		t.Errorf("a right judge: unusable %q, usable %+v, labels %+v", r.Unusable, r.Usable, r.Labels)
	}
	for _, j := range r.Judgements {
		if j.Type == result.TypeSecret {
			t.Errorf("a secret was judged: %+v", j)
		}
		if j.Class == string(LeakWhole) || j.Class == string(LeakPart) {
			t.Errorf("a leak variant was judged: %+v", j)
		}
	}

	var mu sync.Mutex
	calls := 0
	r, err = MeasureJudge(ctx, list, constant(judges.Kept, &calls, &mu), JudgeOptions{Jobs: 8})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(r.Judgements) {
		t.Errorf("%d calls for %d judgements", calls, len(r.Judgements))
	}
	if *r.InversionsCaught != 0 || *r.FalseAlarms != 0 || row(r, string(Invert)).Kept != row(r, string(Invert)).Judged {
		t.Errorf("credulous: inversions %v false alarms %v", *r.InversionsCaught, *r.FalseAlarms)
	}
	if !strings.Contains(r.Unusable, "does not read the summaries") || r.Labels.P != 1 {
		t.Errorf("credulous: unusable %q, labels %+v; want no better than chance", r.Unusable, r.Labels)
	}

	r, _ = MeasureJudge(ctx, list, constant(judges.Contradicted, &calls, &mu), JudgeOptions{})
	if *r.FalseAlarms != 1 || row(r, FaithfulClass).Agree != 0 || row(r, string(Omit)).Caught != row(r, string(Omit)).Judged {
		t.Errorf("alarmist: false alarms %v, rows %+v", *r.FalseAlarms, r.Classes)
	}

	r, _ = MeasureJudge(ctx, list, constant("", &calls, &mu), JudgeOptions{})
	if r.InversionsCaught != nil || r.FalseAlarms != nil || row(r, FaithfulClass).Errors != row(r, FaithfulClass).Judged {
		t.Errorf("down: %+v", r.Classes)
	}
	if !strings.Contains(r.Judgements[0].Error, "the judge is down") {
		t.Errorf("error not recorded: %+v", r.Judgements[0])
	}
	if want := fmt.Sprintf("0 of %d judgements had a usable verdict (0%%), below the floor of 90%%", len(r.Judgements)); r.Unusable != want {
		t.Errorf("down: unusable %q, want %q", r.Unusable, want)
	}
}

// allUncertain runs the checks, then makes the invariants of the given
// types uncertain (every type when none is given).
func allUncertain(types ...string) func(*checks.Input) []result.CheckResult {
	return func(in *checks.Input) []result.CheckResult {
		out := checks.Run(in)
		for i := range out {
			if out[i].Kind == result.KindInvariant && (len(types) == 0 || slices.Contains(types, out[i].Check)) {
				out[i].Status = result.Uncertain
			}
		}
		return out
	}
}

// TestMeasureJudgeCascade: selftest measures the cascade of run
// --judge-scope uncertain on the same labelled questions: the judge is
// called only where the check said uncertain, and its verdict settles
// those; elsewhere the check's status stands.
func TestMeasureJudgeCascade(t *testing.T) {
	list := judgeSuite(t)
	ctx := context.Background()
	judge := labelledJudge(t, list)

	// The real checks: every question records its check's status, the
	// oracle's facts pass (no false alarm), and the cascade calls the
	// judge exactly as often as a check said uncertain.
	r, err := MeasureJudge(ctx, list, judge, JudgeOptions{Jobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	uncertain := 0
	for _, j := range r.Judgements {
		if j.Check == "" {
			t.Errorf("no check status recorded: %+v", j)
		}
		if j.Check == result.Uncertain {
			uncertain++
		}
	}
	if r.Cascade.Of != len(r.Judgements) || r.Cascade.Calls != uncertain {
		t.Errorf("cascade calls %d of %d; want %d of %d", r.Cascade.Calls, r.Cascade.Of, uncertain, len(r.Judgements))
	}
	if r.Cascade.FalseAlarms == nil || *r.Cascade.FalseAlarms != 0 {
		t.Errorf("cascade false alarms on the oracle %v; want 0", r.Cascade.FalseAlarms)
	}

	// Every constraint uncertain: exactly the constraint questions go to
	// the judge, and its right verdicts settle them.
	r, err = MeasureJudge(ctx, list, judge, JudgeOptions{Jobs: 4, Check: allUncertain(result.TypeConstraint)})
	if err != nil {
		t.Fatal(err)
	}
	constraints := 0
	for _, j := range r.Judgements {
		if j.Type == result.TypeConstraint {
			constraints++
		}
	}
	if constraints == 0 || r.Cascade.Calls != constraints || r.Cascade.Of != len(r.Judgements) {
		t.Errorf("cascade calls %d of %d; want the %d constraint questions", r.Cascade.Calls, r.Cascade.Of, constraints)
	}

	// Every check uncertain: the cascade is the judge, question for
	// question. A right judge settles all: every inversion fails, no
	// oracle fact does.
	r, err = MeasureJudge(ctx, list, judge, JudgeOptions{Jobs: 4, Check: allUncertain()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Cascade.Calls != r.Cascade.Of {
		t.Errorf("cascade calls %d of %d; want all", r.Cascade.Calls, r.Cascade.Of)
	}
	if *r.Cascade.InversionsCaught != 1 || *r.Cascade.FalseAlarms != 0 || *r.Cascade.Uncertain != 0 {
		t.Errorf("right judge over all doubts: caught %v, false alarms %v, uncertain %v", *r.Cascade.InversionsCaught, *r.Cascade.FalseAlarms, *r.Cascade.Uncertain)
	}
	for _, c := range r.Cascade.Classes {
		if c.Settled != c.Judged || c.Uncertain != 0 {
			t.Errorf("%s: %+v; want every question settled", c.Class, c)
		}
	}

	// A judge that is down settles nothing: the doubts stay uncertain,
	// never a pass.
	var mu sync.Mutex
	calls := 0
	r, _ = MeasureJudge(ctx, list, constant("", &calls, &mu), JudgeOptions{Check: allUncertain()})
	if *r.Cascade.Uncertain != 1 {
		t.Errorf("judge down: uncertain share %v; want 1", *r.Cascade.Uncertain)
	}
	for _, c := range r.Cascade.Classes {
		if c.Pass != 0 || c.Fail != 0 {
			t.Errorf("judge down: %+v; want nothing settled", c)
		}
	}
}
