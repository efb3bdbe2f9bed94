package result_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/compact-eval/compact-eval/result"
)

// uncertainUnit holds, on one generation, invariant results pass, pass,
// fail, uncertain and skip, and structural results pass and uncertain.
func uncertainUnit(id, summarizer string) result.Unit {
	u := sampleUnit(id)
	u.Summarizer = summarizer
	inv := func(id string, s result.Status) result.CheckResult {
		return result.CheckResult{Check: result.TypeConstraint, Kind: result.KindInvariant, Invariant: id, Status: s, Message: string(s)}
	}
	u.Generations[0].Checks = []result.CheckResult{
		inv("c1", result.Pass), inv("c2", result.Pass), inv("c3", result.Fail),
		inv("c4", result.Uncertain), inv("c5", result.Skip),
		{Check: result.CheckSchema, Kind: result.KindStructural, Status: result.Pass, Message: "ok"},
		{Check: result.CheckGrounding, Kind: result.KindStructural, Status: result.Uncertain, Message: "cannot tell"},
	}
	u.Probes = nil
	return u
}

func uncertainResult(units ...result.Unit) *result.Result {
	r := &result.Result{ResultVersion: result.ResultVersion, Harness: "test", RunID: "r",
		Config: result.RunConfig{Summarizers: []string{"extractive"}, Trials: 1}, Units: units}
	r.Aggregate()
	return r
}

// An uncertain result is never kept: it is in every rate's denominator and
// never in its numerator, and it has its own count beside pass, fail and
// skip.
func TestAggregateCountsUncertainAsNotKept(t *testing.T) {
	r := uncertainResult(uncertainUnit("a", "extractive"))
	a := result.FindAggregate(r, "extractive", result.TypeConstraint)
	if a == nil {
		t.Fatal("no constraint aggregate")
	}
	// One scenario shows no spread between scenarios: its one trial's 4
	// outcomes count as independent, as Wilson(2, 4).
	rate, low, high := result.Wilson(2, 4)
	want := result.Aggregate{Summarizer: "extractive", Check: result.TypeConstraint, Kind: result.KindInvariant,
		Pass: 2, Fail: 1, Uncertain: 1, Skip: 1, PassRate: rate, Low: low, High: high, EffectiveN: 4, Scenarios: 1}
	if diff := cmp.Diff(want, *a); diff != "" {
		t.Errorf("constraint aggregate (-want +got):\n%s", diff)
	}
	if a.PassRate != 0.5 {
		t.Errorf("pass rate %v; want 2/4 = 0.5 (uncertain in the denominator)", a.PassRate)
	}
	g := result.FindAggregate(r, "extractive", result.CheckGrounding)
	if g == nil || g.Uncertain != 1 || g.Pass != 0 || g.PassRate != 0 || g.Judged() != 1 {
		t.Errorf("grounding aggregate %+v; want one uncertain, rate 0 over 1 judged", g)
	}
	s := r.Summaries[0]
	if s.InvariantPass != 2 || s.InvariantFail != 1 || s.InvariantUncertain != 1 || s.InvariantSkip != 1 || s.InvariantsKept != 0.5 {
		t.Errorf("invariants: pass %d fail %d uncertain %d skip %d kept %v; want 2 1 1 1 0.5",
			s.InvariantPass, s.InvariantFail, s.InvariantUncertain, s.InvariantSkip, s.InvariantsKept)
	}
	if s.StructuralPass != 1 || s.StructuralUncertain != 1 || s.StructuralPassed != 0.5 {
		t.Errorf("structural: pass %d uncertain %d passed %v; want 1 1 0.5", s.StructuralPass, s.StructuralUncertain, s.StructuralPassed)
	}
	if s.Errors != 0 {
		t.Errorf("an uncertain result counted as an error: errors %d", s.Errors)
	}
}

// Ranked: at equal kept and failed counts, fewer uncertain ranks first; a
// summarizer cannot rise by turning passes into doubts, nor fall below one
// that fails where it doubts.
func TestRankedUncertain(t *testing.T) {
	r := &result.Result{Summaries: []result.SummarizerSummary{
		{Summarizer: "doubts", InvariantPass: 3, InvariantFail: 1, InvariantUncertain: 2},
		{Summarizer: "fails", InvariantPass: 3, InvariantFail: 3},
		{Summarizer: "sure", InvariantPass: 3, InvariantFail: 1},
	}}
	var got []string
	for _, s := range result.Ranked(r) {
		got = append(got, s.Summarizer)
	}
	if want := []string{"sure", "doubts", "fails"}; !cmp.Equal(want, got) {
		t.Errorf("Ranked = %v; want %v", got, want)
	}
}

