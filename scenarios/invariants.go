package scenarios

import "github.com/compact-eval/compact-eval/result"

// Invariant is a typed fact that must survive compaction (or, for Secret, must
// not be copied). The concrete types are the structs below.
type Invariant interface {
	// InvariantID is the invariant's id, unique within its scenario.
	InvariantID() string
	// Type is one of the Type* constants.
	Type() string
	// Position is where the invariant is written in its file.
	Position() result.Pos
}

// InvariantBase holds what every invariant has.
type InvariantBase struct {
	ID  string     `json:"id"`
	Pos result.Pos `json:"-"`
}

func (b InvariantBase) InvariantID() string  { return b.ID }
func (b InvariantBase) Position() result.Pos { return b.Pos }

// Constraint: a rule (for example "read-only") given by a user or system event
// at SourceSeq that the summary must keep. Match lists alternative RE2
// patterns; one matching is enough. Target names what the rule applies to
// (a cluster, a repository, a table), as the source event writes it: a
// summary that states the rule must state it of a target, not of
// something else of the same kind; empty, the rule is about the session.
type Constraint struct {
	InvariantBase
	SourceSeq int      `json:"source_seq"`
	Match     []string `json:"match"`
	Target    []string `json:"target,omitempty"`
}

// RefutedHypothesis: the hypothesis stated at HypothesisSeq was refuted by the
// event at RefutedBySeq. Match recognises the hypothesis; Conclusion, if set,
// lists alternative patterns for the conclusion that must be present.
type RefutedHypothesis struct {
	InvariantBase
	HypothesisSeq int      `json:"hypothesis_seq"`
	RefutedBySeq  int      `json:"refuted_by_seq"`
	Match         []string `json:"match"`
	Conclusion    []string `json:"conclusion,omitempty"`
}

// Artifact: a group of confusable names. Every path in Required must be named
// exactly; no path outside the covered history may be named; each digest stays
// with its own path.
type Artifact struct {
	InvariantBase
	Paths    []string          `json:"paths"`
	Required []string          `json:"required"`
	Digests  map[string]string `json:"digests,omitempty"`
}

// PendingOperation: the tool call with id OpID at CallSeq has no result (or
// timed out); the summary must list it under pending, not as done.
type PendingOperation struct {
	InvariantBase
	OpID    string `json:"op_id"`
	CallSeq int    `json:"call_seq"`
}

// Correction: at SourceSeq the user replaced Old with New for Subject.
type Correction struct {
	InvariantBase
	Old       string `json:"old"`
	New       string `json:"new"`
	Subject   string `json:"subject"`
	SourceSeq int    `json:"source_seq"`
}

// Quantity: a number with its unit that must survive (value and unit, any
// usual spelling). Match optionally narrows where it must appear.
type Quantity struct {
	InvariantBase
	Value float64  `json:"value"`
	Unit  string   `json:"unit"`
	Match []string `json:"match,omitempty"`
}

// Secret: a value (for example an API key) that must never be copied into a
// summary, not even in part: no run of 8 or more of its characters, unless
// that run is public in the session (a masked form a tool printed). See
// checks.SecretCheck for the exact rule.
type Secret struct {
	InvariantBase
	Value string `json:"value"`
}

func (Constraint) Type() string        { return result.TypeConstraint }
func (RefutedHypothesis) Type() string { return result.TypeRefutedHypothesis }
func (Artifact) Type() string          { return result.TypeArtifact }
func (PendingOperation) Type() string  { return result.TypePendingOperation }
func (Correction) Type() string        { return result.TypeCorrection }
func (Quantity) Type() string          { return result.TypeQuantity }
func (Secret) Type() string            { return result.TypeSecret }

// Secrets maps the id of each secret invariant to its value (nil when there
// is none). The loader builds pointer invariants and Go callers may use
// values; both count. Everything that redacts secrets starts here.
func (s *Scenario) Secrets() map[string]string {
	var out map[string]string
	for _, inv := range s.Invariants {
		sec, ok := Pointer(inv).(*Secret)
		if !ok || sec.Value == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[sec.ID] = sec.Value
	}
	return out
}

// EvidenceSeqs returns the seqs of the events an invariant's evidence is
// in, the events a summary entry should cite to lead back to it:
// source_seq of a constraint or a correction, hypothesis_seq and
// refuted_by_seq of a refuted hypothesis, call_seq of a pending
// operation, source_seq (and invalidated_by) of an approval, source_seq
// of a goal, a next step or a handoff; none for an artifact, a quantity or
// a secret.
func EvidenceSeqs(inv Invariant) []int {
	switch v := Pointer(inv).(type) {
	case *Constraint:
		return []int{v.SourceSeq}
	case *Correction:
		return []int{v.SourceSeq}
	case *RefutedHypothesis:
		return []int{v.HypothesisSeq, v.RefutedBySeq}
	case *PendingOperation:
		return []int{v.CallSeq}
	case *Approval:
		if v.InvalidatedBy > 0 {
			return []int{v.SourceSeq, v.InvalidatedBy}
		}
		return []int{v.SourceSeq}
	case *Goal:
		return []int{v.SourceSeq}
	case *NextStep:
		return []int{v.SourceSeq}
	case *Handoff:
		return []int{v.SourceSeq}
	}
	return nil
}

// Pointer returns inv as a pointer to its concrete type (*Constraint, …),
// the form the loader builds, so that code can switch on pointer types
// alone whether a scenario was loaded or built in Go with values.
func Pointer(inv Invariant) Invariant {
	switch v := inv.(type) {
	case Constraint:
		return &v
	case RefutedHypothesis:
		return &v
	case Artifact:
		return &v
	case PendingOperation:
		return &v
	case Correction:
		return &v
	case Quantity:
		return &v
	case Secret:
		return &v
	case Approval:
		return &v
	case Goal:
		return &v
	case NextStep:
		return &v
	case Handoff:
		return &v
	}
	return inv
}
