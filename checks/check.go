package checks

import (
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Status is the outcome of one check.
type Status string

// The four statuses of docs/formats.md §2.
const (
	// Pass: the summary kept what the check asks for.
	Pass Status = "pass"
	// Fail: the summary broke it.
	Fail Status = "fail"
	// Error: the harness or the summarizer could not produce something to
	// check; the message says why.
	Error Status = "error"
	// Skip: not applicable (for example a field-level check on a text-only
	// summary, or no summary at all for the `none` arm).
	Skip Status = "skip"
)

// Kinds of check.
const (
	KindInvariant  = "invariant"
	KindStructural = "structural"
)

// Evidence points at what a result is about, so that a person can verify it
// quickly: where in the summary (a JSON pointer), which event, and the text
// that matched or the pattern that found nothing.
type Evidence struct {
	Pointer string `json:"pointer,omitempty"` // JSON pointer into the summary, e.g. /hypotheses/2/status
	Seq     int    `json:"seq,omitempty"`     // the event involved
	Text    string `json:"text,omitempty"`    // text that matched, or was found where it must not be
	Pattern string `json:"pattern,omitempty"` // the pattern that matched or found nothing
	Note    string `json:"note,omitempty"`    // anything else, one short phrase
}

// Result is one check's verdict on one summary (or one invariant of it).
type Result struct {
	// Check is the check type: an invariant type (constraint, …) or a
	// structural check name (schema, coverage, …).
	Check string `json:"check"`
	// Kind is KindInvariant or KindStructural.
	Kind string `json:"kind"`
	// Invariant is the invariant id, for invariant checks.
	Invariant string `json:"invariant,omitempty"`
	Status    Status `json:"status"`
	// Message is one line a person understands.
	Message  string     `json:"message"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Pos is the position in the scenario file of the invariant (invariant
	// checks) so that CI annotations can point at it.
	Pos scenarios.Pos `json:"pos,omitzero"`
	// Metrics carries numbers a check measured (compression: summary_tokens,
	// replaced_tokens, ratio).
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Judge is the model judge's opinion of the same invariant, when a
	// judge was asked (run --judge); nil otherwise. It never changes Status,
	// except that --judge-gate turns a pass the judge calls contradicted
	// into a fail (Judge.Overrode then says "pass").
	Judge *Judgement `json:"judge,omitempty"`
}

// Generation describes the compaction a summary was produced for.
type Generation struct {
	// N is the generation number, 1-based.
	N int
	// Cut is the seq the summary had to cover through.
	Cut int
	// PrevCoversThrough is the coverage of the active summary the candidate
	// was built on (0 for the first generation).
	PrevCoversThrough int
	// Previous is that active summary, nil for the first generation.
	Previous *summarizers.Summary
	// Tail is the events the compacted context holds after the summary's
	// coverage, arrivals included, as the runtime built it.
	Tail []scenarios.Event
	// ReplacedTokens is the token count of the rendered events 1..Cut that the
	// summary replaces. Zero means the compression check computes it.
	ReplacedTokens int
}

// Input is everything a check may look at.
type Input struct {
	Scenario *scenarios.Scenario
	Gen      Generation
	// Raw is the summary document exactly as the summarizer returned it.
	Raw []byte
	// Summary is Raw decoded; nil when Raw is not a valid summary document
	// (the schema check then says why, and other checks say error). When
	// Summary is nil and Raw is not empty, the checks decode Raw themselves.
	Summary *summarizers.Summary
	// Tokens counts tokens for the compression check; nil means
	// tokens.Default() (o200k_base).
	Tokens *tokens.Counter

	// memo caches what several checks derive from the same input (the
	// decoded summary, its string fields); Run sets it. Nil means each
	// check derives what it needs itself.
	memo *memo
}

// Check judges one aspect of a summary. Implementations must be safe for
// concurrent use and must not call a model.
type Check interface {
	Check(in *Input) []Result
}

// Func adapts a function to the Check interface.
type Func func(in *Input) []Result

// Check calls f.
func (f Func) Check(in *Input) []Result { return f(in) }
