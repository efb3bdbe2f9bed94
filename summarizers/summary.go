package summarizers

import "encoding/json"

// SchemaVersion is the summary document version (FORMATS.md §3).
const SchemaVersion = 1

// Summary is the summary document a summarizer returns (FORMATS.md §3). Only
// SchemaVersion and CoversThrough are required; a text-only summary sets Text
// and nothing else.
type Summary struct {
	SchemaVersion int           `json:"schema_version"`
	CoversThrough int           `json:"covers_through"`
	Goal          string        `json:"goal,omitempty"`
	Constraints   []Statement   `json:"constraints,omitempty"`
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
	// top-level properties are refused.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// Statement is a constraint or decision with the event it comes from.
type Statement struct {
	Text      string `json:"text"`
	SourceSeq int    `json:"source_seq,omitempty"`
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

// ArtifactRef names a file or other artifact, exactly as the history did.
type ArtifactRef struct {
	Path      string `json:"path"`
	Digest    string `json:"digest,omitempty"`
	SourceSeq int    `json:"source_seq,omitempty"`
}

// Correction records that Value replaced Supersedes for Subject.
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
		len(s.Corrections) == 0 && len(s.Errors) == 0 && len(s.NextSteps) == 0
}
