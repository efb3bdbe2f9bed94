package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/result"
)

// Formats are the names Write accepts.
var Formats = []string{"json", "md", "junit", "html", "csv", "units-csv", "otel"}

// Options tune the writers. The zero value is ready to use.
type Options struct {
	// Gate, when set, is the verdict of the gates of the run: Markdown and
	// HTML put its first line first. Nil means no gate was asked for.
	Gate *GateReport
	// MaxMarkdown is the size limit of the Markdown in bytes; 0 means
	// DefaultMaxMarkdown (GitHub's comment limit).
	MaxMarkdown int
	// MaxDrillDown is how many units the HTML shows in full (summary,
	// evidence, decision diffs), worst first; the others get one row each.
	// 0 means DefaultMaxDrillDown; negative means every unit.
	MaxDrillDown int
	// AnnotationFile maps a scenario file, as a result names it, to the
	// path a GitHub annotation gives (relative to the repository root),
	// or says it is not in the repository (false): a built-in scenario, a
	// file outside the checkout. Nil: every file as written.
	AnnotationFile func(file string) (string, bool)
	// Prices price the calls for the cost column of the per-unit CSV
	// (units-csv); nil: no cost is known.
	Prices Prices
}

// DefaultMaxMarkdown is GitHub's limit for a comment body (65,536 characters).
const DefaultMaxMarkdown = 65536

// DefaultMaxDrillDown keeps the HTML of 1,000 scenarios × 4 summarizers well
// under 20 MB.
const DefaultMaxDrillDown = 400

// Write renders r in format (one of Formats) to w. r must have been
// aggregated (Read and Result.Aggregate do that).
func Write(w io.Writer, r *result.Result, format string, opts Options) error {
	switch format {
	case "json":
		return result.WriteJSON(w, r)
	case "md", "markdown":
		return WriteMarkdown(w, r, opts)
	case "junit", "xml":
		return writeJUnit(w, r, opts)
	case "html":
		return WriteHTML(w, r, opts)
	case "csv":
		return WriteCSV(w, r)
	case "units-csv":
		return WriteUnitsCSV(w, r, opts.Prices)
	case "otel":
		return WriteOTel(w, r)
	default:
		return fmt.Errorf("unknown report format %q (valid: %s)", format, strings.Join(Formats, ", "))
	}
}

// RegressionText says how a probe's two arms differ: the choices, or for a
// free-text probe the answers and the judge's grades.
func RegressionText(p result.Probe) string {
	if p.Answer == "" {
		return fmt.Sprintf("full context chose %q, compacted chose %q (expected %q)", p.Full.Choice, p.Compacted.Choice, p.Expect)
	}
	grade := func(d result.Decision) string {
		if d.Judge == nil {
			return "ungraded"
		}
		return d.Judge.Verdict
	}
	return fmt.Sprintf("full context answered %q (%s), compacted answered %q (%s); expected: %s",
		clip.String(p.Full.Answer, 160), grade(p.Full), clip.String(p.Compacted.Answer, 160), grade(p.Compacted), clip.String(p.Answer, 160))
}

// UncertainText says what an uncertain probe (result.ProbeUncertain) is:
// the agent chose the expected option on the full context and could not
// tell on the compacted one, with the agent's reason.
func UncertainText(p result.Probe) string {
	s := fmt.Sprintf("full context chose %q, compacted context could not tell (%q; expected %q)", p.Full.Choice, p.Compacted.Choice, p.Expect)
	if p.Compacted.Reason != "" {
		s += ": " + clip.String(p.Compacted.Reason, 240)
	}
	return s
}

// Severity ranks findings, worst first: the one order of every list of
// findings (console, Markdown and step summary, HTML, JUnit, GitHub
// annotations). An error comes first, because nothing of its unit or
// generation was judged and every other line may follow from it; then a
// decision the agent got wrong because of compaction, the harm itself;
// then the invariants that explain it; then the rest.
const (
	SevError      = iota // the harness, summarizer or agent failed
	SevRegression        // a decision changed because of compaction
	SevInvariant         // an invariant check failed
	SevStructural        // a structural check failed
	// SevUncertain: a check could not tell (result.Uncertain). Not a
	// failure of the summary, never a pass: listed last, its message
	// starting "uncertain: ".
	SevUncertain
)

// KindSeverity is the Severity of a failure of a kind (result.KindDecision,
// KindInvariant, KindStructural, or KindUnit for a unit that failed as a
// whole), so that a baseline's changes list in the findings' order.
func KindSeverity(kind string) int {
	switch kind {
	case KindUnit:
		return SevError
	case result.KindDecision:
		return SevRegression
	case result.KindStructural:
		return SevStructural
	}
	return SevInvariant
}

