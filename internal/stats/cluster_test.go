package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/compact-eval/compact-eval/internal/stats"
)

// clusters repeats c k times, for the tables below.
func clusters(groups ...any) []stats.Cluster {
	var out []stats.Cluster
	for i := 0; i < len(groups); i += 2 {
		for range groups[i+1].(int) {
			out = append(out, groups[i].(stats.Cluster))
		}
	}
	return out
}

// copies is cs with every trial copied t times: what a deterministic
// summarizer run with --trials t gives.
func copies(cs []stats.Cluster, t int) []stats.Cluster {
	out := make([]stats.Cluster, len(cs))
	for i, c := range cs {
		out[i] = stats.Cluster{Up: t * c.Up, Down: t * c.Down, N: t * c.N, Trials: t * c.Trials}
	}
	return out
}

func TestClusteredPaired(t *testing.T) {
	type C = stats.Cluster
	tests := []struct {
		name   string
		cs     []C
		p      float64
		delta  float64
		lo, hi float64 // ±2e-6; NaN: checked by want instead
		ne     float64
		want   func(stats.PairedTest) string
	}{
		{
			// One pair per scenario: McNemar(0, 4) = 2/16, and the interval
			// is PairedDelta(0, 4, 10) ([-0.151013, 0.737622] in its table).
			name: "one pair per scenario is McNemar",
			cs:   clusters(C{1, 0, 1, 1}, 4, C{0, 0, 1, 1}, 6),
			p:    0.125, delta: 0.4, lo: -0.151013, hi: 0.737622, ne: 10,
		},
		{
			// The refuted_hypothesis row with 1 trial: 3 of 5
			// pairs went A-only, each in a scenario of its own: 2/2^3.
			name: "issue 35 refuted_hypothesis, 1 trial",
			cs:   clusters(C{0, 1, 1, 1}, 3, C{0, 0, 1, 1}, 2),
			p:    0.25, delta: -0.6, lo: math.NaN(), ne: 5,
		},
		{
			// The same with 5 identical trials: every count × 5. McNemar
			// over the 25 pairs said p = 2/2^15 < 0.001; the scenarios
			// say 0.25, as with one trial.
			name: "issue 35 refuted_hypothesis, 5 identical trials",
			cs:   clusters(C{0, 5, 5, 5}, 3, C{0, 0, 5, 5}, 2),
			p:    0.25, delta: -0.6, lo: math.NaN(), ne: 5,
		},
		{
			// Every pair went up, in two scenarios of two pairs: the signs
			// of (2, 2) reach |4| in 2 of 4 patterns. With no spread
			// between scenarios (nothing but ups) the interval counts one
			// trial's 4 pairs, and the test's p decides that it holds 0.
			name: "every pair up in two scenarios",
			cs:   clusters(C{2, 0, 2, 1}, 2),
			p:    0.5, delta: 1, lo: math.NaN(), ne: 4,
		},
		{
			// All or nothing within scenarios: 4 scenarios up by 2, 6 by
			// 0, 2 pairs each (b=0, c=8, n=20). Cluster variance
			// 4·(0.1−0.04)² + 6·0.04² = 0.024; paired variance 8/20 −
			// 0.4² = 0.24; effective pairs 0.24/0.024 = 10, with c = 4:
			// PairedDelta(0, 4, 10) again, and p = 2/2^4 = McNemar(0, 4).
			name: "all or nothing within scenarios",
			cs:   clusters(C{2, 0, 2, 1}, 4, C{0, 0, 2, 1}, 6),
			p:    0.125, delta: 0.4, lo: -0.151013, hi: 0.737622, ne: 10,
		},
		{
			// Differences (−2, −1) in two scenarios: the signs give sums
			// ±3 and ±1, |sum| ≥ 3 in 2 of 4. McNemar over the 3 pairs
			// would say 2/8.
			name: "two changes in one scenario are not two scenarios",
			cs:   clusters(C{0, 2, 2, 1}, 1, C{0, 1, 1, 1}, 1),
			p:    0.5, delta: -1, lo: math.NaN(), ne: 3,
			want: func(r stats.PairedTest) string {
				if r.Low > 0 || r.High < 0 {
					return "the interval excludes 0 though p = 0.5"
				}
				return ""
			},
		},
		{
			// Changes that cancel within scenarios: no net difference.
			name: "cancelling changes",
			cs:   clusters(C{1, 1, 2, 2}, 5),
			p:    1, delta: 0, lo: math.NaN(), ne: 5,
		},
		{
			name: "nothing paired",
			cs:   nil,
			p:    1, delta: 0, lo: -1, hi: 1, ne: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := stats.ClusteredPaired(tc.cs, 0.05)
			if math.Abs(r.P-tc.p) > 1e-12 || math.Abs(r.Delta-tc.delta) > 1e-12 || math.Abs(r.EffectivePairs-tc.ne) > 1e-9 || !r.ExactP {
				t.Errorf("P = %.6f, Δ = %.6f, effective pairs %.6f (exact %v); want %.6f, %.6f, %.6f", r.P, r.Delta, r.EffectivePairs, r.ExactP, tc.p, tc.delta, tc.ne)
			}
			if !math.IsNaN(tc.lo) && (math.Abs(r.Low-tc.lo) > 2e-6 || math.Abs(r.High-tc.hi) > 2e-6) {
				t.Errorf("interval [%.6f, %.6f], want [%.6f, %.6f]", r.Low, r.High, tc.lo, tc.hi)
			}
			if excl := r.Low > 0 || r.High < 0; excl != (r.P < 0.05) {
				t.Errorf("p = %.4f but the interval [%.6f, %.6f] excludes 0 = %v", r.P, r.Low, r.High, excl)
			}
			if r.Delta < r.Low || r.Delta > r.High {
				t.Errorf("Δ %.6f outside its interval [%.6f, %.6f]", r.Delta, r.Low, r.High)
			}
			if tc.want != nil {
				if msg := tc.want(r); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

// TestClusteredPairedIsMcNemar: with one pair per scenario (one trial, one
// outcome each) the test is McNemar's and the interval PairedDelta's, for
// every b + c ≤ 30 with concordant pairs beside them.
func TestClusteredPairedIsMcNemar(t *testing.T) {
	for m := 0; m <= 30; m++ {
		for b := 0; b <= m; b++ {
			c := m - b
			for _, n := range []int{max(1, m), 2*m + 3} {
				cs := clusters(stats.Cluster{Up: 1, N: 1, Trials: 1}, c, stats.Cluster{Down: 1, N: 1, Trials: 1}, b, stats.Cluster{N: 1, Trials: 1}, n-m)
				r := stats.ClusteredPaired(cs, 0.05)
				d, lo, hi := stats.PairedDelta(b, c, n, 0.05)
				if math.Abs(r.P-stats.McNemar(b, c)) > 1e-12 || math.Abs(r.Delta-d) > 1e-12 || math.Abs(r.Low-lo) > 1e-9 || math.Abs(r.High-hi) > 1e-9 {
					t.Fatalf("b=%d c=%d n=%d: clustered p=%.9f [%.9f, %.9f], McNemar p=%.9f PairedDelta [%.9f, %.9f]",
						b, c, n, r.P, r.Low, r.High, stats.McNemar(b, c), lo, hi)
				}
			}
		}
	}
}

// TestIdenticalTrialsChangeNothing: trials that copy one trial (a
// deterministic summarizer run with --trials T) give the same p, Δ and
// interval, bit for bit, as the one trial; counting the same pairs as
// independent (McNemar over every trial's pairs) would not.
func TestIdenticalTrialsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 2))
	for i := range 300 {
		var cs []stats.Cluster
		for range 1 + rng.IntN(25) {
			n := 1 + rng.IntN(4)
			up := rng.IntN(n + 1)
			down := rng.IntN(n - up + 1)
			cs = append(cs, stats.Cluster{Up: up, Down: down, N: n, Trials: 1})
		}
		one := stats.ClusteredPaired(cs, 0.05)
		for _, trials := range []int{2, 3, 5, 16} {
			many := stats.ClusteredPaired(copies(cs, trials), 0.05)
			many.Pairs /= trials
			if many != one {
				t.Fatalf("case %d, %d trials: %+v, one trial %+v", i, trials, many, one)
			}
		}
	}
}

// TestFlakyTrials: trials that disagree are evidence of their own, and the
// figures follow the scenarios' means over their trials.
func TestFlakyTrials(t *testing.T) {
	type C = stats.Cluster
	// 8 scenarios × 2 outcomes × 2 trials, B ahead of A by half the pairs
	// in both (Δ = 16/32 = 0.5). Deterministic: in every trial of every
	// scenario one outcome goes up: differences 2 ×8, p = 2/2^8, and no
	// spread between scenarios, so the pairs of one trial (16) count.
	det := stats.ClusteredPaired(clusters(C{2, 0, 4, 2}, 8), 0.05)
	// Flaky with the same Δ: a scenario's two outcomes move together and
	// two scenarios differ between their trials (up 2 of 4): differences
	// (4, 4, 4, 2, 2, 0, 0, 0). p: only the 2 patterns of equal signs
	// reach |16|, 2/2^5. Spread: 6 scenarios ±2/32 off the mean,
	// variance 6·(2/32)² = 3/128, paired variance 0.5 − 0.25: 32/3 pairs.
	flaky := stats.ClusteredPaired(clusters(C{4, 0, 4, 2}, 3, C{2, 0, 4, 2}, 2, C{0, 0, 4, 2}, 3), 0.05)
	if det.P != 1.0/128 || flaky.P != 1.0/16 {
		t.Errorf("p: deterministic %v, want 1/128; flaky %v, want 1/16", det.P, flaky.P)
	}
	if det.EffectivePairs != 16 || math.Abs(flaky.EffectivePairs-32.0/3) > 1e-9 {
		t.Errorf("effective pairs: deterministic %v, want 16; flaky %v, want 32/3", det.EffectivePairs, flaky.EffectivePairs)
	}
	if _, lo, hi := stats.PairedDelta(0, 8, 16, 0.05); math.Abs(det.Low-lo) > 1e-9 || math.Abs(det.High-hi) > 1e-9 {
		t.Errorf("deterministic interval [%v, %v], want PairedDelta(0, 8, 16) = [%v, %v]", det.Low, det.High, lo, hi)
	}
	if !(flaky.High-flaky.Low > det.High-det.Low) || flaky.Low > 0 {
		t.Errorf("flaky interval [%.4f, %.4f] is not wider than the deterministic [%.4f, %.4f], or excludes 0 at p = %v",
			flaky.Low, flaky.High, det.Low, det.High, flaky.P)
	}

	// Flaky trials never narrow the interval below one trial's pairs:
	// 10 scenarios × 1 outcome × 2 trials, 8 scenarios up in one trial of
	// two (c = 8, n = 20). Counted as 20 independent pairs it would be
	// PairedDelta(0, 8, 20); the pairs of one trial are 10, so its upper
	// bound is PairedDelta(0, 4, 10)'s. Its test reads 8 scenarios that
	// moved, all up: p = 2/2^8, significant where McNemar(0, 4) is not,
	// so the lower bound sits at 0, on the side the test decides.
	r := stats.ClusteredPaired(clusters(C{1, 0, 2, 2}, 8, C{0, 0, 2, 2}, 2), 0.05)
	_, _, hi := stats.PairedDelta(0, 4, 10, 0.05)
	_, nlo, nhi := stats.PairedDelta(0, 8, 20, 0.05)
	if r.P != 1.0/128 || r.EffectivePairs != 10 || math.Abs(r.High-hi) > 1e-9 || !(r.Low > 0 && r.Low < 1e-9) || !(r.High-r.Low > nhi-nlo) {
		t.Errorf("flaky: p = %v, %v effective pairs, [%v, %v]; want 1/128, 10, (0, %v], wider than per pair [%v, %v]",
			r.P, r.EffectivePairs, r.Low, r.High, hi, nlo, nhi)
	}
}

// TestClusteredPairedAgreesWithItsTest: over random clusters, the interval
// excludes 0 exactly when p < alpha, and holds Δ.
func TestClusteredPairedAgreesWithItsTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	for i := range 2000 {
		var cs []stats.Cluster
		trials := 1 + rng.IntN(3)
		for range 1 + rng.IntN(30) {
			n := trials * (1 + rng.IntN(3))
			up := rng.IntN(n + 1)
			if rng.IntN(3) == 0 {
				up = 0
			}
			down := rng.IntN(n - up + 1)
			cs = append(cs, stats.Cluster{Up: up, Down: down, N: n, Trials: trials})
		}
		for _, alpha := range []float64{0.05, 0.01} {
			r := stats.ClusteredPaired(cs, alpha)
			if excl := r.Low > 0 || r.High < 0; excl != (r.P < alpha) {
				t.Fatalf("case %d α=%g: p=%.6f, interval [%.6f, %.6f]", i, alpha, r.P, r.Low, r.High)
			}
			if r.Delta < r.Low-1e-12 || r.Delta > r.High+1e-12 || r.Low < -1 || r.High > 1 {
				t.Fatalf("case %d α=%g: Δ %.6f, interval [%.6f, %.6f]", i, alpha, r.Delta, r.Low, r.High)
			}
		}
	}
}
