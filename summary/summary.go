package summary

import (
	"bytes"
	"encoding/json"
)

// SchemaVersion is the summary document version (docs/formats.md §3). The
// contract is at minor version 1.3 (docs/contract.md, "The summary
// document"): 1.1 added artifacts[].status and pinned down the meaning of
// corrections[].supersedes and of extensions; 1.2 added the typed fields of
// constraints[] (target, scope, condition, expires, status); 1.3 added
// approvals[] and handoff and pinned down the meaning of goal and of the
// order of next_steps. Every version-1 document is a valid 1.3 document,
// so schema_version stays 1.
const SchemaVersion = 1

// Summary is the summary document a summarizer returns (docs/formats.md §3). Only
// SchemaVersion and CoversThrough are required; a text-only summary sets Text
// and nothing else. Since contract 1.3 Goal is the current objective (a
// goal the user replaced goes to Corrections as its supersedes, or to Text
// as history), and NextSteps are in the order the steps may be taken: the
// first that names a step of a workflow is the next allowed one, and a
// later entry comes after those before it.
type Summary struct {
	SchemaVersion int           `json:"schema_version"`
	CoversThrough int           `json:"covers_through"`
	Goal          string        `json:"goal,omitempty"`
	Constraints   []Constraint  `json:"constraints,omitempty"`
	Decisions     []Statement   `json:"decisions,omitempty"`
	Verified      []Claim       `json:"verified,omitempty"`
	Hypotheses    []Hypothesis  `json:"hypotheses,omitempty"`
	Pending       []Pending     `json:"pending,omitempty"`
	Artifacts     []ArtifactRef `json:"artifacts,omitempty"`
	Corrections   []Correction  `json:"corrections,omitempty"`
	Errors        []ErrorNote   `json:"errors,omitempty"`
	NextSteps     []string      `json:"next_steps,omitempty"`
	Text          string        `json:"text,omitempty"`
	// Extensions holds anything else a summarizer wants to keep; unknown
	// top-level properties are refused. Extensions are the summarizer's
	// own: they go back to it as part of the previous summary, they count
	// toward compression and the secret check reads them, but the agent
	// never sees them (ForAgent removes them) and no content check reads
	// them, so a value kept only there is a value the agent lost.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`

	// Approvals (contract 1.3) are the approvals the session granted, each
	// with who gave it, what it covers, what it is tied to and whether it
	// still holds.
	Approvals []Approval `json:"approvals,omitempty"`
	// Handoff (contract 1.3) is set on a summary written for a new
	// session.
	Handoff *Handoff `json:"handoff,omitempty"`
}

// Statement is a constraint or decision with the event it comes from.
type Statement struct {
	Text      string `json:"text"`
	SourceSeq int    `json:"source_seq,omitempty"`
}

// Constraint statuses (contract 1.2). An absent status means active.
const (
	// ConstraintActive: the rule holds.
	ConstraintActive = "active"
	// ConstraintLifted: the rule was lifted or expired; kept for the record.
	ConstraintLifted = "lifted"
)

// ConstraintStatuses lists the valid constraint statuses.
var ConstraintStatuses = []string{ConstraintActive, ConstraintLifted}

// Constraint is a rule the session set, with the event it comes from and,
// since contract 1.2, the fields that carry its meaning: what it applies
// to, what it covers, the condition under which what it forbids is
// allowed, when it stops holding, and whether it still holds. Each field
// is optional; an absent one says nothing, so a 1.1 entry is a valid 1.2
// entry. The checks compare a field with the rule's own event: a target
// other than the rule's, or a condition or an expiry the rule did not
// give, is a meaning the summary changed.
type Constraint struct {
	Text      string `json:"text"`
	SourceSeq int    `json:"source_seq,omitempty"`
	// Target is what the rule applies to, as the history names it
	// ("prod-us-2", "ledger").
	Target string `json:"target,omitempty"`
	// Scope is what the rule covers ("writes", "pushes and PRs").
	Scope string `json:"scope,omitempty"`
	// Condition is the condition the rule itself gave for what it forbids
	// ("without the IC's explicit go-ahead").
	Condition string `json:"condition,omitempty"`
	// Expires is when the rule stops holding, as the rule gave it
	// ("Friday 18:00 UTC").
	Expires string `json:"expires,omitempty"`
	// Status is one of ConstraintStatuses, or "" (active).
	Status string `json:"status,omitempty"`
}

// Approval statuses (contract 1.3). An absent status means valid.
const (
	// ApprovalValid: the approval holds for what it covers.
	ApprovalValid = "valid"
	// ApprovalExpired: its stated expiry passed.
	ApprovalExpired = "expired"
	// ApprovalStale: what it was tied to (a digest, a version) changed
	// after it was given, so it no longer covers what now exists.
	ApprovalStale = "stale"
	// ApprovalRevoked: the approver withdrew it.
	ApprovalRevoked = "revoked"
)

// ApprovalStatuses lists the valid approval statuses.
var ApprovalStatuses = []string{ApprovalValid, ApprovalExpired, ApprovalStale, ApprovalRevoked}

