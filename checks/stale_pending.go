package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// StalePendingCheck is the `stale_pending` check: an operation that
// finished is not sent back to the agent as unfinished work. It is the
// mirror of unresolved: listing every call as "unknown", the finished ones
// included, would pass unresolved and pending_operation, and would make
// the agent repeat a migration, a deploy or an email that already went out.
//
// Rule: a call is finished when its first result has status ok and seq ≤
// covers_through. A pending[] entry naming a finished call (its op_id, or,
// with no op_id, its description naming the call id as a whole token) with
// status pending, in_flight, unknown or no status fails, naming the call and
// the seq of its result. Status done passes; failed passes too (an ok
// result can still report a failure in its text). On a text-only summary,
// a finished call's id in a clause that hedges it ("c1 and c4 are
// unknown", "no result yet for c1", "pendiente") fails the same way
// (internal/meaning). Skip when the summary lists nothing under pending,
// and on a text-only summary that names no finished call.
type StalePendingCheck struct{}

// Check implements Check.
func (StalePendingCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckStalePending, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckStalePending, Kind: result.KindStructural}
	if st.sum.TextOnly() {
		return []result.CheckResult{stalePendingText(st, r)}
	}
	if len(st.sum.Pending) == 0 {
		r.Status, r.Message = result.Skip, "the summary lists nothing under pending"
		return []result.CheckResult{r}
	}
	bound := st.bound()
	finished := func(id string) (scenarios.Event, bool) {
		res, ok := st.sd.results[id]
		if !ok || res.Seq > bound || res.ToolResult.Status == scenarios.StatusTimeout || res.ToolResult.Status == scenarios.StatusError {
			return scenarios.Event{}, false
		}
		return res, true
	}
	for i, p := range st.sum.Pending {
		switch p.Status {
		case summary.PendingDone, summary.PendingFailed:
			continue
		}
		status := p.Status
		if status == "" {
			status = "no status"
		}
		if p.OpID != "" {
			if res, ok := finished(p.OpID); ok {
				r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptrf("pending", i, "status"), Seq: res.Seq, Text: p.OpID,
					Note: fmt.Sprintf("listed as %s; its result came back ok at #%d", status, res.Seq)})
			}
			continue
		}
		for _, c := range st.sd.calls {
			if c.Seq > bound {
				break
			}
			if findToken(p.Description, c.ToolCall.ID) < 0 {
				continue
			}
			if res, ok := finished(c.ToolCall.ID); ok {
				r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptrf("pending", i, "description"), Seq: res.Seq, Text: c.ToolCall.ID,
					Note: fmt.Sprintf("listed as %s; its result came back ok at #%d", status, res.Seq)})
				break
			}
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("finished operation %s is %s: the agent would redo finished work", e.Text, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d pending entries)", len(r.Evidence), len(st.sum.Pending))
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("no pending entry names an operation that finished (%d checked)", len(st.sum.Pending))
	return []result.CheckResult{r}
}

// stalePendingText judges a text-only summary: a finished call named under
// a hedge.
func stalePendingText(st *state, r result.CheckResult) result.CheckResult {
	bound := st.bound()
	leaves := st.textLeaves()
	if len(leaves) == 0 {
		r.Status, r.Message = result.Skip, "the summary has no text"
		return r
	}
	l := leaves[0]
	named := 0
	for _, c := range st.sd.calls {
		if c.Seq > bound {
			break
		}
		id := c.ToolCall.ID
		res, ok := st.sd.results[id]
		if !ok || res.Seq > bound || res.ToolResult.Status != scenarios.StatusOK && res.ToolResult.Status != "" {
			continue
		}
		if findToken(l.text, id) < 0 {
			continue
		}
		named++
		if clause, why, ok := st.unfinishedClaim(l, id); ok {
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: "/text", Seq: res.Seq, Text: id,
				Note: fmt.Sprintf("named as unfinished (%s: %s); its result came back ok at #%d", why, clipQ(clause), res.Seq)})
		}
	}
	switch {
	case len(r.Evidence) > 0:
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("finished operation %s is %s: the agent would redo finished work", e.Text, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d operations)", len(r.Evidence))
		}
	case named == 0:
		r.Status, r.Message = result.Skip, "text names no finished operation"
	default:
		r.Status, r.Message = result.Pass, fmt.Sprintf("text names %s, none as unfinished", plural(named, "finished operation"))
	}
	return r
}
