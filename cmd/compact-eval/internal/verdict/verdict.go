// Package verdict prints what `compact-eval run` shows a person at the end
// of a run: a one-line verdict, a table per summarizer, the worst failures
// and where the result file is. It reads units one at a time (Add) so that a
// run of any size prints in constant memory.
package verdict

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/console"
	"github.com/compact-eval/compact-eval/reports"
)

// DefaultMaxFailures is how many failures Write lists when Builder.Max is 0.
const DefaultMaxFailures = 20

// Builder collects what the verdict needs from units. The zero value is not
// usable: use New.
type Builder struct {
	// Max is the number of failures listed; 0 means DefaultMaxFailures.
	Max int

	// bySeverity keeps the first Max findings of each severity
	// (reports.Sev*), so that the worst can be listed in constant memory;
	// unitErrors keeps every unit that errored, past Max (one line each:
	// the console never hides one). counts counts the findings of each
	// severity.
	bySeverity [reports.NSeverities][]reports.Finding
	unitErrors []reports.Finding
	counts     [reports.NSeverities]int
	total      int
	uncertain  int
	// uncertainDecisions counts the probes of class uncertain.
	uncertainDecisions int
	units              int
	// decided counts the meaning checks' outcomes by what decided them.
	decided  result.Decided
	errors   int
	abandon  int
	scenario map[string]bool
	// recorded keeps the first Max recorded compactions judged
	// (reports.UnitRecorded), recordedN counts them all; skipped keeps
	// the first Max units whose summarizer did not apply, skippedN counts
	// them.
	recorded            []reports.RecordedRow
	skipped             []string
	recordedN, skippedN int
}

// New returns an empty Builder.
func New() *Builder { return &Builder{scenario: map[string]bool{}} }

func (b *Builder) max() int {
	if b.Max > 0 {
		return b.Max
	}
	return DefaultMaxFailures
}

// Add takes one unit into account. It keeps nothing of u but its first
// findings (reports.UnitFindings), cut to one line each.
func (b *Builder) Add(u *result.Unit) {
	b.units++
	b.scenario[u.Scenario.ID] = true
	switch u.Status {
	case result.UnitError:
		b.errors++
	case result.UnitAbandoned:
		b.abandon++
	}
	for _, row := range reports.UnitRecorded(u) {
		if b.recordedN++; len(b.recorded) < b.max() {
			b.recorded = append(b.recorded, row)
		}
	}
	if u.Skipped != "" {
		if b.skippedN++; len(b.skipped) < b.max() {
			b.skipped = append(b.skipped, fmt.Sprintf("%s · %s: %s", console.Text(u.Scenario.ID), console.Text(u.Summarizer), console.Text(u.Skipped)))
		}
	}
	for _, g := range u.Generations {
		for _, c := range g.Checks {
			b.decided.Add(c.DecidedBy)
		}
	}
	for _, f := range reports.UnitFindings(u) {
		b.total++
		b.counts[f.Severity]++
		switch {
		case f.Severity == reports.SevUncertain && f.Check == result.CheckDecisions:
			b.uncertainDecisions++
		case f.Severity == reports.SevUncertain:
			b.uncertain++
		}
		switch fs := &b.bySeverity[f.Severity]; {
		case isUnitError(f):
			// A unit's error is all it says of a unit that evaluated
			// nothing, the remedy often last ("raise
			// --summarizer-max-tokens"): it is given more room.
			f.Message = firstLine(f.Message, unitErrorRunes)
			b.unitErrors = append(b.unitErrors, f)
		case len(*fs) < b.max():
			f.Message = firstLine(f.Message, findingRunes)
			*fs = append(*fs, f)
		}
	}
}

// isUnitError reports whether f is a unit's own error (the unit did not
// finish): the console lists every one.
func isUnitError(f reports.Finding) bool { return f.Severity == reports.SevError && f.Check == "unit" }

// Failures returns the findings to list, in the order of every report
// (reports.SortFindings: errors, decision regressions, invariant failures,
// the rest), and how many more there are: every unit that errored, then
// the worst of the others up to Max in all.
func (b *Builder) Failures() (list []reports.Finding, more int) {
	list = slices.Clone(b.unitErrors)
	room := b.max() - len(list)
	for _, fs := range b.bySeverity {
		n := min(max(room, 0), len(fs))
		list = append(list, fs[:n]...)
		room -= n
	}
	reports.SortFindings(list)
	return list, b.total - len(list)
}

