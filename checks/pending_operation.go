package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/scenarios"
)

// PendingOperationCheck checks a `pending_operation` invariant: a tool call
// with no result (or a timeout) stays listed as unresolved and is never
// reported as having succeeded.
//
// Rule, on a structured summary: (1) some pending[] entry has op_id equal
// to the invariant's op_id, verbatim (case-sensitive), no such entry has
// status `done`, and the entry cites the call (call_seq), its result, or
// nothing (left to grounding); (2) nothing claims it succeeded: no verified[] claim
// names the op id, and no sentence of any other field names it (as a whole
// token) together with a success word (succeeded, completed, done,
// finished, applied, …, and their Spanish forms) unless the same sentence
// also hedges (not, unknown, pending, whether, …). On a text-only summary
// (1) asks that text names the op id and (2) reads text. A success word
// counts when it is in the op id's clause and no negation, hedge,
// cancellation, retraction or mistake cue bears on the two
// (internal/polarity): "c17 completed successfully" claims success, "c17
// did not complete", "whether c17 completed is unknown" and "c17 may have
// finished" do not. Skip while call_seq is after the cut.
type PendingOperationCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.PendingOperation
}

// Check implements Check.
func (c PendingOperationCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypePendingOperation)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.CallSeq)
	if !ok {
		return []result.CheckResult{r}
	}
	var msgs []string
	fail := func(e result.Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	id := inv.OpID
	var found *result.Evidence
	if st.sum.TextOnly() {
		if findToken(st.text(), id) >= 0 {
			found = &result.Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: id}
		} else {
			fail(result.Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: id, Note: "not named"}, fmt.Sprintf("operation %s (#%d) is not named in text", id, inv.CallSeq))
		}
	} else {
		idx := -1
		for i, p := range st.sum.Pending {
			if p.OpID != id {
				continue
			}
			if p.Status == summary.PendingDone {
				fail(result.Evidence{Pointer: ptrf("pending", i, "status"), Seq: inv.CallSeq, Text: id, Note: "status done"},
					fmt.Sprintf("operation %s (#%d) is listed as done at %s, but it never returned", id, inv.CallSeq, ptrf("pending", i, "status")))
			} else if idx < 0 {
				idx = i
			}
		}
		if idx >= 0 {
			found = &result.Evidence{Pointer: ptrf("pending", idx, "op_id"), Seq: inv.CallSeq, Text: id, Note: "status " + st.sum.Pending[idx].Status}
			if seq := st.sum.Pending[idx].SourceSeq; seq != 0 && seq != inv.CallSeq && !st.sd.isResultOf(seq, id) {
				fail(result.Evidence{Pointer: ptrf("pending", idx, "source_seq"), Seq: seq, Text: id, Note: fmt.Sprintf("cites #%d, which is neither the call (#%d) nor its result", seq, inv.CallSeq)},
					fmt.Sprintf("operation %s is listed at /pending/%d but cites #%d, which is neither the call (#%d) nor its result", id, idx, seq, inv.CallSeq))
			}
		} else if len(msgs) == 0 {
			fail(result.Evidence{Pointer: "/pending", Seq: inv.CallSeq, Text: id, Note: "not listed"}, fmt.Sprintf("operation %s (#%d) is not listed under pending", id, inv.CallSeq))
		}
	}
	for _, l := range st.leaves {
		if st.sum.TextOnly() && l.ptr != "/text" {
			continue
		}
		f := fieldOf(l.ptr)
		if f == "pending" || findToken(l.text, id) < 0 {
			continue
		}
		if f == "verified" {
			fail(result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(l.text, clipLen), Note: "a verified claim about an operation with no result"},
				fmt.Sprintf("%s presents operation %s as verified, but it never returned", l.ptr, id))
			continue
		}
		if s, ok := st.successClaim(l, id); ok {
			fail(result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(s, clipLen), Note: "claims success"},
				fmt.Sprintf("%s claims operation %s succeeded: %q", l.ptr, id, clip.String(s, clipLen)))
		}
	}
	if len(msgs) > 0 {
		r.Status, r.Message = result.Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []result.CheckResult{r}
	}
	r.Status = result.Pass
	r.Message = fmt.Sprintf("operation %s kept as unresolved at %s", id, found.Pointer)
	r.Evidence = []result.Evidence{*found}
	return []result.CheckResult{r}
}

// successClaim returns the clause of leaf l that names id together with a
// success word that nothing negates or hedges.
func (st *state) successClaim(l leaf, id string) (string, bool) {
	p := st.polRaw(l)
	var successes []polarity.Verdict
	for off := 0; off < len(l.text); {
		i := findToken(l.text[off:], id)
		if i < 0 {
			break
		}
		i += off
		off = i + len(id)
		if successes == nil {
			successes = p.Find(polarity.Success)
		}
		for _, s := range successes {
			if !p.SameClause(i, s.At) {
				continue
			}
			a, b := min(i, s.At), max(i+len(id), s.At+len(s.Cue))
			if v := p.Judge(a, b, nil, unfinished...); v.Kind == "" {
				return l.text[a:b], true
			}
		}
	}
	return "", false
}
