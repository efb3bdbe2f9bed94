package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// planLimit bounds the missing outcomes a gate line lists.
const planLimit = 5

// planEvidence is the gate's reading of a result against its plan: the
// FAIL lines of what is missing or does not add up, and how many
// scenarios have no plan to read (a result written before plans were
// recorded, whose scenarios were not at hand to derive one).
type planEvidence struct {
	fails     []string
	unplanned []string
}

// checkPlan reads r against the plans its units record (result.Plan),
// cross-checked against what else says what the run was: derived, the
// plans of the scenarios themselves by digest (the gate command derives
// them from the files and the built-in suite it can read), which win over
// and stand in for the recorded ones; the baseline's units of the same
// scenario digest; the other units of the same scenario; and the suite the
// run planned (config.suite) × its summarizers × trials, every unit of
// which must be there. A result that holds fewer outcomes than its plan
// fails, whatever --allow-empty says: a hand-edited result with its
// failing outcomes deleted, or a plan edited to match, is caught as far as
// anything independent of the file can tell.
func checkPlan(r *result.Result, derived map[string]*result.Plan, base *result.Result) planEvidence {
	var ev planEvidence
	var edited []string
	plans := map[string]*result.Plan{}
	for _, u := range r.Units {
		p, d := u.Scenario.Plan, u.Scenario.Digest
		if p == nil {
			continue
		}
		if q, ok := plans[d]; ok && !q.Equal(p) {
			edited = append(edited, fmt.Sprintf("the units of scenario %s record different plans", u.Scenario.ID))
			continue
		}
		plans[d] = p
	}
	if base != nil {
		for _, u := range base.Units {
			if p, ok := plans[u.Scenario.Digest]; ok && u.Scenario.Plan != nil && !u.Scenario.Plan.Equal(p) {
				edited = append(edited, fmt.Sprintf("scenario %s (%s) records another plan than in the baseline, whose meaning is the same", u.Scenario.ID, short(u.Scenario.Digest)))
				delete(plans, u.Scenario.Digest) // said once
			}
		}
	}
	for d, dp := range derived {
		// The structural checks are the writing harness's: a derived plan
		// knows only its own, and leaves them to the recorded plan.
		p := *dp
		p.Structural = 0
		if q, ok := plans[d]; ok {
			p.Structural = q.Structural
			if !q.Equal(&p) {
				edited = append(edited, fmt.Sprintf("the plan recorded for scenario digest %s is not the scenario's own (%s)", short(d), planDiff(q, &p)))
			}
		}
		plans[d] = &p
	}
	slices.Sort(edited)
	edited = slices.Compact(edited)
	for _, e := range edited {
		ev.fails = append(ev.fails, "FAIL evidence: the plan does not add up: "+e+": the result was edited")
	}

	var missing []string
	add := func(u *result.Unit, where, what string) {
		missing = append(missing, fmt.Sprintf("%s · %s · trial %d%s · %s", u.Scenario.ID, u.Summarizer, u.Trial+1, where, what))
	}
	unplanned := map[string]bool{}
	for i := range r.Units {
		u := &r.Units[i]
		p := plans[u.Scenario.Digest]
		if p == nil {
			if u.Status == result.UnitOK {
				unplanned[u.Scenario.ID] = true
			}
			continue
		}
		if u.Status != result.UnitOK {
			continue // counted as failed whole (its outcomes lost)
		}
		planUnit(u, p, add)
	}
	missing = append(missing, missingUnits(r)...)
	if len(missing) > 0 {
		line := fmt.Sprintf("FAIL evidence: the result holds fewer outcomes than its plan: %d missing (scenario · summarizer · trial · where · what): ", len(missing))
		list := missing[:min(len(missing), planLimit)]
		line += strings.Join(list, "; ")
		if len(missing) > planLimit {
			line += fmt.Sprintf("; and %d more", len(missing)-planLimit)
		}
		ev.fails = append(ev.fails, line)
	}
	ev.unplanned = slices.Sorted(mapKeys(unplanned))
	return ev
}

