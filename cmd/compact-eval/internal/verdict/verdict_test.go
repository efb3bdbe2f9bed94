package verdict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
)

func unit(id, sum string, status string, gens []result.Generation, probes ...result.Probe) *result.Unit {
	return &result.Unit{Scenario: result.ScenarioRef{ID: id}, Summarizer: sum, Status: status, Generations: gens, Probes: probes}
}

func TestBuilder(t *testing.T) {
	b := New()
	b.Max = 4
	b.Add(unit("a", "s1", result.UnitOK, []result.Generation{{N: 1, Checks: []result.CheckResult{
		{Check: "compression", Kind: result.KindStructural, Status: result.Fail, Message: "too long\nsecond line"},
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail, Message: "lost", Evidence: []result.Evidence{{Pointer: "/text"}, {Seq: 1}}},
		{Check: "tail", Kind: result.KindStructural, Status: result.Pass},
	}}}, result.Probe{ID: "p", Expect: "refuse", Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "proceed"}, Class: result.CompactionRegression}))
	b.Add(unit("b", "s1", result.UnitError, nil))
	b.Add(unit("c", "s1", result.UnitOK, []result.Generation{{N: 2, Checks: []result.CheckResult{
		{Check: "quantity", Kind: result.KindInvariant, Invariant: "q", Status: result.Fail, Message: "no 30 s"},
	}}}))
	list, more := b.Failures()
	var got []string
	for _, f := range list {
		got = append(got, strings.Join([]string{f.Scenario, f.Summarizer, where(f), label(f), fmt.Sprint(f.Seq), f.Message}, " · "))
	}
	// Worst first, in the order of reports.Findings: errors, decision
	// regressions, invariants, then structural checks; one line each.
	want := []string{
		"b · s1 · unit · error · 0 · ",
		`a · s1 · probe · decisions p · 0 · full context chose "refuse", compacted chose "proceed" (expected "refuse")`,
		"a · s1 · g1 · constraint ro · 1 · lost",
		"c · s1 · g2 · quantity q · 0 · no 30 s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if more != 1 {
		t.Errorf("more = %d, want 1 (the structural failure)", more)
	}

	h := &result.Result{Config: result.RunConfig{Summarizers: []string{"s1"}, Trials: 1}, Summaries: []result.SummarizerSummary{
		{Summarizer: "s1", Units: 3, InvariantPass: 1, InvariantFail: 2, InvariantsKept: 1.0 / 3, StructuralPass: 1, StructuralFail: 1, StructuralPassed: 0.5, Regressions: 1, Generations: 2, MeanCompression: 0.3, MedianCompression: 0.25, MeanSummaryTokens: 120},
	}}
	var w strings.Builder
	if err := b.Write(&w, h, 3, "out/result.json"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(w.String(), "\n")
	if want := "verdict: finished 3 units (3 scenarios × 1 summarizer × 1 trial), 1 with errors; most invariants kept: s1, 33% (1/3); 1 compaction regression"; lines[0] != want {
		t.Errorf("verdict line:\n got %s\nwant %s", lines[0], want)
	}
	for _, s := range []string{"s1      3        33% (1/3)          50% (1/2)            1                  0.25                    120", "  … and 1 more (1 structural failure): compact-eval report out/result.json --format csv lists every outcome", "result: out/result.json"} {
		if !strings.Contains(w.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, w.String())
		}
	}

	h.Interrupted = true
	if got := b.Line(h, 10); !strings.HasPrefix(got, "verdict: INTERRUPTED after 3 of 10 units") {
		t.Errorf("interrupted line = %q", got)
	}
}

