package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"
)

// CoverageCheck is the `coverage` check: covers_through equals the cut the
// summarizer was given, extends the previous generation, and the cut splits
// no protocol unit.
//
// Rule: fail when covers_through ≠ Gen.Cut, or covers_through ≤
// Gen.PrevCoversThrough; error when Gen.Cut is 0 (the harness gave no cut)
// or when the cut itself separates a tool call (seq ≤ cut) from its result
// (seq > cut), because the harness, not the summarizer, chose that cut;
// pass otherwise. covers_through is required by the schema, so a text-only
// summary is judged like any other.
type CoverageCheck struct{}

// Check implements Check.
func (CoverageCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckCoverage, false)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckCoverage, Kind: result.KindStructural}
	ct, cut, prev := st.sum.CoversThrough, in.Gen.Cut, in.Gen.PrevCoversThrough
	ev := result.Evidence{Pointer: "/covers_through", Text: fmt.Sprint(ct)}
	switch {
	case cut <= 0:
		r.Status, r.Message = result.Error, "the harness gave no cut for this generation"
	case ct != cut:
		r.Status, r.Message = result.Fail, fmt.Sprintf("covers_through is %d; the cut was %d", ct, cut)
		ev.Seq = cut
		r.Evidence = []result.Evidence{ev}
	case ct <= prev:
		r.Status, r.Message = result.Fail, fmt.Sprintf("covers_through %d does not extend the previous generation's %d", ct, prev)
		ev.Seq = prev
		r.Evidence = []result.Evidence{ev}
	default:
		r.Status, r.Message = result.Pass, fmt.Sprintf("covers_through %d equals the cut and extends %d", ct, prev)
		r.Evidence = []result.Evidence{ev}
		if in.Scenario != nil {
			sd := st.sd
			for _, c := range sd.calls {
				if c.Seq > ct {
					break
				}
				if res, ok := sd.results[c.ToolCall.ID]; ok && res.Seq > ct {
					r.Status = result.Error
					r.Message = fmt.Sprintf("the cut #%d splits protocol unit %s (call #%d, result #%d): the harness chose an invalid cut", cut, c.ToolCall.ID, c.Seq, res.Seq)
					r.Evidence = []result.Evidence{{Seq: c.Seq, Text: c.ToolCall.ID}}
					break
				}
			}
		}
	}
	return []result.CheckResult{r}
}
