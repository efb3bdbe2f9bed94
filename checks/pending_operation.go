package checks

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/scenarios"
)

// PendingOperationCheck checks a `pending_operation` invariant: a tool call
// with no result (or a timeout) stays listed as unresolved and is never
// reported as having succeeded.
//
// A pass is earned. On a structured summary the typed record decides: a
// pending[] entry whose op_id is the invariant's, verbatim
// (case-sensitive), with a status other than `done` (no entry may say
// `done`), citing the call (call_seq), its result, or nothing. On a
// text-only summary a clause must name the op id and say it is
// unfinished (pending, no result, unknown, timed out, do not treat it as
// applied: internal/meaning's notdone words); one that only names it is
// uncertain. Then every clause that names the operation is read: by its
// id anywhere, and by its call elsewhere (an argument that tells its call
// from the other calls of its tool: "the prod-db migration"). One that
// says it finished, with nothing negating it, fails, and so does a
// verified[] claim that names the id; one that says so under a hedge
// ("should be done by now"), takes it as done ("now that the column is on
// prod-db"), or says something of it in words the reader does not know
// ("c17 cleared QA") is uncertain. The entry's own description is read
// the same way. Skip while call_seq is after the cut.
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
	what := fmt.Sprintf("operation %s (#%d)", inv.OpID, inv.CallSeq)
	sub := st.opSubjectOf(inv)
	fields, all := [][]leaf{st.textLeaves()}, st.textLeaves()
	if !st.sum.TextOnly() {
		fields, all = st.current(), st.currentFlat() // flatten(fields), once per summary
	}
	fs := st.readAcross(sub, nil, segments(all, func(l leaf) bool { return strings.HasSuffix(l.ptr, "/op_id") }))
	fs = append(fs, st.ownDescriptions(inv, sub)...)
	fs = append(fs, st.stepsOn(sub, fields)...)
	fs = st.withoutOtherCalls(fs, inv)
	if bad, ok := st.pendingRecordBroken(inv); ok {
		return []result.CheckResult{decide(r, result.Fail, result.DecidedTyped, bad.Note, bad)}
	}
	if e, ok := st.verifiedOp(inv); ok {
		return []result.CheckResult{decide(r, result.Fail, result.DecidedStatement, e.Note, e)}
	}
	if f, ok := strongest(fs); ok && f.r.Verdict >= meaning.Unclear {
		return []result.CheckResult{readingOutcome(r, f, what, inv.CallSeq, inv.OpID)}
	}
	if !st.sum.TextOnly() {
		rec, ok := st.pendingRecord(inv)
		if !ok {
			return []result.CheckResult{decide(r, result.Fail, result.DecidedTyped, fmt.Sprintf("%s is not listed under pending", what),
				result.Evidence{Pointer: "/pending", Seq: inv.CallSeq, Text: inv.OpID, Note: "not listed"})}
		}
		return []result.CheckResult{decide(r, result.Pass, result.DecidedTyped, fmt.Sprintf("operation %s kept as unresolved at %s", inv.OpID, rec.Pointer), rec)}
	}
	for _, f := range fs {
		if f.r.Verdict == meaning.Restates {
			return []result.CheckResult{decide(r, result.Pass, result.DecidedStatement,
				fmt.Sprintf("operation %s kept as unresolved at %s: %s (%s)", inv.OpID, f.l.ptr, clipQ(f.r.Text), f.r.Why),
				result.Evidence{Pointer: f.l.ptr, Seq: inv.CallSeq, Text: inv.OpID})}
		}
	}
	if findToken(st.text(), inv.OpID) >= 0 {
		note := fmt.Sprintf("text names %s but says nothing the reader can read of its outcome", what)
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, note, result.Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: inv.OpID, Note: note})}
	}
	return []result.CheckResult{decide(r, result.Fail, result.DecidedStatement, fmt.Sprintf("%s is not named in text", what),
		result.Evidence{Pointer: "/text", Seq: inv.CallSeq, Text: inv.OpID, Note: "not named"})}
}

// opSubjectOf is an operation's subject: its id and the arguments that
// tell its call from the other calls of its tool, the other calls' own as
// what names something else.
func (st *state) opSubjectOf(inv *scenarios.PendingOperation) *meaning.Subject {
	return st.subjectOf(inv, func() *meaning.Subject {
		n := st.operationNames(inv)
		id := strings.ToLower(inv.OpID)
		return &meaning.Subject{Kind: meaning.Operation, ID: id, Names: append([]string{id}, n.distinct...), Others: n.others,
			Source: sourceText(st.eventText(inv.CallSeq))}
	})
}

