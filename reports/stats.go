package reports

import (
	"fmt"
	"slices"

	"github.com/compact-eval/compact-eval/internal/stats"
	"github.com/compact-eval/compact-eval/reports/internal/junit"
	"github.com/compact-eval/compact-eval/result"
)

// McNemar returns the two-sided p-value of the exact McNemar test for the
// discordant pair counts b (pass→fail) and c (fail→pass); see
// internal/stats.McNemar. It is the paired test when every scenario holds
// one pair; compare and the head-to-head test scenarios (PairClusters).
func McNemar(b, c int) float64 { return stats.McNemar(b, c) }

// PairedDelta returns the difference of paired pass rates (new − base) and
// a 1−alpha interval for it that agrees with McNemar; see
// internal/stats.PairedDelta.
func PairedDelta(b, c, n int, alpha float64) (delta, low, high float64) {
	return stats.PairedDelta(b, c, n, alpha)
}

// PairClusters gathers the pairs of one paired comparison row (a
// summarizer × check type of two runs, or a check type of two summarizers)
// by scenario, the unit of independence: trials and outcomes of one
// scenario are not independent observations. The zero value is ready.
type PairClusters struct {
	by map[string]*pairCluster
}

type pairCluster struct {
	c      stats.Cluster
	trials map[int]bool
}

// Add counts one pair of scenario in trial: whether the first arm (the
// base, or A) and the second (new, or B) passed.
func (p *PairClusters) Add(scenario string, trial int, first, second bool) {
	if p.by == nil {
		p.by = map[string]*pairCluster{}
	}
	cl := p.by[scenario]
	if cl == nil {
		cl = &pairCluster{trials: map[int]bool{}}
		p.by[scenario] = cl
	}
	cl.c.N++
	switch {
	case first && !second:
		cl.c.Down++
	case second && !first:
		cl.c.Up++
	}
	cl.trials[trial] = true
}

// Test is the clustered paired test and interval of the pairs at level
// 1−alpha (internal/stats.ClusteredPaired), the scenarios in id order.
func (p *PairClusters) Test(alpha float64) stats.PairedTest {
	ids := make([]string, 0, len(p.by))
	for id := range p.by {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	cs := make([]stats.Cluster, len(ids))
	for i, id := range ids {
		cl := p.by[id]
		cs[i] = cl.c
		cs[i].Trials = len(cl.trials)
	}
	return stats.ClusteredPaired(cs, alpha)
}

// intervalLabel is the column title of an interval at 1−alpha: "95% interval".
func intervalLabel(alpha float64) string {
	return fmt.Sprintf("%.4g%% interval", 100*(1-alpha))
}

// TrialsIdentical reports whether r ran several trials and every
// summarizer of names (nil: every summarizer of r) gave the same outcomes
// in each: then the trials add no evidence, and every p-value and interval
// is that of one trial.
func TrialsIdentical(r *result.Result, names []string) bool {
	n := 0
	for _, s := range r.Summaries {
		if names != nil && !slices.Contains(names, s.Summarizer) {
			continue
		}
		if !s.Trials.Identical() {
			return false
		}
		n++
	}
	return n > 0
}

// TrialsIdenticalLine is the one line every report gives a run whose
// trials are identical (TrialsIdentical).
func TrialsIdenticalLine(trials int) string {
	return fmt.Sprintf("trials identical: every summarizer gave the same outcomes in all %d trials (deterministic), so n counts scenarios and every p-value and interval is that of one trial", trials)
}

// TrialRow is one summarizer's spread across trials, as the reports show
// it (TrialRows).
type TrialRow struct {
	Summarizer string
	// Changed is "2/21 (5/812 outcomes)": the scenarios whose outcomes
	// changed between trials; PassN is "pass^3 10% (2/21)", PerTrial "14%".
	Changed, PassN, PerTrial string
	Spread                   *result.TrialSpread
}

// TrialRows are the spread across trials of each summarizer of r, in
// report order; nil when r has one trial.
func TrialRows(r *result.Result) []TrialRow {
	var out []TrialRow
	for _, s := range result.Ranked(r) {
		t := s.Trials
		if t == nil {
			continue
		}
		out = append(out, TrialRow{
			Summarizer: s.Summarizer,
			Changed:    fmt.Sprintf("%d/%d (%d/%d outcomes)", t.Changed, t.Scenarios, t.ChangedOutcomes, t.Outcomes),
			PassN:      fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(t.PassAll)/float64(max(1, t.Scenarios)), t.PassAll, t.Scenarios),
			PerTrial:   fmt.Sprintf("%.0f%%", 100*t.PassPerTrial),
			Spread:     t,
		})
	}
	return out
}

// Text is the row in one line: "changed in 2/21 (5/812 outcomes); pass^3
// 10% (2/21), 14% in one trial".
func (row TrialRow) Text() string {
	what := "changed in " + row.Changed
	if row.Spread.Changed == 0 {
		what = "identical in every trial"
	}
	return fmt.Sprintf("%s; pass^%d %s, %s in one trial", what, row.Spread.Trials, row.PassN, row.PerTrial)
}

// trialProperties are the JUnit properties of the spread across trials:
// compact-eval.trials.SUMMARIZER, each row's Text.
func trialProperties(r *result.Result) []junit.Property {
	var ps []junit.Property
	for _, row := range TrialRows(r) {
		ps = append(ps, junit.Property{Name: "compact-eval.trials." + row.Summarizer, Value: row.Text()})
	}
	return ps
}

// TrialLines are the lines that say how outcomes varied between trials,
// for a run with several: the one TrialsIdenticalLine when none changed,
// else a title and one line per summarizer, its name written by name
// (console.Text for a terminal). Nil with one trial.
func TrialLines(r *result.Result, name func(string) string) []string {
	rows := TrialRows(r)
	if len(rows) == 0 {
		return nil
	}
	n := rows[0].Spread.Trials
	if TrialsIdentical(r, nil) {
		return []string{TrialsIdenticalLine(n)}
	}
	out := []string{fmt.Sprintf("trials: scenarios whose outcomes changed between the %d trials, and pass^%d (the scenarios that passed in all %d, beside the share that passes in one trial):", n, n, n)}
	for _, row := range rows {
		out = append(out, fmt.Sprintf("  %s: %s", name(row.Summarizer), row.Text()))
	}
	return out
}
