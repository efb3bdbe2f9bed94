package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
)

// fromRecord decides a structured summary: the record first, then what
// every other clause says.
func (a *approvalCase) fromRecord(r result.CheckResult) result.CheckResult {
	rec, miscited := a.record()
	if rec >= 0 {
		if bad, ok := a.recordBroken(rec); ok {
			return decide(r, result.Fail, result.DecidedTyped, bad.Note, bad)
		}
	}
	own := func(f foundApproval) bool {
		return rec >= 0 && strings.HasPrefix(f.l.ptr, fmt.Sprintf("/approvals/%d/", rec))
	}
	// Once the approval ended, its record's status says so, and the
	// record's text says what was approved: only a word that it still
	// holds, or a wider scope, goes against the status.
	keep := func(f foundApproval) bool { return !(own(f) && a.stale && !f.r.Holds && f.r.Widened == "") }
	ended := a.stale && rec >= 0
	if f, ok := a.strongest(keep, ended); ok && f.r.Verdict == meaning.Contradicts {
		return a.outcome(r, f)
	}
	if rec < 0 {
		return a.recordMissing(r, miscited)
	}
	if f, ok := a.strongest(keep, ended); ok && f.r.Verdict == meaning.Unclear {
		return a.outcome(r, f)
	}
	e := a.st.sum.Approvals[rec]
	ptr := ptrf("approvals", rec, "text")
	how := fmt.Sprintf("cites #%d", e.SourceSeq)
	by := result.DecidedTyped
	if e.SourceSeq == 0 {
		how, by = "cites no event, states it", result.DecidedStatement
	}
	state := "valid"
	if a.stale {
		state = e.Status
	}
	return decide(r, result.Pass, by, fmt.Sprintf("%s kept at %s (%s, %s): %s", a.what(), ptr, how, state, clipQ(e.Text)),
		result.Evidence{Pointer: ptr, Seq: a.inv.SourceSeq, Text: clip.String(e.Text, clipLen), Pattern: anyOf(a.inv.Match)})
}

// record returns the index of the approvals[] entry that keeps the
// approval (-1: none): the entry citing source_seq, else one citing
// nothing that describes it; and an entry that describes it and cites
// another event (-1: none).
func (a *approvalCase) record() (rec, miscited int) {
	rec, miscited = -1, -1
	for i, e := range a.st.sum.Approvals {
		if e.SourceSeq == a.inv.SourceSeq {
			return i, -1
		}
	}
	for i, e := range a.st.sum.Approvals {
		switch {
		case !a.describes(e):
		case e.SourceSeq == 0 && rec < 0:
			rec = i
		case e.SourceSeq != 0 && miscited < 0:
			miscited = i
		}
	}
	return rec, miscited
}

// describes reports whether an entry is about the approval: its text
// names what it approves, or its resource is the approval's.
func (a *approvalCase) describes(e summary.Approval) bool {
	if matchesAny(a.inv.Match, foldText(e.Text)) {
		return true
	}
	return a.inv.Resource != "" && e.Resource != "" && namesFolded(strings.ToLower(foldText(e.Resource)), a.inv.Resource)
}

