package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// HandoffCheck checks a `handoff` invariant: a summary written once the
// work restarts in a new session (source_seq covered) names the previous
// session, why it restarts, the artifacts approved for use and the
// operations still unresolved.
//
// A pass is earned. On a structured summary the typed record decides: the
// handoff object, whose previous_session names the invariant's session,
// whose reason states the reason plainly (the reason patterns, read as a
// fact: not negated, hedged or attributed), whose source_seq (when given)
// is the invariant's, whose approved_artifacts name every artifact of the
// invariant and nothing else (an artifact no approval covers, listed as
// approved, fails), and whose unresolved lists every operation (none
// listed as done under pending). On a text-only summary the text names the
// session, states the reason, names each artifact with a word of approval
// (internal/meaning's ReadApproval) and each operation as unfinished
// (pending, no result, unknown). Then every clause of every field the
// agent sees is read: one that says an operation finished, that approves
// another artifact of an approved one's kind (another digest, another
// version), or that denies the reason fails; one the reader cannot read
// plainly is uncertain. Skip while source_seq is after the cut.
type HandoffCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Handoff
}

// handoffCase is one handoff invariant judged on one summary: the first
// problem found (a fail) and the first doubt (uncertain).
type handoffCase struct {
	st      *state
	inv     *scenarios.Handoff
	typed   bool
	problem *result.Evidence
	doubt   *result.Evidence
}

func (h *handoffCase) fail(ptr, text, format string, args ...any) {
	if h.problem == nil {
		h.problem = &result.Evidence{Pointer: ptr, Seq: h.inv.SourceSeq, Text: clip.String(text, clipLen), Note: fmt.Sprintf(format, args...)}
	}
}

func (h *handoffCase) unsure(ptr, text, format string, args ...any) {
	if h.doubt == nil {
		h.doubt = &result.Evidence{Pointer: ptr, Seq: h.inv.SourceSeq, Text: clip.String(text, clipLen), Note: fmt.Sprintf(format, args...)}
	}
}

// Check implements Check.
func (c HandoffCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeHandoff)
	}
	inv := c.Inv
	st, r, ok := patternedInvariant(in, inv, inv.SourceSeq, inv.Reason)
	if !ok {
		return []result.CheckResult{r}
	}
	h := &handoffCase{st: st, inv: inv, typed: !st.sum.TextOnly()}
	leaves := st.textLeaves()
	if h.typed {
		leaves = st.currentFlat()
		h.record()
	} else {
		h.prose()
	}
	h.elsewhere(leaves)
	switch {
	case h.problem != nil:
		return []result.CheckResult{decide(r, result.Fail, h.decidedBy(*h.problem), "handoff: "+h.problem.Note, *h.problem)}
	case h.doubt != nil:
		return []result.CheckResult{decide(r, result.Uncertain, result.DecidedJudge, "handoff: "+h.doubt.Note, *h.doubt)}
	}
	by, at := result.DecidedStatement, "/text"
	if h.typed {
		by, at = result.DecidedTyped, "/handoff"
	}
	return []result.CheckResult{decide(r, result.Pass, by,
		fmt.Sprintf("handoff from %s kept at %s: its reason, %s and %s", inv.Session, at, plural(len(inv.Artifacts), "approved artifact"), plural(len(inv.Operations), "unresolved operation")),
		result.Evidence{Pointer: at, Seq: inv.SourceSeq, Text: inv.Session})}
}

// decidedBy is what decided a problem: the record's fields, or a clause.
func (h *handoffCase) decidedBy(e result.Evidence) string {
	if h.typed && (strings.HasPrefix(e.Pointer, "/handoff") || strings.HasPrefix(e.Pointer, "/pending")) {
		return result.DecidedTyped
	}
	return result.DecidedStatement
}

