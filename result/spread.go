package result

import (
	"fmt"
	"slices"
)

// ScenarioRates accumulates a pass rate's outcomes by scenario and trial,
// for its interval clustered by scenario (ClusteredWilson). The zero value
// is ready to use.
type ScenarioRates struct {
	by map[string]*scenarioRate
}

type scenarioRate struct {
	pass, n int
	trials  map[int]bool
}

// Add counts one judged outcome of scenario in trial (0-based).
func (r *ScenarioRates) Add(scenario string, trial int, pass bool) {
	if r.by == nil {
		r.by = map[string]*scenarioRate{}
	}
	s := r.by[scenario]
	if s == nil {
		s = &scenarioRate{trials: map[int]bool{}}
		r.by[scenario] = s
	}
	s.n++
	if pass {
		s.pass++
	}
	s.trials[trial] = true
}

// Counts are the scenarios' counts, by scenario id.
func (r *ScenarioRates) Counts() []ScenarioCount {
	var out []ScenarioCount
	for _, id := range slices.Sorted(mapKeys(r.by)) {
		s := r.by[id]
		out = append(out, ScenarioCount{Pass: s.pass, N: s.n, Trials: len(s.trials)})
	}
	return out
}

// Interval is ClusteredWilson of the counts: the rate and its interval.
func (r *ScenarioRates) Interval() (rate float64, iv Interval) { return ClusteredWilson(r.Counts()) }

// interval is Interval, or nil with nothing judged.
func (r *ScenarioRates) interval() *Interval {
	if len(r.by) == 0 {
		return nil
	}
	_, iv := r.Interval()
	return &iv
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// judgedStatus reports whether s is in a rate's denominator.
func judgedStatus(s Status) bool { return s == Pass || s == Fail || s == Uncertain }

// trialSpreads computes each summarizer's TrialSpread over r's units, for
// the summarizers that ran more than one trial.
func trialSpreads(r *Result) map[string]*TrialSpread {
	type unitKey struct{ sum, scen string }
	trials := map[string]int{}
	units := map[unitKey][]*Unit{}
	for i := range r.Units {
		u := &r.Units[i]
		trials[u.Summarizer] = max(trials[u.Summarizer], r.Config.Trials, u.Trial+1)
		k := unitKey{u.Summarizer, u.Scenario.ID}
		units[k] = append(units[k], u)
	}
	out := map[string]*TrialSpread{}
	for k, us := range units {
		n := trials[k.sum]
		if n < 2 {
			continue
		}
		if slices.IndexFunc(us, func(u *Unit) bool { return u.Skipped == "" }) < 0 {
			continue // the summarizer does not apply to the scenario
		}
		t := out[k.sum]
		if t == nil {
			t = &TrialSpread{Trials: n}
			out[k.sum] = t
		}
		t.Scenarios++
		outcomes, changed, unitChanged := compareTrials(us, n)
		t.Outcomes += outcomes
		t.ChangedOutcomes += changed
		if changed > 0 || unitChanged {
			t.Changed++
		}
		passed := 0
		for _, u := range us {
			if unitPassed(u) {
				passed++
			}
		}
		if passed == n && len(us) == n {
			t.PassAll++
		}
		t.PassPerTrial += float64(passed) / float64(n)
	}
	for _, t := range out {
		t.PassPerTrial /= float64(t.Scenarios)
	}
	return out
}

// compareTrials compares the units of one scenario × summarizer, one per
// trial, across the n trials: how many outcomes they hold (once over the
// trials), how many of those differ between trials or are missing from
// one, and whether the units themselves differ (their status, or a trial
// that did not run).
func compareTrials(us []*Unit, n int) (outcomes, changed int, unitChanged bool) {
	seen := map[string][]string{}
	var keys []string
	for i, u := range us {
		if u.Status != us[0].Status || u.Skipped != us[0].Skipped {
			unitChanged = true
		}
		put := func(key, status string) {
			v, ok := seen[key]
			if !ok {
				v = make([]string, len(us))
				keys = append(keys, key)
				seen[key] = v
			}
			v[i] = status
		}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				put(fmt.Sprintf("g%d %s %s", g.N, c.Check, c.Invariant), string(c.Status))
			}
		}
		for _, p := range u.Probes {
			put("probe "+p.ID, p.Class)
		}
	}
	if len(us) < n {
		// A trial did not run: each outcome is missing from it.
		return len(keys), len(keys), true
	}
	for _, k := range keys {
		v := seen[k]
		if slices.ContainsFunc(v, func(s string) bool { return s != v[0] }) {
			changed++
		}
	}
	return len(keys), changed, unitChanged
}

// unitPassed reports whether a unit passed as a whole: it finished, and
// nothing of it failed, was uncertain or errored.
func unitPassed(u *Unit) bool {
	if u.Status != UnitOK || u.Skipped != "" {
		return false
	}
	for _, g := range u.Generations {
		if g.Error != "" {
			return false
		}
		for _, c := range g.Checks {
			if c.Status == Fail || c.Status == Uncertain || c.Status == Error {
				return false
			}
		}
	}
	for _, p := range u.Probes {
		if s := DecisionStatus(p.Class); s == Fail || s == Uncertain || s == Error {
			return false
		}
	}
	return true
}
