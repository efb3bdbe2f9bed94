package reports_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// pricedUnit is a unit whose every figure is known by hand: two
// generations (compression 0.1 and 0.3: median 0.2), a third without a
// summary, every status, a judged check, probes of four classes, calls
// with tokens, a cache hit and retries.
func pricedUnit() result.Unit {
	sum := json.RawMessage(`{"schema_version":1,"covers_through":40,"text":"x"}`)
	return result.Unit{
		Scenario: result.ScenarioRef{ID: "=s1", File: "sc/s1.yaml"}, Summarizer: "ours", Trial: 1, Status: result.UnitOK,
		Duration: 2500 * time.Millisecond,
		Generations: []result.Generation{
			{N: 1, Summary: sum, SummaryTokens: 100, ReplacedTokens: 1000,
				Call: result.Call{Spec: "openai:m", Latency: 400 * time.Millisecond, Usage: result.Usage{PromptTokens: 1000, CompletionTokens: 100}, Retries: 2},
				Checks: []result.CheckResult{
					{Check: "constraint", Kind: result.KindInvariant, Invariant: "a", Status: result.Pass},
					{Check: "correction", Kind: result.KindInvariant, Invariant: "b", Status: result.Fail,
						Judge: &result.Judgement{Verdict: "missing", Call: result.Call{Spec: "openai:judge", Usage: result.Usage{PromptTokens: 500, CompletionTokens: 20}}}},
					{Check: "schema", Kind: result.KindStructural, Status: result.Pass},
					{Check: "grounding", Kind: result.KindStructural, Status: result.Uncertain},
				}},
			{N: 2, Summary: sum, SummaryTokens: 600, ReplacedTokens: 2000,
				Call: result.Call{Spec: "openai:m", Latency: 600 * time.Millisecond, Usage: result.Usage{PromptTokens: 2000, CompletionTokens: 600}, CacheHit: true},
				Checks: []result.CheckResult{
					{Check: "constraint", Kind: result.KindInvariant, Invariant: "a", Status: result.Uncertain},
					{Check: "secret", Kind: result.KindInvariant, Invariant: "k", Status: result.Skip},
					{Check: "tail", Kind: result.KindStructural, Status: result.Error},
				}},
			{N: 3, Call: result.Call{Spec: "openai:m", Latency: 100 * time.Millisecond}, Error: "summarizer: 503",
				Checks: []result.CheckResult{{Check: "constraint", Kind: result.KindInvariant, Invariant: "a", Status: result.Error}}},
		},
		Probes: []result.Probe{
			{ID: "p1", Class: result.Kept, Full: result.Decision{Call: result.Call{Spec: "openai:agent", Usage: result.Usage{PromptTokens: 300, CompletionTokens: 10}}},
				Compacted: result.Decision{Call: result.Call{Spec: "openai:agent", Usage: result.Usage{PromptTokens: 100, CompletionTokens: 10}}}},
			{ID: "p2", Class: result.CompactionRegression, Full: result.Decision{Call: result.Call{Spec: "openai:agent"}}, Compacted: result.Decision{Call: result.Call{Spec: "openai:agent"}}},
			{ID: "p3", Class: result.AgentError, Full: result.Decision{Call: result.Call{Spec: "openai:agent"}}, Compacted: result.Decision{Call: result.Call{Spec: "openai:agent"}}},
			{ID: "p4", Class: result.ProbeSkipped, Skipped: "free text without a judge"},
		},
	}
}

// TestUnitFigures: every figure of a unit counted by hand, its verdict,
// and its cost where every call that reported tokens is priced.
func TestUnitFigures(t *testing.T) {
	u := pricedUnit()
	prices := reports.Prices{"ours": {Input: 1, Output: 10}, "agent": {Input: 2, Output: 20}, "openai:judge": {Input: 4, Output: 40}}
	f := reports.FiguresOf(&u, reports.Pricing{Prices: prices, Agent: "agent", Judge: "judge"})
	want := reports.UnitFigures{
		Scenario: "=s1", Summarizer: "ours", File: "sc/s1.yaml", Trial: 1, Status: result.UnitOK,
		Invariants:  reports.Tally{Pass: 1, Fail: 1, Uncertain: 1, Error: 1, Skip: 1},
		Structural:  reports.Tally{Pass: 1, Uncertain: 1, Error: 1},
		Decisions:   reports.Tally{Pass: 1, Fail: 1, Skip: 2},
		Generations: 2, SummaryTokens: 700, ReplacedTokens: 3000, Compression: 0.2, HasCompression: true,
		SummarizerIn: 3000, SummarizerOut: 700, AgentIn: 400, AgentOut: 20, JudgeIn: 500, JudgeOut: 20,
		Calls: 3 + 6 + 1, CacheHits: 1, Retries: 2,
		SummarizerLatency: 1100 * time.Millisecond, Duration: 2500 * time.Millisecond,
		// 3000×1 + 700×10 + 400×2 + 20×20 + 500×4 + 20×40, per million.
		Cost: (3000 + 7000 + 800 + 400 + 2000 + 800) / 1e6, CostKnown: true,
		Error: "summarizer: 503",
	}
	if diff := cmp.Diff(want, f, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 })); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
	if v := f.Verdict(); v != reports.VerdictFail {
		t.Errorf("verdict %q, want fail", v)
	}
	// The judge priced by its name; without it, by its spec; without
	// either, the cost is unknown, and so it is without any price.
	for name, p := range map[string]reports.Pricing{
		"judge unpriced": {Prices: reports.Prices{"ours": {}, "agent": {}}, Agent: "agent", Judge: "judge"},
		"no prices":      {Agent: "agent", Judge: "judge"},
	} {
		if f := reports.FiguresOf(&u, p); f.CostKnown {
			t.Errorf("%s: cost known: %v", name, f.Cost)
		}
	}
}

