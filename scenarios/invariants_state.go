package scenarios

import "github.com/compact-eval/compact-eval/result"

// The invariants of the state a long-running workflow depends on: an
// approval, the current goal, the next allowed step, a handoff to a new
// session (docs/formats.md §2).

// Approval: at SourceSeq the Approver approved what Match recognises (an
// action: "canary rollout"), for Scope (the names it covers, as the event
// writes them: a cluster, a region, a pool; empty, what Match names),
// tied to Resource (a digest, a version, a plan's id) and until Expires
// (as the event gives it), each optional. InvalidatedBy, when set, is the
// later event that ended it: its expiry passed, its resource changed, it
// was revoked. Until then the approval holds and a summary must keep it
// while the action it approves is still to come; from then on it is
// stale and a summary must say so, never carry it as valid.
type Approval struct {
	InvariantBase
	SourceSeq     int      `json:"source_seq"`
	Approver      string   `json:"approver"`
	Match         []string `json:"match"`
	Scope         []string `json:"scope,omitempty"`
	Resource      string   `json:"resource,omitempty"`
	Expires       string   `json:"expires,omitempty"`
	InvalidatedBy int      `json:"invalidated_by,omitempty"`
}

// Goal: at SourceSeq the user redirected the task: Match recognises the
// current objective, Superseded the objective it replaced, which a summary
// may keep only as replaced.
type Goal struct {
	InvariantBase
	SourceSeq  int      `json:"source_seq"`
	Match      []string `json:"match"`
	Superseded []string `json:"superseded"`
}

// NextStep: from SourceSeq the next allowed transition of a workflow is
// the step Match recognises ("a dry-run"); Later recognises the steps that
// may come only after it ("apply"), and Gate, when set, what they wait for
// ("CAB approval"; empty, the step itself). A summary must present the
// allowed step as next and no later step as next, allowed or done.
type NextStep struct {
	InvariantBase
	SourceSeq int      `json:"source_seq"`
	Match     []string `json:"match"`
	Later     []string `json:"later"`
	Gate      []string `json:"gate,omitempty"`
}

// Handoff: at SourceSeq the work restarts in a new session, for the
// reason Reason recognises. A summary written from then on names the
// previous Session (its id, as the history writes it), the Artifacts
// approved for use (exactly, and no others) and the Operations still
// unresolved (op ids of calls with no result or a timeout).
type Handoff struct {
	InvariantBase
	SourceSeq  int      `json:"source_seq"`
	Session    string   `json:"session"`
	Reason     []string `json:"reason"`
	Artifacts  []string `json:"artifacts,omitempty"`
	Operations []string `json:"operations,omitempty"`
}

func (Approval) Type() string { return result.TypeApproval }
func (Goal) Type() string     { return result.TypeGoal }
func (NextStep) Type() string { return result.TypeNextStep }
func (Handoff) Type() string  { return result.TypeHandoff }

// Stale reports whether the approval no longer holds at cut: the event
// that ended it is covered.
func (a *Approval) Stale(cut int) bool {
	return a.InvalidatedBy > 0 && (cut <= 0 || a.InvalidatedBy <= cut)
}
