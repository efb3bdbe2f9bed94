package checks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

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
// makes the check uncertain when nothing else fails, and so does a clause
// that says it finished naming it by its call rather than its id (the
// target that tells it from the other calls of its tool and what it acts
// on: "the prod-db migration went through"). Skip while call_seq is after
// the cut.
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
	if unsure == nil {
		if e, ok := st.successByArguments(inv); ok {
			r.Status, r.Message = result.Uncertain, e.Note
			r.Evidence = []result.Evidence{e}
			return []result.CheckResult{r}
		}
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

// opNames are the words that name an operation without its id, read from
// its call: what tells it from the other calls of the same tool (the
// target "prod-db" where another call had "staging-db"), and what it acts
// on (its other arguments' tokens, the words of its tool's name:
// "0193_add_carrier_ref", "migration").
type opNames struct {
	distinct, object []string
}

// opNamesKey keys an invariant's opNames in scenarioData.subjects.
type opNamesKey struct{ inv *scenarios.PendingOperation }

func (st *state) operationNames(inv *scenarios.PendingOperation) opNames {
	if v, ok := st.sd.subjects.Load(opNamesKey{inv}); ok {
		return v.(opNames)
	}
	var n opNames
	sc := st.sd.sc
	if i := st.sd.eventIndex(inv.CallSeq); i >= 0 && sc.Events[i].ToolCall != nil {
		call := sc.Events[i].ToolCall
		others := map[string]bool{}
		for _, e := range sc.Events {
			if e.ToolCall != nil && e.ToolCall.Name == call.Name && e.ToolCall.ID != call.ID {
				for _, t := range argTokens(e.ToolCall.Args) {
					others[t] = true
				}
			}
		}
		seen := map[string]bool{}
		for _, t := range argTokens(call.Args) {
			if seen[t] {
				continue
			}
			seen[t] = true
			if others[t] {
				n.object = append(n.object, t)
			} else {
				n.distinct = append(n.distinct, t)
			}
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(call.Name), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) >= 5 && !seen[w] {
				seen[w] = true
				n.object = append(n.object, w)
			}
		}
	}
	got, _ := st.sd.subjects.LoadOrStore(opNamesKey{inv}, n)
	return got.(opNames)
}

// argTokens are the tokens of a call's string arguments that can name it
// in prose: each whitespace-separated value word of three characters or
// more that holds a digit or a hyphen, dot or underscore (prod-db,
// 0193_add_carrier_ref), and its parts between underscores and slashes
// that hold a digit (0193). Plain words ("select", "users") name nothing.
func argTokens(args map[string]any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			for _, w := range strings.Fields(strings.ToLower(x)) {
				w = strings.Trim(w, `"'()[]{},;:`)
				if len(w) < 3 || !strings.ContainsAny(w, "0123456789-._") || len(w) > 60 {
					continue
				}
				out = append(out, w)
				for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '_' || r == '/' }) {
					if part != w && len(part) >= 3 && strings.ContainsAny(part, "0123456789") {
						out = append(out, part)
					}
				}
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(args)
	return out
}

// successByArguments finds a clause, outside the operation's own pending
// entry, that names the operation without its id, by a word that tells
// it from the other calls of its tool and a word of what it acts on
// (opNames), and that says it finished in words of the completion class,
// neither negated nor hedged: "the prod-db migration went through fine",
// "la migración 0193 en prod-db quedó aplicada". It may be the operation,
// or another one on the same things: the check cannot tell, and says so.
func (st *state) successByArguments(inv *scenarios.PendingOperation) (result.Evidence, bool) {
	n := st.operationNames(inv)
	if len(n.distinct) == 0 || len(n.object) == 0 {
		return result.Evidence{}, false
	}
	for _, l := range st.leaves {
		if st.sum.TextOnly() && l.ptr != "/text" || st.ownDescription(l, inv.OpID) || findToken(l.text, inv.OpID) >= 0 {
			continue
		}
		low := strings.ToLower(l.text)
		if len(low) != len(l.text) {
			continue
		}
		var spans []polarity.Span
		for _, d := range n.distinct {
			if i := findToken(low, d); i >= 0 {
				spans = append(spans, polarity.Span{Start: i, End: i + len(d)})
			}
		}
		if len(spans) == 0 {
			continue
		}
		var object string
		for _, o := range n.object {
			if findToken(low, o) >= 0 {
				object = o
				break
			}
		}
		if object == "" {
			continue
		}
		p := st.polRaw(l)
		if _, denied := p.Has(spans[0].Start, polarity.Contradiction...); denied {
			continue // "do not report the prod-db migration as done"
		}
		for _, cr := range p.Read(polarity.OperationSubject(), spans) {
			if cr.Reading != polarity.Contradicts || !p.SameClause(spans[0].Start, cr.ClauseAt) && findToken(strings.ToLower(cr.Clause), object) < 0 {
				continue
			}
			note := fmt.Sprintf("%s names operation %s (#%d) by its call (%q, %q) without its id and says it finished: %q (%s); cannot tell whether it is this operation",
				l.ptr, inv.OpID, inv.CallSeq, low[spans[0].Start:spans[0].End], object, clip.String(cr.Clause, clipLen), readingNote(cr))
			return result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(cr.Clause, clipLen), Note: note}, true
		}
	}
	return result.Evidence{}, false
}
