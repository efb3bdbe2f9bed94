// Package verdict prints what `compact-eval run` shows a person at the end
// of a run: a one-line verdict, a table per summarizer, the worst failures
// and where the result file is. It reads units one at a time (Add) so that a
// run of any size prints in constant memory.
package verdict

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/reports"
)

// DefaultMaxFailures is how many failures Write lists when Builder.Max is 0.
const DefaultMaxFailures = 20

// Failure is one line of the failure list.
type Failure struct {
	Scenario   string
	Summarizer string
	// Generation is "g2", or "probe" for a decision.
	Generation string
	// Check is the check type with its invariant ("constraint ro"), or
	// "decision <probe id>".
	Check   string
	Seq     int
	Message string
}

// Failure classes, worst first.
const (
	classRegression = iota // a decision compaction changed
	classInvariant         // an invariant the summary lost
	classStructural        // a structural check that failed
	classError             // the harness or the summarizer could not check
	nClasses
)

// Builder collects what the verdict needs from units. The zero value is not
// usable: use New.
type Builder struct {
	// Max is the number of failures listed; 0 means DefaultMaxFailures.
	Max int

	byClass  [nClasses][]Failure
	total    int
	units    int
	errors   int
	abandon  int
	scenario map[string]bool
}

// New returns an empty Builder.
func New() *Builder { return &Builder{scenario: map[string]bool{}} }

func (b *Builder) max() int {
	if b.Max > 0 {
		return b.Max
	}
	return DefaultMaxFailures
}

func (b *Builder) add(class int, f Failure) {
	b.total++
	if len(b.byClass[class]) < b.max() {
		b.byClass[class] = append(b.byClass[class], f)
	}
}

// Add takes one unit into account. It keeps nothing of u.
func (b *Builder) Add(u *reports.Unit) {
	b.units++
	b.scenario[u.Scenario.ID] = true
	switch u.Status {
	case reports.UnitError:
		b.errors++
		b.add(classError, Failure{Scenario: u.Scenario.ID, Summarizer: u.Summarizer, Generation: "unit", Check: "error", Message: firstLine(u.Error)})
	case reports.UnitAbandoned:
		b.abandon++
	}
	for _, g := range u.Generations {
		gen := fmt.Sprintf("g%d", g.N)
		for _, c := range g.Checks {
			class := -1
			switch {
			case c.Status == checks.Fail && c.Kind == checks.KindInvariant:
				class = classInvariant
			case c.Status == checks.Fail:
				class = classStructural
			case c.Status == checks.Error:
				class = classError
			}
			if class < 0 {
				continue
			}
			name := c.Check
			if c.Invariant != "" {
				name += " " + c.Invariant
			}
			seq := 0
			for _, e := range c.Evidence {
				if e.Seq > 0 {
					seq = e.Seq
					break
				}
			}
			b.add(class, Failure{Scenario: u.Scenario.ID, Summarizer: u.Summarizer, Generation: gen, Check: name, Seq: seq, Message: firstLine(c.Message)})
		}
	}
	for _, p := range u.Probes {
		if p.Class != reports.CompactionRegression {
			continue
		}
		b.add(classRegression, Failure{Scenario: u.Scenario.ID, Summarizer: u.Summarizer, Generation: "probe", Check: "decision " + p.ID,
			Message: fmt.Sprintf("full context chose %q, compacted chose %q (expect %q)", p.Full.Choice, p.Compacted.Choice, p.Expect)})
	}
}

// Failures returns the failures to list, worst first, and how many more
// there are.
func (b *Builder) Failures() (list []Failure, more int) {
	for _, fs := range b.byClass {
		for _, f := range fs {
			if len(list) < b.max() {
				list = append(list, f)
			}
		}
	}
	return list, b.total - len(list)
}

// NothingEvaluated reports whether the run had units and every one of them
// ended in error: no summary was checked and no probe decided.
func (b *Builder) NothingEvaluated() bool { return b.units > 0 && b.errors == b.units }

// Line is the one-line verdict.
func (b *Builder) Line(h *reports.Result, planned int) string {
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
	best, bestRate := "", -1.0
	regressions := 0
	for _, sum := range h.Summaries {
		regressions += sum.Regressions
		if sum.InvariantPass+sum.InvariantFail > 0 && sum.InvariantsKept > bestRate {
			best, bestRate = sum.Summarizer, sum.InvariantsKept
		}
	}
	if best != "" {
		fmt.Fprintf(&s, "; most invariants kept: %s (%s)", best, percent(bestRate))
	}
	fmt.Fprintf(&s, "; %s", plural(regressions, "compaction regression"))
	return s.String()
}

// Write prints the verdict line, the table, the failures and the result
// path.
func (b *Builder) Write(w io.Writer, h *reports.Result, planned int, resultPath string) error {
	fmt.Fprintln(w, b.Line(h, planned))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "summarizer\tunits\tinvariants kept\tstructural passed\tregressions\tcompression\tsummary tokens\t")
	for _, s := range h.Summaries {
		inv, str := "—", "—"
		if s.InvariantPass+s.InvariantFail > 0 {
			inv = percent(s.InvariantsKept)
		}
		if s.StructuralPass+s.StructuralFail > 0 {
			str = percent(s.StructuralPassed)
		}
		comp, tok := "—", "—"
		if s.Generations > 0 {
			comp = fmt.Sprintf("%.2f", s.MeanCompression)
			tok = fmt.Sprintf("%.0f", s.MeanSummaryTokens)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%s\t%s\t\n", s.Summarizer, s.Units, inv, str, s.Regressions, comp, tok)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	list, more := b.Failures()
	if len(list) > 0 {
		fmt.Fprintf(w, "\nworst failures (scenario · summarizer · generation · check · seq · message):\n")
		for _, f := range list {
			seq := "-"
			if f.Seq > 0 {
				seq = fmt.Sprint(f.Seq)
			}
			fmt.Fprintf(w, "  %s · %s · %s · %s · %s · %s\n", f.Scenario, f.Summarizer, f.Generation, f.Check, seq, f.Message)
		}
		if more > 0 {
			fmt.Fprintf(w, "  … and %d more in the result file\n", more)
		}
	}
	_, err := fmt.Fprintf(w, "\nresult: %s\n", resultPath)
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func percent(r float64) string { return fmt.Sprintf("%.0f%%", 100*r) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:157]) + "..."
	}
	return s
}