// Every unit that errored is listed, past the cap, first; the cap bounds
// the rest, and the line after them counts what was left out by kind.
// Errors the cap may hide (a probe's agent call, a generation) are not
// units: they stay within it.
func TestEveryErroredUnitListed(t *testing.T) {
	b := New()
	b.Max = 3
	for i := range 5 {
		b.Add(unit(fmt.Sprintf("e%d", i), "s1", result.UnitError, nil))
	}
	for i := range 4 {
		b.Add(unit(fmt.Sprintf("r%d", i), "s1", result.UnitOK, []result.Generation{{N: 1, Checks: []result.CheckResult{
			{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail, Message: "lost"},
		}}}, result.Probe{ID: "p", Class: result.CompactionRegression}))
	}
	list, more := b.Failures()
	var ids []string
	for _, f := range list {
		ids = append(ids, f.Scenario+" "+label(f))
	}
	if diff := cmp.Diff([]string{"e0 error", "e1 error", "e2 error", "e3 error", "e4 error"}, ids); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	if more != 8 {
		t.Errorf("more = %d, want 8", more)
	}
	if got, want := b.leftOut(list), "4 compaction regressions, 4 invariant failures"; got != want {
		t.Errorf("left out = %q, want %q", got, want)
	}

	// Under the cap, the errored unit first, then the regressions, then
	// the invariants, as every report lists them.
	b = New()
	b.Max = 4
	b.Add(unit("a", "s1", result.UnitOK, []result.Generation{{N: 1, Checks: []result.CheckResult{
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail, Message: "lost"},
	}}}, result.Probe{ID: "p", Class: result.CompactionRegression}))
	b.Add(unit("z", "s1", result.UnitError, nil))
	list, _ = b.Failures()
	ids = nil
	for _, f := range list {
		ids = append(ids, f.Scenario+" "+label(f))
	}
	if diff := cmp.Diff([]string{"z error", "a decisions p", "a constraint ro"}, ids); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
}

