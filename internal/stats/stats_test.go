package stats_test

import (
	"math"
	"testing"

	"github.com/compact-eval/compact-eval/internal/stats"
)

func TestMcNemar(t *testing.T) {
	tests := []struct {
		name string
		b, c int
		want float64
	}{
		{"no discordant pairs", 0, 0, 1},
		{"b=1 c=8", 1, 8, 0.0390625}, // 2 × (1+9)/512
		{"b=8 c=1 symmetric", 8, 1, 0.0390625},
		{"b=3 c=5", 3, 5, 0.7265625}, // 2 × (1+8+28+56)/256
		{"b=0 c=5", 0, 5, 0.0625},    // 2/32
		{"b=0 c=6", 0, 6, 0.03125},   // 2/64
		{"equal counts cap at 1", 4, 4, 1},
		{"b=2 c=10", 2, 10, 0.0385742}, // 2 × (1+12+66)/4096
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := stats.McNemar(tc.b, tc.c)
			if math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("McNemar(%d, %d) = %.7f, want %.7f", tc.b, tc.c, got, tc.want)
			}
		})
	}
}

func TestPairedDelta(t *testing.T) {
	// Reference values: the bounds computed from Clopper–Pearson intervals
	// found by bisection in exact rational arithmetic (Python fractions), an
	// implementation independent of this one. The classic ones check: 5 of
	// 10 is [0.187086, 0.812914], 9 of 10 [0.554984, 0.997471], 10 of 20
	// [0.271958, 0.728042], as R's binom.test prints them.
	tests := []struct {
		name          string
		b, c, n       int
		delta, lo, hi float64
	}{
		// The case of issue 15: Wald (Agresti–Min) said [+2.1%, +64.6%]
		// while the exact test said p = 0.125.
		{"4 of 4 changes up, p=0.125", 0, 4, 10, 0.4, -0.151013, 0.737622},
		{"4 of 4 changes down", 4, 0, 10, -0.4, -0.737622, 0.151013},
		{"9 of 10 up, p=0.021", 1, 9, 20, 0.4, 0.029907, 0.724360},
		{"balanced", 5, 5, 10, 0, -0.625828, 0.625828},
		// Nothing disagreed: the difference is small but not known to be 0.
		{"no discordant pair", 0, 0, 10, 0, -0.308497, 0.308497},
		{"every pair flipped up", 0, 10, 10, 1, 0.264850, 1},
		{"2 down 10 up in 40, p=0.039", 2, 10, 40, 0.2, 0.005254, 0.445901},
		{"8 down 1 up in 30, p=0.039", 8, 1, 30, -7.0 / 30, -0.491184, -0.005158},
		{"6 up in 16, p=0.031", 0, 6, 16, 0.375, 0.012384, 0.645654},
		{"no pairs", 0, 0, 0, 0, -1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, lo, hi := stats.PairedDelta(tc.b, tc.c, tc.n, 0.05)
			if math.Abs(d-tc.delta) > 1e-9 || math.Abs(lo-tc.lo) > 2e-6 || math.Abs(hi-tc.hi) > 2e-6 {
				t.Errorf("PairedDelta(%d, %d, %d) = %.6f [%.6f, %.6f], want %.6f [%.6f, %.6f]",
					tc.b, tc.c, tc.n, d, lo, hi, tc.delta, tc.lo, tc.hi)
			}
		})
	}
}

// TestPairedDeltaAgreesWithMcNemar: over every (b, c) with b + c ≤ 40, in
// pair counts n from b + c to twice that, and at two levels, the
// interval excludes 0 exactly when the exact McNemar test is significant,
// and holds the observed difference.
func TestPairedDeltaAgreesWithMcNemar(t *testing.T) {
	checked := 0
	for _, alpha := range []float64{0.05, 0.01} {
		for m := 0; m <= 40; m++ {
			for b := 0; b <= m; b++ {
				c := m - b
				p := stats.McNemar(b, c)
				for _, n := range []int{m, 2*m + 3} {
					if n == 0 {
						continue
					}
					d, lo, hi := stats.PairedDelta(b, c, n, alpha)
					checked++
					if excludes := lo > 0 || hi < 0; excludes != (p < alpha) {
						t.Fatalf("alpha=%g b=%d c=%d n=%d: p=%.6f but the interval [%.6f, %.6f] excludes 0 = %v", alpha, b, c, n, p, lo, hi, excludes)
					}
					if d < lo-1e-12 || d > hi+1e-12 || lo < -1 || hi > 1 {
						t.Fatalf("alpha=%g b=%d c=%d n=%d: interval [%.6f, %.6f] does not hold delta %.6f inside [-1, 1]", alpha, b, c, n, lo, hi, d)
					}
				}
			}
		}
	}
	if checked < 3400 {
		t.Fatalf("checked only %d cases", checked)
	}
}

// TestPairedDeltaLevel: a smaller alpha gives a wider interval.
func TestPairedDeltaLevel(t *testing.T) {
	_, lo95, hi95 := stats.PairedDelta(2, 10, 40, 0.05)
	_, lo99, hi99 := stats.PairedDelta(2, 10, 40, 0.01)
	if !(lo99 < lo95 && hi99 > hi95) {
		t.Errorf("99%% interval [%v, %v] is not wider than the 95%% one [%v, %v]", lo99, hi99, lo95, hi95)
	}
	if lo99 > 0 {
		t.Errorf("99%% interval [%v, %v] excludes 0 though p=%.3f > 0.01", lo99, hi99, stats.McNemar(2, 10))
	}
}
