package runner

import (
	"context"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/scenarios"
)

// TestPreparedUnit: a unit run in memory is the unit Run journals, but for
// the timings and the redaction of secrets Run adds.
func TestPreparedUnit(t *testing.T) {
	notUnderRace(t, "TestJobsDeterministic and TestConcurrentResume")
	list := builtinSuite(t)
	sums := builtins(t, nil)
	res, err := Run(context.Background(), list, baseOptions(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*scenarios.Scenario{}
	for _, sc := range list {
		byID[sc.ID] = sc
	}
	prepared := map[string]*Prepared{}
	ignore := cmpopts.IgnoreFields(result.Unit{}, "Duration")
	ignoreCall := cmpopts.IgnoreFields(result.Decision{}, "Call")
	ignoreGenCall := cmpopts.IgnoreFields(result.Generation{}, "Call")
	for _, want := range r.Units {
		sc := byID[want.Scenario.ID]
		if sc.Secrets() != nil {
			continue // Run redacts what a summarizer leaked; Unit leaves it to the caller
		}
		pr := prepared[sc.ID]
		if pr == nil {
			if pr, err = Prepare(sc, ""); err != nil {
				t.Fatal(err)
			}
			prepared[sc.ID] = pr
		}
		var s Summarizer
		for _, x := range sums {
			if x.Name == want.Summarizer {
				s = x
			}
		}
		got := pr.Unit(context.Background(), s, agents.Reference{}, want.Trial, nil)
		if diff := cmp.Diff(want, got, ignore, ignoreCall, ignoreGenCall, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s × %s (-Run +Prepared.Unit):\n%s", sc.ID, want.Summarizer, diff)
		}
	}
	if _, err := Prepare(nil, ""); err == nil {
		t.Error("Prepare(nil) gives no error")
	}
	if _, err := Prepare(list[0], "no-such-encoding"); err == nil {
		t.Error("Prepare with an unknown encoding gives no error")
	}
}
