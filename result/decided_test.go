package result

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An aggregate counts its meaning checks' outcomes by what decided them,
// per summarizer × check type; reading a result computes the counts from
// the units again, so a hand-edited aggregate claiming more typed passes
// counts for nothing.
func TestAggregateDecided(t *testing.T) {
	check := func(typ string, s Status, by string) CheckResult {
		return CheckResult{Check: typ, Kind: KindInvariant, Invariant: typ, Status: s, DecidedBy: by}
	}
	r := &Result{ResultVersion: ResultVersion, Config: RunConfig{Summarizers: []string{"s1", "s2"}}, Units: []Unit{
		{Scenario: ScenarioRef{ID: "a"}, Summarizer: "s1", Status: UnitOK, Generations: []Generation{{N: 1, Checks: []CheckResult{
			check("constraint", Pass, DecidedTyped), check("constraint", Fail, DecidedStatement), check("quantity", Uncertain, DecidedJudge),
			{Check: "schema", Kind: KindStructural, Status: Pass},
		}}, {N: 2, Checks: []CheckResult{check("constraint", Pass, DecidedTyped), check("constraint", Pass, "by hand")}}}},
		{Scenario: ScenarioRef{ID: "a"}, Summarizer: "s2", Status: UnitOK, Generations: []Generation{{N: 1, Checks: []CheckResult{
			check("constraint", Pass, DecidedStatement),
		}}}},
	}}
	r.Aggregate()
	got := map[string]Decided{}
	for _, a := range r.Aggregates {
		got[a.Summarizer+" "+a.Check] = a.Decided
	}
	want := map[string]Decided{
		"s1 constraint": {Typed: 2, Statement: 1},
		"s1 quantity":   {Judge: 1},
		"s1 schema":     {},
		"s2 constraint": {Statement: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decided counts (-want +got):\n%s", diff)
	}

	FindAggregate(r, "s1", "constraint").Decided = Decided{Typed: 99}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if a := FindAggregate(back, "s1", "constraint"); a == nil || a.Decided != (Decided{Typed: 2, Statement: 1}) {
		t.Errorf("read back: %+v, want the units' counts (2 typed, 1 by statement)", a)
	}
}
