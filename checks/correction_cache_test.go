package checks

import (
	"testing"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/scenarios"
)

// correctionScenario is testScenario with two more corrections whose values
// are parsed, not only matched as words: a date and a rate.
func correctionScenario() *scenarios.Scenario {
	sc := testScenario()
	sc.Events[6].Text += " The freeze now ends on December 12, not December 5. Backfill at 50 rows/s, not 200 rows/s."
	sc.Invariants = append(sc.Invariants,
		&scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "freeze"}, Old: "December 5", New: "December 12", Subject: "freeze end", SourceSeq: 7},
		&scenarios.Correction{InvariantBase: scenarios.InvariantBase{ID: "rate"}, Old: "200 rows/s", New: "50 rows/s", Subject: "backfill rate", SourceSeq: 7})
	return sc
}

// The correction check parses a correction's values once per scenario and
// reuses the parse for every generation of every unit. On one scenario,
// asked again and again in alternating order, the faithful summary (the
// new values in other spellings, the old ones only as supersedes) passes
// every time, the summaries that would fool it fail every time, and each
// verdict is exactly the one a fresh scenario gives.
func TestCorrectionParsedOncePerScenario(t *testing.T) {
	withCorrections := func(cs ...summary.Correction) *summary.Summary {
		s := goldSummary()
		s.Corrections = append(s.Corrections, cs...)
		return s
	}
	cases := []struct {
		name string
		sum  *summary.Summary
		want map[string]result.Status
	}{
		{"faithful: new values in other spellings", withCorrections(
			summary.Correction{Subject: "freeze end", Value: "12 de diciembre", Supersedes: "December 5", SourceSeq: 7},
			summary.Correction{Subject: "backfill rate", Value: "50 rows/s", Supersedes: "200 rows/s", SourceSeq: 7}),
			map[string]result.Status{"freeze": result.Pass, "rate": result.Pass}},
		{"fooling: the values parked in the wrong fields", withCorrections(
			summary.Correction{Subject: "freeze end", Value: "5 de diciembre", Supersedes: "December 12", SourceSeq: 7},
			summary.Correction{Subject: "backfill rate", Value: "200 rows/s", Supersedes: "50 rows/s", SourceSeq: 7}),
			map[string]result.Status{"freeze": result.Fail, "rate": result.Fail}},
		{"fooling: the same words, the old values as current", func() *summary.Summary {
			s := withCorrections()
			s.Text = "The freeze ends on 5 de diciembre, not December 12; the backfill runs at 200 rows/s, not 50 rows/s."
			return s
		}(), map[string]result.Status{"freeze": result.Fail, "rate": result.Fail}},
	}
	fresh := map[string]map[string]result.CheckResult{}
	for _, tc := range cases {
		sc := correctionScenario()
		fresh[tc.name] = map[string]result.CheckResult{}
		results := Run(&Input{Scenario: sc, Gen: genAt(sc, 12, false), Raw: mustJSON(t, tc.sum)})
		for inv := range tc.want {
			fresh[tc.name][inv] = resultFor(t, results, result.TypeCorrection, inv)
		}
	}
	warm := correctionScenario()
	defer Forget(warm)
	for round := range 3 {
		for i := range cases {
			tc := cases[(i+round)%len(cases)]
			results := Run(&Input{Scenario: warm, Gen: genAt(warm, 12, false), Raw: mustJSON(t, tc.sum)})
			for inv, want := range tc.want {
				r := resultFor(t, results, result.TypeCorrection, inv)
				if r.Status != want {
					t.Errorf("round %d, %s, %s: %s (%s); want %s", round, tc.name, inv, r.Status, r.Message, want)
				}
				if diff := cmp.Diff(fresh[tc.name][inv], r); diff != "" {
					t.Errorf("round %d, %s, %s: differs from a fresh scenario (-fresh +warm):\n%s", round, tc.name, inv, diff)
				}
			}
		}
	}
}