// record judges the handoff object of a structured summary.
func (h *handoffCase) record() {
	inv, ho := h.inv, h.st.sum.Handoff
	if ho == nil {
		h.fail("/handoff", "", "no handoff record: a summary written for the new session that starts at #%d names the previous session %s, why it restarts, the approved artifacts and the unresolved operations", inv.SourceSeq, inv.Session)
		return
	}
	low := func(s string) string { return strings.ToLower(foldText(s)) }
	if !namesFolded(low(ho.PreviousSession), inv.Session) {
		h.fail("/handoff/previous_session", ho.PreviousSession, "previous_session %q is not the previous session %s", ho.PreviousSession, inv.Session)
	}
	if ho.SourceSeq != 0 && ho.SourceSeq != inv.SourceSeq {
		h.fail("/handoff/source_seq", fmt.Sprint(ho.SourceSeq), "cites #%d for the restart; #%d gives it", ho.SourceSeq, inv.SourceSeq)
	}
	h.reason(h.st.leafAt("/handoff/reason"), "/handoff/reason")
	for _, a := range inv.Artifacts {
		if !slices.ContainsFunc(ho.ApprovedArtifacts, func(x string) bool { return findToken(x, a) >= 0 }) {
			h.fail("/handoff/approved_artifacts", a, "approved_artifacts does not list %s, approved for use", a)
		}
	}
	for i, x := range ho.ApprovedArtifacts {
		if !slices.ContainsFunc(inv.Artifacts, func(a string) bool { return findToken(x, a) >= 0 }) {
			h.fail(fmt.Sprintf("/handoff/approved_artifacts/%d", i), x, "lists %q as approved, which no approval of the history covers (approved: %s)", x, quoteAll(inv.Artifacts))
		}
	}
	for _, op := range inv.Operations {
		if !slices.Contains(ho.Unresolved, op) {
			h.fail("/handoff/unresolved", op, "unresolved does not list operation %s, whose outcome is unknown", op)
		}
		for i, p := range h.st.sum.Pending {
			if p.OpID == op && p.Status == summary.PendingDone {
				h.fail(ptrf("pending", i, "status"), op, "operation %s is listed as done at /pending/%d, but it never returned", op, i)
			}
		}
	}
}

// reason judges what leaf l says of the reason for the restart; where is
// the pointer to blame when it says nothing.
func (h *handoffCase) reason(l leaf, where string) {
	rs := h.st.mtext(l).Read(h.reasonSubject())
	for _, rd := range rs {
		if rd.Verdict == meaning.Restates {
			return
		}
	}
	for _, rd := range rs {
		if rd.Verdict == meaning.Unclear {
			h.unsure(l.ptr, rd.Text, "the reason for the restart is stated in words the reader cannot read plainly: %s (%s)", clipQ(rd.Text), rd.Why)
			return
		}
	}
	h.fail(where, l.text, "does not say why the work restarts (%s, #%d)", anyOf(h.inv.Reason), h.inv.SourceSeq)
}

// prose judges a text-only summary: its text names the session, states the
// reason, names each artifact as approved and each operation as
// unfinished.
func (h *handoffCase) prose() {
	inv, text := h.inv, h.st.text()
	tl := h.st.leafAt("/text")
	if !namesFolded(strings.ToLower(foldText(text)), inv.Session) {
		h.fail("/text", "", "text does not name the previous session %s", inv.Session)
	}
	h.reason(tl, "/text")
	for _, a := range inv.Artifacts {
		switch v, rd := h.strongestOf(h.artifactReadings(a, tl)); {
		case v == meaning.Unclear:
			h.unsure("/text", rd.Text, "text names %s in words the reader cannot read plainly: %s (%s)", a, clipQ(rd.Text), rd.Why)
		case !h.restated(h.artifactReadings(a, tl)):
			h.fail("/text", a, "text does not name %s as approved", a)
		}
	}
	for _, op := range inv.Operations {
		rs := h.st.mtext(tl).Read(h.opSubject(op))
		switch v, rd := h.strongestOf(rs); {
		case v == meaning.Unclear:
			h.unsure("/text", rd.Text, "text names operation %s in words the reader cannot read plainly: %s (%s)", op, clipQ(rd.Text), rd.Why)
		case !h.restated(rs):
			h.fail("/text", op, "text does not name operation %s as unresolved", op)
		}
	}
}

