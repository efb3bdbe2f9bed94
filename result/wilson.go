package result

import "math"

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// Wilson returns the Wilson score 95% interval of pass successes out of n
// trials, and the observed rate. With n = 0 it returns rate 0 and the
// uninformative interval [0, 1].
func Wilson(pass, n int) (rate, low, high float64) {
	if n <= 0 {
		return 0, 0, 1
	}
	p := float64(pass) / float64(n)
	nf := float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	low, high = math.Max(0, center-half), math.Min(1, center+half)
	// Exact at the edges: floating error must not exclude the observed rate.
	if pass == 0 {
		low = 0
	}
	if pass == n {
		high = 1
	}
	return p, low, high
}