// Finding is one thing that went wrong in a unit, as the Markdown, JUnit,
// HTML and GitHub outputs list them.
type Finding struct {
	Severity   int
	Scenario   string
	File       string
	Summarizer string
	Trial      int
	// Generation is the generation number; 0 for a probe or the unit.
	Generation int
	// Check is the check type, CheckDecisions for a probe, or "unit".
	Check string
	// Name is the invariant id, the probe id, or "".
	Name string
	// Seq, Pointer and Line locate it: the event, the place in the summary,
	// the line of the invariant in the scenario file (0 = unknown).
	Seq     int
	Pointer string
	Line    int
	Message string
	// Evidence is the text of the first evidence that has one (redacted
	// like everything else), or "".
	Evidence string
}

// Where is " (at POINTER: "TEXT")", " (at POINTER)" or "", the text cut
// at 80 bytes.
func (f Finding) Where() string {
	switch {
	case f.Pointer != "" && f.Evidence != "":
		return fmt.Sprintf(" (at %s: %q)", f.Pointer, clip.String(f.Evidence, 80))
	case f.Pointer != "":
		return " (at " + f.Pointer + ")"
	}
	return ""
}

// Label is "check/name" or "check".
func (f Finding) Label() string {
	if f.Name != "" {
		return f.Check + "/" + f.Name
	}
	return f.Check
}

// NSeverities is the number of severities; Sev* constants are below it.
const NSeverities = SevUncertain + 1

// Findings lists every failure, regression, error and uncertain check of
// r in the order of SortFindings.
func Findings(r *result.Result) []Finding {
	var out []Finding
	for i := range r.Units {
		out = append(out, UnitFindings(&r.Units[i])...)
	}
	SortFindings(out)
	return out
}

// SortFindings sorts findings given in unit order (UnitFindings of the
// units in result order) worst first (Severity), then by scenario, keeping
// the unit order within a scenario (summarizer in config order, trial,
// generation). Every list of findings is in this order.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return LessFinding(fs[i], fs[j]) })
}

// LessFinding reports whether a is listed before b: the more severe first,
// then by scenario; false for two findings a stable sort keeps in unit
// order.
func LessFinding(a, b Finding) bool {
	if a.Severity != b.Severity {
		return a.Severity < b.Severity
	}
	return a.Scenario < b.Scenario
}

// UnitFindings lists what went wrong in one unit, in the unit's order:
// its error, then each generation's error and failed, errored or
// uncertain checks (an error that only follows from its generation's error
// is not listed again), then its compaction regressions and failed probes.
func UnitFindings(u *result.Unit) []Finding {
	var out []Finding
	base := Finding{Scenario: u.Scenario.ID, File: u.Scenario.File, Summarizer: u.Summarizer, Trial: u.Trial}
	if u.Status == result.UnitError {
		f := base
		f.Severity, f.Check, f.Message = SevError, "unit", u.Error
		out = append(out, f)
	}
	for _, g := range u.Generations {
		if g.Error != "" && !strings.Contains(u.Error, g.Error) {
			// A unit error already explains its generations' errors (it
			// quotes the one that stopped it).
			f := base
			f.Severity, f.Generation, f.Check, f.Message = SevError, g.N, "generation", g.Error
			out = append(out, f)
		}
		for _, c := range g.Checks {
			if c.Status != result.Fail && c.Status != result.Error && c.Status != result.Uncertain {
				continue
			}
			if c.Status == result.Error && g.Error != "" {
				continue // a consequence of the generation's error, listed above
			}
			f := base
			f.Generation, f.Check, f.Name, f.Line = g.N, c.Check, c.Invariant, c.Pos.Line
			f.Message = c.Message
			for _, e := range c.Evidence {
				if f.Seq == 0 {
					f.Seq = e.Seq
				}
				if f.Pointer == "" {
					f.Pointer = e.Pointer
				}
				if f.Evidence == "" {
					f.Evidence = e.Text
				}
			}
			switch {
			case c.Status == result.Uncertain:
				f.Severity = SevUncertain
				f.Message = "uncertain: " + c.Message
			case c.Status == result.Error:
				f.Severity = SevError
			case c.Kind == result.KindInvariant:
				f.Severity = SevInvariant
			default:
				f.Severity = SevStructural
			}
			out = append(out, f)
		}
	}
	for _, p := range u.Probes {
		if p.Class != result.CompactionRegression && p.Class != result.ProbeErrored && p.Class != result.ProbeUncertain {
			continue
		}
		f := base
		f.Check, f.Name, f.Line = result.CheckDecisions, p.ID, p.Pos.Line
		switch p.Class {
		case result.ProbeErrored:
			f.Severity = SevError
			f.Message = p.ErrorText()
		case result.ProbeUncertain:
			f.Severity = SevUncertain
			f.Message = "uncertain: " + UncertainText(p)
		default:
			f.Severity = SevRegression
			f.Message = RegressionText(p)
		}
		out = append(out, f)
	}
	return out
}