// elsewhere reads every clause of leaves for what goes against the
// handoff: an operation said to have finished, another artifact of an
// approved one's kind approved, an approved one denied, the reason denied.
func (h *handoffCase) elsewhere(leaves []leaf) {
	for _, l := range leaves {
		for _, op := range h.inv.Operations {
			if claim, ok := h.st.successClaim(l, op); ok {
				h.fail(l.ptr, claim, "%s says operation %s finished, but it never returned: %s", l.ptr, op, clipQ(claim))
			}
		}
		for _, a := range h.inv.Artifacts {
			for _, rd := range h.artifactReadings(a, l) {
				if rd.Verdict == meaning.Contradicts {
					h.fail(l.ptr, rd.Text, "%s goes against the approval of %s: %s (%s)", l.ptr, a, clipQ(rd.Text), rd.Why)
				}
			}
		}
		if l.ptr == "/handoff/reason" || l.ptr == "/text" && !h.typed {
			continue // read as the reason itself
		}
		for _, rd := range h.st.mtext(l).Read(h.reasonSubject()) {
			if rd.Verdict == meaning.Contradicts {
				h.fail(l.ptr, rd.Text, "%s denies the reason for the restart: %s (%s)", l.ptr, clipQ(rd.Text), rd.Why)
			}
		}
	}
}

// reasonSubject is the reason for the restart, read as a fact that must
// hold.
func (h *handoffCase) reasonSubject() *meaning.Subject {
	return h.st.subjectOf(h.inv, func() *meaning.Subject {
		return &meaning.Subject{Kind: meaning.Fact, Patterns: compiled(h.inv.Reason), Source: sourceText(h.st.eventText(h.inv.SourceSeq))}
	})
}

// handoffArtifact keys an approved artifact's subject in the per-scenario
// cache.
type handoffArtifact struct {
	inv  *scenarios.Handoff
	name string
}

func (handoffArtifact) InvariantID() string  { return "" }
func (handoffArtifact) Type() string         { return "" }
func (handoffArtifact) Position() result.Pos { return result.Pos{} }

// artifactReadings reads what leaf l says of the approval of artifact a:
// a subject with a for its name, and the names of its kind the history
// holds as others.
func (h *handoffCase) artifactReadings(a string, l leaf) []meaning.Reading {
	sub := h.st.subjectOf(handoffArtifact{h.inv, a}, func() *meaning.Subject {
		var others []string
		for _, e := range h.scenarioTexts() {
			others = append(others, meaning.Kin(a, e)...)
		}
		return meaning.StateSubject(meaning.Approval, nil, "", []string{a}, others...)
	})
	var out []meaning.Reading
	for _, rd := range h.st.mtext(l).ReadApproval(sub, false) {
		out = append(out, rd.Reading)
	}
	return out
}

// opSubject is the subject of an operation named by its id.
func (h *handoffCase) opSubject(id string) *meaning.Subject {
	return h.st.subjectOf(callKey(id), func() *meaning.Subject {
		low := strings.ToLower(id)
		return &meaning.Subject{Kind: meaning.Operation, ID: low, Names: []string{low}}
	})
}

// strongestOf returns the strongest verdict of rs and its reading.
func (h *handoffCase) strongestOf(rs []meaning.Reading) (meaning.Verdict, meaning.Reading) {
	var best meaning.Reading
	for _, rd := range rs {
		if rd.Verdict > best.Verdict {
			best = rd
		}
	}
	return best.Verdict, best
}

func (h *handoffCase) restated(rs []meaning.Reading) bool {
	return slices.ContainsFunc(rs, func(rd meaning.Reading) bool { return rd.Verdict == meaning.Restates })
}

// scenarioTexts are the texts of the scenario's events (none without a
// scenario).
func (h *handoffCase) scenarioTexts() []string {
	if h.st.sd == nil {
		return nil
	}
	return h.st.sd.raw
}
