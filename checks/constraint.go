package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
)

// ConstraintCheck checks a `constraint` invariant: a rule a user gave (for
// example "read-only") survives compaction.
//
// Rule: one of the invariant's match patterns (RE2, case-insensitive, on
// whitespace- and accent-folded text) must match a constraints[].text; on a
// text-only summary it must match text. Pass gives the pointer, the
// matched text and the pattern. Fail gives the patterns that found nothing
// and, when the rule is stated elsewhere in a structured summary (text,
// decisions, …), where: a rule outside constraints is not kept as a rule.
// Skip while source_seq is after the cut.
type ConstraintCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Constraint
}

// Check implements Check.
func (c ConstraintCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeConstraint)
	}
	st, r, ok := invariant(in, c.Inv, c.Inv.SourceSeq)
	if !ok {
		return []Result{r}
	}
	if r, bad := badPattern(r, c.Inv.Match); bad {
		return []Result{r}
	}
	leaves, where := st.leavesUnder("/constraints/"), "constraints"
	if st.sum.TextOnly() {
		leaves, where = st.textLeaves(), "text"
	}
	if l, p, m, ok := matchLeaves(leaves, c.Inv.Match); ok {
		r.Status = Pass
		r.Message = fmt.Sprintf("constraint kept at %s: %q", l.ptr, clip.String(m, clipLen))
		r.Evidence = []Evidence{{Pointer: l.ptr, Seq: c.Inv.SourceSeq, Text: clip.String(l.text, clipLen), Pattern: p}}
		return []Result{r}
	}
	r.Status = Fail
	r.Message = fmt.Sprintf("no %s entry matches %s (rule from #%d)", where, anyOf(c.Inv.Match), c.Inv.SourceSeq)
	ev := Evidence{Seq: c.Inv.SourceSeq, Pattern: anyOf(c.Inv.Match)}
	if where == "constraints" {
		ev.Pointer = "/constraints"
		if l, _, m, ok := matchLeaves(st.leaves, c.Inv.Match); ok {
			ev.Note = fmt.Sprintf("stated only at %s (%q), not as a constraint", l.ptr, clip.String(m, clipLen))
			r.Message += "; " + ev.Note
		}
	} else {
		ev.Pointer = "/text"
	}
	r.Evidence = []Evidence{ev}
	return []Result{r}
}
