package result

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// ScenarioRates accumulates a pass rate's outcomes by scenario and trial,
// for its interval clustered by scenario (ClusteredWilson). The zero value
// is ready to use.
type ScenarioRates struct {
	index map[string]int
	rates []scenarioRate
	last  string // the scenario of the last Add, and its index
	at    int
}

type scenarioRate struct {
	id      string
	pass, n int
	// trials holds trials 0–63 as bits, any later one in more.
	trials uint64
	more   map[int]bool
}

// Add counts one judged outcome of scenario in trial (0-based).
func (r *ScenarioRates) Add(scenario string, trial int, pass bool) {
	if r.index == nil || r.last != scenario {
		if r.index == nil {
			r.index = map[string]int{}
		}
		i, ok := r.index[scenario]
		if !ok {
			i = len(r.rates)
			r.index[scenario] = i
			r.rates = append(r.rates, scenarioRate{id: scenario})
		}
		r.last, r.at = scenario, i
	}
	s := &r.rates[r.at]
	s.n++
	if pass {
		s.pass++
	}
	switch {
	case trial >= 0 && trial < 64:
		s.trials |= 1 << trial
	default:
		if s.more == nil {
			s.more = map[int]bool{}
		}
		s.more[trial] = true
	}
}

// Counts are the scenarios' counts, by scenario id.
func (r *ScenarioRates) Counts() []ScenarioCount {
	sorted := slices.IsSortedFunc(r.rates, func(a, b scenarioRate) int { return strings.Compare(a.id, b.id) })
	rates := r.rates
	if !sorted {
		rates = slices.Clone(r.rates)
		slices.SortFunc(rates, func(a, b scenarioRate) int { return strings.Compare(a.id, b.id) })
	}
	out := make([]ScenarioCount, len(rates))
	for i, s := range rates {
		out[i] = ScenarioCount{Pass: s.pass, N: s.n, Trials: bits.OnesCount64(s.trials) + len(s.more)}
	}
	return out
}

// Interval is ClusteredWilson of the counts: the rate and its interval.
func (r *ScenarioRates) Interval() (rate float64, iv Interval) { return ClusteredWilson(r.Counts()) }

// interval is Interval, or nil with nothing judged.
func (r *ScenarioRates) interval() *Interval {
	if len(r.rates) == 0 {
		return nil
	}
	_, iv := r.Interval()
	return &iv
}

// judgedStatus reports whether s is in a rate's denominator.
func judgedStatus(s Status) bool { return s == Pass || s == Fail || s == Uncertain }

// trialSpreads computes each summarizer's TrialSpread over r's units, for
// the summarizers that ran more than one trial.
func trialSpreads(r *Result) map[string]*TrialSpread {
	if r.Config.Trials < 2 && !slices.ContainsFunc(r.Units, func(u Unit) bool { return u.Trial > 0 }) {
		return nil
	}
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
