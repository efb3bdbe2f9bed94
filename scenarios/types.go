package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/compact-eval/compact-eval/result"
)

// Version is the scenario format version this package reads (docs/formats.md §2).
const Version = 1

// Role is who produced an event.
type Role string

// The four event roles of docs/formats.md §1.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Tool result statuses. A call with no result, or a Timeout result, is an
// unresolved operation.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusTimeout = "timeout"
)

// Scenario is one loaded, expanded scenario file.
type Scenario struct {
	Version       int        `json:"version"`
	ID            string     `json:"id"`
	Title         string     `json:"title,omitempty"`
	Tags          []string   `json:"tags,omitempty"`
	Goal          string     `json:"goal,omitempty"`
	Rules         string     `json:"rules,omitempty"`
	ContextWindow int        `json:"context_window,omitempty"`
	Compaction    Compaction `json:"compaction"`
	// Events is the durable history, filler expanded, numbered 1..n or as
	// given, strictly increasing.
	Events []Event `json:"events"`
	// Arrivals are events that arrive while the summarizer runs; their seqs
	// follow the last event.
	Arrivals   []Event     `json:"arrivals,omitempty"`
	Invariants []Invariant `json:"-"`
	Probes     []Probe     `json:"probes,omitempty"`
	// Recorded are the compactions the agent really made, kept from its
	// log (recorded.go). Never sent to a summarizer or an agent.
	Recorded []RecordedCompaction `json:"-"`

	// File is the path the scenario was loaded from ("builtin/NAME.yaml" for
	// the embedded suite).
	File string `json:"-"`
	// Digest is "sha256:" and the hex SHA-256 of the scenario's meaning:
	// the parsed document in canonical form (digest.go), which comments
	// and formatting do not change. FileDigest is that of the file's bytes.
	Digest     string `json:"-"`
	FileDigest string `json:"-"`
	// Pos is where the document starts; IDPos where its id is; TitlePos,
	// GoalPos and RulesPos where those values are (zero when absent).
	Pos      result.Pos `json:"-"`
	IDPos    result.Pos `json:"-"`
	TitlePos result.Pos `json:"-"`
	GoalPos  result.Pos `json:"-"`
	RulesPos result.Pos `json:"-"`
}

// Compaction holds the compaction settings of a scenario (docs/formats.md §2).
// The zero value means: token trigger at 80% of ContextWindow (50,000 tokens
// when ContextWindow is 0), no reserve, keep_recent 0, iterative rebuild,
// max_ratio DefaultMaxRatio.
type Compaction struct {
	// At lists explicit cuts (seqs). When non-empty, token rules are ignored.
	At                []int   `json:"at,omitempty"`
	ThresholdTokens   int     `json:"threshold_tokens,omitempty"`
	ThresholdFraction float64 `json:"threshold_fraction,omitempty"`
	ReserveTokens     int     `json:"reserve_tokens,omitempty"`
	KeepRecent        int     `json:"keep_recent,omitempty"`
	// Rebuild is RebuildIterative (default when empty) or RebuildFromSource.
	Rebuild string `json:"rebuild,omitempty"`
	// MaxRatio bounds summary tokens / tokens replaced; 0 means DefaultMaxRatio.
	MaxRatio float64 `json:"max_ratio,omitempty"`

	Pos   result.Pos   `json:"-"`
	AtPos []result.Pos `json:"-"` // position of each At entry
	// FromRecorded is true when At are the boundaries of the scenario's
	// recorded compactions (Scenario.Recorded), which are then its cuts.
	FromRecorded bool `json:"-"`
}

// Rebuild modes.
const (
	RebuildIterative  = "iterative"
	RebuildFromSource = "from_source"
)

// Defaults of the compaction settings.
const (
	DefaultMaxRatio          = 0.5
	DefaultThresholdFraction = 0.8
	DefaultThresholdTokens   = 50000 // when context_window is unknown
)

// EffectiveMaxRatio is MaxRatio, or DefaultMaxRatio when it is zero.
func (c Compaction) EffectiveMaxRatio() float64 {
	if c.MaxRatio > 0 {
		return c.MaxRatio
	}
	return DefaultMaxRatio
}