func TestNothingEvaluated(t *testing.T) {
	tests := []struct {
		name  string
		units []*result.Unit
		want  bool
	}{
		{name: "no units", want: false},
		{name: "every unit errored", units: []*result.Unit{unit("a", "s1", result.UnitError, nil), unit("b", "s1", result.UnitError, nil)}, want: true},
		{name: "one unit ok", units: []*result.Unit{unit("a", "s1", result.UnitError, nil), unit("b", "s1", result.UnitOK, nil)}, want: false},
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
	b.Add(unit("a", "s1", result.UnitOK, nil))
	h := &result.Result{Config: result.RunConfig{Summarizers: []string{"s1", "s2"}, Trials: 1}, Summaries: []result.SummarizerSummary{
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
	b.Add(unit("a", "s1", result.UnitOK, nil))
	h := &result.Result{Config: result.RunConfig{Summarizers: []string{"skipper", "faithful"}, Trials: 1}, Summaries: []result.SummarizerSummary{
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

	h.Summaries = []result.SummarizerSummary{
		{Summarizer: "regresses", InvariantPass: 5, InvariantFail: 1, Regressions: 3},
		{Summarizer: "steady", InvariantPass: 5, InvariantFail: 1, Regressions: 0},
	}
	if got := b.Line(h, 1); !strings.Contains(got, "most invariants kept: steady,") {
		t.Errorf("Line = %q, want the tie broken by regressions", got)
	}
}

// An uncertain check is never kept: the verdict line counts it, the table's
// headline shows it beside the rate, and the failures list it last, saying
// uncertain.
func TestUncertain(t *testing.T) {
	b := New()
	b.Add(unit("a", "s1", result.UnitOK, []result.Generation{{N: 1, Checks: []result.CheckResult{
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Uncertain, Message: "cannot classify \"may\" on the rule's subject"},
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "pin", Status: result.Pass},
		{Check: "quantity", Kind: result.KindInvariant, Invariant: "q", Status: result.Fail, Message: "no 30 s"},
	}}}))
	h := &result.Result{Config: result.RunConfig{Summarizers: []string{"s1"}, Trials: 1}, Units: []result.Unit{*unit("a", "s1", result.UnitOK, []result.Generation{{N: 1, Checks: []result.CheckResult{
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Uncertain},
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "pin", Status: result.Pass},
		{Check: "quantity", Kind: result.KindInvariant, Invariant: "q", Status: result.Fail},
	}}})}}
	h.Aggregate()
	var w strings.Builder
	if err := b.Write(&w, h, 1, "out/result.json"); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	lines := strings.Split(out, "\n")
	if want := "verdict: finished 1 unit (1 scenario × 1 summarizer × 1 trial); most invariants kept: s1, 33% (1/3, 1 uncertain); 0 compaction regressions; 1 uncertain check"; lines[0] != want {
		t.Errorf("verdict line:\n got %s\nwant %s", lines[0], want)
	}
	for _, s := range []string{
		"33% (1/3, 1 uncertain)",
		"  a · s1 · g1 · quantity q · - · no 30 s\n  a · s1 · g1 · constraint ro · - · uncertain: cannot classify \"may\" on the rule's subject\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// The console lists each recorded compaction with its provenance and what
// it lost, and each unit skipped because its summarizer did not apply.
func TestRecordedSection(t *testing.T) {
	b := New()
	rec := &result.Recorded{Tool: "codex", PreTokens: 9000}
	b.Add(unit("a", "recorded", result.UnitOK, []result.Generation{{N: 1, Cut: 12, Recorded: rec, Checks: []result.CheckResult{
		{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail, Message: "lost"},
		{Check: "quantity", Kind: result.KindInvariant, Invariant: "q", Status: result.Pass},
	}}}))
	b.Add(unit("a", "builtin:extractive", result.UnitOK, []result.Generation{{N: 1, Cut: 12}}))
	s := unit("b", "recorded", result.UnitOK, nil)
	s.Skipped = "the scenario records no compaction (recorded_compactions): nothing to audit"
	b.Add(s)
	var out strings.Builder
	b.writeRecorded(&out)
	want := `
recorded compactions (scenario · summarizer · generation · cut · provenance · invariants):
  a · recorded · g1 · 12 · recorded by codex (9000 tokens before) · LOST constraint ro (1 of 2 kept)

skipped (scenario · summarizer: why):
  b · recorded: the scenario records no compaction (recorded_compactions): nothing to audit
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("recorded section (-want +got):\n%s", diff)
	}
}

// The verdict line ends with what decided the meaning checks, every count
// given; structural checks and results written before decided_by count
// under none, and then the line says nothing of it.
func TestLineDecided(t *testing.T) {
	check := func(id string, s result.Status, by string) result.CheckResult {
		return result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: id, Status: s, DecidedBy: by}
	}
	h := &result.Result{Config: result.RunConfig{Summarizers: []string{"s1"}, Trials: 1}}
	for _, tc := range []struct {
		name   string
		checks []result.CheckResult
		want   string
	}{
		{"each kind", []result.CheckResult{
			check("a", result.Pass, result.DecidedTyped), check("b", result.Fail, result.DecidedTyped), check("c", result.Pass, result.DecidedTyped),
			check("d", result.Pass, result.DecidedStatement), check("e", result.Fail, result.DecidedStatement),
			check("f", result.Uncertain, result.DecidedJudge),
			{Check: "schema", Kind: result.KindStructural, Status: result.Pass},
		}, "; decided: 3 typed, 2 by statement, 1 for a judge"},
		// Nothing left for a judge is said: a 0 is a pass earned plainly.
		{"none for a judge", []result.CheckResult{check("a", result.Pass, result.DecidedTyped)}, "; decided: 1 typed, 0 by statement, 0 for a judge"},
		// A judge that settled the doubt since does not move it: the
		// checks could not tell.
		{"settled by a judge", []result.CheckResult{{Check: "constraint", Kind: result.KindInvariant, Invariant: "a", Status: result.Pass, DecidedBy: result.DecidedJudge, Judge: &result.Judgement{Verdict: "kept", Settled: result.Uncertain}}}, "; decided: 0 typed, 0 by statement, 1 for a judge"},
		{"written before decided_by", []result.CheckResult{{Check: "constraint", Kind: result.KindInvariant, Invariant: "a", Status: result.Pass}}, ""},
		// A value no version writes is counted as nothing, never as typed.
		{"unknown value", []result.CheckResult{check("a", result.Pass, "typed-by-hand")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New()
			b.Add(unit("x", "s1", result.UnitOK, []result.Generation{{N: 1, Checks: tc.checks[:len(tc.checks)/2]}, {N: 2, Checks: tc.checks[len(tc.checks)/2:]}}))
			got := b.Line(h, 1)
			_, tail, found := strings.Cut(got, "; decided:")
			if tc.want == "" {
				if found {
					t.Errorf("line = %q, want no decided counts", got)
				}
				return
			}
			if "; decided:"+tail != tc.want {
				t.Errorf("line = %q, want it to end with %q", got, tc.want)
			}
		})
	}
}