// TestUnitVerdicts: a loss outranks an error, an error a doubt, a doubt a
// pass; nothing judged is a skip, and structural checks never decide.
func TestUnitVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    reports.UnitFigures
		want string
	}{
		{"kept", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Pass: 3}}, reports.VerdictPass},
		{"regressed", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Pass: 3}, Decisions: reports.Tally{Fail: 1}}, reports.VerdictFail},
		{"lost and errored", reports.UnitFigures{Status: "error", Error: "x", Invariants: reports.Tally{Fail: 1}}, reports.VerdictFail},
		{"errored", reports.UnitFigures{Status: "error", Error: "exec: exit status 3"}, reports.VerdictError},
		{"check error", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Pass: 2}, Structural: reports.Tally{Error: 1}}, reports.VerdictError},
		{"uncertain", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Pass: 2, Uncertain: 1}}, reports.VerdictUncertain},
		{"structural fail only", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Pass: 2}, Structural: reports.Tally{Fail: 2}}, reports.VerdictPass},
		{"control arm", reports.UnitFigures{Status: "ok", Invariants: reports.Tally{Skip: 7}, Decisions: reports.Tally{Skip: 2}}, reports.VerdictSkip},
	} {
		if got := tc.f.Verdict(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestUnitsCSV reads the per-unit CSV back: one row per unit in result
// order under UnitColumns; summed per summarizer, its counts are the
// result's own headline figures.
func TestUnitsCSV(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 8, Trials: 2, Seed: 5})
	rows, err := csv.NewReader(strings.NewReader(render(t, r, "units-csv", reports.Options{}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reports.UnitColumns, rows[0]); diff != "" {
		t.Fatalf("header (-want +got):\n%s", diff)
	}
	if len(rows) != len(r.Units)+1 {
		t.Fatalf("%d rows for %d units", len(rows)-1, len(r.Units))
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	type sums struct{ ipass, ifail, iunc, spass, sfail, regressions, units, gens, sumTokens int }
	got := map[string]*sums{}
	for i, row := range rows[1:] {
		u := r.Units[i]
		if row[col["scenario"]] != u.Scenario.ID || row[col["summarizer"]] != u.Summarizer || row[col["trial"]] != strconv.Itoa(u.Trial+1) {
			t.Fatalf("row %d is %v, want unit %s × %s × %d", i, row[1:4], u.Scenario.ID, u.Summarizer, u.Trial+1)
		}
		if row[col["cost_usd"]] != "" {
			t.Errorf("row %d: a cost without prices: %q", i, row[col["cost_usd"]])
		}
		s := got[u.Summarizer]
		if s == nil {
			s = &sums{}
			got[u.Summarizer] = s
		}
		n := func(c string) int {
			v, err := strconv.Atoi(row[col[c]])
			if err != nil {
				t.Fatalf("row %d column %s: %v", i, c, err)
			}
			return v
		}
		s.units++
		s.ipass += n("invariants_pass")
		s.ifail += n("invariants_fail")
		s.iunc += n("invariants_uncertain")
		s.spass += n("structural_pass")
		s.sfail += n("structural_fail")
		s.regressions += n("decisions_regressed")
		s.gens += n("generations")
		s.sumTokens += n("summary_tokens")
	}
	for _, sm := range r.Summaries {
		want := sums{sm.InvariantPass, sm.InvariantFail, sm.InvariantUncertain, sm.StructuralPass, sm.StructuralFail, sm.Regressions, sm.Units, sm.Generations, sm.SummaryTokens}
		if g := got[sm.Summarizer]; g == nil || *g != want {
			t.Errorf("%s: sums %+v, want the summary's %+v", sm.Summarizer, g, want)
		}
	}
}

// TestUnitsCSVRecord pins one row, with a cell a spreadsheet would read
// as a formula.
func TestUnitsCSVRecord(t *testing.T) {
	u := pricedUnit()
	f := reports.FiguresOf(&u, reports.Pricing{Prices: reports.Prices{"ours": {Input: 1, Output: 10}, "openai:agent": {Input: 2, Output: 20}, "openai:judge": {Input: 4, Output: 40}}})
	want := []string{"run-1", "'=s1", "ours", "2", "ok", "fail",
		"1", "1", "1", "1", "1", "1", "0", "1", "1", "0", "1", "1", "0", "0", "2",
		"2", "700", "3000", "0.2000", "3000", "700", "400", "20", "500", "20", "10", "1", "2", "1100.0", "2500.0", "0.014000", "summarizer: 503", "sc/s1.yaml"}
	if diff := cmp.Diff(want, reports.UnitRecord("run-1", &f)); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

// TestUnitsCSVDocumented: docs/formats.md names every column of the
// per-unit CSV in its table.
func TestUnitsCSVDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(b), "--format units-csv` writes one row per **unit**")
	if !ok {
		t.Fatal("docs/formats.md has no units-csv section")
	}
	doc, _, _ = strings.Cut(doc, "\n## ")
	for _, c := range reports.UnitColumns {
		if !strings.Contains(doc, "`"+c+"`") {
			t.Errorf("docs/formats.md does not name the column %s", c)
		}
	}
}
