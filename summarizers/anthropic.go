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

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
)

// anthropicSummarizer is an anthropic: summarizer.
type anthropicSummarizer struct {
	model  string
	opts   providers.OpenAIOptions
	client *llm.Client
}

// NewAnthropic returns a summarizer that is Anthropic's on-demand
// compaction: the events to summarize (after the previous compaction block,
// in iterative mode) are sent as Messages API turns with real tool_use and
// tool_result blocks, the API writes the summary, and the returned block's
// text becomes a text-only summary document covering the cut. The rest of
// the block (encrypted_content, signature, tool_changes) is kept in
// extensions.provider_compaction for the anthropic: agent to send back.
func NewAnthropic(model string, opts providers.OpenAIOptions) (Summarizer, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errNoModel(providers.KindAnthropic)
	}
	opts = opts.WithMaxTokens(providers.DefaultSummarizerMaxTokens)
	c, err := providers.NewProviderClient(providers.KindAnthropic, opts)
	if err != nil {
		return nil, err
	}
	return &anthropicSummarizer{model: model, opts: opts, client: c}, nil
}

// Summarize implements Summarizer.
func (s *anthropicSummarizer) Summarize(ctx context.Context, req *Request) (*Response, error) {
	resp := &Response{}
	resp.Call.Spec = providers.KindAnthropic + ":" + s.model
	if len(req.Events) == 0 {
		return resp, fmt.Errorf("anthropic summarizer %s: %w", s.model, errEmptyEvents)
	}
	var lead []anthropic.BetaMessageParam
	if prev := summary.ProviderCompactionOf(req.PreviousSummary); prev != nil && prev.Provider == providers.KindAnthropic {
		m, err := providers.AnthropicCompactionMessage(req.PreviousSummary, prev)
		if err != nil {
			return resp, fmt.Errorf("anthropic summarizer %s: previous summary: %w", s.model, err)
		}
		lead = append(lead, m)
	} else if len(req.PreviousSummary) > 0 && string(req.PreviousSummary) != "null" {
		// A previous summary from elsewhere (from_source is not in use, but
		// the base is not an Anthropic block): show it as text.
		lead = append(lead, anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Summary of earlier events:\n"+string(summary.ForAgent(req.PreviousSummary)))))
	}
	msgs, tools := providers.AnthropicMessages(req.Events)
	params := anthropic.BetaMessageNewParams{
		Model:      anthropic.Model(s.model),
		MaxTokens:  s.maxTokens(),
		Messages:   append(lead, msgs...),
		System:     providers.AnthropicSystem(req.Rules, req.Goal),
		Tools:      tools,
		Compaction: anthropic.BetaCompactionConfigUnionParam{OfSummarize: &anthropic.BetaSummarizeCompactionParam{}},
	}
	body, err := json.Marshal(params)
	if err != nil {
		return resp, fmt.Errorf("anthropic summarizer %s: %w", s.model, err)
	}
	var msg anthropic.BetaMessage
	var block *anthropic.BetaCompactionBlock
	rep, err := s.client.Post(ctx, &llm.Call{
		Op: "anthropic compaction", Path: "/messages", Header: providers.AnthropicHeader(), Body: body, Trial: req.Trial,
		Tokens: providers.EstimateAnthropic(params),
		Accept: func(b []byte) error {
			var m anthropic.BetaMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return err
			}
			if err := providers.AnthropicTruncated(string(m.StopReason), params.MaxTokens); err != nil {
				return err
			}
			blk, err := compactionBlock(&m)
			if err != nil {
				return err
			}
			msg, block = m, blk
			return nil
		},
	})
	s.opts.ProviderProvenance(&resp.Call, providers.KindAnthropic, s.model, s.client.Host(), map[string]any{"max_tokens": int(params.MaxTokens)}, rep)
	setExtra(&resp.Call, "beta", providers.AnthropicBeta)
	setExtra(&resp.Call, "strategy", providers.AnthropicStrategy)
	if err != nil {
		return resp, fmt.Errorf("anthropic summarizer %s: %w", s.model, err)
	}
	resp.Call.Usage = result.Usage{PromptTokens: int(msg.Usage.InputTokens), CompletionTokens: int(msg.Usage.OutputTokens)}
	raw := block.RawJSON()
	setExtra(&resp.Call, "compaction_block", clip.String(raw, 4000))
	setExtra(&resp.Call, "stop_reason", string(msg.StopReason))
	rest, err := withoutContent(raw)
	if err != nil {
		return resp, fmt.Errorf("anthropic summarizer %s: %w", s.model, err)
	}
	doc, err := providerDoc(req.Cut, block.Content, summary.ProviderCompaction{
		Provider: providers.KindAnthropic, Model: s.model, Beta: providers.AnthropicBeta, Strategy: providers.AnthropicStrategy,
		Block: rest, Tokens: int(msg.Usage.OutputTokens),
	})
	if err != nil {
		return resp, err
	}
	resp.Summary = doc
	return resp, nil
}

func (s *anthropicSummarizer) maxTokens() int64 {
	return int64(s.opts.WithMaxTokens(providers.DefaultSummarizerMaxTokens).MaxTokens)
}

// compactionBlock finds the compaction block of a reply: the one the
// request asked for. A reply without one, or whose block has no summary
// (the API's "compaction failed" block, content null), is unusable.
func compactionBlock(m *anthropic.BetaMessage) (*anthropic.BetaCompactionBlock, error) {
	for _, c := range m.Content {
		if c.Type != "compaction" {
			continue
		}
		b := c.AsCompaction()
		if strings.TrimSpace(b.Content) == "" {
			return nil, errors.New("the compaction block has no summary (the provider's compaction failed)")
		}
		return &b, nil
	}
	return nil, fmt.Errorf("the reply has no compaction block (stop_reason %q)", m.StopReason)
}

// withoutContent is a block's JSON without its content member.
func withoutContent(raw string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, fmt.Errorf("compaction block: %w", err)
	}
	delete(m, "content")
	return json.Marshal(m)
}