// leftOut says what the findings not listed are: "29 compaction
// regressions, 100 invariant failures, 17 uncertain".
func (b *Builder) leftOut(list []reports.Finding) string {
	var shown [reports.NSeverities]int
	for _, f := range list {
		shown[f.Severity]++
	}
	var parts []string
	for sev, n := range b.counts {
		if n -= shown[sev]; n > 0 {
			parts = append(parts, plural(n, severityNoun[sev]))
		}
	}
	return strings.Join(parts, ", ")
}

// severityNoun names a finding of each severity, for counts.
var severityNoun = [reports.NSeverities]string{
	reports.SevError:      "error",
	reports.SevRegression: "compaction regression",
	reports.SevInvariant:  "invariant failure",
	reports.SevStructural: "structural failure",
	reports.SevUncertain:  "uncertain outcome",
}

// NothingEvaluated reports whether the run had units and every one of them
// ended in error: no summary was checked and no probe decided.
func (b *Builder) NothingEvaluated() bool { return b.units > 0 && b.errors == b.units }

// Line is the one-line verdict.
func (b *Builder) Line(h *result.Result, planned int) string {
	var s strings.Builder
	if h.Interrupted {
		fmt.Fprintf(&s, "verdict: INTERRUPTED after %d of %d units", b.units-b.abandon, planned)
	} else if b.NothingEvaluated() {
		fmt.Fprintf(&s, "verdict: NOTHING EVALUATED: every unit errored (%s × %s × %s)", plural(len(b.scenario), "scenario"),
			plural(len(h.Config.Summarizers), "summarizer"), plural(h.Config.Trials, "trial"))
		return s.String()
	} else {
		fmt.Fprintf(&s, "verdict: finished %s (%s × %s × %s)", plural(b.units, "unit"), plural(len(b.scenario), "scenario"),
			plural(len(h.Config.Summarizers), "summarizer"), plural(h.Config.Trials, "trial"))
	}
	if b.errors > 0 {
		fmt.Fprintf(&s, ", %d with errors", b.errors)
	}
	regressions := 0
	for _, sum := range h.Summaries {
		regressions += sum.Regressions
	}
	// The best is ranked by invariants kept, then regressions
	// (result.Ranked), never by a rate over skipped checks.
	if ranked := result.Ranked(h); len(ranked) > 0 && ranked[0].InvariantPass+ranked[0].InvariantFail+ranked[0].InvariantUncertain > 0 {
		best := ranked[0]
		fmt.Fprintf(&s, "; most invariants kept: %s, %s", console.Text(best.Summarizer), reports.Headline(best.InvariantPass, best.InvariantFail, best.InvariantUncertain, best.InvariantSkip))
	}
	fmt.Fprintf(&s, "; %s", plural(regressions, "compaction regression"))
	if b.uncertain > 0 {
		// Never counted as kept: say how many could not be told.
		fmt.Fprintf(&s, "; %s", plural(b.uncertain, "uncertain check"))
	}
	if b.uncertainDecisions > 0 {
		// A probe the agent could not tell on the compacted context:
		// never kept, never a regression.
		fmt.Fprintf(&s, "; %s", plural(b.uncertainDecisions, "uncertain decision"))
	}
	if d := reports.DecidedText(b.decided); d != "" {
		// What earned the passes (and the fails): a typed record, a
		// plain statement, or nothing yet (a judge's to settle).
		fmt.Fprintf(&s, "; %s", d)
	}
	return s.String()
}

