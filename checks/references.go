package checks

import (
	"fmt"
	"strconv"

	"github.com/compact-eval/compact-eval/result"
)

// ReferencesCheck is the `references` check: every seq the summary cites names an
// event of this scenario that the summary covers.
//
// Rule: every non-zero source_seq (in constraints, decisions, verified,
// hypotheses, pending, artifacts, corrections, errors, approvals, the
// handoff), every hypotheses[].resolved_by and every
// approvals[].invalidated_by must be the seq of an event of the scenario's
// history (arrivals excluded) with seq ≤ covers_through (and ≤ the cut when
// covers_through overshoots it). Fail lists each bad citation with its
// pointer; pass when all are good; skip when the summary cites no seq at all
// (a text-only summary always skips).
type ReferencesCheck struct{}

type ref struct {
	ptr string
	seq int
}

func references(st *state) []ref {
	s := st.sum
	var out []ref
	add := func(field string, i int, sub string, seq int) {
		if seq != 0 {
			out = append(out, ref{ptrf(field, i, sub), seq})
		}
	}
	for i, x := range s.Constraints {
		add("constraints", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Decisions {
		add("decisions", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Verified {
		add("verified", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Hypotheses {
		add("hypotheses", i, "source_seq", x.SourceSeq)
		add("hypotheses", i, "resolved_by", x.ResolvedBy)
	}
	for i, x := range s.Pending {
		add("pending", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Artifacts {
		add("artifacts", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Corrections {
		add("corrections", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Errors {
		add("errors", i, "source_seq", x.SourceSeq)
	}
	for i, x := range s.Approvals {
		add("approvals", i, "source_seq", x.SourceSeq)
		add("approvals", i, "invalidated_by", x.InvalidatedBy)
	}
	if h := s.Handoff; h != nil && h.SourceSeq != 0 {
		out = append(out, ref{"/handoff/source_seq", h.SourceSeq})
	}
	return out
}

// Check implements Check.
func (ReferencesCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckReferences, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckReferences, Kind: result.KindStructural}
	refs := references(st)
	if len(refs) == 0 {
		r.Status, r.Message = result.Skip, "the summary cites no event"
		return []result.CheckResult{r}
	}
	bound := st.bound()
	for _, x := range refs {
		_, ok := in.Scenario.EventBySeq(x.seq)
		switch {
		case !ok:
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: x.ptr, Seq: x.seq, Text: strconv.Itoa(x.seq), Note: "no such event in the scenario"})
		case x.seq > bound:
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: x.ptr, Seq: x.seq, Text: strconv.Itoa(x.seq), Note: fmt.Sprintf("after covers_through %d", bound)})
		}
	}
	if len(r.Evidence) > 0 {
		r.Status = result.Fail
		e := r.Evidence[0]
		r.Message = fmt.Sprintf("%s cites #%d: %s (%s bad of %d)", e.Pointer, e.Seq, e.Note, plural(len(r.Evidence), "citation"), len(refs))
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("all %s name covered events", plural(len(refs), "citation"))
	return []result.CheckResult{r}
}
