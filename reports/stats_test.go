package reports_test

import (
	"math"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
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
			got := reports.McNemar(tc.b, tc.c)
			if math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("McNemar(%d, %d) = %.7f, want %.7f", tc.b, tc.c, got, tc.want)
			}
		})
	}
}

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
			rate, low, high := reports.Wilson(tc.pass, tc.n)
			if math.Abs(rate-tc.rate) > 1e-9 || math.Abs(low-tc.low) > 5e-5 || math.Abs(high-tc.hig) > 5e-5 {
				t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", tc.pass, tc.n, rate, low, high, tc.rate, tc.low, tc.hig)
			}
		})
	}
}

func TestPairedDelta(t *testing.T) {
	tests := []struct {
		name    string
		b, c, n int
		delta   float64
		covers0 bool
	}{
		{"no change", 0, 0, 20, 0, true},
		{"balanced noise", 3, 3, 40, 0, true},
		{"large drop", 15, 0, 30, -0.5, false},
		{"large gain", 0, 15, 30, 0.5, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, lo, hi := reports.PairedDelta(tc.b, tc.c, tc.n)
			if math.Abs(d-tc.delta) > 1e-9 {
				t.Errorf("delta = %v, want %v", d, tc.delta)
			}
			if lo > d+1e-9 && tc.delta != 0 || hi < d-1e-9 && tc.delta != 0 {
				t.Errorf("interval [%v, %v] excludes delta %v", lo, hi, d)
			}
			if got := lo <= 0 && hi >= 0; got != tc.covers0 {
				t.Errorf("interval [%v, %v] covers 0 = %v, want %v", lo, hi, got, tc.covers0)
			}
		})
	}
}
