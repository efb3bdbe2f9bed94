package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// TestPlanHolds: every unit of the built-in suite, through every built-in
// summarizer (builtin:none declines at the first cut, truncate and mask
// write text, extractive a structured summary), records its scenario's
// plan and holds exactly what it says; a unit of a scenario with explicit
// cuts that installed every summary has the planned generations.
func TestPlanHolds(t *testing.T) {
	notUnderRace(t, "TestJobsDeterministic")
	suite := builtinSuite(t)
	opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
	opts.Jobs = 4
	res, err := Run(context.Background(), suite, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	plans := map[string]*result.Plan{}
	for _, sc := range suite {
		plans[sc.ID] = PlanOf(sc)
	}
	for _, u := range r.Units {
		p := u.Scenario.Plan
		if p == nil {
			t.Fatalf("%s %s: no plan recorded", u.Scenario.ID, u.Summarizer)
		}
		if want := plans[u.Scenario.ID]; !p.Equal(want) {
			t.Errorf("%s: plan %+v, want %+v", u.Scenario.ID, p, want)
		}
		installed := len(u.Generations) > 0
		for _, g := range u.Generations {
			installed = installed && g.Installed
		}
		if p.Generations > 0 && installed && len(u.Generations) != p.Generations {
			t.Errorf("%s %s: %d generations, planned %d", u.Scenario.ID, u.Summarizer, len(u.Generations), p.Generations)
		}
	}
	g := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"all": 0}}, AllowEmpty: true})
	if g.Failed {
		t.Errorf("an honest run fails:\n%s", strings.Join(g.Lines, "\n"))
	}
	// The plan of a scenario with three explicit cuts, and of one cut by
	// tokens.
	if p := plans["repeated-incident-three-generations"]; p.Generations != 3 || p.Structural != len(result.StructuralChecks) {
		t.Errorf("three cuts: %+v", p)
	}
	if p := plans["long-session-token-trigger"]; p.Generations != 0 {
		t.Errorf("a token trigger plans no count: %+v", p)
	}
}
