package checks

import (
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

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
	Previous *summary.Summary
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
	Summary *summary.Summary
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
	Check(in *Input) []result.CheckResult
}

// Func adapts a function to the Check interface.
type Func func(in *Input) []result.CheckResult

// Check calls f.
func (f Func) Check(in *Input) []result.CheckResult { return f(in) }
