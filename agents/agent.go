package agents

import (
	"context"
	"encoding/json"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/scenarios"
)

// Arms of a decision.
const (
	ArmFull      = "full"
	ArmCompacted = "compacted"
)

// Context is what an agent sees (docs/formats.md §1): rules, goal, the active
// summary (nil on the full arm, or when nothing was compacted) and the events
// after the summary's coverage, arrivals included.
type Context struct {
	Rules   string            `json:"rules"`
	Goal    string            `json:"goal"`
	Summary json.RawMessage   `json:"summary"`
	Events  []scenarios.Event `json:"events"`
	// Compaction is the provider compaction behind Summary
	// (summary.ExtProviderCompaction of the summary as installed), for
	// the provider agents that replay it (anthropic:, openai-responses:);
	// nil otherwise. It is never serialized: exec agents never see it.
	Compaction *summary.ProviderCompaction `json:"-"`
	// FullSummary is the summary document as installed, extensions
	// included, for provider agents; never serialized.
	FullSummary json.RawMessage `json:"-"`

	// reading, when set (ReadOnce), is the reference agent's reading of
	// this context, shared by every copy of it.
	reading *reading
}

// ReadOnce makes the offline reference agent read c once for all the
// probes asked on it and on its copies, instead of once per probe; c must
// not change afterwards. Other agents ignore it. The reading is kept as
// long as c or a copy is.
func (c *Context) ReadOnce() { c.reading = &reading{} }

// Request kinds: a choice probe asks the agent to decide among options, a
// free-text probe to answer in words.
const (
	KindDecide = "decide"
	KindAnswer = "answer"
)

// Question is the part of a probe an agent may see: never expect, answer,
// rubric or requires. A free-text probe (Request.Kind KindAnswer) has no
// options.
type Question struct {
	ID       string            `json:"id"`
	Question string            `json:"question"`
	Options  scenarios.Options `json:"options,omitempty"`
}

// Request is a decide request (docs/formats.md §4).
type Request struct {
	Protocol   int      `json:"protocol"`
	Kind       string   `json:"kind"` // KindDecide or KindAnswer
	ScenarioID string   `json:"scenario_id"`
	Arm        string   `json:"arm"`
	Probe      Question `json:"probe"`
	Context    Context  `json:"context"`

	// Trial is the trial index; model-backed agents key their cache on it.
	// Not sent to exec agents.
	Trial int `json:"-"`

	// Requires is the probe's requires, for the offline reference agent
	// only; never serialized, never sent to exec or model agents. Nil means
	// no option has requirements.
	Requires []scenarios.Requirement `json:"-"`
	// Expected is a free-text probe's expected answer, for the offline
	// reference agent only (it answers it when the requires patterns all
	// occur); never serialized, never sent to exec or model agents.
	Expected string `json:"-"`
	// Recall is the recall tool of the recall arm (Arm ArmRecall), nil on
	// the other arms; never serialized (an exec agent gets it over the
	// protocol, a model agent as a tool).
	Recall *Recall `json:"-"`
}

// FreeText reports whether req asks for a free-text answer.
func (r *Request) FreeText() bool { return r.Kind == KindAnswer }

// NewRequest fills the protocol fields.
func NewRequest() *Request { return &Request{Protocol: providers.Protocol, Kind: KindDecide} }

// Decision is an agent's answer to a probe: an option key (Choice), or
// words (Answer) for a free-text probe.
type Decision struct {
	Choice string `json:"choice"`
	Answer string `json:"answer,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Sampling records how an openai: agent asked a choice probe (seed,
	// option orders, votes); nil for other agents.
	Sampling *SampleRecord `json:"-"`
	// Call is the provenance of the call that produced the decision.
	Call result.Call `json:"-"`
	// RecallCalls are the recall tool calls made on the recall arm.
	RecallCalls []result.RecallCall `json:"-"`
}

// RecallUser is an Agent that can use the recall tool on the recall arm
// (Request.Recall). The runner asks the recall arm only of one.
type RecallUser interface {
	Agent
	// UsesRecall marks the type; it is never called for its effect.
	UsesRecall()
}

// Agent answers probes. Implementations must be safe for concurrent use.
type Agent interface {
	Decide(ctx context.Context, req *Request) (*Decision, error)
}

// Memoizable is an Agent whose decision is a function of the request's
// Kind, Probe, Context, Requires and Expected alone: never of Trial, Arm,
// ScenarioID, the clock or earlier calls. The runner asks it once per
// scenario, probe, arm and distinct context (the full context is the same
// for every summarizer and trial of a scenario; a compacted one is the same
// whenever the summary and its coverage are) and reuses the decision; a
// call that fails is never reused. The reference agent is Memoizable; a
// model-backed or exec agent is not (it samples, or may).
type Memoizable interface {
	Agent
	// Memoizable marks the type; it is never called for its effect.
	Memoizable()
}

// Local is an Agent that decides in the process, with no model call, no
// subprocess and no network: a decision costs CPU time alone and never waits.
// The runner evaluates the units of a run whose agent is Local (and that has
// no judge) on evaluators of their own, one per CPU, so that a unit's checks
// and decisions do not hold the job slot its model calls need: the next
// unit's request goes out while the last one is being judged. The reference
// agent is Local; a model-backed or exec agent is not.
type Local interface {
	Agent
	// Local marks the type; it is never called for its effect.
	Local()
}

// Func adapts a function to the Agent interface.
type Func func(ctx context.Context, req *Request) (*Decision, error)

// Decide calls f.
func (f Func) Decide(ctx context.Context, req *Request) (*Decision, error) { return f(ctx, req) }