// ownDescriptions reads the descriptions of the operation's own pending
// entries: every clause of one is about it, named or not ("went out to the
// canary pool"), so each is read as said of its id.
func (st *state) ownDescriptions(inv *scenarios.PendingOperation, sub *meaning.Subject) []found {
	var out []found
	for i, p := range st.sum.Pending {
		if p.OpID != inv.OpID || p.Description == "" {
			continue
		}
		l := leaf{ptr: ptrf("pending", i, "description"), text: p.Description, folded: foldText(p.Description)}
		// each clause is said of the id: "the call never returned; orders
		// will have caught up since" says the second of it too
		desc := meaning.New(l.folded)
		for ci := range desc.Clauses() {
			for _, r := range meaning.New(strings.ToLower(inv.OpID) + ": " + desc.ClauseText(ci)).Read(sub) {
				out = append(out, found{l, r})
			}
		}
	}
	return out
}

// stepsOn reads the steps of the summary (each next_steps entry whole,
// and the clauses of the other fields under a word of the next class) for
// one that acts on what the operation would have made or changed, as if
// it had finished (meaning.Text.StepsOn). Its own pending entries are
// about it and read apart.
func (st *state) stepsOn(sub *meaning.Subject, fields [][]leaf) []found {
	st.index()
	names := make([]bool, len(st.leaves)) // the leaves that hold one of its names
	for _, n := range sub.Names {
		st.markHolding(n, names)
	}
	var out []found
	for _, seg := range fields {
		for _, l := range seg {
			if !(l.i > 0 && l.i <= len(names) && names[l.i-1]) {
				continue
			}
			if strings.HasPrefix(l.ptr, "/pending/") || strings.HasPrefix(l.ptr, "/constraints/") || l.ptr == "/goal" {
				continue // its own entries; a rule or the goal names the work, done or not
			}
			for _, r := range st.mtext(l).StepsOn(sub, strings.HasPrefix(l.ptr, "/next_steps/")) {
				out = append(out, found{l, r})
			}
		}
	}
	return out
}

// withoutOtherCalls drops the unclear readings of entries that cite
// another call's event and name the operation only by what it shares with
// that call ("TestRefundIdempotency is passed 50 of 50 times by
// ledger@sha256:51be07d2", citing the test run, of a build that used the
// same image): the citation binds the claim to its own event.
func (st *state) withoutOtherCalls(fs []found, inv *scenarios.PendingOperation) []found {
	own := map[int]bool{inv.CallSeq: true}
	if r, ok := st.sd.results[inv.OpID]; ok {
		own[r.Seq] = true
	}
	out := fs[:0:0]
	for _, f := range fs {
		seq, cites := st.citedSeq(f.l.ptr)
		if f.r.Verdict == meaning.Unclear && cites && !own[seq] && st.sd.isCallEvent(seq) && findToken(f.l.text, inv.OpID) < 0 {
			continue
		}
		out = append(out, f)
	}
	return out
}

// citedSeq returns the event a verified claim or a decision at ptr cites.
func (st *state) citedSeq(ptr string) (int, bool) {
	parts := strings.SplitN(strings.TrimPrefix(ptr, "/"), "/", 3)
	if len(parts) < 2 {
		return 0, false
	}
	i, err := strconv.Atoi(parts[1])
	if err != nil || i < 0 {
		return 0, false
	}
	seq := 0
	switch {
	case parts[0] == "verified" && i < len(st.sum.Verified):
		seq = st.sum.Verified[i].SourceSeq
	case parts[0] == "decisions" && i < len(st.sum.Decisions):
		seq = st.sum.Decisions[i].SourceSeq
	}
	return seq, seq > 0
}

// isCallEvent reports whether event seq is a tool call or a tool result.
func (d *scenarioData) isCallEvent(seq int) bool {
	i := d.eventIndex(seq)
	return i >= 0 && (d.sc.Events[i].ToolCall != nil || d.sc.Events[i].ToolResult != nil)
}

// flatten joins segments of leaves into one list.
func flatten(segs [][]leaf) []leaf {
	n := 0
	for _, s := range segs {
		n += len(s)
	}
	if n == 0 {
		return nil
	}
	out := make([]leaf, 0, n)
	for _, s := range segs {
		out = append(out, s...)
	}
	return out
}

