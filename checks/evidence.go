package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
)

// EvidenceCheck is the `evidence` check: a verified claim rests on what a user
// said or a tool returned, never on an assistant's own words.
//
// Rule: every verified[] claim must have a source_seq naming a `user` or
// `tool` event. A claim with no source_seq fails ("cites no event"); a claim
// citing an `assistant` or `system` event fails; a source_seq that names no
// event is left to the references check. Skip when the summary has no
// verified claims (a text-only summary always skips).
type EvidenceCheck struct{}

// Check implements Check.
func (EvidenceCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckEvidence, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckEvidence, Kind: result.KindStructural}
	if len(st.sum.Verified) == 0 {
		r.Status, r.Message = result.Skip, "the summary lists no verified claim"
		return []result.CheckResult{r}
	}
	for i, c := range st.sum.Verified {
		ptr := ptrf("verified", i, "source_seq")
		if c.SourceSeq == 0 {
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptr, Text: clip.String(c.Claim, clipLen), Note: "cites no event"})
			continue
		}
		e, ok := in.Scenario.EventBySeq(c.SourceSeq)
		if !ok {
			continue
		}
		if e.Role != scenarios.RoleUser && e.Role != scenarios.RoleTool {
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptr, Seq: e.Seq, Text: clip.String(c.Claim, clipLen), Note: "cites " + describeRole(e.Role)})
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		if e.Seq > 0 {
			r.Message = fmt.Sprintf("verified claim %s %s (#%d), not a user or tool event", e.Pointer[:len(e.Pointer)-len("/source_seq")], e.Note, e.Seq)
		} else {
			r.Message = fmt.Sprintf("verified claim %s cites no event", e.Pointer[:len(e.Pointer)-len("/source_seq")])
		}
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d claims)", len(r.Evidence), len(st.sum.Verified))
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("all %s cite user or tool events", plural(len(st.sum.Verified), "verified claim"))
	return []result.CheckResult{r}
}