// EffectiveRebuild is Rebuild, or RebuildIterative when it is empty.
func (c Compaction) EffectiveRebuild() string {
	if c.Rebuild == "" {
		return RebuildIterative
	}
	return c.Rebuild
}

// Event is one entry of the durable history. Exactly one of Text, ToolCall and
// ToolResult is the payload; an assistant event may carry Text together with a
// ToolCall.
type Event struct {
	Seq        int         `json:"seq"`
	Role       Role        `json:"role"`
	Text       string      `json:"text,omitempty"`
	ToolCall   *ToolCall   `json:"tool_call,omitempty"`
	ToolResult *ToolResult `json:"tool_result,omitempty"`

	// Filler is true for events produced by filler expansion.
	Filler bool       `json:"-"`
	Pos    result.Pos `json:"-"`
}

// ToolCall is an assistant's request to run a tool.
type ToolCall struct {
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// ToolResult is what a tool returned for the call named by CallID.
type ToolResult struct {
	CallID string `json:"call_id"`
	// Status is StatusOK (default when empty in a file), StatusError or StatusTimeout.
	Status string `json:"status"`
	Text   string `json:"text,omitempty"`
}

// Probe is a decision the agent is asked to make after the last event.
type Probe struct {
	ID       string  `json:"id"`
	Question string  `json:"question"`
	Options  Options `json:"options"` // in file order
	// Expect is the option key a correct agent picks. Never sent to an agent.
	Expect string `json:"-"`
	// Requires maps an option key to RE2 patterns that must all occur in the
	// context for the reference agent to pick it. Never sent to an agent.
	// A free-text probe has at most one, for AnswerKey: the patterns its
	// answer is derived from.
	Requires []Requirement `json:"-"`

	// Answer is a free-text probe's expected answer in words, given
	// instead of Options and Expect: the agent answers in free text and a
	// model judge grades the answer against it. Rubric lists what a correct
	// answer must (or must not) say. Neither is sent to an agent.
	Answer string   `json:"-"`
	Rubric []string `json:"-"`

	Pos result.Pos `json:"-"`
}

// AnswerKey is the Requirement.Option of a free-text probe's requires.
const AnswerKey = "answer"

// FreeText reports whether p is a free-text probe (answer: instead of
// options:).
func (p Probe) FreeText() bool { return p.Answer != "" && len(p.Options) == 0 }

// Option is one answer a probe offers.
type Option struct {
	Key         string
	Description string
}

// Requirement lists the patterns that must all occur in a context for the
// reference agent to choose Option.
type Requirement struct {
	Option   string
	Patterns []string
	Pos      result.Pos
}

// RequiresFor returns the patterns required for option key (nil if none).
func (p Probe) RequiresFor(key string) []string {
	for _, r := range p.Requires {
		if r.Option == key {
			return r.Patterns
		}
	}
	return nil
}

// Options is an ordered option list that marshals as a JSON object whose keys
// keep their order.
type Options []Option

// MarshalJSON writes {"key": "description", ...} in order.
func (o Options) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, opt := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(opt.Key)
		v, _ := json.Marshal(opt.Description)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON object keeping its key order.
func (o *Options) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("options: want a JSON object")
	}
	*o = (*o)[:0]
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var desc string
		if err := dec.Decode(&desc); err != nil {
			return fmt.Errorf("options[%v]: %w", kt, err)
		}
		*o = append(*o, Option{Key: kt.(string), Description: desc})
	}
	_, err = dec.Token()
	return err
}

// EventBySeq returns the event (or arrival) with the given seq.
func (s *Scenario) EventBySeq(seq int) (Event, bool) {
	for _, list := range [][]Event{s.Events, s.Arrivals} {
		lo, hi := 0, len(list)
		for lo < hi {
			m := (lo + hi) / 2
			if list[m].Seq < seq {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(list) && list[lo].Seq == seq {
			return list[lo], true
		}
	}
	return Event{}, false
}

// LastSeq is the seq of the last event (not counting arrivals), 0 if none.
func (s *Scenario) LastSeq() int {
	if len(s.Events) == 0 {
		return 0
	}
	return s.Events[len(s.Events)-1].Seq
}
