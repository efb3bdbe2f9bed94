package stats

import (
	"math"
	"math/rand/v2"

	"github.com/compact-eval/compact-eval/result"
)

// Cluster is one scenario's paired outcomes in a comparison of two arms
// (base and new, or summarizer A and B) on one check type, over every trial
// of the scenario: Up counts the pairs where only the second arm passed,
// Down those where only the first did, N every pair, and Trials the trials
// the pairs come from. Trials of a scenario are not independent
// observations, so they are summed into one cluster.
type Cluster struct{ Up, Down, N, Trials int }

// Diff is the cluster's net difference, Up − Down.
func (c Cluster) Diff() int { return c.Up - c.Down }

// maxConvolution bounds the steps of the p-value's exact convolution
// (scenarios × the range of the sum, about a second of CPU); past it the
// p-value is estimated from Draws random sign flips.
const maxConvolution = 1e8

// Draws is the number of random sign flips the p-value uses past
// maxConvolution. They come from a fixed seed, so that the same clusters
// give the same p-value on every machine and every rerun.
const Draws = 20000

const seed1, seed2 = 0x636f6d70616374, 0x6576616c

// PairedTest is a clustered paired comparison (ClusteredPaired).
type PairedTest struct {
	// Delta is Σ(Up − Down) / ΣN, the difference of the two arms' pass
	// rates over every pair (second − first); Low and High its 1−alpha
	// interval, which excludes 0 exactly when P < alpha.
	Delta, Low, High float64
	// P is the two-sided p-value of the sign-flip test over scenarios;
	// ExactP is false when it was estimated from Draws random flips.
	P      float64
	ExactP bool
	// Scenarios counts the clusters with a pair, Pairs the pairs, and
	// EffectivePairs the number of independent pairs the interval counts
	// them as (result.EffectiveN, with the paired variance of one pair).
	Scenarios, Pairs int
	EffectivePairs   float64
}

// ClusteredPaired compares two arms over clusters (scenarios) at level
// 1−alpha.
//
// The test is the sign-flip (randomization) test of the scenarios' net
// differences: under the null hypothesis the two arms are exchangeable
// within each scenario, so a scenario's Up − Down is as likely to be
// negated as not, and P is the share of the 2^k sign patterns whose sum is
// at least as far from 0 as the one observed, computed exactly (a
// convolution of the scenarios' differences). When every scenario holds one
// pair (one trial, one outcome) it is the exact sign test: McNemar(Down,
// Up). Trials that are copies of one another multiply every difference by
// the trial count, which leaves P as it was with one trial.
//
// The interval is PairedDelta's, over the effective number of pairs
// (result.EffectiveN of the scenarios' differences): the discordant counts are
// scaled to it, and its bound at Δ = 0 is decided by P, so that it
// excludes 0 exactly when P < alpha. When every scenario holds one pair in
// one trial, the effective count is the count and the interval is
// PairedDelta(Down, Up, N) itself.
func ClusteredPaired(cs []Cluster, alpha float64) PairedTest {
	t := PairedTest{Low: -1, High: 1, P: 1, ExactP: true}
	var kept []Cluster
	b, c := 0, 0
	for _, cl := range cs {
		if cl.N > 0 {
			kept = append(kept, cl)
			t.Pairs += cl.N
			b, c = b+cl.Down, c+cl.Up
		}
	}
	t.Scenarios = len(kept)
	if t.Pairs == 0 {
		return t
	}
	n := float64(t.Pairs)
	t.Delta = float64(c-b) / n
	t.P, t.ExactP = signFlip(kept)
	// The variance of Delta over scenarios, and the i.i.d. variance of a
	// difference of paired rates with these discordant shares.
	xs, ws := make([]float64, len(kept)), make([]float64, len(kept))
	for i, cl := range kept {
		xs[i], ws[i] = float64(cl.Diff())/n, float64(cl.N)/n
	}
	iid := float64(b+c)/n - t.Delta*t.Delta
	t.EffectivePairs = result.EffectiveN(xs, ws, t.Delta, iid, perTrial(kept))
	// The discordant counts at the effective n, as shares of it: the same
	// floating-point values for trials that copy one another.
	ne := t.EffectivePairs
	m := float64(b+c) / n * ne
	up := float64(c) / n * ne
	_, t.Low, t.High = pairedDelta(m-up, up, ne, alpha, t.P < alpha)
	return t
}

// perTrial is the pairs of one trial: Σ N/Trials.
func perTrial(cs []Cluster) float64 {
	s := 0.0
	for _, c := range cs {
		s += float64(c.N) / float64(max(1, c.Trials))
	}
	return s
}

// signFlip is the two-sided p-value of the sign-flip test of Σ(Up − Down)
// = 0 over the clusters: exact by convolution when it is small enough,
// else from Draws random sign patterns.
func signFlip(cs []Cluster) (p float64, exact bool) {
	g := 0
	for _, c := range cs {
		g = gcd(g, abs(c.Diff()))
	}
	if g == 0 {
		return 1, true // no scenario moved
	}
	var vals []int
	sum, width := 0, 0
	for _, c := range cs {
		if d := c.Diff() / g; d != 0 {
			vals = append(vals, abs(d))
			sum += d
			width += abs(d)
		}
	}
	obs := abs(sum)
	if float64(len(vals))*float64(width) > maxConvolution {
		return drawnSignFlip(vals, obs), false
	}
	// dist[width+s] is P(Σ ±v = s) over the values seen so far, whose sum
	// spans [−reach, reach].
	dist := make([]float64, 2*width+1)
	next := make([]float64, 2*width+1)
	dist[width] = 1
	reach := 0
	for _, v := range vals {
		reach += v
		clear(next[width-reach : width+reach+1])
		for s := width - reach + v; s <= width+reach-v; s++ {
			if w := dist[s]; w != 0 {
				next[s-v] += w / 2
				next[s+v] += w / 2
			}
		}
		dist, next = next, dist
	}
	for s := obs; s <= width; s++ {
		p += dist[width+s]
		if s != 0 {
			p += dist[width-s]
		}
	}
	return math.Min(1, p), true
}

// drawnSignFlip estimates the sign-flip p-value of obs from Draws random
// patterns of vals: (1 + the patterns at least as extreme) / (Draws + 1),
// which is never 0.
func drawnSignFlip(vals []int, obs int) float64 {
	rng := rand.New(rand.NewPCG(seed1, seed2))
	hits := 1
	for range Draws {
		var bits uint64
		s := 0
		for i, v := range vals {
			if i%64 == 0 {
				bits = rng.Uint64()
			}
			if bits&1 == 1 {
				s += v
			} else {
				s -= v
			}
			bits >>= 1
		}
		if abs(s) >= obs {
			hits++
		}
	}
	return float64(hits) / float64(Draws+1)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