// pendingRecord returns the evidence of the pending[] entry of the
// operation that is not done, if any.
func (st *state) pendingRecord(inv *scenarios.PendingOperation) (result.Evidence, bool) {
	for i, p := range st.sum.Pending {
		if p.OpID == inv.OpID && p.Status != summary.PendingDone {
			return result.Evidence{Pointer: ptrf("pending", i, "op_id"), Seq: inv.CallSeq, Text: inv.OpID, Note: "status " + p.Status}, true
		}
	}
	return result.Evidence{}, false
}

// pendingRecordBroken returns the typed field that breaks the record: an
// entry of the operation with status done, or one citing an event that is
// neither the call nor its result.
func (st *state) pendingRecordBroken(inv *scenarios.PendingOperation) (result.Evidence, bool) {
	for i, p := range st.sum.Pending {
		if p.OpID != inv.OpID {
			continue
		}
		if p.Status == summary.PendingDone {
			return result.Evidence{Pointer: ptrf("pending", i, "status"), Seq: inv.CallSeq, Text: inv.OpID,
				Note: fmt.Sprintf("operation %s (#%d) is listed as done at %s, but it never returned", inv.OpID, inv.CallSeq, ptrf("pending", i, "status"))}, true
		}
		if seq := p.SourceSeq; seq != 0 && seq != inv.CallSeq && !st.sd.isResultOf(seq, inv.OpID) {
			return result.Evidence{Pointer: ptrf("pending", i, "source_seq"), Seq: seq, Text: inv.OpID,
				Note: fmt.Sprintf("operation %s is listed at /pending/%d but cites #%d, which is neither the call (#%d) nor its result", inv.OpID, i, seq, inv.CallSeq)}, true
		}
	}
	return result.Evidence{}, false
}

// verifiedOp returns a verified[] claim that names the operation's id: a
// verified claim about an operation that never returned.
func (st *state) verifiedOp(inv *scenarios.PendingOperation) (result.Evidence, bool) {
	for _, l := range st.leaves {
		if fieldOf(l.ptr) == "verified" && findToken(l.text, inv.OpID) >= 0 {
			return result.Evidence{Pointer: l.ptr, Seq: inv.CallSeq, Text: clip.String(l.text, clipLen),
				Note: fmt.Sprintf("%s presents operation %s as verified, but it never returned", l.ptr, inv.OpID)}, true
		}
	}
	return result.Evidence{}, false
}

// successClaim returns a clause of leaf l that says the call with id
// finished, in words nothing negates or hedges (internal/meaning): "c17
// completed", "deploy_cgw_214 went out", "reindex-7713 llegó hasta el
// final".
func (st *state) successClaim(l leaf, id string) (string, bool) {
	for _, r := range st.mtext(l).Read(st.callSubject(id)) {
		if r.Verdict == meaning.Contradicts {
			return r.Text, true
		}
	}
	return "", false
}

// unfinishedClaim returns a clause of leaf l that says the call with id
// is unfinished (pending, no result, unknown: internal/meaning's notdone
// words), with what said so.
func (st *state) unfinishedClaim(l leaf, id string) (string, string, bool) {
	for _, r := range st.mtext(l).Read(st.callSubject(id)) {
		if r.Verdict == meaning.Restates && !r.Reported && r.Cue == meaning.NotDone {
			return r.Text, r.Why, true
		}
	}
	return "", "", false
}

// callSubject is the subject of the call with id: its id alone.
func (st *state) callSubject(id string) *meaning.Subject {
	return st.subjectOf(callKey(id), func() *meaning.Subject {
		low := strings.ToLower(id)
		return &meaning.Subject{Kind: meaning.Operation, ID: low, Names: []string{low}}
	})
}

// callKey keys the subject of a call by its id in the per-scenario cache.
type callKey string

func (callKey) InvariantID() string  { return "" }
func (callKey) Type() string         { return "" }
func (callKey) Position() result.Pos { return result.Pos{} }

// opNames are the words that name an operation without its id, read from
// its call: what tells it from the other calls of the same tool (the
// target "prod-db" where another call had "staging-db"), and what it acts
// on (its other arguments' tokens, the words of its tool's name:
// "0193_add_carrier_ref", "migration").
type opNames struct {
	distinct, object []string
	// others are the tokens only other calls of the same tool have: a
	// clause that names one speaks of another call.
	others []string
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
		mine := map[string]bool{}
		for _, t := range argTokens(call.Args) {
			mine[t] = true
		}
		for _, t := range slices.Sorted(maps.Keys(others)) {
			if !mine[t] {
				n.others = append(n.others, t)
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
