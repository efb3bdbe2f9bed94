package reports_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// planned records on every unit of r the plan of what it holds (as a run
// does: one generation, its invariants, probes and structural checks) and
// the suite of its scenarios.
func planned(r *result.Result) *result.Result {
	seen := map[string]bool{}
	for i := range r.Units {
		u := &r.Units[i]
		p := &result.Plan{Invariants: []string{}, Probes: []string{}, Generations: 1}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				if c.Kind == result.KindInvariant {
					p.Invariants = append(p.Invariants, c.Check+"/"+c.Invariant)
				} else {
					p.Structural++
				}
			}
		}
		for _, pr := range u.Probes {
			p.Probes = append(p.Probes, pr.ID)
		}
		u.Scenario.Plan = p
		if !seen[u.Scenario.ID] {
			seen[u.Scenario.ID] = true
			r.Config.Suite = append(r.Config.Suite, result.SuiteScenario{ID: u.Scenario.ID, Digest: u.Scenario.Digest})
		}
	}
	return r
}

// clone deep-copies a result through its JSON.
func clone(t *testing.T, r *result.Result) *result.Result {
	t.Helper()
	var b strings.Builder
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	c, err := result.Decode([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGatePlan: --allow-empty never lets a result with fewer outcomes than
// its own plan pass. Each fooling input is a hand edit of a failing run:
// its failing outcomes deleted (a check, a probe, a generation, a whole
// unit), and then the plan edited to match (in one unit, in every unit);
// each honest one must still pass.
func TestGatePlan(t *testing.T) {
	lines := func(g reports.GateReport) string { return strings.Join(g.Lines, "\n") }
	spec := func(sc string, ro result.Status, p string) unitSpec {
		return unitSpec{scenario: sc, summarizer: "ours", checks: map[string]result.Status{"constraint/ro": ro, "correction/port": pass, "schema": pass},
			probes: map[string]string{"p": p}}
	}
	second := spec("a", pass, result.Kept)
	second.trial = 1
	third := spec("b", pass, result.Kept)
	third.trial = 1
	failing := planned(handResult(spec("a", fail, result.CompactionRegression), second, spec("b", pass, result.Kept), third))
	gate := reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"constraint": 1, "decisions": 1}}, AllowEmpty: true}
	if g := reports.Gate(failing, gate); !g.Failed {
		t.Fatalf("the failing run passed:\n%s", lines(g))
	}
	dropOne := func(u *result.Unit, check string) {
		g := &u.Generations[0]
		g.Checks = slices.DeleteFunc(g.Checks, func(c result.CheckResult) bool { return c.Check+"/"+c.Invariant == check })
	}
	dropCheck := func(r *result.Result, sc, check string) {
		for i := range r.Units {
			if r.Units[i].Scenario.ID == sc {
				dropOne(&r.Units[i], check)
			}
		}
	}
	for _, tc := range []struct {
		name string
		edit func(r *result.Result)
		want string
	}{
		{"the failing constraint deleted", func(r *result.Result) { dropOne(&r.Units[0], "constraint/ro") },
			"FAIL evidence: the result holds fewer outcomes than its plan: 1 missing (scenario · summarizer · trial · where · what): a · ours · trial 1 · g1 · constraint/ro"},
		{"every constraint deleted", func(r *result.Result) { dropCheck(r, "a", "constraint/ro"); dropCheck(r, "b", "constraint/ro") },
			"4 missing (scenario · summarizer · trial · where · what): a · ours · trial 1 · g1 · constraint/ro; a · ours · trial 2 · g1 · constraint/ro; b · ours · trial 1 · g1 · constraint/ro; b · ours · trial 2 · g1 · constraint/ro"},
		{"the regressed probe deleted", func(r *result.Result) { r.Units[0].Probes = nil },
			"a · ours · trial 1 · probe · decisions/p"},
		{"a structural check deleted", func(r *result.Result) { dropOne(&r.Units[0], "schema/") },
			"a · ours · trial 1 · g1 · 0 of 1 structural checks"},
		{"the failing generation deleted", func(r *result.Result) { r.Units[0].Generations[0].Installed = true; r.Units[0].Generations = nil },
			"a · ours · trial 1 · g1 · generations 1 to 1 of 1 planned"},
		{"the failing unit deleted", func(r *result.Result) { r.Units = r.Units[1:] },
			"a · ours · trial 1 · the whole unit"},
		{"the failing unit and its suite entry deleted", func(r *result.Result) { r.Units, r.Config.Suite = r.Units[1:], r.Config.Suite[1:] },
			"a · ours · trial 2 · a unit of a scenario the run did not plan"},
		{"the constraint deleted, and from its unit's plan", func(r *result.Result) {
			dropOne(&r.Units[0], "constraint/ro")
			r.Units[0].Scenario.Plan.Invariants = []string{"correction/port"}
		}, "FAIL evidence: the plan does not add up: the units of scenario"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := clone(t, failing)
			for i := range r.Units {
				r.Units[i].Generations[0].Installed = true
			}
			tc.edit(r)
			r.Aggregate()
			g := reports.Gate(r, gate)
			if !g.Failed || !strings.Contains(lines(g), tc.want) {
				t.Errorf("the edited result:\n%s\nwant a line holding %q", lines(g), tc.want)
			}
		})
	}

	// The plan edited in every unit alike: the baseline's plan of the same
	// scenario, or the scenario's own, gives it away.
	r := clone(t, failing)
	dropCheck(r, "a", "constraint/ro")
	dropCheck(r, "b", "constraint/ro")
	for i := range r.Units {
		r.Units[i].Scenario.Plan.Invariants = []string{"correction/port"}
	}
	r.Aggregate()
	opts := gate
	opts.Baseline = failing
	if g := reports.Gate(r, opts); !g.Failed || !strings.Contains(lines(g), "records another plan than in the baseline, whose meaning is the same: the result was edited") {
		t.Errorf("against the baseline:\n%s", lines(g))
	}
	opts = gate
	opts.Plans = map[string]*result.Plan{"sha256:a": failing.Units[0].Scenario.Plan, "sha256:b": failing.Units[1].Scenario.Plan}
	g := reports.Gate(r, opts)
	if !g.Failed || !strings.Contains(lines(g), "the plan recorded for scenario digest sha256:a is not the scenario's own (invariants correction/port, the scenario's constraint/ro correction/port)") ||
		!strings.Contains(lines(g), "a · ours · trial 1 · g1 · constraint/ro") {
		t.Errorf("against the scenarios' own plans:\n%s", lines(g))
	}

	// Honest: complete, it is judged on its outcomes; a unit whose
	// compaction stopped at a refused summary holds fewer generations.
	ok := planned(handResult(spec("a", pass, result.Kept), spec("b", pass, result.Kept)))
	ok.Config.Trials = 1
	if g := reports.Gate(ok, gate); g.Failed {
		t.Errorf("a complete passing run failed:\n%s", lines(g))
	}
	stopped := clone(t, ok)
	for i := range stopped.Units {
		stopped.Units[i].Scenario.Plan.Generations = 2
		stopped.Units[i].Generations[0].Installed = false
	}
	if g := reports.Gate(stopped, gate); g.Failed {
		t.Errorf("compaction stopped at a refused summary: %s", lines(g))
	}
}

