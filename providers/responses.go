package providers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
	"github.com/compact-eval/compact-eval/summary"
)

// OpenAI Responses compaction, as documented at
// https://developers.openai.com/api/reference/typescript/resources/beta/subresources/responses/methods/compact:
// POST /responses/compact with {model, input, instructions} answers
// {"object": "response.compaction", "output": [...], "usage": {...}}, whose
// output is the compacted conversation: the items kept, and one
// {"type": "compaction", "encrypted_content": …} item that only the same
// provider can read. The whole output is the start of the next request's
// input.
const ResponsesCompactPath = "/responses/compact"

// ResponsesItem is one Responses API input item, in the shapes
// compact-eval sends: a message (role and text), a function_call, or a
// function_call_output.
type ResponsesItem struct {
	Type      string `json:"type"`
	Role      string `json:"role,omitempty"`
	Content   string `json:"content,omitempty"`
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Output    string `json:"output,omitempty"`
}

// ResponsesTool is a function tool definition.
type ResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// ResponsesItems renders events as Responses API input items: user,
// assistant and system messages; an assistant's tool calls as
// function_call items and their results as function_call_output items
// (a non-ok status prefixes the output, as in every transcript). tools
// declares every function the history calls.
func ResponsesItems(events []scenarios.Event) ([]ResponsesItem, []ResponsesTool) {
	var out []ResponsesItem
	var tools []ResponsesTool
	seen := map[string]bool{}
	for _, m := range transcript.EventMessages(events) {
		switch m.Role {
		case transcript.Assistant:
			if strings.TrimSpace(m.Content) != "" {
				out = append(out, ResponsesItem{Type: "message", Role: "assistant", Content: m.Content})
			}
			for _, c := range m.Calls {
				name := APIName(c.Name)
				out = append(out, ResponsesItem{Type: "function_call", CallID: APIName(c.ID), Name: name, Arguments: c.Arguments})
				if !seen[name] {
					seen[name] = true
					tools = append(tools, ResponsesTool{Type: "function", Name: name, Parameters: json.RawMessage(`{"type":"object"}`)})
				}
			}
		case transcript.Tool:
			out = append(out, ResponsesItem{Type: "function_call_output", CallID: APIName(m.CallID), Output: m.Content})
		default:
			if strings.TrimSpace(m.Content) != "" {
				out = append(out, ResponsesItem{Type: "message", Role: m.Role, Content: m.Content})
			}
		}
	}
	return out, tools
}

// ResponsesUsage is the usage of a Responses API reply.
type ResponsesUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// ResponsesInput is the input that continues from a provider compaction:
// its output items verbatim, then items.
func ResponsesInput(prev *summary.ProviderCompaction, items []ResponsesItem) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if prev != nil && len(prev.Output) > 0 {
		if err := json.Unmarshal(prev.Output, &out); err != nil {
			return nil, fmt.Errorf("compacted output: %w", err)
		}
	}
	for _, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
