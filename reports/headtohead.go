package reports

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/result"
)

// HeadToHead is the paired comparison of two summarizers of one run (see
// CompareSummarizers): the same scenarios, trials, generations and checks,
// judged for A and for B.
type HeadToHead struct {
	A, B  string
	Alpha float64
	// Rows hold one paired comparison per check type judged for both, in
	// report order.
	Rows []HeadToHeadRow
	// SumA and SumB are the two summarizers' headline figures over the
	// whole run (invariants kept, compaction regressions, …).
	SumA, SumB result.SummarizerSummary
	// AOnly are the paired outcomes A passed and B did not (B's message);
	// BOnly the reverse (A's message). Sorted by scenario, trial,
	// generation, check.
	AOnly, BOnly []Change
	// Paired counts the outcomes judged for both (pass, fail or error; a
	// unit that errored counts every outcome it should have had as failed);
	// OneSided those judged for one and skipped for the other (a text-only
	// summary skips the field-level checks), and Unmatched those present
	// for one only (a different number of generations).
	Paired, OneSided, Unmatched int
	// Scenarios counts the scenarios both ran.
	Scenarios int
	// Trials is the run's trial count; TrialsIdentical is true when it is
	// more than one and A and B each gave the same outcomes in every trial
	// (TrialsIdentical): every figure is then that of one trial.
	Trials          int
	TrialsIdentical bool
}

// HeadToHeadRow is the paired comparison of A and B on one check type.
type HeadToHeadRow struct {
	Check string
	// N pairs judged for both; APass and BPass the passes; AOnly the pairs
	// A passed and B did not, BOnly the reverse.
	N, APass, BPass, AOnly, BOnly int
	// Scenarios counts the scenarios of the pairs, the unit of
	// independence; EffectiveN the independent pairs the interval counts
	// the N pairs as.
	Scenarios  int
	EffectiveN float64
	// Delta is B − A pass rate, Low and High its 1−Alpha interval and P
	// the p-value of the sign-flip test over scenarios
	// (internal/stats.ClusteredPaired: the exact McNemar test when each
	// scenario holds one pair; the interval excludes 0 exactly when P <
	// Alpha); Significant is P < Alpha.
	Delta, Low, High, P float64
	Significant         bool
}

// ResolveSummarizer finds the summarizer of r named by nameOrSpec: its
// name in the result, or the spec its calls ran when exactly one
// summarizer ran it.
func ResolveSummarizer(r *result.Result, nameOrSpec string) (string, error) {
	names := result.Summarizers(r)
	if slices.Contains(names, nameOrSpec) {
		return nameOrSpec, nil
	}
	var found []string
	for name, spec := range specs(r) {
		if spec == nameOrSpec {
			found = append(found, name)
		}
	}
	sort.Strings(found)
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%q is no summarizer of the run (it has %s)", nameOrSpec, quoteList(names))
	}
	return "", fmt.Errorf("%q is the spec of %d summarizers (%s): give one of their names", nameOrSpec, len(found), quoteList(found))
}

// specs maps each summarizer of r to the spec its summarizer calls ran.
func specs(r *result.Result) map[string]string {
	m := map[string]string{}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			if g.Call.Spec != "" {
				m[u.Summarizer] = g.Call.Spec
			}
		}
	}
	return m
}

