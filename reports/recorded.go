package reports

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// GenLabel names a generation in a report: "g1 (cut 24)", and for a
// compaction the agent really made "g1 (cut 24, recorded by claude-code
// (auto, 155000 tokens before, 2026-03-02T09:30:01Z))".
func GenLabel(g *result.Generation) string {
	if g.Recorded != nil {
		return fmt.Sprintf("g%d (cut %d, %s)", g.N, g.Cut, g.Recorded)
	}
	return fmt.Sprintf("g%d (cut %d)", g.N, g.Cut)
}

// RecordedRow is one recorded compaction as a run judged it: a generation
// of the summarizer recorded, and what its invariant checks found.
type RecordedRow struct {
	Scenario, Summarizer string
	Trial, N, Cut        int
	// Provenance is result.Recorded.String().
	Provenance string
	// Kept, Lost and Uncertain count its invariant checks that passed,
	// failed and could not tell; LostNames names the failed ones
	// ("constraint no-main").
	Kept, Lost, Uncertain int
	LostNames             []string
}

// UnitRecorded returns the recorded compactions of a unit, in generation
// order (none for a unit of another summarizer).
func UnitRecorded(u *result.Unit) []RecordedRow {
	var out []RecordedRow
	for i := range u.Generations {
		g := &u.Generations[i]
		if g.Recorded == nil {
			continue
		}
		row := RecordedRow{Scenario: u.Scenario.ID, Summarizer: u.Summarizer, Trial: u.Trial, N: g.N, Cut: g.Cut, Provenance: g.Recorded.String()}
		for _, c := range g.Checks {
			if c.Kind != result.KindInvariant {
				continue
			}
			switch c.Status {
			case result.Pass:
				row.Kept++
			case result.Fail:
				row.Lost++
				row.LostNames = append(row.LostNames, strings.TrimSpace(c.Check+" "+c.Invariant))
			case result.Uncertain:
				row.Uncertain++
			}
		}
		out = append(out, row)
	}
	return out
}

// Verdict is "kept 3 of 3 invariants", "LOST constraint no-main (2 of 3
// kept)" or "no invariant applies", with the uncertain ones counted.
func (r RecordedRow) Verdict() string {
	n := r.Kept + r.Lost + r.Uncertain
	var s string
	switch {
	case n == 0:
		return "no invariant applies"
	case r.Lost > 0:
		s = fmt.Sprintf("LOST %s (%d of %d kept)", strings.Join(r.LostNames, ", "), r.Kept, n)
	default:
		s = fmt.Sprintf("kept %d of %d invariants", r.Kept, n)
	}
	if r.Uncertain > 0 {
		s += fmt.Sprintf(", %d uncertain", r.Uncertain)
	}
	return s
}

// writeRecordedMarkdown writes the section that audits the agent's own
// compactions: one row per recorded generation, and the units the
// summarizer recorded skipped.
func writeRecordedMarkdown(b *bytes.Buffer, r *result.Result) {
	var rows []RecordedRow
	var skipped []string
	for i := range r.Units {
		u := &r.Units[i]
		rows = append(rows, UnitRecorded(u)...)
		if u.Skipped != "" {
			skipped = append(skipped, fmt.Sprintf("- %s · %s: skipped, %s\n", mdCode(u.Scenario.ID, false), mdCode(u.Summarizer, false), mdCode(u.Skipped, false)))
		}
	}
	if len(rows) == 0 && len(skipped) == 0 {
		return
	}
	b.WriteString("\n### Recorded compactions\n\n")
	if len(rows) > 0 {
		b.WriteString("The compactions the agent itself made, kept from its log and judged like any other summary.\n\n")
		b.WriteString("| scenario | summarizer | gen | cut | provenance | invariants |\n|---|---|---:|---:|---|---|\n")
		for _, row := range rows {
			gen := fmt.Sprintf("g%d", row.N)
			if r.Config.Trials > 1 {
				gen = fmt.Sprintf("t%d %s", row.Trial+1, gen)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s |\n", mdCode(row.Scenario, true), mdCode(row.Summarizer, true), gen, row.Cut, mdCode(row.Provenance, true), mdCode(row.Verdict(), true))
		}
	}
	if len(skipped) > 0 {
		if len(rows) > 0 {
			b.WriteString("\n")
		}
		for i, s := range skipped {
			if i == 20 {
				fmt.Fprintf(b, "- … and %d more skipped\n", len(skipped)-20)
				break
			}
			b.WriteString(s)
		}
	}
}
