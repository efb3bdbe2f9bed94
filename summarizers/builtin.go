package summarizers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// Builtins lists the built-in summarizers, the offline baselines that let
// compact-eval run with no model. Each is deterministic, sees
// only the Request (never an invariant, an expect or a requires pattern) and
// is documented on its constructor:
//
//   - none (NewNone): the control arm; never compacts.
//   - truncate (NewTruncate): keeps the most recent events that fit the
//     budget, as text; the tail-drop control.
//   - mask (NewMask): observation masking; keeps every user and assistant
//     event as text and replaces tool outputs with a placeholder.
//   - extractive (NewExtractive): a rule-based structured summary built only
//     from what the events say.
//
// What their scores on the built-in suite are expected to show, and why:
//
//   - none skips every summary check and never regresses a decision: its
//     compacted context is the full context, so any difference it shows is
//     noise of the agent.
//   - truncate passes compression and the structural checks, and keeps late
//     facts, but loses whatever was said early: the read-only constraint of
//     turn 1, early paths, pending operations, quantities. Constraint,
//     pending_operation and quantity invariants fail, and it has the most
//     decision regressions.
//   - mask keeps every user instruction and every tool call (constraints
//     and pending operations survive, corrections partly), but drops what
//     only a tool output said (quantities, digests, some paths) and, being
//     little shorter than a talk-heavy history, fails compression there.
//   - extractive passes every structural check (it cites user and tool
//     events, names paths verbatim, lists unresolved calls) and keeps
//     pending operations and most constraints and quantities, but it cannot
//     tell a corrected value from the old one (correction invariants fail),
//     cannot mark a hypothesis refuted, misses a constraint phrased without
//     its instruction words, and copies what a user pasted (a secret in a
//     user message leaks).
var Builtins = []string{"none", "truncate", "mask", "extractive"}

// NewBuiltin returns a built-in summarizer by name (see Builtins).
func NewBuiltin(name string) (Summarizer, error) {
	switch name {
	case "none":
		return NewNone(), nil
	case "truncate":
		return NewTruncate(), nil
	case "mask":
		return NewMask(), nil
	case "extractive":
		return NewExtractive(), nil
	}
	return nil, fmt.Errorf("unknown builtin summarizer %q (valid: %s)", name, strings.Join(Builtins, ", "))
}

// builtin adapts a deterministic summarize function: it recovers nothing
// (the runner turns panics into unit errors) and records provenance.
type builtin struct {
	name string
	fn   func(req *Request) (*summary.Summary, error)
}

// Summarize runs the built-in and records its provenance.
func (b builtin) Summarize(ctx context.Context, req *Request) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	s, err := b.fn(req)
	if err != nil {
		return nil, fmt.Errorf("builtin:%s: %w", b.name, err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("builtin:%s: encoding the summary: %w", b.name, err)
	}
	return &Response{Summary: raw, Call: result.Call{Spec: "builtin:" + b.name, Latency: time.Since(start)}}, nil
}

// NewNone returns the `none` control arm: it declines every compaction
// (Response.NoCompaction), so every summary check says skip and the
// compacted context is the full context. Any decision difference it shows
// is noise of the agent, which bounds what the other arms can claim.
func NewNone() Summarizer {
	return Func(func(ctx context.Context, req *Request) (*Response, error) {
		return &Response{NoCompaction: true, Call: result.Call{Spec: "builtin:none"}}, nil
	})
}

// budget is the token budget of a summary for req: max_ratio × the tokens
// it replaces, estimated from what the summarizer sees. In iterative mode it
// sees only the new events and the previous summary; the previous summary
// was itself at most max_ratio × what it replaced, so the budget is max_ratio
// × the new events plus the previous summary's size. A margin keeps room for
// the JSON wrapper.
//
// When the runner says how many tokens the summary replaces
// (Request.ReplacedTokens), the budget is max_ratio × that, and nothing is
// counted again.
func budget(req *Request, counter *tokens.Counter, eventsText, previous string) int {
	ratio := req.MaxRatio
	if ratio <= 0 {
		ratio = 0.5
	}
	b := ratio * float64(req.ReplacedTokens)
	if req.ReplacedTokens <= 0 {
		b = ratio*float64(counter.Count(eventsText)) + float64(counter.Count(previous))
	}
	return int(b*0.9) - 24
}

// previousText is the text of the previous summary: its "text" field for a
// text-only summary, else the compact JSON document.
func previousText(raw json.RawMessage) (string, *summary.Summary) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s summary.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw), nil
	}
	if s.TextOnly() {
		return s.Text, &s
	}
	return string(raw), &s
}

// NewTruncate returns the `truncate` baseline: a text-only summary holding
// the rendered lines (scenarios/transcript) of the most recent covered
// events that fit the budget (see budget: max_ratio × the tokens replaced,
// with a margin), newest kept, everything older dropped. In iterative mode
// the previous summary's lines are older than the new events and are the
// first to go. It passes compression by construction and keeps recent
// facts; whatever was said early (a constraint at turn 1) is lost once the
// history outgrows the budget.
func NewTruncate() Summarizer {
	counter := tokens.Default()
	return builtin{name: "truncate", fn: func(req *Request) (*summary.Summary, error) {
		prev, _ := previousText(req.PreviousSummary)
		events := req.EventsText()
		limit := budget(req, counter, events, prev)
		var lines []string
		if prev != "" {
			lines = append(lines, strings.Split(strings.TrimRight(prev, "\n"), "\n")...)
		}
		lines = append(lines, strings.Split(strings.TrimRight(events, "\n"), "\n")...)
		// Estimate with 3 bytes a token (text averages 4), then count the
		// chosen text once and drop the oldest lines until it fits: a few
		// large counts instead of one per line.
		kept, used := 0, 0
		for i := len(lines) - 1; i >= 0; i-- {
			n := (len(lines[i]) + 1 + 2) / 3
			if used+n > limit {
				break
			}
			used += n
			kept++
		}
		// The document itself is counted, as the compression check counts
		// it (internal/tokens remembers long texts, so the runner and the
		// check get this count for free).
		sum := &summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: req.Cut}
		for {
			sum.Text = strings.Join(lines[len(lines)-kept:], "\n")
			raw, err := json.Marshal(sum)
			if err != nil {
				return nil, err
			}
			if kept == 0 || counter.Count(string(raw)) <= limit+24 {
				return sum, nil
			}
			kept -= max(1, kept/10)
		}
	}}
}

// Masked is the placeholder that replaces a tool output in mask summaries.
const Masked = "[tool output omitted]"

// NewMask returns the `mask` baseline (observation masking): a text-only
// summary holding every covered event rendered as text (internal/
// transcript), with each tool output replaced by Masked (its status, when not
// ok, stays: "[timeout] [tool output omitted]"). User and assistant words
// and tool calls are kept verbatim; in iterative mode the previous summary's
// text comes first. It has no budget: on a history of mostly talk it is
// barely shorter than the original and fails compression.
func NewMask() Summarizer {
	return builtin{name: "mask", fn: func(req *Request) (*summary.Summary, error) {
		prev, _ := previousText(req.PreviousSummary)
		masked := make([]scenarios.Event, len(req.Events))
		copy(masked, req.Events)
		for i := range masked {
			if r := masked[i].ToolResult; r != nil {
				c := *r
				c.Text = Masked
				masked[i].ToolResult = &c
			}
		}
		text := strings.TrimRight(transcript.EventsText(masked), "\n")
		if prev != "" {
			text = strings.TrimRight(prev, "\n") + "\n" + text
		}
		return &summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: req.Cut, Text: text}, nil
	}}
}
