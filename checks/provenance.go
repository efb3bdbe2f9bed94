package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/scenarios"
)

// ProvenanceCheck is the `provenance` check: an instruction the summary keeps
// as a constraint or a correction comes from the user (or the system), not
// from a tool output or the assistant.
//
// Rule: every constraints[] and corrections[] entry must have a source_seq
// naming a `user` or `system` event. An entry with no source_seq fails
// ("cites no event"); an entry citing a `tool` or `assistant` event fails; a
// source_seq that names no event is left to the references check. Skip when
// the summary has neither constraints nor corrections (a text-only summary
// always skips).
type ProvenanceCheck struct{}

// Check implements Check.
func (ProvenanceCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckProvenance, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckProvenance, Kind: result.KindStructural}
	type item struct {
		ptr, text string
		seq       int
	}
	var items []item
	for i, c := range st.sum.Constraints {
		items = append(items, item{ptrf("constraints", i, "source_seq"), c.Text, c.SourceSeq})
	}
	for i, c := range st.sum.Corrections {
		items = append(items, item{ptrf("corrections", i, "source_seq"), c.Value, c.SourceSeq})
	}
	if len(items) == 0 {
		r.Status, r.Message = result.Skip, "the summary lists no constraint or correction"
		return []result.CheckResult{r}
	}
	for _, it := range items {
		if it.seq == 0 {
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: it.ptr, Text: clip.String(it.text, clipLen), Note: "cites no event"})
			continue
		}
		e, ok := in.Scenario.EventBySeq(it.seq)
		if !ok {
			continue
		}
		if e.Role != scenarios.RoleUser && e.Role != scenarios.RoleSystem {
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen), Note: "cites " + describeRole(e.Role)})
		}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		if e.Seq > 0 {
			r.Message = fmt.Sprintf("%s %s (#%d): an instruction only %s gave is not the user's", e.Pointer, e.Note, e.Seq, giver(e.Note))
		} else {
			r.Message = fmt.Sprintf("%s cites no event: its provenance cannot be checked", e.Pointer)
		}
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d entries)", len(r.Evidence), len(items))
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("all %d constraints and corrections cite user or system events", len(items))
	return []result.CheckResult{r}
}

// giver names who gave an instruction, from an evidence note "cites …".
func giver(note string) string {
	switch note {
	case "cites a tool event":
		return "a tool output"
	case "cites an assistant event":
		return "the assistant"
	}
	return "that event"
}