// A result holding uncertain statuses is written, read back strictly and
// validated by the published schema; a status the model does not know is
// still refused, and the message lists uncertain among the valid ones.
func TestDecodeUncertain(t *testing.T) {
	r := uncertainResult(uncertainUnit("a", "extractive"))
	var b bytes.Buffer
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	back, err := result.Decode(b.Bytes())
	if err != nil {
		t.Fatalf("Decode of a result with uncertain: %v", err)
	}
	if diff := cmp.Diff(r.Aggregates, back.Aggregates); diff != "" {
		t.Errorf("aggregates after a round trip (-want +got):\n%s", diff)
	}
	if got := back.Units[0].Generations[0].Checks[3].Status; got != result.Uncertain {
		t.Errorf("status after a round trip %q; want uncertain", got)
	}
	for _, field := range []string{`"uncertain": 1`, `"invariant_uncertain": 1`, `"structural_uncertain": 1`} {
		if !strings.Contains(b.String(), field) {
			t.Errorf("the written result lacks %s:\n%s", field, b.String())
		}
	}
	validateSchema(t, b.Bytes())

	bad := strings.Replace(b.String(), `"status":"uncertain"`, `"status":"unsure"`, 1)
	if bad == b.String() {
		t.Fatal("the written result has no uncertain check line to corrupt")
	}
	_, err = result.Decode([]byte(bad))
	if err == nil || !strings.Contains(err.Error(), `unknown status "unsure"`) || !strings.Contains(err.Error(), "uncertain") {
		t.Errorf("Decode of status unsure: %v; want an error naming it and listing uncertain", err)
	}
}

// A result written before the status existed (no uncertain anywhere)
// still decodes, and writing it again adds no field: the new counts are
// absent when zero, so old files and their goldens stay byte for byte.
func TestDecodeResultWithoutUncertain(t *testing.T) {
	u := sampleUnit("a")
	r := uncertainResult(u)
	var b bytes.Buffer
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "uncertain") {
		t.Errorf("a result with no uncertain status mentions uncertain:\n%s", b.String())
	}
	back, err := result.Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := result.WriteJSON(&again, back); err != nil {
		t.Fatal(err)
	}
	if again.String() != b.String() {
		t.Errorf("an old result changed on a round trip:\n%s\n%s", b.String(), again.String())
	}
	validateSchema(t, b.Bytes())
}

// Merging shards sums uncertain counts as it sums the others.
func TestMergeUncertain(t *testing.T) {
	a := uncertainResult(uncertainUnit("a", "extractive"))
	a.Config.Shard = "1/2"
	b := uncertainResult(uncertainUnit("b", "extractive"))
	b.Config.Shard = "2/2"
	m, err := result.Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	agg := result.FindAggregate(m, "extractive", result.TypeConstraint)
	if agg == nil || agg.Pass != 4 || agg.Uncertain != 2 || agg.Fail != 2 || agg.PassRate != 0.5 {
		t.Errorf("merged constraint aggregate %+v; want pass 4, fail 2, uncertain 2, rate 0.5", agg)
	}
	if s := m.Summaries[0]; s.InvariantUncertain != 2 || s.StructuralUncertain != 2 {
		t.Errorf("merged summary: invariant uncertain %d, structural %d; want 2 and 2", s.InvariantUncertain, s.StructuralUncertain)
	}
}

// The journal line keeps the status, and a result assembled from journal
// lines counts it.
func TestUnitLineUncertain(t *testing.T) {
	u := uncertainUnit("a", "extractive")
	line, err := result.MarshalUnit(&u)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(line, []byte(`"status":"uncertain"`)) {
		t.Fatalf("journal line lacks the uncertain status: %s", line)
	}
	back, err := result.UnmarshalUnit(line)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, *back); diff != "" {
		t.Errorf("journal round trip (-want +got):\n%s", diff)
	}
	if s := uncertainResult(*back).Summaries[0]; s.InvariantUncertain != 1 {
		t.Errorf("a result from the journal line counts %d uncertain; want 1", s.InvariantUncertain)
	}
}

func validateSchema(t *testing.T, doc []byte) {
	t.Helper()
	sch, err := jsonschema.UnmarshalJSON(bytes.NewReader(result.SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.schema.json", sch); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("result.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(doc, &inst); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("the result does not validate against result.schema.json: %v", err)
	}
}

// A probe the agent could not tell on the compacted context (class
// uncertain) is never kept and never a regression: the decisions aggregate
// counts it as uncertain, the summary as probes_uncertain, and the
// regression rate keeps it in its denominator.
func TestUncertainProbe(t *testing.T) {
	u := sampleUnit("a")
	u.Summarizer = "extractive"
	u.Probes = []result.Probe{
		{ID: "p1", Expect: "refuse", Class: result.Kept, Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "refuse"}},
		{ID: "p2", Expect: "refuse", Class: result.ProbeUncertain, Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "unsure"}},
		{ID: "p3", Expect: "refuse", Class: result.CompactionRegression, Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "proceed"}},
	}
	r := uncertainResult(u)
	var buf bytes.Buffer
	if err := result.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	if _, err := result.Decode(buf.Bytes()); err != nil {
		t.Fatalf("a result with an uncertain probe does not read back: %v", err)
	}
	d := result.FindAggregate(r, "extractive", result.CheckDecisions)
	if d == nil || d.Pass != 1 || d.Fail != 1 || d.Uncertain != 1 || d.Judged() != 3 {
		t.Fatalf("decisions aggregate %+v; want 1 pass, 1 fail, 1 uncertain", d)
	}
	s := r.Summaries[0]
	if s.Regressions != 1 || s.ProbesUncertain != 1 || s.RegressionRate != 1.0/3 {
		t.Errorf("summary: %d regressions, %d uncertain, rate %v; want 1, 1, 1/3", s.Regressions, s.ProbesUncertain, s.RegressionRate)
	}
	if got := result.DecisionStatus(result.ProbeUncertain); got != result.Uncertain {
		t.Errorf("DecisionStatus(uncertain) = %q", got)
	}
}
