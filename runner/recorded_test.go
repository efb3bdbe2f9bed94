package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/summary"
)

func loadRecorded(t *testing.T, file string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.LoadFile("../testdata/scenarios/good/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runRecorded runs recorded beside builtin:extractive and returns the
// units by summarizer.
func runRecorded(t *testing.T, list ...*scenarios.Scenario) map[string][]result.Unit {
	t.Helper()
	ext, err := summarizers.NewBuiltin("extractive")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Summarizers: []Summarizer{{Name: "recorded", Summarizer: summarizers.NewRecorded()}, {Name: "builtin:extractive", Summarizer: ext}},
		Agent: agents.Reference{}, AgentName: "builtin:reference", Out: t.TempDir(), Now: fixedNow}
	o, err := Run(context.Background(), list, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := reports.Read(o.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]result.Unit{}
	for _, u := range r.Units {
		by[u.Summarizer] = append(by[u.Summarizer], u)
	}
	return by
}

func checkStatus(g result.Generation, check, inv string) result.Status {
	for _, c := range g.Checks {
		if c.Check == check && c.Invariant == inv {
			return c.Status
		}
	}
	return ""
}

// recorded returns each recorded compaction as a text-only summary at its
// boundary, with its provenance; the other summarizer is cut at the same
// boundaries; a faithful recorded summary keeps the rule.
func TestRecordedSummarizer(t *testing.T) {
	sc := loadRecorded(t, "recorded-compactions.yaml")
	by := runRecorded(t, sc)
	rec, ext := by["recorded"][0], by["builtin:extractive"][0]
	if len(rec.Generations) != 2 {
		t.Fatalf("recorded: %d generations, want one per recorded compaction (2)", len(rec.Generations))
	}
	for i, g := range rec.Generations {
		r := sc.Recorded[i]
		var doc summary.Summary
		if err := json.Unmarshal(g.Summary, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Text != r.Summary || doc.CoversThrough != r.Boundary || g.Cut != r.Boundary || len(doc.Constraints) > 0 {
			t.Errorf("g%d: cut %d, summary %+v; want the recorded text alone, covering through %d", g.N, g.Cut, doc, r.Boundary)
		}
		want := &result.Recorded{Tool: r.Tool, Trigger: r.Trigger, PreTokens: r.PreTokens, Timestamp: r.Timestamp}
		if g.Recorded == nil || *g.Recorded != *want {
			t.Errorf("g%d: provenance %+v, want %+v", g.N, g.Recorded, want)
		}
		if !g.Installed || checkStatus(g, "constraint", "no-main") != result.Pass {
			t.Errorf("g%d: installed %v, constraint %q; want the faithful summary installed and passing", g.N, g.Installed, checkStatus(g, "constraint", "no-main"))
		}
	}
	var cuts, extCuts []int
	for _, g := range rec.Generations {
		cuts = append(cuts, g.Cut)
	}
	for _, g := range ext.Generations {
		extCuts = append(extCuts, g.Cut)
		if g.Recorded != nil {
			t.Errorf("extractive g%d carries a recorded provenance", g.N)
		}
		if !strings.HasPrefix(g.Trigger, "recorded:") {
			t.Errorf("extractive g%d trigger %q, want recorded:N", g.N, g.Trigger)
		}
	}
	if !slices.Equal(cuts, []int{24, 39}) || !slices.Equal(extCuts, cuts) {
		t.Errorf("cuts: recorded %v, extractive %v; want both at the recorded boundaries [24 39]", cuts, extCuts)
	}
	if p := rec.Probes[0]; p.Class != result.Kept {
		t.Errorf("probe %s on the faithful recorded summary: %s", p.ID, p.Class)
	}
}

// A recorded summary that drops the rule of turn 1 fails the constraint
// check, and the probe that needs the rule regresses.
func TestRecordedDropsRule(t *testing.T) {
	sc := loadRecorded(t, "recorded-compactions.yaml")
	sc.Recorded[0].Summary = "The user reports that the nightly export fails. jobs/export.py uses a batch of 5000 rows, which times out."
	sc.Recorded[1].Summary = "The export now runs with a batch of 1000 rows: 48211 rows exported in 212 s."
	rec := runRecorded(t, sc)["recorded"][0]
	for _, g := range rec.Generations {
		if st := checkStatus(g, "constraint", "no-main"); st != result.Fail {
			t.Errorf("g%d: constraint %q, want fail (the rule of turn 1 is gone)", g.N, st)
		}
	}
	if p := rec.Probes[0]; p.Class != result.CompactionRegression {
		t.Errorf("probe %s: %s, want a compaction regression", p.ID, p.Class)
	}
}

// recorded skips a scenario that records no compaction: no generation,
// every probe skipped with the reason; neither a pass nor an error. The
// other summarizer runs as usual.
func TestRecordedSkips(t *testing.T) {
	by := runRecorded(t, loadRecorded(t, "readonly-minimal.yaml"))
	u := by["recorded"][0]
	if u.Status != result.UnitOK || len(u.Generations) != 0 {
		t.Errorf("status %s, %d generations; want ok with none", u.Status, len(u.Generations))
	}
	for _, p := range u.Probes {
		if p.Class != result.ProbeSkipped || !strings.Contains(p.Skipped, summarizers.NoRecordedCompactions) {
			t.Errorf("probe %s: class %s (%q), want skip saying why", p.ID, p.Class, p.Skipped)
		}
	}
	if u.Skipped != summarizers.NoRecordedCompactions {
		t.Errorf("skipped %q, want why the unit was skipped", u.Skipped)
	}
	if e := by["builtin:extractive"][0]; len(e.Generations) == 0 {
		t.Error("extractive did not run on the scenario recorded skips")
	}
}