// Counts are the totals of a result that a verdict names.
type Counts struct {
	Units, Scenarios                                   int
	InvariantFail, StructuralFail, Regressions, Errors int
	// Uncertain counts the checks that could not tell, and
	// UncertainDecisions the probes the agent could not tell on the
	// compacted context (result.ProbeUncertain).
	Uncertain, UncertainDecisions int
	Checks                        int
	// Decided counts the meaning checks' outcomes by what decided them.
	Decided result.Decided
}

// Count totals r's findings.
func Count(r *result.Result) Counts {
	var c Counts
	seen := map[string]bool{}
	for _, u := range r.Units {
		c.Units++
		if !seen[u.Scenario.ID] {
			seen[u.Scenario.ID] = true
			c.Scenarios++
		}
		for _, g := range u.Generations {
			c.Checks += len(g.Checks)
			for _, ch := range g.Checks {
				c.Decided.Add(ch.DecidedBy)
			}
		}
	}
	for _, f := range Findings(r) {
		switch f.Severity {
		case SevInvariant:
			c.InvariantFail++
		case SevRegression:
			c.Regressions++
		case SevStructural:
			c.StructuralFail++
		case SevUncertain:
			if f.Check == result.CheckDecisions {
				c.UncertainDecisions++
			} else {
				c.Uncertain++
			}
		default:
			c.Errors++
		}
	}
	return c
}

// Verdict is the one-line verdict of r: the gate's when gate is set and
// applied a gate or failed, otherwise what failed.
func Verdict(r *result.Result, gate *GateReport) string {
	return VerdictOf(Count(r), len(result.Summarizers(r)), gate)
}

// VerdictOf is Verdict from a result's counts and its number of
// summarizers, for a reader that has the counts without the units. When
// meaning checks ran, what decided them follows: " · decided: 41 typed,
// 12 by statement, 9 for a judge" (DecidedText).
func VerdictOf(c Counts, summarizers int, gate *GateReport) string {
	v := verdictOf(c, summarizers, gate)
	if d := DecidedText(c.Decided); d != "" {
		v += " · " + d
	}
	return v
}

// DecidedText says what decided the meaning checks' outcomes, "decided:
// 41 typed, 12 by statement, 9 for a judge", every count given (a 0 for a
// judge says every pass was earned plainly); "" when no outcome records
// what decided it.
func DecidedText(d result.Decided) string {
	if d.Total() == 0 {
		return ""
	}
	return fmt.Sprintf("decided: %d typed, %d by statement, %d for a judge", d.Typed, d.Statement, d.Judge)
}

func verdictOf(c Counts, summarizers int, gate *GateReport) string {
	scope := fmt.Sprintf("%s × %s, %s", plural(c.Scenarios, "scenario"), plural(summarizers, "summarizer"), plural(c.Units, "unit"))
	if gate != nil && (gate.Failed || len(gate.Gated) > 0) {
		if gate.Failed {
			return "❌ FAIL: " + gate.Reason() + " (" + scope + ")"
		}
		return "✅ PASS: " + gate.Held() + " (" + scope + ")"
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, plural(n, what))
		}
	}
	add(c.InvariantFail, "invariant failure")
	add(c.Regressions, "compaction regression")
	add(c.StructuralFail, "structural failure")
	add(c.Errors, "error")
	if len(parts) == 0 && c.Uncertain+c.UncertainDecisions > 0 {
		// Nothing failed, and not everything passed: never a ✅.
		var doubts []string
		if c.Uncertain > 0 {
			doubts = append(doubts, plural(c.Uncertain, "uncertain check"))
		}
		if c.UncertainDecisions > 0 {
			doubts = append(doubts, plural(c.UncertainDecisions, "uncertain decision"))
		}
		return "⚠️ " + strings.Join(doubts, ", ") + ", nothing failed (" + scope + ")"
	}
	add(c.Uncertain, "uncertain check")
	add(c.UncertainDecisions, "uncertain decision")
	if len(parts) == 0 {
		return "✅ every check passed (" + scope + ")"
	}
	return "❌ " + strings.Join(parts, ", ") + " (" + scope + ")"
}

// plural is "1 unit" or "N units".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
