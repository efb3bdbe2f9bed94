package selftest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/result"

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
}