// TestAllowEmptyWithoutPlan: a result that records no plan (written before
// plans were) is still read; --allow-empty accepts a check type whose
// outcomes were all skipped (the checks ran), never one with no outcome at
// all, which could be outcomes deleted; the scenarios' own plans stand in
// when the gate could derive them.
func TestAllowEmptyWithoutPlan(t *testing.T) {
	lines := func(g reports.GateReport) string { return strings.Join(g.Lines, "\n") }
	old := handResult(unitSpec{scenario: "a", summarizer: "ours", checks: map[string]result.Status{"schema": pass}, probes: map[string]string{"p": result.Kept}})
	gate := reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"constraint": 1}}, AllowEmpty: true}
	g := reports.Gate(old, gate)
	if !g.Failed || !strings.Contains(lines(g), "FAIL min-pass constraint: nothing to judge: the run has no constraint outcome; --allow-empty cannot accept it: 1 scenario has no plan to read") {
		t.Errorf("no plan, no constraint outcome:\n%s", lines(g))
	}
	skipped := handResult(unitSpec{scenario: "a", summarizer: "ours", checks: map[string]result.Status{"schema": pass, "constraint/ro": skip}, probes: map[string]string{"p": result.Kept}})
	if g := reports.Gate(skipped, gate); g.Failed {
		t.Errorf("no plan, every constraint skipped:\n%s", lines(g))
	}
	derived := map[string]*result.Plan{"sha256:a": {Invariants: []string{}, Probes: []string{"p"}, Generations: 1}}
	gate.Plans = derived
	if g := reports.Gate(old, gate); g.Failed || !strings.Contains(lines(g), "(allowed by --allow-empty)") {
		t.Errorf("the scenario's own plan has no constraint:\n%s", lines(g))
	}
	derived["sha256:a"].Invariants = []string{"constraint/ro"}
	if g := reports.Gate(old, gate); !g.Failed || !strings.Contains(lines(g), "a · ours · trial 1 · g1 · constraint/ro") {
		t.Errorf("the scenario's own plan has a constraint the result lacks:\n%s", lines(g))
	}
}
