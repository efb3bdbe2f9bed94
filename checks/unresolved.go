package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// UnresolvedCheck is the `unresolved` check: an operation whose outcome is
// unknown stays visibly unresolved.
//
// Rule: every tool call with seq ≤ covers_through that has no result with
// seq ≤ covers_through, or whose result has status `timeout`, must be
// listed under pending[] by its call id (op_id, verbatim) with a status
// other than `done`, and no other field may claim it succeeded (a word of
// the completion class that nothing negates or hedges in a clause naming
// the id, as for pending_operation: "q5 completed successfully", "q5 went
// through"). Fail names each call
// missing, marked done or claimed done. Skip when
// the covered history has no unresolved call, and on a text-only summary
// (it has no pending field; the pending_operation invariant reads text).
type UnresolvedCheck struct{}

// Check implements Check.
func (UnresolvedCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckUnresolved, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckUnresolved, Kind: result.KindStructural}
	bound := st.bound()
	var open []scenarios.Event
	for _, c := range st.sd.calls {
		if c.Seq > bound {
			break
		}
		res, ok := st.sd.results[c.ToolCall.ID]
		if !ok || res.Seq > bound || res.ToolResult.Status == scenarios.StatusTimeout {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		r.Status, r.Message = result.Skip, fmt.Sprintf("no unresolved tool call in events 1..%d", bound)
		return []result.CheckResult{r}
	}
	if st.sum.TextOnly() {
		r.Status, r.Message = result.Skip, "text-only summary: no pending field to check (see pending_operation)"
		return []result.CheckResult{r}
	}
	var ids []string
	for _, c := range open {
		id := c.ToolCall.ID
		ids = append(ids, id)
		idx := -1
		for i, p := range st.sum.Pending {
			if p.OpID == id {
				idx = i
				if p.Status != summary.PendingDone {
					break
				}
			}
		}
		switch {
		case idx < 0:
			r.Evidence = append(r.Evidence, result.Evidence{Seq: c.Seq, Text: id, Pointer: "/pending", Note: "not listed under pending"})
		case st.sum.Pending[idx].Status == summary.PendingDone:
			r.Evidence = append(r.Evidence, result.Evidence{Seq: c.Seq, Text: id, Pointer: ptrf("pending", idx, "status"), Note: "listed as done"})
		default:
			// Listed as unresolved, and claimed done elsewhere ("q5
			// completed successfully" in text or a decision).
			for _, l := range st.leaves {
				if fieldOf(l.ptr) == "pending" || findToken(l.text, id) < 0 {
					continue
				}
				if claim, ok := st.successClaim(l, id); ok {
					r.Evidence = append(r.Evidence, result.Evidence{Seq: c.Seq, Text: id, Pointer: l.ptr, Note: fmt.Sprintf("claimed done at %s: %q", l.ptr, claim)})
					break
				}
			}
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("unresolved call %s (#%d) is %s", e.Text, e.Seq, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d calls)", len(r.Evidence), len(open))
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("unresolved %s listed under pending: %s", plural(len(open), "call"), strings.Join(ids, ", "))
	return []result.CheckResult{r}
}
