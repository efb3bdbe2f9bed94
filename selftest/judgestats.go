package selftest

import (
	"fmt"
	"math"

	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/result"
)

// What makes a judge usable (docs/selftest.md §7): a judge is believed only
// once it is measured, and not when it fails either test.
const (
	// JudgeMinUsable is the floor of the usable-verdict rate: the share of
	// judgements that came back as kept, contradicted or missing. Below
	// it, more than one question in ten gets no verdict: under
	// --judge-gate each of those is an error, in the cascade a doubt left
	// open, so the judge would decide too little to be worth its calls.
	JudgeMinUsable = 0.9
	// JudgeAlpha is the one-sided level of the test that the judge's
	// verdicts on the planted labels are better than chance.
	JudgeAlpha = 0.05
)

// Rate is a share with its Wilson 95% interval: N of Of.
type Rate struct {
	N    int     `json:"n"`
	Of   int     `json:"of"`
	Rate float64 `json:"rate"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

func newRate(n, of int) Rate {
	r := Rate{N: n, Of: of}
	r.Rate, r.Low, r.High = result.Wilson(n, of)
	return r
}

// LabelTest is the judge's accuracy on the planted labels that have a right
// verdict (the oracle: kept; an inversion: contradicted; an omission:
// missing), against chance.
//
// Chance is a judge that does not read the document: whatever verdicts it
// gives the questions about one invariant (its oracle and the variants
// planted from it, in one generation), it would give them to those
// documents in any order. The test is the exact permutation test of that:
// the labels of each group are shuffled among its documents, every order
// equally likely, and P is the chance that the shuffled labels agree with
// the verdicts at least Correct times. A judge that gives one verdict to
// everything (always kept, always missing) agrees exactly as often under
// every order: P is 1, however many labels it happens to match. Judgements
// without a verdict are left out (the usable rate counts them).
type LabelTest struct {
	// Correct of Of: the judgements with a verdict whose verdict is the
	// label's.
	Correct int `json:"correct"`
	Of      int `json:"of"`
	// Chance is the number of agreements a judge that does not read the
	// documents reaches on average with these verdicts (the mean of the
	// permutation distribution).
	Chance float64 `json:"chance"`
	// P is the one-sided exact p-value: the probability of Correct or
	// more agreements under chance.
	P float64 `json:"p"`
	// Alpha is the level the test is read at (JudgeAlpha).
	Alpha float64 `json:"alpha"`
}

// BetterThanChance reports whether the test rejects chance at Alpha.
func (t LabelTest) BetterThanChance() bool { return t.Of > 0 && t.P < t.Alpha }

// measure fills the rates, the label test and the verdict of usability.
func (r *JudgeReport) measure() {
	usable := 0
	var inv, fa [2]int // with a verdict, of them contradicted
	for _, j := range r.Judgements {
		if !hasVerdict(j) {
			continue
		}
		usable++
		switch j.Class {
		case string(Invert):
			inv[0]++
			if j.Verdict == judges.Contradicted {
				inv[1]++
			}
		case FaithfulClass:
			fa[0]++
			if j.Verdict == judges.Contradicted {
				fa[1]++
			}
		}
	}
	r.Usable = newRate(usable, len(r.Judgements))
	r.Inversions = newRate(inv[1], inv[0])
	r.FalseAlarmRate = newRate(fa[1], fa[0])
	r.Labels = labelTest(r.Judgements)
	r.Unusable = r.unusable()
}

func hasVerdict(j Judgement) bool {
	switch j.Verdict {
	case judges.Kept, judges.Contradicted, judges.Missing:
		return true
	}
	return false
}

// unusable says why the judge cannot be believed, "" when it can.
func (r *JudgeReport) unusable() string {
	u := r.Usable
	switch {
	case u.Of == 0:
		return "it was asked nothing: no invariant of these scenarios can be judged"
	case u.Rate < JudgeMinUsable:
		return fmt.Sprintf("%d of %d judgements had a usable verdict (%s), below the floor of %s", u.N, u.Of, percent(u.Rate), percent(JudgeMinUsable))
	case r.Labels.Of == 0:
		return "nothing to measure it on: no oracle judgement with a planted inversion or omission beside it got a verdict"
	case !r.Labels.BetterThanChance():
		return fmt.Sprintf("its verdicts agree with %d of %d planted labels, where a judge that does not read the summaries agrees with %.1f (p = %s, one-sided; better than chance needs p < %g)",
			r.Labels.Correct, r.Labels.Of, r.Labels.Chance, formatP(r.Labels.P), r.Labels.Alpha)
	}
	return ""
}

func percent(f float64) string {
	return fmt.Sprintf("%.0f%%", math.Floor(100*f+0.5))
}

// formatP prints a p-value as the reports do: three decimals, "<0.001"
// below.
func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// labelTest computes LabelTest from the judgements: the groups are the
// oracle judgement of an invariant in a generation and the judgements of
// the inversions and omissions planted from it; a judgement of another
// class, or without a verdict, is left out.
func labelTest(js []Judgement) LabelTest {
	t := LabelTest{Alpha: JudgeAlpha}
	type key struct {
		scenario, invariant string
		gen                 int
	}
	groups := map[key][]Judgement{}
	var order []key
	for _, j := range js {
		if expected(j.Class) == "" || !hasVerdict(j) {
			continue
		}
		k := key{j.Scenario, j.Invariant, j.Generation}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], j)
	}
	// The null distribution of the total agreements: the convolution of
	// each group's.
	dist := []float64{1}
	for _, k := range order {
		g := groups[k]
		for _, j := range g {
			t.Of++
			if j.Verdict == expected(j.Class) {
				t.Correct++
			}
		}
		dist = convolve(dist, groupNull(g))
	}
	for n, p := range dist {
		t.Chance += float64(n) * p
	}
	p := 0.0
	for n := t.Correct; n < len(dist); n++ {
		p += dist[n]
	}
	t.P = math.Min(1, p)
	return t
}

// groupNull is the distribution of the agreements between a group's
// verdicts and its labels shuffled among its documents, every order
// equally likely: out[n] is the probability of n agreements. It deals the
// labels to the documents one at a time, tracking how many of each label
// are left (the three labels that have a right verdict).
func groupNull(g []Judgement) []float64 {
	labels := []string{FaithfulClass, string(Invert), string(Omit)}
	var left [3]int
	for _, j := range g {
		for i, l := range labels {
			if j.Class == l {
				left[i]++
			}
		}
	}
	type state struct {
		left  [3]int
		agree int
	}
	cur := map[state]float64{{left, 0}: 1}
	for _, j := range g {
		next := map[state]float64{}
		for s, p := range cur {
			rest := s.left[0] + s.left[1] + s.left[2]
			for i, l := range labels {
				if s.left[i] == 0 {
					continue
				}
				n := s
				n.left[i]--
				if j.Verdict == expected(l) {
					n.agree++
				}
				next[n] += p * float64(s.left[i]) / float64(rest)
			}
		}
		cur = next
	}
	out := make([]float64, len(g)+1)
	for s, p := range cur {
		out[s.agree] += p
	}
	return out
}

func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		if x == 0 {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}
