package stats

import (
	"math"
	"testing"
)

// TestDrawnSignFlip: the Monte Carlo p-value used past the exact
// convolution's limit is within sampling error of the exact one, and the
// same on every call (a fixed seed).
func TestDrawnSignFlip(t *testing.T) {
	vals := []int{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8}
	var cs []Cluster
	sum := 0
	for i, v := range vals {
		if i%3 == 0 {
			v = -v
		}
		sum += v
		cs = append(cs, Cluster{Up: max(v, 0), Down: max(-v, 0), N: 10, Trials: 1})
	}
	exact, ok := signFlip(cs)
	if !ok {
		t.Fatal("the exact convolution was not used")
	}
	drawn := drawnSignFlip(vals, abs(sum))
	se := math.Sqrt(exact * (1 - exact) / Draws)
	if math.Abs(drawn-exact) > 4*se+1.0/Draws {
		t.Errorf("drawn p %.5f, exact %.5f (±%.5f)", drawn, exact, se)
	}
	if again := drawnSignFlip(vals, abs(sum)); again != drawn {
		t.Errorf("a second draw gave %v, the first %v: the seed must be fixed", again, drawn)
	}
	if p := drawnSignFlip([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 20); p <= 0 {
		t.Errorf("drawn p = %v: it must never be 0", p)
	}
}

// TestBetaIncIsTheBinomialTail: for whole counts the incomplete beta
// function is the binomial tail summed term by term.
func TestBetaIncIsTheBinomialTail(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for k := 1; k <= n; k++ {
			for _, p := range []float64{0.001, 0.05, 0.2, 0.5, 0.73, 0.99} {
				sum := 0.0
				for i := k; i <= n; i++ {
					sum += math.Exp(logChoose(n, i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
				}
				if got := binomAtLeast(float64(k), float64(n), p); math.Abs(got-sum) > 1e-11 {
					t.Fatalf("P(X ≥ %d), n=%d, p=%g: %v, summed %v", k, n, p, got, sum)
				}
			}
		}
	}
}