// CompareSummarizers pairs every outcome of summarizers a and b of r by
// (scenario, trial, generation, check, invariant or probe) and compares
// them per check type with the sign-flip test over scenarios at alpha
// (outside (0, 1): DefaultAlpha), the exact McNemar test when each
// scenario holds one pair. Only outcomes judged for both are compared: an error and
// every outcome of a unit that errored count as failures, a skip on either
// side leaves the pair out (counted in OneSided).
func CompareSummarizers(r *result.Result, a, b string, alpha float64) *HeadToHead {
	if !(alpha > 0 && alpha < 1) { // NaN too
		alpha = DefaultAlpha
	}
	h := &HeadToHead{A: a, B: b, Alpha: alpha, Trials: max(1, r.Config.Trials)}
	h.TrialsIdentical = h.Trials > 1 && TrialsIdentical(r, []string{a, b})
	for _, s := range r.Summaries {
		switch s.Summarizer {
		case a:
			h.SumA = s
		case b:
			h.SumB = s
		}
	}
	const same = "\x00"
	ea := gateEvidence(r, map[string]string{a: same}, nil)
	eb := gateEvidence(r, map[string]string{b: same}, nil)
	scen := 0
	for id := range ea.scen {
		if eb.scen[id] {
			scen++
		}
	}
	h.Scenarios = scen
	judged := func(s result.Status) bool { return s == result.Pass || s == result.Fail || s == result.Error }
	rows := map[string]*HeadToHeadRow{}
	clusters := map[string]*PairClusters{}
	for k, oa := range ea.outcomes {
		ob, ok := eb.outcomes[k]
		if !ok {
			h.Unmatched++
			continue
		}
		if !judged(oa.status) || !judged(ob.status) {
			if judged(oa.status) || judged(ob.status) {
				h.OneSided++
			}
			continue
		}
		h.Paired++
		row := rows[k.check]
		if row == nil {
			row = &HeadToHeadRow{Check: k.check}
			rows[k.check] = row
			clusters[k.check] = &PairClusters{}
		}
		pa, pb := oa.status == result.Pass, ob.status == result.Pass
		clusters[k.check].Add(k.scenario, k.trial, pa, pb)
		row.N++
		ch := Change{Scenario: k.scenario, Trial: k.trial, Generation: k.gen, Check: k.check, Name: k.name, File: oa.file, Line: oa.line}
		if pa {
			row.APass++
		}
		if pb {
			row.BPass++
		}
		switch {
		case pa && !pb:
			row.AOnly++
			ch.Summarizer, ch.Message = b, ob.msg
			h.AOnly = append(h.AOnly, ch)
		case pb && !pa:
			row.BOnly++
			ch.Summarizer, ch.Message = a, oa.msg
			h.BOnly = append(h.BOnly, ch)
		}
	}
	for k := range eb.outcomes {
		if _, ok := ea.outcomes[k]; !ok {
			h.Unmatched++
		}
	}
	for check, row := range rows {
		t := clusters[check].Test(alpha)
		row.Delta, row.Low, row.High, row.P = t.Delta, t.Low, t.High, t.P
		row.Scenarios, row.EffectiveN = t.Scenarios, t.EffectivePairs
		row.Significant = row.P < alpha
		h.Rows = append(h.Rows, *row)
	}
	sort.Slice(h.Rows, func(i, j int) bool { return result.LessCheck(h.Rows[i].Check, h.Rows[j].Check) })
	order := map[string]int{a: 0, b: 1}
	sortChanges(h.AOnly, order)
	sortChanges(h.BOnly, order)
	return h
}

// NothingPaired reports whether no outcome was judged for both.
func (h *HeadToHead) NothingPaired() bool { return h.Paired == 0 }

// Verdict is one line: which summarizer does significantly better on
// which check types, or that no difference is significant.
func (h *HeadToHead) Verdict() string {
	if h.NothingPaired() {
		return fmt.Sprintf("nothing to compare: %s and %s have no outcome judged for both", h.A, h.B)
	}
	var betterA, betterB []string
	for _, r := range h.Rows {
		if !r.Significant {
			continue
		}
		if r.Delta > 0 {
			betterB = append(betterB, fmt.Sprintf("%s (p%s)", r.Check, pValue(r.P)))
		} else if r.Delta < 0 {
			betterA = append(betterA, fmt.Sprintf("%s (p%s)", r.Check, pValue(r.P)))
		}
	}
	head := fmt.Sprintf("head-to-head %s vs %s over %s in %s: ", h.A, h.B, plural(h.Paired, "paired outcome"), plural(h.Scenarios, "scenario"))
	var parts []string
	if len(betterA) > 0 {
		parts = append(parts, fmt.Sprintf("%s better on %s", h.A, strings.Join(betterA, ", ")))
	}
	if len(betterB) > 0 {
		parts = append(parts, fmt.Sprintf("%s better on %s", h.B, strings.Join(betterB, ", ")))
	}
	if len(parts) == 0 {
		return head + fmt.Sprintf("no significant difference at α=%g (%d kept by %s only, %d by %s only)", h.Alpha, len(h.AOnly), h.A, len(h.BOnly), h.B)
	}
	return head + strings.Join(parts, "; ")
}

// Notes list what was left out of the pairing.
func (h *HeadToHead) Notes() []string {
	var out []string
	if h.OneSided > 0 {
		out = append(out, fmt.Sprintf("%d outcomes judged for one and skipped for the other (a text-only summary skips the field-level checks): not compared", h.OneSided))
	}
	if h.Unmatched > 0 {
		out = append(out, fmt.Sprintf("%d outcomes exist for one only (different generations): not compared", h.Unmatched))
	}
	return out
}

func (r HeadToHeadRow) deltaText() string {
	if !r.Significant {
		return "~"
	}
	return fmt.Sprintf("%+.1f%%", 100*r.Delta)
}

