package verdict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/reports"
)

func unit(id, sum string, status string, gens []reports.Generation, probes ...reports.Probe) *reports.Unit {
	return &reports.Unit{Scenario: reports.ScenarioRef{ID: id}, Summarizer: sum, Status: status, Generations: gens, Probes: probes}
}

func TestBuilder(t *testing.T) {
	b := New()
	b.Max = 4
	b.Add(unit("a", "s1", reports.UnitOK, []reports.Generation{{N: 1, Checks: []checks.Result{
		{Check: "compression", Kind: checks.KindStructural, Status: checks.Fail, Message: "too long\nsecond line"},
		{Check: "constraint", Kind: checks.KindInvariant, Invariant: "ro", Status: checks.Fail, Message: "lost", Evidence: []checks.Evidence{{Pointer: "/text"}, {Seq: 1}}},
		{Check: "tail", Kind: checks.KindStructural, Status: checks.Pass},
	}}}, reports.Probe{ID: "p", Expect: "refuse", Full: reports.Decision{Choice: "refuse"}, Compacted: reports.Decision{Choice: "proceed"}, Class: reports.CompactionRegression}))
	b.Add(unit("b", "s1", reports.UnitError, nil))
	b.Add(unit("c", "s1", reports.UnitOK, []reports.Generation{{N: 2, Checks: []checks.Result{
		{Check: "quantity", Kind: checks.KindInvariant, Invariant: "q", Status: checks.Fail, Message: "no 30 s"},
	}}}))
	list, more := b.Failures()
	var got []string
	for _, f := range list {
		got = append(got, strings.Join([]string{f.Scenario, f.Summarizer, where(f), label(f), fmt.Sprint(f.Seq), f.Message}, " · "))
	}
	// Worst first, in the order of reports.Findings: invariants, decision
	// regressions, structural checks, then errors; one line each.
	want := []string{
		"a · s1 · g1 · constraint ro · 1 · lost",
		"c · s1 · g2 · quantity q · 0 · no 30 s",
		`a · s1 · probe · decisions p · 0 · full context chose "refuse", compacted chose "proceed" (expected "refuse")`,
		"a · s1 · g1 · compression · 0 · too long",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if more != 1 {
		t.Errorf("more = %d, want 1 (the unit error)", more)
	}

	h := &reports.Result{Config: reports.RunConfig{Summarizers: []string{"s1"}, Trials: 1}, Summaries: []reports.SummarizerSummary{
		{Summarizer: "s1", Units: 3, InvariantPass: 1, InvariantFail: 2, InvariantsKept: 1.0 / 3, StructuralPass: 1, StructuralFail: 1, StructuralPassed: 0.5, Regressions: 1, Generations: 2, MeanCompression: 0.25, MeanSummaryTokens: 120},
	}}
	var w strings.Builder
	if err := b.Write(&w, h, 3, "out/result.json"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(w.String(), "\n")
	if want := "verdict: finished 3 units (3 scenarios × 1 summarizer × 1 trial), 1 with errors; most invariants kept: s1, 33% (1/3); 1 compaction regression"; lines[0] != want {
		t.Errorf("verdict line:\n got %s\nwant %s", lines[0], want)
	}
	for _, s := range []string{"s1      3        33% (1/3)          50% (1/2)            1         0.25             120", "  … and 1 more in the result file", "result: out/result.json"} {
		if !strings.Contains(w.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, w.String())
		}
	}

	h.Interrupted = true
	if got := b.Line(h, 10); !strings.HasPrefix(got, "verdict: INTERRUPTED after 3 of 10 units") {
		t.Errorf("interrupted line = %q", got)
	}
}

func TestNothingEvaluated(t *testing.T) {
	tests := []struct {
		name  string
		units []*reports.Unit
		want  bool
	}{
		{name: "no units", want: false},
		{name: "every unit errored", units: []*reports.Unit{unit("a", "s1", reports.UnitError, nil), unit("b", "s1", reports.UnitError, nil)}, want: true},
		{name: "one unit ok", units: []*reports.Unit{unit("a", "s1", reports.UnitError, nil), unit("b", "s1", reports.UnitOK, nil)}, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New()
			for _, u := range tc.units {
				b.Add(u)
			}
			if got := b.NothingEvaluated(); got != tc.want {
				t.Errorf("NothingEvaluated() = %v, want %v", got, tc.want)
			}
		})
	}
}

// With a tie on invariants kept, the first summarizer of the run is named.
func TestLineBestTie(t *testing.T) {
	b := New()
	b.Add(unit("a", "s1", reports.UnitOK, nil))
	h := &reports.Result{Config: reports.RunConfig{Summarizers: []string{"s1", "s2"}, Trials: 1}, Summaries: []reports.SummarizerSummary{
		{Summarizer: "s1", InvariantPass: 1, InvariantFail: 1, InvariantsKept: 0.5},
		{Summarizer: "s2", InvariantPass: 1, InvariantFail: 1, InvariantsKept: 0.5},
	}}
	if got := b.Line(h, 1); !strings.Contains(got, "; most invariants kept: s1, 50% (1/2);") {
		t.Errorf("Line = %q, want s1 named", got)
	}
}

// Headline figures cannot flatter (issue 10): a summarizer whose invariants
// were mostly skipped neither outranks one that kept more of them nor shows
// a bare 100%; on a tie in invariants kept, fewer regressions rank first.
func TestLineRanksByInvariantsKeptThenRegressions(t *testing.T) {
	b := New()
	b.Add(unit("a", "s1", reports.UnitOK, nil))
	h := &reports.Result{Config: reports.RunConfig{Summarizers: []string{"skipper", "faithful"}, Trials: 1}, Summaries: []reports.SummarizerSummary{
		{Summarizer: "skipper", InvariantPass: 1, InvariantSkip: 9, InvariantsKept: 1, StructuralPass: 1, StructuralSkip: 8, StructuralPassed: 1},
		{Summarizer: "faithful", InvariantPass: 9, InvariantFail: 1, InvariantsKept: 0.9, StructuralPass: 9, StructuralPassed: 1},
	}}
	if got := b.Line(h, 1); !strings.Contains(got, "; most invariants kept: faithful, 90% (9/10);") {
		t.Errorf("Line = %q, want faithful named", got)
	}
	var w strings.Builder
	if err := b.Write(&w, h, 1, "r.json"); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	if !strings.Contains(out, "100% (1/1, 9 skipped)") || !strings.Contains(out, "100% (1/1, 8 skipped)") {
		t.Errorf("the skipped counts are not shown:\n%s", out)
	}
	if strings.Index(out, "faithful") > strings.Index(out, "skipper") {
		t.Errorf("the table does not rank faithful first:\n%s", out)
	}

	h.Summaries = []reports.SummarizerSummary{
		{Summarizer: "regresses", InvariantPass: 5, InvariantFail: 1, Regressions: 3},
		{Summarizer: "steady", InvariantPass: 5, InvariantFail: 1, Regressions: 0},
	}
	if got := b.Line(h, 1); !strings.Contains(got, "most invariants kept: steady,") {
		t.Errorf("Line = %q, want the tie broken by regressions", got)
	}
}
