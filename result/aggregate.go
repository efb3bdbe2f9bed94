package result

import (
	"slices"
	"sort"
	"time"
)

// Summarizers returns the summarizers of r: those of the config in config
// order, then any other found in the units, in order of appearance.
func Summarizers(r *Result) []string {
	out := append([]string(nil), r.Config.Summarizers...)
	for _, u := range r.Units {
		if !slices.Contains(out, u.Summarizer) {
			out = append(out, u.Summarizer)
		}
	}
	return out
}

// Aggregate computes r.Aggregates (one per summarizer × check type present,
// plus CheckDecisions when there are probes) and r.Summaries from r.Units,
// replacing what was there. It is deterministic. (It is a method because the
// type Aggregate already owns the package-level name.)
func (r *Result) Aggregate() {
	type key struct{ sum, check string }
	// An aggregate with its outcomes by scenario, for its interval.
	type aggAcc struct {
		Aggregate
		rates ScenarioRates
	}
	aggs := map[key]*aggAcc{}
	get := func(sum, check, kind string) *aggAcc {
		k := key{sum, check}
		a := aggs[k]
		if a == nil {
			a = &aggAcc{Aggregate: Aggregate{Summarizer: sum, Check: check, Kind: kind}}
			aggs[k] = a
		}
		return a
	}
	count := func(a *aggAcc, u *Unit, s Status) {
		if judgedStatus(s) {
			a.rates.Add(u.Scenario.ID, u.Trial, s == Pass)
		}
		switch s {
		case Pass:
			a.Pass++
		case Fail:
			a.Fail++
		case Error:
			a.Error++
		case Uncertain:
			a.Uncertain++
		default:
			a.Skip++
		}
	}
	type acc struct {
		s                     SummarizerSummary
		ratios                []float64
		latencies             []float64
		genTokens             int
		invariants, structure ScenarioRates
	}
	accs := map[string]*acc{}
	for i := range r.Units {
		u := &r.Units[i]
		ac := accs[u.Summarizer]
		if ac == nil {
			ac = &acc{s: SummarizerSummary{Summarizer: u.Summarizer}}
			accs[u.Summarizer] = ac
		}
		s := &ac.s
		s.Units++
		if u.Status == UnitError {
			s.Errors++
		}
		for _, g := range u.Generations {
			if g.Error != "" {
				s.Errors++
			}
			s.Retries += g.Call.Retries
			if g.Call.Spec != "" || g.Call.Latency > 0 {
				ac.latencies = append(ac.latencies, float64(g.Call.Latency))
			}
			if c := g.Citations; c != nil {
				if s.Citations == nil {
					s.Citations = &CitationFigures{}
				}
				s.Citations.Evidence += c.Evidence
				s.Citations.EvidenceCited += c.EvidenceCited
				s.Citations.Cited += c.Cited
				s.Citations.Dangling += c.Dangling
				s.Citations.Irrelevant += c.Irrelevant
			}
			if len(g.Summary) > 0 {
				s.Generations++
				s.SummaryTokens += g.SummaryTokens
				if g.ReplacedTokens > 0 {
					ac.ratios = append(ac.ratios, float64(g.SummaryTokens)/float64(g.ReplacedTokens))
				}
			}
			for _, c := range g.Checks {
				a := get(u.Summarizer, c.Check, c.Kind)
				count(a, u, c.Status)
				a.Decided.Add(c.DecidedBy)
				if judgedStatus(c.Status) {
					switch c.Kind {
					case KindInvariant:
						ac.invariants.Add(u.Scenario.ID, u.Trial, c.Status == Pass)
					case KindStructural:
						ac.structure.Add(u.Scenario.ID, u.Trial, c.Status == Pass)
					}
				}
				switch {
				case c.Status == Error:
					s.Errors++
				case c.Kind == KindInvariant && c.Status == Pass:
					s.InvariantPass++
				case c.Kind == KindInvariant && c.Status == Fail:
					s.InvariantFail++
				case c.Kind == KindStructural && c.Status == Pass:
					s.StructuralPass++
				case c.Kind == KindStructural && c.Status == Fail:
					s.StructuralFail++
				case c.Kind == KindInvariant && c.Status == Uncertain:
					s.InvariantUncertain++
				case c.Kind == KindStructural && c.Status == Uncertain:
					s.StructuralUncertain++
				case c.Kind == KindInvariant && c.Status == Skip:
					s.InvariantSkip++
				case c.Kind == KindStructural && c.Status == Skip:
					s.StructuralSkip++
				}
			}
		}
		for _, p := range u.Probes {
			s.Probes++
			s.Retries += p.Full.Call.Retries + p.Compacted.Call.Retries
			count(get(u.Summarizer, CheckDecisions, KindDecision), u, DecisionStatus(p.Class))
			if p.Recall != nil {
				s.RecallProbes++
				s.Retries += p.Recall.Call.Retries
				for _, c := range p.Recall.RecallCalls {
					if c.Error == "" {
						s.RecallCalls++
						s.RecallTokens += c.Tokens
					}
				}
			}
			switch p.Recovery {
			case RecoveredByCitation:
				s.RecoveredByCitation++
			case RecoveredBySearch:
				s.RecoveredBySearch++
			case RecallLost, RecallFailed:
				s.RecallLost++
			}
			switch p.Class {
			case CompactionRegression:
				s.Regressions++
			case ProbeUncertain:
				s.ProbesUncertain++
			}
		}
	}
	r.Aggregates = make([]Aggregate, 0, len(aggs)) // never reuse: the slice may be shared
	for _, a := range aggs {
		a.PassRate, a.Low, a.High, a.EffectiveN, a.Scenarios = 0, 0, 1, 0, 0
		if iv := a.rates.interval(); iv != nil {
			a.PassRate = float64(a.Pass) / float64(a.Judged())
			a.Low, a.High, a.EffectiveN, a.Scenarios = iv.Low, iv.High, iv.EffectiveN, iv.Scenarios
		}
		r.Aggregates = append(r.Aggregates, a.Aggregate)
	}
	order := map[string]int{}
	for i, s := range Summarizers(r) {
		order[s] = i
	}
	sort.Slice(r.Aggregates, func(i, j int) bool {
		a, b := r.Aggregates[i], r.Aggregates[j]
		if a.Summarizer != b.Summarizer {
			return order[a.Summarizer] < order[b.Summarizer]
		}
		return LessCheck(a.Check, b.Check)
	})
	if len(r.Aggregates) == 0 {
		r.Aggregates = nil
	}
	r.Summaries = nil
	spreads := trialSpreads(r)
	for _, name := range Summarizers(r) {
		ac := accs[name]
		if ac == nil {
			continue
		}
		s := ac.s
		s.InvariantsKeptInterval, s.StructuralPassedInterval = ac.invariants.interval(), ac.structure.interval()
		s.Trials = spreads[name]
		s.InvariantsKept = ratio(s.InvariantPass, s.InvariantPass+s.InvariantFail+s.InvariantUncertain)
		s.StructuralPassed = ratio(s.StructuralPass, s.StructuralPass+s.StructuralFail+s.StructuralUncertain)
		if d := aggs[key{name, CheckDecisions}]; d != nil {
			s.RegressionRate = ratio(d.Fail, d.Pass+d.Fail+d.Uncertain)
		}
		if n := s.RecoveredByCitation + s.RecoveredBySearch + s.RecallLost; n > 0 {
			s.RecallRecoverable = ratio(s.RecoveredByCitation+s.RecoveredBySearch, n)
		}
		s.MeanCompression = mean(ac.ratios)
		s.MedianCompression = median(ac.ratios)
		if s.Generations > 0 {
			s.MeanSummaryTokens = float64(s.SummaryTokens) / float64(s.Generations)
		}
		s.MeanLatency = time.Duration(mean(ac.latencies))
		s.MedianLatency = time.Duration(median(ac.latencies))
		r.Summaries = append(r.Summaries, s)
	}
	r.judgeFigures()
}

