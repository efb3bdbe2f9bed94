package reports

import (
	"fmt"

	"github.com/compact-eval/compact-eval/reports/internal/junit"
	"github.com/compact-eval/compact-eval/result"
)

// RecallRow is one summarizer's recall-arm figures, as every report shows
// them (run --recall): its compaction regressions, how many of them the
// recall arm recovered by citation and by search only, how many are lost,
// the recoverable share, and the recall cost per probe asked on the arm.
type RecallRow struct {
	Summarizer                    string
	Regressions                   int
	ByCitation, BySearch, Lost    int
	Recoverable                   string // "93% (27/29)", "—" without regressions
	Probes, Calls, Tokens         int
	CallsPerProbe, TokensPerProbe float64
	// EvidenceCited is the share of invariants whose evidence the
	// summaries replaced that an entry cites, "75% (3/4)"; BadCitations
	// the share of citations that dangle or cite an unrelated event. "—"
	// when there is nothing to count.
	EvidenceCited, BadCitations string
}

// RecallTitle is the line above the recall table: the arm and its limits.
func RecallTitle(c *result.RecallConfig) string {
	return fmt.Sprintf("recall arm (%s, each at most %s and %d tokens): regressions recovered by following the summary's citations, by search only, or lost",
		plural(c.Calls, "call")+" per probe", plural(c.Events, "event"), c.Tokens)
}

// RecallRows returns the recall rows of r in ranked order, nil when the run
// did not ask the recall arm.
func RecallRows(r *result.Result) []RecallRow {
	if r.Config.Recall == nil {
		return nil
	}
	var rows []RecallRow
	for _, s := range result.Ranked(r) {
		row := RecallRow{Summarizer: s.Summarizer, Regressions: s.Regressions, ByCitation: s.RecoveredByCitation, BySearch: s.RecoveredBySearch,
			Lost: s.RecallLost, Probes: s.RecallProbes, Calls: s.RecallCalls, Tokens: s.RecallTokens, Recoverable: "—"}
		if n := s.RecoveredByCitation + s.RecoveredBySearch + s.RecallLost; n > 0 {
			row.Recoverable = fmt.Sprintf("%.0f%% (%d/%d)", 100*s.RecallRecoverable, s.RecoveredByCitation+s.RecoveredBySearch, n)
		}
		row.EvidenceCited, row.BadCitations = "—", "—"
		if c := s.Citations; c != nil {
			if c.Evidence > 0 {
				row.EvidenceCited = fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(c.EvidenceCited)/float64(c.Evidence), c.EvidenceCited, c.Evidence)
			}
			if c.Cited > 0 {
				row.BadCitations = fmt.Sprintf("%.0f%% (%d dangling, %d irrelevant of %d)", 100*float64(c.Dangling+c.Irrelevant)/float64(c.Cited), c.Dangling, c.Irrelevant, c.Cited)
			}
		}
		if s.RecallProbes > 0 {
			row.CallsPerProbe = float64(s.RecallCalls) / float64(s.RecallProbes)
			row.TokensPerProbe = float64(s.RecallTokens) / float64(s.RecallProbes)
		}
		rows = append(rows, row)
	}
	return rows
}

// Text is the row in one line, for JUnit properties: "3 regressions: 1
// by citation, 1 by search only, 1 lost (recoverable 67% (2/3)); recall
// cost per probe 0.4 calls, 120 tokens".
func (r RecallRow) Text() string {
	return fmt.Sprintf("%s: %d by citation, %d by search only, %d lost (recoverable %s); recall cost per probe %s; evidence cited %s; dangling or irrelevant citations %s",
		plural(r.Regressions, "regression"), r.ByCitation, r.BySearch, r.Lost, r.Recoverable, r.Cost(), r.EvidenceCited, r.BadCitations)
}

// recallProperties are the JUnit properties of the recall arm: its limits
// and one line per summarizer (RecallRow.Text); none without the arm.
func recallProperties(r *result.Result) []junit.Property {
	rows := RecallRows(r)
	if rows == nil {
		return nil
	}
	c := r.Config.Recall
	ps := []junit.Property{{Name: "compact-eval.recall", Value: fmt.Sprintf("%s, each at most %s and %d tokens", plural(c.Calls, "call")+" per probe", plural(c.Events, "event"), c.Tokens)}}
	for _, row := range rows {
		ps = append(ps, junit.Property{Name: "compact-eval.recall." + row.Summarizer, Value: row.Text()})
	}
	return ps
}

// Cost is the row's recall cost per probe, "1.2 calls, 340 tokens", or "—"
// when no probe was asked on the arm (nothing was compacted).
func (r RecallRow) Cost() string {
	if r.Probes == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f calls, %.0f tokens", r.CallsPerProbe, r.TokensPerProbe)
}