// Write prints the verdict line, the table, the failures and the result
// path.
func (b *Builder) Write(w io.Writer, h *result.Result, planned int, resultPath string) error {
	fmt.Fprintln(w, b.Line(h, planned))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "summarizer\tunits\tinvariants kept\tstructural passed\tregressions\tcompression (median)\tsummary tokens (mean)\t")
	for _, s := range result.Ranked(h) {
		inv := reports.Headline(s.InvariantPass, s.InvariantFail, s.InvariantUncertain, s.InvariantSkip)
		str := reports.Headline(s.StructuralPass, s.StructuralFail, s.StructuralUncertain, s.StructuralSkip)
		comp, tok := "—", "—"
		if s.Generations > 0 {
			comp = fmt.Sprintf("%.2f", s.MedianCompression)
			tok = fmt.Sprintf("%.0f", s.MeanSummaryTokens)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%s\t%s\t\n", console.Text(s.Summarizer), s.Units, inv, str, s.Regressions, comp, tok)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if lines := reports.TrialLines(h, console.Text); lines != nil {
		fmt.Fprintf(w, "\n%s\n", strings.Join(lines, "\n"))
	}
	if rows := reports.RecallRows(h); rows != nil {
		fmt.Fprintf(w, "\n%s\n\n", reports.RecallTitle(h.Config.Recall))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "summarizer\tregressions\tby citation\tby search only\tlost\trecoverable\trecall cost per probe\tevidence cited\tdangling or irrelevant citations\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", console.Text(r.Summarizer), r.Regressions, r.ByCitation, r.BySearch, r.Lost, r.Recoverable, r.Cost(), r.EvidenceCited, r.BadCitations)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	b.writeRecorded(w)
	list, more := b.Failures()
	if len(list) > 0 {
		fmt.Fprintf(w, "\nworst failures (scenario · summarizer · generation · check · seq · message):\n")
		for _, f := range list {
			seq := "-"
			if f.Seq > 0 {
				seq = fmt.Sprint(f.Seq)
			}
			fmt.Fprintf(w, "  %s · %s · %s · %s · %s · %s\n", console.Text(f.Scenario), console.Text(f.Summarizer), where(f), console.Text(label(f)), seq, console.Text(f.Message))
		}
		if more > 0 {
			fmt.Fprintf(w, "  … and %d more (%s): compact-eval report %s --format csv lists every outcome\n", more, b.leftOut(list), console.Text(shellWord(resultPath)))
		}
	}
	_, err := fmt.Fprintf(w, "\nresult: %s\n", console.Text(resultPath))
	return err
}

// writeRecorded lists the agent's own compactions the run judged, and the
// units skipped because their summarizer did not apply.
func (b *Builder) writeRecorded(w io.Writer) {
	if len(b.recorded) > 0 {
		fmt.Fprintf(w, "\nrecorded compactions (scenario · summarizer · generation · cut · provenance · invariants):\n")
		for _, r := range b.recorded {
			fmt.Fprintf(w, "  %s · %s · g%d · %d · %s · %s\n", console.Text(r.Scenario), console.Text(r.Summarizer), r.N, r.Cut, console.Text(r.Provenance), console.Text(r.Verdict()))
		}
		if more := b.recordedN - len(b.recorded); more > 0 {
			fmt.Fprintf(w, "  … and %d more in the result file\n", more)
		}
	}
	if len(b.skipped) > 0 {
		fmt.Fprintf(w, "\nskipped (scenario · summarizer: why):\n")
		for _, s := range b.skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
		if more := b.skippedN - len(b.skipped); more > 0 {
			fmt.Fprintf(w, "  … and %d more in the result file\n", more)
		}
	}
}

// where is the generation of a finding ("g2"), "probe" or "unit".
func where(f reports.Finding) string {
	switch {
	case f.Generation > 0:
		return fmt.Sprintf("g%d", f.Generation)
	case f.Check == result.CheckDecisions:
		return "probe"
	}
	return "unit"
}

// label is the check with its invariant or probe ("constraint ro",
// "decisions restart"), or "error" when the unit or a generation failed.
func label(f reports.Finding) string {
	switch {
	case f.Check == "unit" || f.Check == "generation":
		return "error"
	case f.Name != "":
		return f.Check + " " + f.Name
	}
	return f.Check
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// shellWord quotes s for a shell when it holds anything but the
// characters of a plain path.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func percent(r float64) string { return fmt.Sprintf("%.0f%%", 100*r) }

// The console clips a finding's message to findingRunes characters, a
// unit's error to unitErrorRunes.
const (
	findingRunes   = 160
	unitErrorRunes = 400
)

// firstLine is the first line of s, clipped to n characters.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-3]) + "..."
	}
	return s
}