// planUnit reports through add what finished unit u lacks of plan p, or
// holds beyond it.
func planUnit(u *result.Unit, p *result.Plan, add func(u *result.Unit, where, what string)) {
	probes := map[string]int{}
	for _, pr := range u.Probes {
		probes[pr.ID]++
	}
	for _, id := range p.Probes {
		if probes[id] == 0 {
			add(u, " · probe", "decisions/"+id)
		}
		delete(probes, id)
	}
	for _, id := range slices.Sorted(mapKeys(probes)) {
		add(u, " · probe", "decisions/"+id+" is not in the plan")
	}
	if u.Skipped != "" {
		if len(u.Generations) > 0 {
			add(u, "", "a skipped unit with generations")
		}
		return
	}
	for i, g := range u.Generations {
		if g.N != i+1 {
			add(u, fmt.Sprintf(" · g%d", i+1), fmt.Sprintf("generation %d (the next one is numbered %d)", i+1, g.N))
			return
		}
	}
	k := len(u.Generations)
	switch {
	case p.Generations > 0 && k > p.Generations:
		add(u, "", fmt.Sprintf("%d generations where %d cuts are planned", k, p.Generations))
	case p.Generations > 0 && k < p.Generations && (k == 0 || u.Generations[k-1].Installed):
		// compaction stops only after a generation that did not install
		add(u, fmt.Sprintf(" · g%d", k+1), fmt.Sprintf("generations %d to %d of %d planned (g%d installed, so compaction went on)", k+1, p.Generations, p.Generations, max(k, 1)))
	}
	for _, g := range u.Generations {
		where := fmt.Sprintf(" · g%d", g.N)
		held := map[string]int{}
		structural := map[string]bool{}
		for _, c := range g.Checks {
			switch c.Kind {
			case result.KindInvariant:
				held[c.Check+"/"+c.Invariant]++
			case result.KindStructural:
				structural[c.Check] = true
			}
		}
		for _, inv := range p.Invariants {
			if held[inv] == 0 {
				add(u, where, inv)
			}
			delete(held, inv)
		}
		for _, inv := range slices.Sorted(mapKeys(held)) {
			add(u, where, inv+" is not in the plan")
		}
		if len(structural) < p.Structural {
			add(u, where, fmt.Sprintf("%d of %d structural checks", len(structural), p.Structural))
		}
	}
}

// missingUnits lists the units of the run's plan (config.suite × its
// summarizers × trials) the result does not hold, and the units it holds of
// a scenario not in that suite; nothing for a result that records no
// suite.
func missingUnits(r *result.Result) []string {
	if len(r.Config.Suite) == 0 {
		return nil
	}
	type key struct {
		id, sum string
		trial   int
	}
	have := map[key]bool{}
	inSuite := map[string]bool{}
	for _, s := range r.Config.Suite {
		inSuite[s.ID] = true
	}
	var out []string
	for _, u := range r.Units {
		have[key{u.Scenario.ID, u.Summarizer, u.Trial}] = true
		if !inSuite[u.Scenario.ID] {
			out = append(out, fmt.Sprintf("%s · %s · trial %d · a unit of a scenario the run did not plan", u.Scenario.ID, u.Summarizer, u.Trial+1))
		}
	}
	for _, s := range r.Config.Suite {
		for _, sum := range r.Config.Summarizers {
			for t := range max(r.Config.Trials, 1) {
				if !have[key{s.ID, sum, t}] {
					out = append(out, fmt.Sprintf("%s · %s · trial %d · the whole unit", s.ID, sum, t+1))
				}
			}
		}
	}
	return out
}

// planDiff says how two plans of a scenario differ, briefly.
func planDiff(got, want *result.Plan) string {
	var parts []string
	if !equalSet(got.Invariants, want.Invariants) {
		parts = append(parts, fmt.Sprintf("invariants %s, the scenario's %s", strings.Join(got.Invariants, " "), strings.Join(want.Invariants, " ")))
	}
	if !equalSet(got.Probes, want.Probes) {
		parts = append(parts, fmt.Sprintf("probes %s, the scenario's %s", strings.Join(got.Probes, " "), strings.Join(want.Probes, " ")))
	}
	if got.Generations != want.Generations {
		parts = append(parts, fmt.Sprintf("%d generations, the scenario's %d", got.Generations, want.Generations))
	}
	if got.Structural != want.Structural {
		parts = append(parts, fmt.Sprintf("%d structural checks, the harness's %d", got.Structural, want.Structural))
	}
	if len(parts) == 0 {
		return "the same outcomes in another order"
	}
	return strings.Join(parts, "; ")
}

func equalSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
