package summarizers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// responsesCompaction is the reply of /responses/compact, as far as
// compact-eval reads it.
type responsesCompaction struct {
	ID     string                   `json:"id"`
	Object string                   `json:"object"`
	Output []json.RawMessage        `json:"output"`
	Usage  providers.ResponsesUsage `json:"usage"`
}

// responsesSummarizer is an openai-responses: summarizer.
type responsesSummarizer struct {
	model  string
	opts   providers.OpenAIOptions
	client *llm.Client
}

// NewResponses returns a summarizer that is OpenAI's /responses/compact:
// the events to summarize (after the previous compacted output, in
// iterative mode) go as Responses API input items, and the compacted
// output is kept verbatim in extensions.provider_compaction of a summary
// document that has no text: the item is opaque, so the checks that read
// text skip ("opaque provider compaction") and the decision probes, asked
// through an openai-responses: agent, are the evaluation.
func NewResponses(model string, opts providers.OpenAIOptions) (Summarizer, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errNoModel(providers.KindResponses)
	}
	c, err := providers.NewProviderClient(providers.KindResponses, opts)
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

// Summarize implements Summarizer.
func (s *responsesSummarizer) Summarize(ctx context.Context, req *Request) (*Response, error) {
	resp := &Response{}
	resp.Call.Spec = providers.KindResponses + ":" + s.model
	if len(req.Events) == 0 {
		return resp, fmt.Errorf("openai-responses summarizer %s: %w", s.model, errEmptyEvents)
	}
	var prev *summary.ProviderCompaction
	items, _ := providers.ResponsesItems(req.Events)
	if pc := summary.ProviderCompactionOf(req.PreviousSummary); pc != nil && pc.Provider == providers.KindResponses {
		prev = pc
	} else if len(req.PreviousSummary) > 0 && string(req.PreviousSummary) != "null" {
		items = append([]providers.ResponsesItem{{Type: "message", Role: "user", Content: "Summary of earlier events:\n" + string(summary.ForAgent(req.PreviousSummary))}}, items...)
	}
	input, err := providers.ResponsesInput(prev, items)
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
		Op: "openai responses compact", Path: providers.ResponsesCompactPath, Body: body, Trial: req.Trial,
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
	s.opts.ProviderProvenance(&resp.Call, providers.KindResponses, s.model, s.client.Host(), nil, rep)
	setExtra(&resp.Call, "endpoint_path", providers.ResponsesCompactPath)
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
	doc, err := providerDoc(req.Cut, "", summary.ProviderCompaction{
		Provider: providers.KindResponses, Model: s.model, Opaque: true, Output: rawOut,
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
