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