// FindAggregate returns the aggregate of summarizer × check in r, or nil.
func FindAggregate(r *Result, summarizer, check string) *Aggregate {
	for i := range r.Aggregates {
		if a := &r.Aggregates[i]; a.Summarizer == summarizer && a.Check == check {
			return a
		}
	}
	return nil
}

// CheckTypes returns the check types present in r.Aggregates, in report order.
func CheckTypes(r *Result) []string {
	var out []string
	for _, a := range r.Aggregates {
		if !slices.Contains(out, a.Check) {
			out = append(out, a.Check)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return LessCheck(out[i], out[j]) })
	return out
}

func ratio(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(a) / float64(n)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

// Ranked returns the summaries of r best first, as the verdict line and the
// leaderboard rank them: most invariants kept (a count, so that a summary
// whose invariants were skipped or whose units errored cannot rise on a
// rate over fewer results), then fewest compaction regressions, then
// fewest invariant failures, then fewest uncertain invariants (a doubt is
// better than a loss, worse than a keep), then fewest structural failures
// (a fabricated citation keeps every invariant and fails grounding), then
// the order of the run.
func Ranked(r *Result) []SummarizerSummary {
	out := append([]SummarizerSummary(nil), r.Summaries...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.InvariantPass != b.InvariantPass {
			return a.InvariantPass > b.InvariantPass
		}
		if a.Regressions != b.Regressions {
			return a.Regressions < b.Regressions
		}
		if a.InvariantFail != b.InvariantFail {
			return a.InvariantFail < b.InvariantFail
		}
		if a.InvariantUncertain != b.InvariantUncertain {
			return a.InvariantUncertain < b.InvariantUncertain
		}
		return a.StructuralFail < b.StructuralFail
	})
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
