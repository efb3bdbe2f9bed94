package checks

import (
	"fmt"
	"regexp"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// PendingOperationCheck checks a `pending_operation` invariant: a tool call
// with no result (or a timeout) stays listed as unresolved and is never
// reported as having succeeded.
//
// Rule, on a structured summary: (1) some pending[] entry has op_id equal
// to the invariant's op_id, verbatim (case-sensitive), and no such entry
// has status `done`; (2) nothing claims it succeeded: no verified[] claim
// names the op id, and no sentence of any other field names it (as a whole
// token) together with a success word (succeeded, completed, done,
// finished, applied, …, and their Spanish forms) unless the same sentence
// also hedges (not, unknown, pending, whether, …). On a text-only summary
// (1) asks that text names the op id and (2) reads text. Skip while
// call_seq is after the cut.
type PendingOperationCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.PendingOperation
}

var (
	successWords = regexp.MustCompile(`(?i)\b(succeeded|success|successful|successfully|completed?|done|finished|applied|went through|exitos[oa]|exitosamente|complet[oa]d[oa]|terminad[oa]|aplicad[oa]|hech[oa])\b`)
	hedgeWords   = regexp.MustCompile(`(?i)(\b(not|no|never|unknown|unclear|unconfirmed|uncertain|pending|whether|without|may|might|if|sin|desconocid[oa]|pendiente|incierto)\b|n't)`)
	sentenceEnd  = regexp.MustCompile(`[.;!?](\s|$)|\n`)
)

// Check implements Check.
func (c PendingOperationCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypePendingOperation)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.CallSeq)
	if !ok {
		return []Result{r}
	}
	var msgs []string
	fail := func(e Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	id := inv.OpID
	var found *Evidence
	if st.sum.TextOnly() {
		if findToken(st.text(), id) >= 0 {
			found = &Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: id}
		} else {
			fail(Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: id, Note: "not named"}, fmt.Sprintf("operation %s (#%d) is not named in text", id, inv.CallSeq))
		}
	} else {
		idx := -1
		for i, p := range st.sum.Pending {
			if p.OpID != id {
				continue
			}
			if p.Status == summarizers.PendingDone {
				fail(Evidence{Pointer: ptrf("pending", i, "status"), Seq: inv.CallSeq, Text: id, Note: "status done"},
					fmt.Sprintf("operation %s (#%d) is listed as done at %s, but it never returned", id, inv.CallSeq, ptrf("pending", i, "status")))
			} else if idx < 0 {
				idx = i
			}
		}
		if idx >= 0 {
			found = &Evidence{Pointer: ptrf("pending", idx, "op_id"), Seq: inv.CallSeq, Text: id, Note: "status " + st.sum.Pending[idx].Status}
		} else if len(msgs) == 0 {
			fail(Evidence{Pointer: "/pending", Seq: inv.CallSeq, Text: id, Note: "not listed"}, fmt.Sprintf("operation %s (#%d) is not listed under pending", id, inv.CallSeq))
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
			fail(Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(l.text, clipLen), Note: "a verified claim about an operation with no result"},
				fmt.Sprintf("%s presents operation %s as verified, but it never returned", l.ptr, id))
			continue
		}
		if s, ok := successClaim(l.text, id); ok {
			fail(Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(s, clipLen), Note: "claims success"},
				fmt.Sprintf("%s claims operation %s succeeded: %q", l.ptr, id, clip.String(s, clipLen)))
		}
	}
	if len(msgs) > 0 {
		r.Status, r.Message = Fail, msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []Result{r}
	}
	r.Status = Pass
	r.Message = fmt.Sprintf("operation %s kept as unresolved at %s", id, found.Pointer)
	r.Evidence = []Evidence{*found}
	return []Result{r}
}

// successClaim returns the sentence of text that names id together with a
// success word and no hedge.
func successClaim(text, id string) (string, bool) {
	start := 0
	ends := sentenceEnd.FindAllStringIndex(text, -1)
	ends = append(ends, []int{len(text), len(text)})
	for _, e := range ends {
		s := text[start:e[1]]
		start = e[1]
		if findToken(s, id) < 0 {
			continue
		}
		if successWords.MatchString(s) && !hedgeWords.MatchString(s) {
			return s, true
		}
	}
	return "", false
}
