package result_test

import (
	"math"
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

func TestWilson(t *testing.T) {
	// Reference values: Wilson score interval, z = 1.96 (e.g. R's
	// prop.test(x, n, correct = FALSE) or statsmodels proportion_confint
	// method="wilson").
	tests := []struct {
		name           string
		pass, n        int
		rate, low, hig float64
	}{
		{"no trials", 0, 0, 0, 0, 1},
		{"8 of 10", 8, 10, 0.8, 0.4902, 0.9433},
		{"all 10 pass", 10, 10, 1, 0.7225, 1},
		{"none of 10", 0, 10, 0, 0, 0.2775},
		{"50 of 100", 50, 100, 0.5, 0.4038, 0.5962},
		{"1 of 1", 1, 1, 1, 0.2065, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rate, low, high := result.Wilson(tc.pass, tc.n)
			if math.Abs(rate-tc.rate) > 1e-9 || math.Abs(low-tc.low) > 5e-5 || math.Abs(high-tc.hig) > 5e-5 {
				t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tc.pass, tc.n, rate, low, high, tc.rate, tc.low, tc.hig)
			}
		})
	}
}

func TestClusteredWilson(t *testing.T) {
	type S = result.ScenarioCount
	rep := func(s S, k int) []S {
		var out []S
		for range k {
			out = append(out, s)
		}
		return out
	}
	cat := func(xs ...[]S) []S {
		var out []S
		for _, x := range xs {
			out = append(out, x...)
		}
		return out
	}
	tests := []struct {
		name      string
		sc        []S
		rate, ne  float64
		low, high float64 // ±5e-5
	}{
		// One outcome per scenario in one trial: Wilson's interval.
		{"one outcome per scenario is Wilson", cat(rep(S{1, 1, 1}, 8), rep(S{0, 1, 1}, 2)), 0.8, 10, 0.4902, 0.9433},
		// All or nothing within scenarios: 2 of 4 scenarios keep both
		// outcomes, 2 lose both. Variance 4·((2 − 0.5·2)/8)² = 1/16,
		// n = 0.25 ÷ 1/16 = 4: Wilson(2, 4), not Wilson(4, 8).
		{"all or nothing counts scenarios", cat(rep(S{2, 2, 1}, 2), rep(S{0, 2, 1}, 2)), 0.5, 4, 0.1500, 0.8500},
		// The same with 3 identical trials: unchanged.
		{"identical trials change nothing", cat(rep(S{6, 6, 3}, 2), rep(S{0, 6, 3}, 2)), 0.5, 4, 0.1500, 0.8500},
		// Deterministic, each scenario one outcome kept and one lost in
		// both trials: no spread between scenarios, so one trial's 8
		// outcomes count (Wilson(4, 8) = [0.2152, 0.7848]).
		{"deterministic, no spread", rep(S{2, 4, 2}, 4), 0.5, 8, 0.2152, 0.7848},
		// Flaky with the same mean 0.5: trials of two scenarios differ
		// (3 and 1 of 4 kept), and the scenarios spread: ±2/16, ±1/16,
		// variance 10/256, n = 0.25 ÷ 10/256 = 6.4: wider (center 0.5,
		// half-width 1.96·√(0.25/6.4 + 1.96²/(4·6.4²)) ÷ (1 + 1.96²/6.4)).
		{"flaky that spreads the scenarios", []S{{4, 4, 2}, {3, 4, 2}, {1, 4, 2}, {0, 4, 2}}, 0.5, 6.4, 0.1938, 0.8062},
		// Every outcome kept: no spread to measure; one trial's outcomes.
		{"every outcome kept", rep(S{6, 6, 3}, 3), 1, 6, 0.6097, 1},
		{"nothing judged", []S{{0, 0, 1}}, 0, 0, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rate, iv := result.ClusteredWilson(tc.sc)
			if math.Abs(rate-tc.rate) > 1e-12 || math.Abs(iv.EffectiveN-tc.ne) > 1e-9 || math.Abs(iv.Low-tc.low) > 5e-5 || math.Abs(iv.High-tc.high) > 5e-5 {
				t.Errorf("got %.4f [%.4f, %.4f] at n %.4f, want %.4f [%.4f, %.4f] at n %.4f", rate, iv.Low, iv.High, iv.EffectiveN, tc.rate, tc.low, tc.high, tc.ne)
			}
		})
	}
}

// TestClusteredWilsonIdenticalTrials: trials that copy one trial give the
// interval of that trial bit for bit; Wilson over every trial's outcomes
// would narrow it.
func TestClusteredWilsonIdenticalTrials(t *testing.T) {
	sc := []result.ScenarioCount{{3, 4, 1}, {1, 1, 1}, {0, 2, 1}, {2, 3, 1}, {5, 5, 1}, {1, 3, 1}}
	_, one := result.ClusteredWilson(sc)
	for _, trials := range []int{2, 3, 7} {
		var many []result.ScenarioCount
		for _, s := range sc {
			many = append(many, result.ScenarioCount{Pass: trials * s.Pass, N: trials * s.N, Trials: trials})
		}
		if _, got := result.ClusteredWilson(many); got != one {
			t.Errorf("%d trials: %+v, one trial %+v", trials, got, one)
		}
		if _, lo, hi := result.Wilson(trials*12, trials*18); !(hi-lo < one.High-one.Low) {
			t.Errorf("Wilson over %d trials [%v, %v] should be narrower than one trial's [%v, %v]", trials, lo, hi, one.Low, one.High)
		}
	}
}
