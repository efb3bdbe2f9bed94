package reports_test

import (
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestAggregate(t *testing.T) {
	chk := func(check, kind, inv string, s result.Status) result.CheckResult {
		return result.CheckResult{Check: check, Kind: kind, Invariant: inv, Status: s}
	}
	gen := func(n, sumTok, replaced int, lat time.Duration, retries int, cs ...result.CheckResult) result.Generation {
		return result.Generation{N: n, SummaryTokens: sumTok, ReplacedTokens: replaced, Summary: []byte(`{}`),
			Call: result.Call{Spec: "s", Latency: lat, Retries: retries}, Checks: cs}
	}
	r := &result.Result{
		Config: result.RunConfig{Summarizers: []string{"b", "a"}},
		Units: []result.Unit{
			{Summarizer: "a", Status: result.UnitOK, Generations: []result.Generation{
				gen(1, 10, 100, 10*time.Millisecond, 1,
					chk("constraint", "invariant", "ro", result.Pass), chk("schema", "structural", "", result.Pass)),
				gen(2, 30, 100, 30*time.Millisecond, 0,
					chk("constraint", "invariant", "ro", result.Fail), chk("schema", "structural", "", result.Error)),
			}, Probes: []result.Probe{{Class: result.Kept}, {Class: result.CompactionRegression}, {Class: result.AgentError}}},
			{Summarizer: "b", Status: result.UnitError, Error: "boom"},
		},
	}
	r.Aggregate()
	// One scenario: no spread between scenarios, so its one trial's
	// outcomes count (as Wilson's).
	rate, lo, hi := result.Wilson(1, 2)
	want := []result.Aggregate{
		{Summarizer: "a", Check: "constraint", Kind: "invariant", Pass: 1, Fail: 1, PassRate: rate, Low: lo, High: hi, EffectiveN: 2, Scenarios: 1},
		{Summarizer: "a", Check: "schema", Kind: "structural", Pass: 1, Error: 1, PassRate: 1, Low: wilsonLow(1, 1), High: 1, EffectiveN: 1, Scenarios: 1},
		{Summarizer: "a", Check: "decisions", Kind: "decision", Pass: 1, Fail: 1, Skip: 1, PassRate: rate, Low: lo, High: hi, EffectiveN: 2, Scenarios: 1},
	}
	if d := cmp.Diff(want, r.Aggregates, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("aggregates (-want +got):\n%s", d)
	}
	wantS := []result.SummarizerSummary{
		{Summarizer: "b", Units: 1, Errors: 1},
		{Summarizer: "a", Units: 1, InvariantsKept: 0.5, InvariantPass: 1, InvariantFail: 1, StructuralPassed: 1, StructuralPass: 1,
			InvariantsKeptInterval:   &result.Interval{Low: lo, High: hi, EffectiveN: 2, Scenarios: 1},
			StructuralPassedInterval: &result.Interval{Low: wilsonLow(1, 1), High: 1, EffectiveN: 1, Scenarios: 1},
			Regressions:              1, RegressionRate: 0.5, Probes: 3, Generations: 2, MeanCompression: 0.2, MedianCompression: 0.2,
			SummaryTokens: 40, MeanSummaryTokens: 20, MeanLatency: 20 * time.Millisecond, MedianLatency: 20 * time.Millisecond,
			Errors: 1, Retries: 1},
	}
	if d := cmp.Diff(wantS, r.Summaries, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("summaries (-want +got):\n%s", d)
	}
}

func wilsonLow(p, n int) float64 { _, lo, _ := result.Wilson(p, n); return lo }

// TestAggregateMedians: with skewed generations the medians are not the
// means (two generations, as in TestAggregate, cannot tell them apart).
func TestAggregateMedians(t *testing.T) {
	gen := func(sumTok int, lat time.Duration) result.Generation {
		return result.Generation{SummaryTokens: sumTok, ReplacedTokens: 100, Summary: []byte(`{}`), Call: result.Call{Spec: "s", Latency: lat}}
	}
	r := &result.Result{
		Config: result.RunConfig{Summarizers: []string{"a"}},
		Units: []result.Unit{{Summarizer: "a", Status: result.UnitOK, Generations: []result.Generation{
			gen(10, 10*time.Millisecond), gen(90, 90*time.Millisecond), gen(20, 20*time.Millisecond),
		}}},
	}
	r.Aggregate()
	if len(r.Summaries) != 1 {
		t.Fatalf("summaries = %+v, want one", r.Summaries)
	}
	s := r.Summaries[0]
	got := []any{s.MeanCompression, s.MedianCompression, s.MeanLatency, s.MedianLatency}
	want := []any{0.4, 0.2, 40 * time.Millisecond, 20 * time.Millisecond}
	if d := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("mean, median compression and latency (-want +got):\n%s", d)
	}
}

// Headline figures cannot flatter (issue 10).
func TestHeadline(t *testing.T) {
	for _, tc := range []struct {
		pass, fail, uncertain, skip int
		want                        string
	}{
		{1, 0, 0, 9, "100% (1/1, 9 skipped)"},
		{199, 1, 0, 0, "99% (199/200)"},
		{14, 1, 0, 3, "93% (14/15, 3 skipped)"},
		{0, 0, 0, 5, "— (5 skipped)"},
		{0, 0, 0, 0, "—"},
		// Uncertain is applicable and never kept (issue 24's example).
		{44, 3, 3, 2, "88% (44/50, 3 uncertain, 2 skipped)"},
		{10, 0, 1, 0, "91% (10/11, 1 uncertain)"},
		// All passed but one doubt: never a bare 100%.
		{199, 0, 1, 0, "99% (199/200, 1 uncertain)"},
		{0, 0, 2, 1, "0% (0/2, 2 uncertain, 1 skipped)"},
	} {
		if got := reports.Headline(tc.pass, tc.fail, tc.uncertain, tc.skip); got != tc.want {
			t.Errorf("reports.Headline(%d, %d, %d, %d) = %q; want %q", tc.pass, tc.fail, tc.uncertain, tc.skip, got, tc.want)
		}
	}
}

func TestRanked(t *testing.T) {
	r := &result.Result{Summaries: []result.SummarizerSummary{
		{Summarizer: "skips", InvariantPass: 2, InvariantSkip: 30},
		{Summarizer: "regresses", InvariantPass: 20, InvariantFail: 2, Regressions: 4},
		{Summarizer: "steady", InvariantPass: 20, InvariantFail: 2, Regressions: 1, StructuralFail: 3},
		{Summarizer: "grounded", InvariantPass: 20, InvariantFail: 2, Regressions: 1},
	}}
	var got []string
	for _, s := range result.Ranked(r) {
		got = append(got, s.Summarizer)
	}
	if strings.Join(got, ",") != "grounded,steady,regresses,skips" {
		t.Errorf("Ranked = %v", got)
	}
	if r.Summaries[0].Summarizer != "skips" {
		t.Error("Ranked reordered the result's own summaries")
	}
}
