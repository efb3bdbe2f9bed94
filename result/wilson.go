package result

import "math"

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// Wilson returns the Wilson score 95% interval of pass successes out of n
// independent trials, and the observed rate. With n = 0 it returns rate 0
// and the uninformative interval [0, 1]. A rate over outcomes grouped in
// scenarios (and trials) is ClusteredWilson's.
func Wilson(pass, n int) (rate, low, high float64) {
	if n <= 0 {
		return 0, 0, 1
	}
	p := float64(pass) / float64(n)
	low, high = WilsonN(p, float64(n))
	return p, low, high
}

// WilsonN is the Wilson score 95% interval of a rate p observed over n
// outcomes, where n may be an effective, fractional count. With n ≤ 0 it
// is [0, 1].
func WilsonN(p, n float64) (low, high float64) {
	if !(n > 0) {
		return 0, 1
	}
	z2 := z95 * z95
	den := 1 + z2/n
	center := (p + z2/(2*n)) / den
	half := z95 * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / den
	low, high = math.Max(0, center-half), math.Min(1, center+half)
	// Exact at the edges: floating error must not exclude the observed rate.
	if p <= 0 {
		low = 0
	}
	if p >= 1 {
		high = 1
	}
	return low, high
}

// ScenarioCount is one scenario's share of a rate: Pass of N outcomes
// (every trial's), from Trials trials.
type ScenarioCount struct{ Pass, N, Trials int }

// Interval is a pass rate's 95% interval over outcomes clustered in
// scenarios (ClusteredWilson).
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// EffectiveN is the number of independent outcomes the interval counts
	// the rate's outcomes as (EffectiveN); Scenarios the scenarios they
	// come from.
	EffectiveN float64 `json:"effective_n"`
	Scenarios  int     `json:"scenarios"`
}

// ClusteredWilson is the pass rate over the scenarios' outcomes, Σpass /
// ΣN, with the Wilson 95% interval at the effective number of outcomes
// (EffectiveN with the binomial variance p(1−p)): outcomes of one scenario,
// and trials of it above all, are not independent. When each scenario
// holds one outcome of one trial it is Wilson's interval itself; trials
// that are copies of one another leave it exactly as with one trial; a
// rate whose scenarios differ more gets a wider one. Scenarios without an
// outcome are left out; with none it is rate 0 and [0, 1].
func ClusteredWilson(sc []ScenarioCount) (rate float64, iv Interval) {
	pass, n, k := 0, 0, 0
	for _, s := range sc {
		if s.N > 0 {
			pass, n, k = pass+s.Pass, n+s.N, k+1
		}
	}
	iv = Interval{Low: 0, High: 1, Scenarios: k}
	if n == 0 {
		return 0, iv
	}
	nf := float64(n)
	rate = float64(pass) / nf
	xs, ws := make([]float64, 0, k), make([]float64, 0, k)
	perTrial := 0.0
	for _, s := range sc {
		if s.N > 0 {
			xs, ws = append(xs, float64(s.Pass)/nf), append(ws, float64(s.N)/nf)
			perTrial += float64(s.N) / float64(max(1, s.Trials))
		}
	}
	iv.EffectiveN = EffectiveN(xs, ws, rate, rate*(1-rate), perTrial)
	iv.Low, iv.High = WilsonN(rate, iv.EffectiveN)
	return rate, iv
}

// EffectiveN is the number of independent outcomes a rate over clustered
// outcomes is worth: the design-effect (Kish) effective sample size. Each
// cluster (scenario) i gives its share of the rate's numerator xs[i] (its
// passes, or its net difference, ÷ the total n) and its share of the
// outcomes ws[i] (its outcomes ÷ n); rate is Σxs, and unit the variance of
// one outcome (p(1−p) for a pass rate). The cluster-robust variance of the
// rate is Σ(xs[i] − rate·ws[i])², the sandwich estimator without the
// finite-cluster factor k/(k−1), so that one outcome per cluster gives
// exactly n; the effective n is unit ÷ that variance, capped at perTrial,
// the outcomes of one trial: trials never make a rate look surer than one
// trial's outcomes counted as independent would. With no spread (unit or
// the variance 0) it is perTrial.
//
// Every input is a ratio, so trials that are copies of one trial give the
// same floating-point value as that trial alone.
func EffectiveN(xs, ws []float64, rate, unit, perTrial float64) float64 {
	v := 0.0
	for i := range xs {
		d := xs[i] - rate*ws[i]
		v += d * d
	}
	if v <= 0 || unit <= 0 {
		return perTrial
	}
	return math.Min(perTrial, unit/v)
}
