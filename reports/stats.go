package reports

import "github.com/compact-eval/compact-eval/internal/stats"

// Wilson returns the Wilson score 95% interval of pass successes out of n
// trials, and the observed rate (stats.Wilson).
func Wilson(pass, n int) (rate, low, high float64) { return stats.Wilson(pass, n) }

// McNemar returns the two-sided p-value of the exact McNemar test for the
// discordant pair counts b (pass in the base, fail in the new run) and c
// (the reverse) (stats.McNemar).
func McNemar(b, c int) float64 { return stats.McNemar(b, c) }

// PairedDelta returns the difference of paired pass rates (new − base) and a
// 95% interval for it, from the discordant counts b (pass→fail) and c
// (fail→pass) out of n pairs (stats.PairedDelta).
func PairedDelta(b, c, n int) (delta, low, high float64) { return stats.PairedDelta(b, c, n) }

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
