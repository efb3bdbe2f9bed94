package result_test

import (
	"testing"

	"github.com/compact-eval/compact-eval/result"
	"github.com/google/go-cmp/cmp"
)

// TestTrialSpread counts the scenarios and outcomes that changed between
// trials, and pass^N, by hand.
func TestTrialSpread(t *testing.T) {
	unit := func(sum, scen string, trial int, inv result.Status, class string) result.Unit {
		return result.Unit{Scenario: result.ScenarioRef{ID: scen}, Summarizer: sum, Trial: trial, Status: result.UnitOK,
			Generations: []result.Generation{{N: 1, Checks: []result.CheckResult{
				{Check: result.TypeConstraint, Kind: result.KindInvariant, Invariant: "ro", Status: inv},
				{Check: result.CheckSchema, Kind: result.KindStructural, Status: result.Pass},
			}}},
			Probes: []result.Probe{{ID: "p", Class: class}}}
	}
	var units []result.Unit
	for trial := range 3 {
		// det: the same in every trial; a passes, b fails.
		units = append(units, unit("det", "a", trial, result.Pass, result.Kept), unit("det", "b", trial, result.Fail, result.Kept))
		// flaky: a loses its rule in trial 2 and its probe regresses in
		// trial 3; b errors in trial 1 only; c passes every trial.
		inv, class := result.Pass, result.Kept
		if trial == 1 {
			inv = result.Fail
		}
		if trial == 2 {
			class = result.CompactionRegression
		}
		units = append(units, unit("flaky", "a", trial, inv, class))
		if trial == 0 {
			units = append(units, result.Unit{Scenario: result.ScenarioRef{ID: "b"}, Summarizer: "flaky", Trial: 0, Status: result.UnitError, Error: "boom"})
		} else {
			units = append(units, unit("flaky", "b", trial, result.Pass, result.Kept))
		}
		units = append(units, unit("flaky", "c", trial, result.Pass, result.Kept))
	}
	// short: a trial did not run.
	units = append(units, unit("short", "a", 0, result.Pass, result.Kept), unit("short", "a", 1, result.Pass, result.Kept))
	r := &result.Result{Config: result.RunConfig{Summarizers: []string{"det", "flaky", "short"}, Trials: 3}, Units: units}
	r.Aggregate()
	want := map[string]*result.TrialSpread{
		// 2 scenarios × 3 outcomes, none changed; a passed all 3 trials, b
		// none: pass^3 1/2, one trial 1/2.
		"det": {Trials: 3, Scenarios: 2, Changed: 0, Outcomes: 6, ChangedOutcomes: 0, PassAll: 1, PassPerTrial: 0.5},
		// a: the rule and the probe changed; b: the errored trial lacks
		// all 3 outcomes; c held. Passed in one trial: a 1/3, b 2/3, c 1.
		"flaky": {Trials: 3, Scenarios: 3, Changed: 2, Outcomes: 9, ChangedOutcomes: 5, PassAll: 1, PassPerTrial: 2.0 / 3},
		// 2 of 3 trials ran: every outcome is missing from one; never
		// passed all 3.
		"short": {Trials: 3, Scenarios: 1, Changed: 1, Outcomes: 3, ChangedOutcomes: 3, PassAll: 0, PassPerTrial: 2.0 / 3},
	}
	for _, s := range r.Summaries {
		if d := cmp.Diff(want[s.Summarizer], s.Trials); d != "" {
			t.Errorf("%s (-want +got):\n%s", s.Summarizer, d)
		}
	}
	if !r.Summaries[0].Trials.Identical() || r.Summaries[1].Trials.Identical() {
		t.Error("det must read identical, flaky not")
	}
	// One trial: no spread.
	one := &result.Result{Config: result.RunConfig{Summarizers: []string{"det"}, Trials: 1}, Units: []result.Unit{unit("det", "a", 0, result.Pass, result.Kept)}}
	one.Aggregate()
	if one.Summaries[0].Trials != nil {
		t.Errorf("one trial: %+v, want nil", one.Summaries[0].Trials)
	}
}