// WriteText writes the head-to-head as aligned text: the verdict, the two
// summarizers side by side, the paired table per check type (Δ is B − A,
// "~" when not significant), then the outcomes only one of them kept.
func (h *HeadToHead) WriteText(w io.Writer) error {
	fmt.Fprintln(w, h.Verdict())
	if h.TrialsIdentical {
		fmt.Fprintln(w, TrialsIdenticalLine(h.Trials))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\tA: %s\tB: %s\n", h.A, h.B)
	for _, l := range h.sideBySide() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", l[0], l[1], l[2])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(h.Rows) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "check\tA\tB\tΔ (B−A)\t%s\tA only\tB only\tp\tscenarios\n", intervalLabel(h.Alpha))
		for _, r := range h.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t[%+.1f%%, %+.1f%%]\t%d\t%d\tp%s\t%d\n",
				r.Check, pct(r.APass, r.N), pct(r.BPass, r.N), r.deltaText(), 100*r.Low, 100*r.High, r.AOnly, r.BOnly, pValue(r.P), r.Scenarios)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	list := func(title string, cs []Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s: %d\n", title, len(cs))
		for _, l := range ChangeLines(cs, maxListed) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	list(fmt.Sprintf("kept by %s only (%s's outcome)", h.A, h.B), h.AOnly)
	list(fmt.Sprintf("kept by %s only (%s's outcome)", h.B, h.A), h.BOnly)
	if n := h.Notes(); len(n) > 0 {
		fmt.Fprintf(w, "\nnotes:\n")
		for _, s := range n {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	return nil
}

// sideBySide is the headline figures of A and B, one row each.
func (h *HeadToHead) sideBySide() [][3]string {
	a, b := h.SumA, h.SumB
	return [][3]string{
		{"invariants kept", pct(a.InvariantPass, a.InvariantPass+a.InvariantFail), pct(b.InvariantPass, b.InvariantPass+b.InvariantFail)},
		{"structural passed", pct(a.StructuralPass, a.StructuralPass+a.StructuralFail), pct(b.StructuralPass, b.StructuralPass+b.StructuralFail)},
		{"compaction regressions", fmt.Sprintf("%d of %d probes", a.Regressions, a.Probes), fmt.Sprintf("%d of %d probes", b.Regressions, b.Probes)},
		{"compression (median)", fmt.Sprintf("%.2f", a.MedianCompression), fmt.Sprintf("%.2f", b.MedianCompression)},
		{"summary tokens (mean)", fmt.Sprintf("%.0f", a.MeanSummaryTokens), fmt.Sprintf("%.0f", b.MeanSummaryTokens)},
		{"errors", fmt.Sprint(a.Errors), fmt.Sprint(b.Errors)},
	}
}

// WriteMarkdown writes the head-to-head as GitHub-flavoured Markdown, with
// the same content as WriteText; the lists of outcomes kept by one only are
// cut at maxListed lines each.
func (h *HeadToHead) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "**%s**\n\n", mdText(h.Verdict()))
	if h.TrialsIdentical {
		fmt.Fprintf(&b, "%s\n\n", mdText(TrialsIdenticalLine(h.Trials)))
	}
	fmt.Fprintf(&b, "| | A: %s | B: %s |\n|---|---:|---:|\n", mdCode(h.A, true), mdCode(h.B, true))
	for _, l := range h.sideBySide() {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", l[0], l[1], l[2])
	}
	if len(h.Rows) > 0 {
		fmt.Fprintf(&b, "\n| check | A | B | Δ (B−A) | %s | A only | B only | p | scenarios |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", intervalLabel(h.Alpha))
		for _, r := range h.Rows {
			d := r.deltaText()
			if r.Significant {
				d = "**" + d + "**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | [%+.1f%%, %+.1f%%] | %d | %d | %s | %d |\n",
				mdWord(r.Check), pct(r.APass, r.N), pct(r.BPass, r.N), d, 100*r.Low, 100*r.High, r.AOnly, r.BOnly, strings.TrimPrefix(pValue(r.P), "="), r.Scenarios)
		}
	}
	list := func(title string, cs []Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n<details><summary>%s: %d</summary>\n\n", mdText(title), len(cs))
		for _, l := range ChangeLines(cs, maxListed) {
			fmt.Fprintf(&b, "- %s\n", mdText(l))
		}
		b.WriteString("\n</details>\n")
	}
	list(fmt.Sprintf("kept by %s only (%s's outcome)", h.A, h.B), h.AOnly)
	list(fmt.Sprintf("kept by %s only (%s's outcome)", h.B, h.A), h.BOnly)
	for _, n := range h.Notes() {
		fmt.Fprintf(&b, "\n> %s\n", mdText(n))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// pValue is "=0.031", or "<0.001" below that.
func pValue(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("=%.3f", p)
}
