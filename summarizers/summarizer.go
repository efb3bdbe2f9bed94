package summarizers

import (
	"context"
	"encoding/json"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// Request is a summarize request (docs/formats.md §4). It carries no invariant and
// no probe answer: a summarizer sees only what an agent runtime would.
type Request struct {
	Protocol   int    `json:"protocol"`
	Kind       string `json:"kind"` // always "summarize"
	ScenarioID string `json:"scenario_id"`
	Generation int    `json:"generation"`
	Cut        int    `json:"cut"`
	Goal       string `json:"goal"`
	Rules      string `json:"rules"`
	// PreviousSummary is the active summary the candidate is built on (null
	// for the first generation, and in from_source rebuilds).
	PreviousSummary json.RawMessage `json:"previous_summary"`
	// Events are the events to summarize: (previous coverage, cut] in
	// iterative mode, [1, cut] in from_source mode.
	Events []scenarios.Event `json:"events"`

	// Trial is the trial index (0-based). It is not sent to exec summarizers;
	// model-backed summarizers use it in their cache key so trials stay
	// independent.
	Trial int `json:"-"`
	// ContextWindow and MaxRatio let budget-aware built-ins size their output.
	// Not part of the exec protocol.
	ContextWindow int     `json:"-"`
	MaxRatio      float64 `json:"-"`
	// ReplacedTokens is the token count of the rendered events 1..Cut, what
	// the summary replaces (the runner knows it without counting again); 0
	// means unknown. Budget-aware built-ins size their output with it. Not
	// part of the exec protocol.
	ReplacedTokens int `json:"-"`
	// Recorded is the compaction the agent really made at this cut, when
	// the scenario records one there (recorded_compactions); nil
	// otherwise. Only the summarizer recorded reads it. Not part of the
	// exec protocol: no other summarizer sees what the agent wrote.
	Recorded *scenarios.RecordedCompaction `json:"-"`

	// eventsText, when set, returns transcript.EventsText(Events): the
	// runtime's rendering, done once per scenario (SetEventsText).
	eventsText func() string
}

// EventsText returns the events as a prompt shows them
// (transcript.EventsText(r.Events)). The runtime renders the same events for
// every unit of a scenario, so it renders them once and hands the text over
// (SetEventsText); without it the events are rendered here.
func (r *Request) EventsText() string {
	if r.eventsText != nil {
		return r.eventsText()
	}
	return transcript.EventsText(r.Events)
}

// SetEventsText makes EventsText call text, which must return
// transcript.EventsText(r.Events): a caller that sends the same events in
// many requests sets it to render them once, when first asked.
func (r *Request) SetEventsText(text func() string) { r.eventsText = text }

// NewRequest fills the protocol fields.
func NewRequest() *Request { return &Request{Protocol: providers.Protocol, Kind: "summarize"} }

// Response is what a summarizer returned for one request.
type Response struct {
	// Summary is the raw summary document. Nil when NoCompaction is set.
	Summary json.RawMessage
	// NoCompaction means the summarizer declines to compact (the `none`
	// control arm): the compacted context stays the full context.
	NoCompaction bool
	Call         result.Call
	// Recorded is set by the summarizer recorded: the summary is a
	// compaction the agent really made, and this is its provenance.
	Recorded *result.Recorded
}

// Summarizer turns a request into a summary document. Implementations must be
// safe for concurrent use.
type Summarizer interface {
	Summarize(ctx context.Context, req *Request) (*Response, error)
}

// Skipper is implemented by a summarizer that applies only to some
// scenarios (recorded: those that record compactions). Skip returns why
// it does not apply to sc, or "" when it does. The runner then skips the
// unit: no generation, and every probe of class skip with that reason;
// neither a pass nor an error.
type Skipper interface {
	Skip(sc *scenarios.Scenario) string
}

// Func adapts a function to the Summarizer interface.
type Func func(ctx context.Context, req *Request) (*Response, error)

// Summarize calls f.
func (f Func) Summarize(ctx context.Context, req *Request) (*Response, error) { return f(ctx, req) }