// recordBroken returns the typed field of the record that breaks the
// approval: a status or an invalidated_by the history contradicts, an
// approver, a resource or an expiry other than the approval's, a wider
// scope; or, while it holds, a record without what its event gave.
func (a *approvalCase) recordBroken(i int) (result.Evidence, bool) {
	e := a.st.sum.Approvals[i]
	inv := a.inv
	ev := func(field, value, format string, args ...any) (result.Evidence, bool) {
		return result.Evidence{Pointer: ptrf("approvals", i, field), Seq: inv.SourceSeq, Text: clip.String(value, clipLen),
			Note: fmt.Sprintf("/approvals/%d ", i) + fmt.Sprintf(format, args...)}, true
	}
	low := func(s string) string { return strings.ToLower(foldText(s)) }
	switch {
	case a.stale && !statusEnded(e.Status):
		return ev("status", orValid(e.Status), "carries the approval from #%d as %s, but it ended at #%d", inv.SourceSeq, orValid(e.Status), inv.InvalidatedBy)
	case !a.stale && statusEnded(e.Status):
		return ev("status", e.Status, "marks the approval from #%d %s, but it still holds", inv.SourceSeq, e.Status)
	case !a.stale && e.InvalidatedBy != 0:
		return ev("invalidated_by", fmt.Sprint(e.InvalidatedBy), "says #%d ended the approval from #%d, but it still holds", e.InvalidatedBy, inv.SourceSeq)
	case a.stale && e.InvalidatedBy != 0 && e.InvalidatedBy != inv.InvalidatedBy:
		return ev("invalidated_by", fmt.Sprint(e.InvalidatedBy), "says #%d ended the approval from #%d; #%d did", e.InvalidatedBy, inv.SourceSeq, inv.InvalidatedBy)
	case e.Approver != "" && inv.Approver != "" && !namesFolded(low(e.Approver), inv.Approver) && !namesFolded(low(inv.Approver), e.Approver):
		return ev("approver", e.Approver, "gives the approval from #%d to %q; %q gave it", inv.SourceSeq, e.Approver, inv.Approver)
	case e.Resource != "" && inv.Resource != "" && !namesFolded(low(e.Resource), inv.Resource):
		return ev("resource", e.Resource, "ties the approval from #%d to %q, not to %q", inv.SourceSeq, e.Resource, inv.Resource)
	case e.Expires != "" && !namesFolded(low(e.Expires), inv.Expires) && !a.sub.Carries(meaning.Time, "until "+e.Expires):
		return ev("expires", e.Expires, "gives the approval from #%d an expiry its event does not state: %q", inv.SourceSeq, e.Expires)
	}
	if e.Scope != "" {
		if w := a.sub.WidenedIn(foldText(e.Scope)); w != "" {
			return ev("scope", e.Scope, "widens the approval from #%d to %q", inv.SourceSeq, w)
		}
		if len(inv.Scope) > 0 && !namesAny(e.Scope, inv.Scope) {
			return ev("scope", e.Scope, "gives the approval from #%d the scope %q, not %s", inv.SourceSeq, e.Scope, quoteAll(inv.Scope))
		}
	}
	if !a.stale {
		if m := a.missing(strings.Join([]string{e.Text, e.Approver, e.Scope, e.Resource, e.Expires}, " \n ")); m != "" {
			return ev("text", e.Text, "keeps the approval from #%d without %s", inv.SourceSeq, m)
		}
	}
	return result.Evidence{}, false
}

func orValid(s string) string {
	if s == "" {
		return "valid (no status)"
	}
	return s
}

// recordMissing is the outcome when no entry keeps the approval.
func (a *approvalCase) recordMissing(r result.CheckResult, miscited int) result.CheckResult {
	if i := miscited; i >= 0 {
		e := a.st.sum.Approvals[i]
		note := fmt.Sprintf("/approvals/%d keeps %s but cites #%d, which did not grant it", i, a.what(), e.SourceSeq)
		return decide(r, result.Fail, result.DecidedTyped, note,
			result.Evidence{Pointer: ptrf("approvals", i, "source_seq"), Seq: e.SourceSeq, Text: clip.String(e.Text, clipLen), Note: note})
	}
	msg := fmt.Sprintf("no approvals entry keeps %s (%s)%s", a.what(), anyOf(a.inv.Match), a.staleNote())
	ev := result.Evidence{Pointer: "/approvals", Seq: a.inv.SourceSeq, Pattern: anyOf(a.inv.Match)}
	for _, f := range a.fs {
		if f.r.Verdict == meaning.Restates {
			ev.Note = fmt.Sprintf("stated only at %s (%s), not as an approvals entry", f.l.ptr, clipQ(f.r.Text))
			msg += "; " + ev.Note
			break
		}
	}
	return decide(r, result.Fail, result.DecidedTyped, msg, ev)
}
