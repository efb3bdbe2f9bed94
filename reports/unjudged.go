package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// DefaultMinJudgedShare is the least share of the outcomes the baseline
// judged for a summarizer (pass, fail, error or uncertain, in the scenarios
// both runs ran) that the run must still judge for the baseline gate to
// hold on it. Half, because the honest change that judges less is a
// summarizer moving from a structured summary to plain text, where the
// field-level checks skip: builtin:extractive → builtin:mask under one name
// keeps 64% of the built-in suite's judged outcomes, while a swap to the
// control arm builtin:none keeps only the decisions, 11%.
const DefaultMinJudgedShare = 0.5

// judgedEvidence counts, per summarizer of the new run paired with the
// baseline and per kind of outcome, the paired outcomes the baseline
// judged (base) and those of them the run still judges (now).
type judgedEvidence struct {
	base, now map[string]int // by kind
}

func (e judgedEvidence) total() (base, now int) {
	for k, n := range e.base {
		base += n
		now += e.now[k]
	}
	return base, now
}

// judgedPairs computes judgedEvidence from a comparison: its rows hold the
// pairs judged on both sides, and the base passes missing from the new run
// (counted there as fails: regressions, not evidence the run judged), its
// NoLongerJudged the pairs judged in the base alone. kinds names each check
// type's kind.
func judgedPairs(c *Comparison, kinds map[string]string) map[string]judgedEvidence {
	out := map[string]judgedEvidence{}
	get := func(s string) judgedEvidence {
		e, ok := out[s]
		if !ok {
			e = judgedEvidence{base: map[string]int{}, now: map[string]int{}}
			out[s] = e
		}
		return e
	}
	for _, p := range c.Pairs {
		get(p.New)
	}
	for _, r := range c.Rows {
		e := get(r.Summarizer)
		k := kindOf(r.Check, kinds)
		e.base[k] += r.N
		e.now[k] += r.N
	}
	for _, ch := range c.Regressions {
		if strings.HasPrefix(ch.Message, "missing from the new run") || unitWide(ch.Message) {
			k := ch.Kind
			if k == "" {
				k = kindOf(ch.Check, kinds)
			}
			get(ch.Summarizer).now[k]--
		}
	}
	for _, ch := range c.NoLongerJudged {
		if !judged(ch.Base) {
			continue
		}
		k := ch.Kind
		if k == "" {
			k = kindOf(ch.Check, kinds)
		}
		get(ch.Summarizer).base[k]++
	}
	return out
}

func kindOf(check string, kinds map[string]string) string {
	switch {
	case check == result.CheckDecisions:
		return result.KindDecision
	case check == result.CheckRecall:
		return result.KindRecall
	case kinds[check] != "":
		return kinds[check]
	case slices.Contains(result.StructuralChecks, check):
		return result.KindStructural
	}
	return result.KindInvariant
}

// checkKinds maps the check types of the results to their kinds.
func checkKinds(rs ...*result.Result) map[string]string {
	m := map[string]string{}
	for _, r := range rs {
		for _, u := range r.Units {
			for _, g := range u.Generations {
				for _, c := range g.Checks {
					if m[c.Check] == "" && c.Kind != "" {
						m[c.Check] = c.Kind
					}
				}
			}
		}
	}
	return m
}

// kindNames are the kinds of outcomes in the order the gate lines name them.
var kindNames = []struct{ kind, one, more string }{
	{result.KindInvariant, "invariant", "invariants"},
	{result.KindStructural, "structural check", "structural checks"},
	{result.KindDecision, "decision", "decisions"},
	{result.KindRecall, "recall answer", "recall answers"},
}

// unjudgedGate fails the baseline gate for every paired summarizer the run
// no longer gives the evidence the baseline had: no outcome judged in
// common with the baseline, a kind of outcome the baseline judged and the
// run judges none of (its invariants, say, when the summary became
// opaque), or fewer than minShare of the baseline's judged outcomes. With
// allow the failures are notes instead.
func unjudgedGate(c *Comparison, kinds map[string]string, minShare float64, allow bool) (fails, notes []string) {
	ev := judgedPairs(c, kinds)
	for _, p := range c.Pairs {
		e := ev[p.New]
		base, now := e.total()
		name := p.New
		if p.Base != p.New {
			name = p.Base + " → " + p.New
		}
		var why []string
		if base == 0 {
			why = append(why, "no outcome the baseline judged for it is judged in this run (nothing paired)")
		} else {
			if float64(now) < minShare*float64(base) {
				why = append(why, fmt.Sprintf("%d of the %d outcomes the baseline judged are still judged (%.0f%%, below %.0f%%)",
					now, base, 100*float64(now)/float64(base), 100*minShare))
			}
			for _, k := range kindNames {
				if e.base[k.kind] > 0 && e.now[k.kind] == 0 {
					why = append(why, fmt.Sprintf("none of its %d %s judged in the baseline is judged now", e.base[k.kind], map[bool]string{true: k.one, false: k.more}[e.base[k.kind] == 1]))
				}
			}
		}
		if len(why) == 0 {
			continue
		}
		line := fmt.Sprintf("baseline: summarizer %s: no evidence to pass on: %s", name, strings.Join(why, "; "))
		if allow {
			notes = append(notes, "note "+line+" (allowed by --allow-unjudged)")
		} else {
			fails = append(fails, "FAIL "+line+" (--allow-unjudged accepts this)")
		}
	}
	return fails, notes
}
