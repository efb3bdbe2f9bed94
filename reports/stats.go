package reports

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

// McNemar returns the two-sided p-value of the exact McNemar test for paired
// binary outcomes, where b and c are the discordant pair counts (b: pass in
// the base, fail in the new run; c: the reverse). It is the exact binomial
// test of min(b, c) successes in b+c trials with p = 1/2. With no discordant
// pairs the p-value is 1.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// Sum C(n, i) / 2^n for i = 0..k in log space, exact enough for any n.
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*sum)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// PairedDelta returns the difference of paired pass rates (new − base) and a
// 95% interval for it, from the discordant counts b (pass→fail) and c
// (fail→pass) out of n pairs. The interval is the Wald interval with the
// Agresti–Min adjustment (half a pair added to each cell), clamped to
// [-1, 1]; with n = 0 it is [-1, 1].
func PairedDelta(b, c, n int) (delta, low, high float64) {
	if n <= 0 {
		return 0, -1, 1
	}
	delta = float64(c-b) / float64(n)
	nn := float64(n) + 2
	bb, cc := float64(b)+0.5, float64(c)+0.5
	d := (cc - bb) / nn
	se := math.Sqrt((bb+cc)-(cc-bb)*(cc-bb)/nn) / nn
	return delta, math.Max(-1, d-z95*se), math.Min(1, d+z95*se)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sortFloats(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
