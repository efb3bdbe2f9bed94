package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/scenarios"
)

// CheckDecisions is the pseudo check type of probe outcomes in aggregates,
// gates and comparisons: pass = kept, fail = compaction_regression, error =
// an agent call failed, skip = the agent was already wrong on the full
// context (agent_error, compacted_only).
const CheckDecisions = "decisions"

// KindDecision is the Kind of the decisions aggregate.
const KindDecision = "decision"

// InvariantTypes and StructuralChecks list the check types of docs/formats.md §2
// in the order reports show them. Unknown check types follow, sorted.
var (
	InvariantTypes   = scenarios.InvariantTypes
	StructuralChecks = checks.StructuralNames
)

// checkRank orders check types: invariants, structural checks, others,
// decisions last.
func checkRank(check string) int {
	if i := slices.Index(InvariantTypes, check); i >= 0 {
		return i
	}
	if i := slices.Index(StructuralChecks, check); i >= 0 {
		return 100 + i
	}
	if check == CheckDecisions {
		return 1000
	}
	return 500
}

func lessCheck(a, b string) bool {
	ra, rb := checkRank(a), checkRank(b)
	if ra != rb {
		return ra < rb
	}
	return a < b
}

// decisionStatus maps a probe class to a check status (see CheckDecisions).
func decisionStatus(class string) checks.Status {
	switch class {
	case Kept:
		return checks.Pass
	case CompactionRegression:
		return checks.Fail
	case ProbeErrored:
		return checks.Error
	default:
		return checks.Skip
	}
}

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
	aggs := map[key]*Aggregate{}
	get := func(sum, check, kind string) *Aggregate {
		k := key{sum, check}
		a := aggs[k]
		if a == nil {
			a = &Aggregate{Summarizer: sum, Check: check, Kind: kind}
			aggs[k] = a
		}
		return a
	}
	count := func(a *Aggregate, s checks.Status) {
		switch s {
		case checks.Pass:
			a.Pass++
		case checks.Fail:
			a.Fail++
		case checks.Error:
			a.Error++
		default:
			a.Skip++
		}
	}
	type acc struct {
		s         SummarizerSummary
		ratios    []float64
		latencies []float64
		genTokens int
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
			if len(g.Summary) > 0 {
				s.Generations++
				s.SummaryTokens += g.SummaryTokens
				if g.ReplacedTokens > 0 {
					ac.ratios = append(ac.ratios, float64(g.SummaryTokens)/float64(g.ReplacedTokens))
				}
			}
			for _, c := range g.Checks {
				count(get(u.Summarizer, c.Check, c.Kind), c.Status)
				switch {
				case c.Status == checks.Error:
					s.Errors++
				case c.Kind == checks.KindInvariant && c.Status == checks.Pass:
					s.InvariantPass++
				case c.Kind == checks.KindInvariant && c.Status == checks.Fail:
					s.InvariantFail++
				case c.Kind == checks.KindStructural && c.Status == checks.Pass:
					s.StructuralPass++
				case c.Kind == checks.KindStructural && c.Status == checks.Fail:
					s.StructuralFail++
				case c.Kind == checks.KindInvariant && c.Status == checks.Skip:
					s.InvariantSkip++
				case c.Kind == checks.KindStructural && c.Status == checks.Skip:
					s.StructuralSkip++
				}
			}
		}
		for _, p := range u.Probes {
			s.Probes++
			s.Retries += p.Full.Call.Retries + p.Compacted.Call.Retries
			count(get(u.Summarizer, CheckDecisions, KindDecision), decisionStatus(p.Class))
			if p.Class == CompactionRegression {
				s.Regressions++
			}
		}
	}
	r.Aggregates = make([]Aggregate, 0, len(aggs)) // never reuse: the slice may be shared
	for _, a := range aggs {
		a.PassRate, a.Low, a.High = Wilson(a.Pass, a.Pass+a.Fail)
		r.Aggregates = append(r.Aggregates, *a)
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
		return lessCheck(a.Check, b.Check)
	})
	if len(r.Aggregates) == 0 {
		r.Aggregates = nil
	}
	r.Summaries = nil
	for _, name := range Summarizers(r) {
		ac := accs[name]
		if ac == nil {
			continue
		}
		s := ac.s
		s.InvariantsKept = ratio(s.InvariantPass, s.InvariantPass+s.InvariantFail)
		s.StructuralPassed = ratio(s.StructuralPass, s.StructuralPass+s.StructuralFail)
		if d := aggs[key{name, CheckDecisions}]; d != nil {
			s.RegressionRate = ratio(d.Fail, d.Pass+d.Fail)
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
	sort.SliceStable(out, func(i, j int) bool { return lessCheck(out[i], out[j]) })
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

func sortFloats(s []float64) { slices.Sort(s) }

// Headline renders a headline figure that cannot flatter: the rate over
// the applicable results, with passed/applicable and the number skipped
// ("93% (14/15, 3 skipped)"); "—" with the skips when nothing applied.
// A summary whose checks were mostly skipped never shows a bare 100%.
func Headline(pass, fail, skip int) string {
	n := pass + fail
	var b strings.Builder
	if n == 0 {
		b.WriteString("—")
	} else {
		pc := math.Round(100 * float64(pass) / float64(n))
		if pc == 100 && pass < n {
			pc = 99 // 100% only when every applicable result passed
		}
		fmt.Fprintf(&b, "%.0f%% (%d/%d", pc, pass, n)
	}
	switch {
	case n > 0 && skip > 0:
		fmt.Fprintf(&b, ", %d skipped)", skip)
	case n > 0:
		b.WriteString(")")
	case skip > 0:
		fmt.Fprintf(&b, " (%d skipped)", skip)
	}
	return b.String()
}

// Ranked returns the summaries of r best first, as the verdict line and the
// leaderboard rank them: most invariants kept (a count, so that a summary
// whose invariants were skipped or whose units errored cannot rise on a
// rate over fewer results), then fewest compaction regressions, then
// fewest invariant failures, then fewest structural failures (a fabricated
// citation keeps every invariant and fails grounding), then the order of
// the run.
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
		return a.StructuralFail < b.StructuralFail
	})
	return out
}