// Approval is an approval the session granted (contract 1.3): who gave it,
// for what, what it covers, what it is tied to and until when, and whether
// it still holds. Text says what was approved in words; each other field
// is optional and says nothing when absent, but the approval check wants
// what the approval's own event gave (docs/formats.md §2): an approval
// kept without its resource cannot be told stale when the resource
// changes, and one with a wider scope than it was given authorizes what
// nobody approved.
type Approval struct {
	Text      string `json:"text"`
	SourceSeq int    `json:"source_seq,omitempty"`
	// Approver is who gave it, as the history names them ("María Ortiz",
	// "the IC").
	Approver string `json:"approver,omitempty"`
	// Scope is what it covers, and nothing more ("the eu-west-1 canary
	// pool").
	Scope string `json:"scope,omitempty"`
	// Resource is what it is tied to: a digest, a version, a plan's id.
	Resource string `json:"resource,omitempty"`
	// Expires is when it stops holding, as the approval gave it.
	Expires string `json:"expires,omitempty"`
	// Status is one of ApprovalStatuses, or "" (valid).
	Status string `json:"status,omitempty"`
	// InvalidatedBy is the seq of the event that ended it: its expiry
	// passed, its resource changed, it was revoked.
	InvalidatedBy int `json:"invalidated_by,omitempty"`
}

// Handoff is what a summary written for a new session carries (contract
// 1.3): the session it continues, why the work restarts, the artifacts
// approved for use and the operations still unresolved.
type Handoff struct {
	// PreviousSession is the id of the session this one continues, as the
	// history names it.
	PreviousSession string `json:"previous_session"`
	// Reason is why the work restarts in a new session.
	Reason string `json:"reason,omitempty"`
	// SourceSeq is the event that gives the restart and its reason.
	SourceSeq int `json:"source_seq,omitempty"`
	// ApprovedArtifacts are the artifacts approved for use, as the history
	// names them (a path, an image with its digest), and only those.
	ApprovedArtifacts []string `json:"approved_artifacts,omitempty"`
	// Unresolved are the op ids of the operations whose outcome is not
	// known (each also a pending[] entry).
	Unresolved []string `json:"unresolved,omitempty"`
}

// Claim is a verified fact; SourceSeq must name a user or tool event.
type Claim struct {
	Claim     string `json:"claim"`
	SourceSeq int    `json:"source_seq,omitempty"`
}

// Hypothesis statuses.
const (
	HypothesisOpen      = "open"
	HypothesisRefuted   = "refuted"
	HypothesisConfirmed = "confirmed"
)

// Hypothesis is a claim under investigation.
type Hypothesis struct {
	Claim      string `json:"claim"`
	SourceSeq  int    `json:"source_seq,omitempty"`
	Status     string `json:"status,omitempty"`
	ResolvedBy int    `json:"resolved_by,omitempty"`
}

// Pending statuses.
const (
	PendingPending  = "pending"
	PendingInFlight = "in_flight"
	PendingUnknown  = "unknown"
	PendingFailed   = "failed"
	PendingDone     = "done"
)

// Pending is an operation whose outcome is not known to be complete.
type Pending struct {
	OpID        string `json:"op_id,omitempty"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status,omitempty"`
	SourceSeq   int    `json:"source_seq,omitempty"`
}

// Artifact statuses (contract 1.1). An absent status says nothing; when
// two confusable names are listed, the live one must say current and the
// other must not.
const (
	// ArtifactCurrent: the artifact in use, the one to act on.
	ArtifactCurrent = "current"
	// ArtifactStale: it exists but is out of date or not the one in use
	// (a lookalike config the service ignores, last week's report).
	ArtifactStale = "stale"
	// ArtifactSuperseded: another artifact replaced it.
	ArtifactSuperseded = "superseded"
	// ArtifactDeleted: it no longer exists.
	ArtifactDeleted = "deleted"
)

// ArtifactStatuses lists the valid artifact statuses.
var ArtifactStatuses = []string{ArtifactCurrent, ArtifactStale, ArtifactSuperseded, ArtifactDeleted}

// ArtifactRef names a file or other artifact, exactly as the history did.
type ArtifactRef struct {
	Path   string `json:"path"`
	Digest string `json:"digest,omitempty"`
	// Status is one of ArtifactStatuses, or "" (not said).
	Status    string `json:"status,omitempty"`
	SourceSeq int    `json:"source_seq,omitempty"`
}

// Correction records that Value replaced Supersedes for Subject. Supersedes
// holds the old value and counts only as that: the checks never find a
// current value, quantity or conclusion there.
type Correction struct {
	Subject    string `json:"subject,omitempty"`
	Value      string `json:"value"`
	Supersedes string `json:"supersedes,omitempty"`
	SourceSeq  int    `json:"source_seq,omitempty"`
}

// ErrorNote is an error met during the session and how it ended.
type ErrorNote struct {
	Text       string `json:"text"`
	Resolution string `json:"resolution,omitempty"`
	SourceSeq  int    `json:"source_seq,omitempty"`
}

// TextOnly reports whether the summary carries only free text: no structured
// field besides the two required ones (goal and extensions do not count).
func (s *Summary) TextOnly() bool {
	return len(s.Constraints) == 0 && len(s.Decisions) == 0 && len(s.Verified) == 0 &&
		len(s.Hypotheses) == 0 && len(s.Pending) == 0 && len(s.Artifacts) == 0 &&
		len(s.Corrections) == 0 && len(s.Errors) == 0 && len(s.NextSteps) == 0 &&
		len(s.Approvals) == 0 && s.Handoff == nil
}

// ForAgent returns the summary document as the agent sees it: raw without
// its top-level "extensions" member, every other member kept in its order
// and byte for byte. A document that is not a JSON object, or has no
// extensions, is returned unchanged. The runner shows the agent only this
// form, so that nothing kept in extensions (which no content check reads)
// can steer a decision.
func ForAgent(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"extensions"`)) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw
	}
	var b bytes.Buffer
	b.WriteByte('{')
	dropped := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return raw
		}
		key, ok := t.(string)
		if !ok {
			return raw
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw
		}
		if key == "extensions" {
			dropped = true
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || !dropped {
		return raw
	}
	b.WriteByte('}')
	return b.Bytes()
}
