package summarizers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/transcript"
	"github.com/compact-eval/compact-eval/scenarios"
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
	Type       string          `json:"type"`
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
	Strict     bool            `json:"strict"`
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

// responsesCompaction is the reply of /responses/compact, as far as
// compact-eval reads it.
type responsesCompaction struct {
	ID     string            `json:"id"`
	Object string            `json:"object"`
	Output []json.RawMessage `json:"output"`
	Usage  ResponsesUsage    `json:"usage"`
}

// responsesSummarizer is an openai-responses: summarizer.
type responsesSummarizer struct {
	model  string
	opts   OpenAIOptions
	client *llm.Client
}

// NewResponses returns a summarizer that is OpenAI's /responses/compact:
// the events to summarize (after the previous compacted output, in
// iterative mode) go as Responses API input items, and the compacted
// output is kept verbatim in extensions.provider_compaction of a summary
// document that has no text: the item is opaque, so the checks that read
// text skip ("opaque provider compaction") and the decision probes, asked
// through an openai-responses: agent, are the evaluation.
func NewResponses(model string, opts OpenAIOptions) (Summarizer, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errNoModel(KindResponses)
	}
	c, err := NewProviderClient(KindResponses, opts)
	if err != nil {
		return nil, err
	}
	return &responsesSummarizer{model: model, opts: opts, client: c}, nil
}

// compactRequest is the body of /responses/compact.
type compactRequest struct {
	Model        string            `json:"model"`
	Input        []json.RawMessage `json:"input"`
	Instructions string            `json:"instructions,omitempty"`
}

// ResponsesInput is the input that continues from a provider compaction:
// its output items verbatim, then items.
func ResponsesInput(prev *ProviderCompaction, items []ResponsesItem) ([]json.RawMessage, error) {
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

// Summarize implements Summarizer.
func (s *responsesSummarizer) Summarize(ctx context.Context, req *Request) (*Response, error) {
	resp := &Response{}
	resp.Call.Spec = KindResponses + ":" + s.model
	if len(req.Events) == 0 {
		return resp, fmt.Errorf("openai-responses summarizer %s: %w", s.model, errEmptyEvents)
	}
	var prev *ProviderCompaction
	items, _ := ResponsesItems(req.Events)
	if pc := ProviderCompactionOf(req.PreviousSummary); pc != nil && pc.Provider == KindResponses {
		prev = pc
	} else if len(req.PreviousSummary) > 0 && string(req.PreviousSummary) != "null" {
		items = append([]ResponsesItem{{Type: "message", Role: "user", Content: "Summary of earlier events:\n" + string(ForAgent(req.PreviousSummary))}}, items...)
	}
	input, err := ResponsesInput(prev, items)
	if err != nil {
		return resp, fmt.Errorf("openai-responses summarizer %s: previous summary: %w", s.model, err)
	}
	body, err := json.Marshal(compactRequest{Model: s.model, Input: input,
		Instructions: strings.TrimSpace(transcript.Header(transcript.Context{Rules: req.Rules, Goal: req.Goal}))})
	if err != nil {
		return resp, err
	}
	var out responsesCompaction
	rep, err := s.client.Post(ctx, &llm.Call{
		Op: "openai responses compact", Path: ResponsesCompactPath, Body: body, Trial: req.Trial,
		Tokens: textTokens(string(body)),
		Accept: func(b []byte) error {
			var r responsesCompaction
			if err := json.Unmarshal(b, &r); err != nil {
				return err
			}
			if err := hasCompactionItem(r.Output); err != nil {
				return err
			}
			out = r
			return nil
		},
	})
	s.opts.ProviderProvenance(&resp.Call, KindResponses, s.model, s.client.Host(), nil, rep)
	setExtra(&resp.Call, "endpoint_path", ResponsesCompactPath)
	if err != nil {
		return resp, fmt.Errorf("openai-responses summarizer %s: %w", s.model, err)
	}
	resp.Call.Usage = result.Usage{PromptTokens: out.Usage.InputTokens, CompletionTokens: out.Usage.OutputTokens}
	setExtra(&resp.Call, "compaction_id", out.ID)
	setExtra(&resp.Call, "output_items", fmt.Sprint(len(out.Output)))
	rawOut, err := json.Marshal(out.Output)
	if err != nil {
		return resp, err
	}
	doc, err := providerDoc(req.Cut, "", ProviderCompaction{
		Provider: KindResponses, Model: s.model, Opaque: true, Output: rawOut,
		Tokens: out.Usage.OutputTokens + keptTokens(out.Output),
	})
	if err != nil {
		return resp, err
	}
	resp.Summary = doc
	return resp, nil
}

// hasCompactionItem accepts a compacted output that holds a compaction
// item with encrypted content.
func hasCompactionItem(output []json.RawMessage) error {
	for _, it := range output {
		var v struct {
			Type             string `json:"type"`
			EncryptedContent string `json:"encrypted_content"`
		}
		if json.Unmarshal(it, &v) == nil && v.Type == "compaction" {
			if v.EncryptedContent == "" {
				return errors.New("the compaction item has no encrypted_content")
			}
			return nil
		}
	}
	return fmt.Errorf("the compacted output (%d items) has no compaction item", len(output))
}

// keptTokens counts the readable text of the items a compaction kept
// (messages it passed through), which the next request pays for besides
// the compaction item.
func keptTokens(output []json.RawMessage) int {
	n := 0
	for _, it := range output {
		var v struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(it, &v) != nil || v.Type != "message" {
			continue
		}
		var s string
		if json.Unmarshal(v.Content, &s) == nil {
			n += textTokens(s)
			continue
		}
		var parts []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(v.Content, &parts) == nil {
			for _, p := range parts {
				n += textTokens(p.Text)
			}
		}
	}
	return n
}
