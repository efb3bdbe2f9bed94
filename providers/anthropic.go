package providers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summary"
)

// Anthropic compaction, as documented at
// https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand
// and typed by anthropic-sdk-go/v2 (BetaMessageNewParams.Compaction): a
// Messages API request with "compaction": {"type": "summarize"} and the beta
// header compact-2026-09-04 summarizes the whole of `messages` and answers
// with one `compaction` block (stop_reason "compaction"), which later
// requests send back first in `messages`, verbatim, in place of what it
// summarizes.
const (
	AnthropicBeta     = string(anthropic.AnthropicBetaCompact2026_09_04)
	AnthropicStrategy = "summarize"
)

// AnthropicHeader is the headers of every Messages API call compact-eval
// makes (the key is added by the client).
func AnthropicHeader() http.Header {
	h := http.Header{}
	h.Set("anthropic-version", AnthropicVersion)
	h.Set("anthropic-beta", AnthropicBeta)
	return h
}

// AnthropicCompactionMessage is the message that replays a provider
// compaction: the block as returned (its content is the summary's text),
// alone, as the assistant message the API answered with.
func AnthropicCompactionMessage(summary json.RawMessage, pc *summary.ProviderCompaction) (anthropic.BetaMessageParam, error) {
	var doc struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(summary, &doc); err != nil {
		return anthropic.BetaMessageParam{}, err
	}
	var block anthropic.BetaCompactionBlockParam
	if len(pc.Block) > 0 {
		if err := json.Unmarshal(pc.Block, &block); err != nil {
			return anthropic.BetaMessageParam{}, fmt.Errorf("compaction block: %w", err)
		}
	}
	block.Content = anthropic.String(doc.Text)
	return anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{
		Content: []anthropic.BetaContentBlockParamUnion{{OfCompaction: &block}},
	}}, nil
}

// AnthropicSystem is the system prompt: the scenario's rules and goal (nil
// when both are empty).
func AnthropicSystem(rules, goal string) []anthropic.BetaTextBlockParam {
	h := strings.TrimSpace(transcript.Header(transcript.Context{Rules: rules, Goal: goal}))
	if h == "" {
		return nil
	}
	return []anthropic.BetaTextBlockParam{{Text: h}}
}

// AnthropicMessages renders events as Messages API turns: user and
// assistant text; an assistant's tool calls as tool_use blocks (input: the
// call's arguments) and their results as tool_result blocks in the user
// turn that follows (is_error when the status is not ok); a system event as
// user text marked [system]. Consecutive turns of one role are merged, so
// that roles alternate. tools declares every tool the history calls (the API
// refuses tool_use blocks without a definition). Tool names and ids are
// made acceptable to the API (^[a-zA-Z0-9_-]+$).
func AnthropicMessages(events []scenarios.Event) ([]anthropic.BetaMessageParam, []anthropic.BetaToolUnionParam) {
	type turn struct {
		assistant bool
		blocks    []anthropic.BetaContentBlockParamUnion
	}
	var turns []turn
	add := func(assistant bool, blocks ...anthropic.BetaContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			return
		}
		turns = append(turns, turn{assistant, blocks})
	}
	text := func(s string) []anthropic.BetaContentBlockParamUnion {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return []anthropic.BetaContentBlockParamUnion{anthropic.NewBetaTextBlock(s)}
	}
	seen := map[string]bool{}
	var tools []anthropic.BetaToolUnionParam
	status := statusOf(events)
	for _, m := range transcript.EventMessages(events) {
		switch m.Role {
		case transcript.Assistant:
			blocks := text(m.Content)
			for _, c := range m.Calls {
				name := APIName(c.Name)
				blocks = append(blocks, anthropic.NewBetaToolUseBlock(APIName(c.ID), json.RawMessage(c.Arguments), name))
				if !seen[name] {
					seen[name] = true
					tools = append(tools, anthropic.BetaToolUnionParam{OfTool: &anthropic.BetaToolParam{
						Name: name, InputSchema: anthropic.BetaToolInputSchemaParam{Properties: map[string]any{}},
					}})
				}
			}
			add(true, blocks...)
		case transcript.Tool:
			content := m.Content
			if strings.TrimSpace(content) == "" {
				content = "(empty result)"
			}
			isErr := m.Synthetic || status[m.CallID]
			add(false, anthropic.NewBetaToolResultBlock(APIName(m.CallID), content, isErr))
		case transcript.System:
			add(false, text("[system] "+m.Content)...)
		default:
			add(false, text(m.Content)...)
		}
	}
	out := make([]anthropic.BetaMessageParam, len(turns))
	for i, t := range turns {
		if t.assistant {
			out[i] = anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{Content: t.blocks}}
		} else {
			out[i] = anthropic.NewBetaUserMessage(t.blocks...)
		}
	}
	return out, tools
}

// statusOf tells which call ids ended in a non-ok status.
func statusOf(events []scenarios.Event) map[string]bool {
	out := map[string]bool{}
	for _, e := range events {
		if e.ToolResult != nil && e.ToolResult.Status != "" && e.ToolResult.Status != scenarios.StatusOK {
			out[e.ToolResult.CallID] = true
		}
	}
	return out
}

// APIName makes a tool name or call id acceptable to provider APIs, which
// want ^[a-zA-Z0-9_-]{1,64}$: other characters become '_', a longer value
// is cut to 55 bytes plus a hash of the whole, and "" becomes "tool".
func APIName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		h := uint32(2166136261)
		for _, c := range []byte(name) {
			h = (h ^ uint32(c)) * 16777619
		}
		b = append(b[:55], []byte("_"+strconv.FormatUint(uint64(h), 36))...)
	}
	if len(b) == 0 {
		return "tool"
	}
	return string(b)
}

// EstimateAnthropic estimates a request's prompt tokens offline, for the
// TPM limit.
func EstimateAnthropic(p anthropic.BetaMessageNewParams) int {
	b, _ := json.Marshal(p.Messages)
	n := tokens.Default().Count(string(b))
	for _, s := range p.System {
		n += tokens.Default().Count(s.Text)
	}
	return n
}
