package runner

import (
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// PlanOf is the plan of every unit of sc (result.Plan): its invariants and
// probes, the structural checks of each generation, and with explicit cuts
// the generations a unit has when every summary installs, as the timeline
// walks them (a cut before the first event, or with no safe boundary
// after the coverage, makes none).
func PlanOf(sc *scenarios.Scenario) *result.Plan {
	p := &result.Plan{Invariants: []string{}, Probes: []string{}, Structural: len(result.StructuralChecks)}
	for _, inv := range sc.Invariants {
		p.Invariants = append(p.Invariants, inv.Type()+"/"+inv.InvariantID())
	}
	for _, pr := range sc.Probes {
		p.Probes = append(p.Probes, pr.ID)
	}
	p.Generations = explicitGenerations(sc)
	return p
}

// explicitGenerations walks the explicit cuts of sc as timeline.walk does,
// every summary installed; 0 without explicit cuts.
func explicitGenerations(sc *scenarios.Scenario) int {
	n := len(sc.Events)
	if len(sc.Compaction.At) == 0 || n == 0 {
		return 0
	}
	pp := &prepared{sc: sc, safe: safeBoundaries(sc.Events)}
	tl := &timeline{u: &unit{p: pp}, coverIdx: -1}
	gens := 0
	for _, a := range sc.Compaction.At {
		ai := pp.indexOf(a)
		if ai < 0 {
			continue
		}
		end := min(ai+sc.Compaction.KeepRecent, n-1)
		c := tl.place(ai, end)
		if c <= tl.coverIdx {
			continue
		}
		gens++
		tl.coverIdx = c
	}
	return gens
}
