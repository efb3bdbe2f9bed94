package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// TailCheck is the `tail` check: the compacted context holds every event after
// covers_through, arrivals included, none twice.
//
// Rule, on Gen.Tail (the events the runtime kept after the summary): every
// event of the scenario's history with seq > covers_through is present;
// every tail event is an event or an arrival of the scenario with the same
// role and payload; none has seq ≤ covers_through; none appears twice; seqs
// increase. Arrivals may be present (they are required only once they have
// arrived, which the runtime knows). Fail lists each problem with its seq.
// Skip when covers_through differs from the cut (the runtime refuses such a
// summary and builds no tail from it; coverage reports it). A text-only
// summary is judged like any other.
type TailCheck struct{}

// Check implements Check.
func (TailCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckTail, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckTail, Kind: result.KindStructural}
	ct := st.sum.CoversThrough
	if in.Gen.Cut > 0 && ct != in.Gen.Cut {
		r.Status = result.Skip
		r.Message = fmt.Sprintf("covers_through %d differs from the cut %d, so no tail is built from this summary (see coverage)", ct, in.Gen.Cut)
		return []result.CheckResult{r}
	}
	sc := in.Scenario
	seen := map[int]bool{}
	last := 0
	arrivals := 0
	bad := func(seq int, note string) {
		r.Evidence = append(r.Evidence, result.Evidence{Seq: seq, Note: note})
	}
	for _, e := range in.Gen.Tail {
		want, ok := sc.EventBySeq(e.Seq)
		switch {
		case !ok:
			bad(e.Seq, "not an event of the scenario")
		case e.Seq <= ct:
			bad(e.Seq, fmt.Sprintf("already covered by the summary (≤ %d)", ct))
		case seen[e.Seq]:
			bad(e.Seq, "appears twice")
		case e.Seq < last:
			bad(e.Seq, fmt.Sprintf("out of order (after #%d)", last))
		case !sameEvent(want, e):
			bad(e.Seq, "differs from the scenario's event")
		}
		if ok && e.Seq > sc.LastSeq() && !seen[e.Seq] {
			arrivals++
		}
		seen[e.Seq] = true
		if e.Seq > last {
			last = e.Seq
		}
	}
	kept := 0
	for _, e := range sc.Events {
		if e.Seq <= ct {
			continue
		}
		if !seen[e.Seq] {
			bad(e.Seq, "missing from the compacted context")
		} else {
			kept++
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("event #%d %s", e.Seq, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(r.Evidence), "problem"))
		}
		return []result.CheckResult{r}
	}
	r.Status = result.Pass
	r.Message = fmt.Sprintf("the tail holds the %s after #%d and %s", plural(kept, "event"), ct, plural(arrivals, "arrival"))
	return []result.CheckResult{r}
}

func sameEvent(a, b scenarios.Event) bool {
	if a.Role != b.Role || a.Text != b.Text || (a.ToolCall == nil) != (b.ToolCall == nil) || (a.ToolResult == nil) != (b.ToolResult == nil) {
		return false
	}
	if a.ToolCall != nil && (a.ToolCall.ID != b.ToolCall.ID || a.ToolCall.Name != b.ToolCall.Name) {
		return false
	}
	if a.ToolResult != nil && (a.ToolResult.CallID != b.ToolResult.CallID || a.ToolResult.Text != b.ToolResult.Text) {
		return false
	}
	return true
}
