package checks

import (
	"fmt"
	"strings"

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
// nothing (left to grounding); (2) nothing claims it succeeded: no
// verified[] claim names the op id, and no clause of another field that
// names it (as a whole token), nor of its own entry's description, says it
// finished in words of the completion class (internal/polarity: completed,
// shipped, merged, deployed, landed, rolled out, went out, is live, took
// effect; terminado, desplegado, salió bien) unless negated or hedged in
// its clause ("did not complete", "whether c17 completed is unknown", "may
// have finished", "was to be deployed"). On a text-only summary (1) asks
// that text names the op id and (2) reads text. A clause that says
// something of the operation in words no table holds ("c17 cleared QA")
// makes the check uncertain when nothing else fails. Skip while call_seq
// is after the cut.
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
	var unsure *reading
	for _, l := range st.leaves {
		if st.sum.TextOnly() && l.ptr != "/text" {
			continue
		}
		f := fieldOf(l.ptr)
		if f == "pending" {
			// the operation's own entry: every clause of its
			// description is about it ("went out to the canary pool")
			if !st.ownDescription(l, id) {
				continue
			}
			p := st.polRaw(l)
			for _, cr := range p.Read(polarity.OperationSubject(), p.SegmentSpans()) {
				switch cr.Reading {
				case polarity.Contradicts:
					fail(result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(cr.Clause, clipLen), Note: "claims success: " + readingNote(cr)},
						fmt.Sprintf("%s, the entry of operation %s, says it finished: %q (%s)", l.ptr, id, clip.String(cr.Clause, clipLen), readingNote(cr)))
				case polarity.CannotTell:
					if unsure == nil {
						unsure = &reading{l: l, r: cr}
					}
				}
			}
			continue
		}
		if findToken(l.text, id) < 0 {
			continue
		}
		if f == "verified" {
			fail(result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(l.text, clipLen), Note: "a verified claim about an operation with no result"},
				fmt.Sprintf("%s presents operation %s as verified, but it never returned", l.ptr, id))
			continue
		}
		for _, cr := range st.readOperation(l, id) {
			switch cr.Reading {
			case polarity.Contradicts:
				fail(result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(cr.Clause, clipLen), Note: "claims success: " + readingNote(cr)},
					fmt.Sprintf("%s claims operation %s succeeded: %q (%s)", l.ptr, id, clip.String(cr.Clause, clipLen), readingNote(cr)))
			case polarity.CannotTell:
				if unsure == nil {
					unsure = &reading{l: l, r: cr}
				}
			}
		}
	}
	if len(msgs) > 0 {
		r.Status, r.Message = result.Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []result.CheckResult{r}
	}
	if unsure != nil {
		r.Status = result.Uncertain
		r.Message = uncertainMessage(*unsure, "operation "+id)
		r.Evidence = []result.Evidence{{Pointer: unsure.l.ptr, Seq: inv.CallSeq, Text: clip.String(unsure.r.Clause, clipLen), Note: readingNote(unsure.r)}}
		return []result.CheckResult{r}
	}
	r.Status = result.Pass
	r.Message = fmt.Sprintf("operation %s kept as unresolved at %s", id, found.Pointer)
	r.Evidence = []result.Evidence{*found}
	return []result.CheckResult{r}
}

// successClaim returns a clause of leaf l that says operation id
// finished, in any words of the completion class that nothing negates or
// hedges (internal/polarity): "c17 completed", "deploy_cgw_214 went out",
// "reindex-7713 llegó hasta el final".
func (st *state) successClaim(l leaf, id string) (string, bool) {
	for _, cr := range st.readOperation(l, id) {
		if cr.Reading == polarity.Contradicts {
			return cr.Clause, true
		}
	}
	return "", false
}

// readOperation reads the clauses of leaf l that name operation id (as a
// whole token).
func (st *state) readOperation(l leaf, id string) []polarity.ClauseReading {
	var spans []polarity.Span
	for off := 0; off < len(l.text); {
		i := findToken(l.text[off:], id)
		if i < 0 {
			break
		}
		i += off
		spans = append(spans, polarity.Span{Start: i, End: i + len(id)})
		off = i + len(id)
	}
	if len(spans) == 0 {
		return nil
	}
	return st.polRaw(l).Read(polarity.OperationSubject(), spans)
}

// ownDescription reports whether l is the description of a pending entry
// whose op_id is id.
func (st *state) ownDescription(l leaf, id string) bool {
	if !strings.HasSuffix(l.ptr, "/description") {
		return false
	}
	for i, p := range st.sum.Pending {
		if p.OpID == id && l.ptr == ptrf("pending", i, "description") {
			return true
		}
	}
	return false
}
