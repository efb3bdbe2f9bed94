package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	anthropic "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
)

// anthropicAgent is an anthropic: agent.
type anthropicAgent struct{ modelAgent }

// NewAnthropic returns an agent that answers through Anthropic's Messages
// API. Both arms go through the same API, model and headers (the
// compaction beta included), so the only difference between them is
// compaction: the full arm sends the whole history; the compacted arm sends
// the compaction block an anthropic: summarizer returned, verbatim and
// first, then the events after it, then the question. A summary from any
// other summarizer is shown as text in the system prompt, as the openai:
// agent does. Tool calls are real tool_use and tool_result blocks, with
// tool_choice none: the agent answers, it does not act. A reply whose
// choice is not an option key gets one correction turn. A free-text probe is asked the same way
// for {"answer", "reason"} (no correction turn).
//
// A choice probe is asked as Sampling says, like an openai: agent's
// (NewAnthropicSampled; NewAnthropic uses DefaultSeed and one sample).
func NewAnthropic(model string, opts providers.OpenAIOptions) (Agent, error) {
	return NewAnthropicSampled(model, opts, oneSample)
}

// NewAnthropicSampled is NewAnthropic with the given sampling.
func NewAnthropicSampled(model string, opts providers.OpenAIOptions, s Sampling) (Agent, error) {
	m, err := newModelAgent(providers.KindAnthropic, model, opts, s)
	if err != nil {
		return nil, err
	}
	return &anthropicAgent{m}, nil
}

// AnthropicParams is the Messages API request of a decide request.
func AnthropicParams(model string, maxTokens int64, req *Request) (anthropic.BetaMessageNewParams, error) {
	c := req.Context
	var msgs []anthropic.BetaMessageParam
	pc := providerCompaction(c, providers.KindAnthropic)
	if pc != nil {
		m, err := providers.AnthropicCompactionMessage(c.FullSummary, pc)
		if err != nil {
			return anthropic.BetaMessageNewParams{}, fmt.Errorf("compaction block: %w", err)
		}
		msgs = append(msgs, m)
	}
	events, tools := providers.AnthropicMessages(c.Events)
	msgs = append(msgs, events...)
	q := anthropic.NewBetaTextBlock(promptText(req))
	if n := len(msgs); n > 0 && msgs[n-1].OfUser != nil {
		msgs[n-1].OfUser.Content = append(msgs[n-1].OfUser.Content, q)
	} else {
		msgs = append(msgs, anthropic.NewBetaUserMessage(q))
	}
	p := anthropic.BetaMessageNewParams{Model: anthropic.Model(model), MaxTokens: maxTokens, Messages: msgs, Tools: tools}
	if s := systemText(c, pc != nil); s != "" {
		p.System = []anthropic.BetaTextBlockParam{{Text: s}}
	}
	if len(tools) > 0 {
		p.ToolChoice = anthropic.BetaToolChoiceUnionParam{OfNone: &anthropic.BetaToolChoiceNoneParam{}}
	}
	return p, nil
}

func (a *anthropicAgent) maxTokens() int64 {
	return int64(a.opts.WithMaxTokens(providers.DefaultAgentMaxTokens).MaxTokens)
}

// Decide implements Agent.
func (a *anthropicAgent) Decide(ctx context.Context, req *Request) (*Decision, error) {
	d := &Decision{}
	d.Call.Spec = providers.KindAnthropic + ":" + a.model
	if req.FreeText() {
		if req.Recall != nil {
			return a.decideRecall(ctx, req)
		}
		return a.answer(ctx, d, req)
	}
	if len(req.Probe.Options) == 0 {
		return d, fmt.Errorf("anthropic agent: probe %q: %w", req.Probe.ID, errNoOptions)
	}
	return a.sampling.sampled(ctx, req, a.decideOnce)
}

// decideOnce asks a choice probe once, with the options as req shows them.
func (a *anthropicAgent) decideOnce(ctx context.Context, req *Request) (*Decision, error) {
	if req.Recall != nil {
		return a.decideRecall(ctx, req)
	}
	d := &Decision{}
	d.Call.Spec = providers.KindAnthropic + ":" + a.model
	p, err := AnthropicParams(a.model, a.maxTokens(), req)
	if err != nil {
		return d, fmt.Errorf("anthropic agent %s: %w", a.model, err)
	}
	text, hit, err := a.send(ctx, d, p, req.Trial, nil)
	if err != nil {
		return d, err
	}
	choice, reason, perr := decisionFromText(text, req.Probe.Options)
	if perr != nil {
		fix := p
		fix.Messages = append(append([]anthropic.BetaMessageParam(nil), p.Messages...),
			anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{Content: []anthropic.BetaContentBlockParamUnion{anthropic.NewBetaTextBlock(nonEmpty(text))}}},
			anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(correction(perr, req.Probe.Options))))
		setExtra(&d.Call, "corrections", "1")
		setExtra(&d.Call, "first_reply_problem", clip.String(perr.Error(), 200))
		accept := func(t string) error { _, _, err := decisionFromText(t, req.Probe.Options); return err }
		var hit2 bool
		text, hit2, err = a.send(ctx, d, fix, req.Trial, accept)
		if err != nil {
			return d, fmt.Errorf("anthropic agent %s: after one correction (first reply: %v): %w", a.model, perr, err)
		}
		hit = hit && hit2
		if choice, reason, perr = decisionFromText(text, req.Probe.Options); perr != nil {
			return d, fmt.Errorf("anthropic agent %s: after one correction: %w", a.model, perr)
		}
	}
	d.Call.CacheHit = hit
	d.Choice, d.Reason = choice, reason
	return d, nil
}

// answer asks a free-text probe: the same request, ending with the
// question and a request for {"answer", "reason"}; a reply with no answer
// is an error and is not cached (no correction round, as for openai:).
func (a *anthropicAgent) answer(ctx context.Context, d *Decision, req *Request) (*Decision, error) {
	p, err := AnthropicParams(a.model, a.maxTokens(), req)
	if err != nil {
		return d, fmt.Errorf("anthropic agent %s: %w", a.model, err)
	}
	accept := func(t string) error { _, _, err := answerFromText(t); return err }
	text, hit, err := a.send(ctx, d, p, req.Trial, accept)
	if err != nil {
		return d, err
	}
	d.Call.CacheHit = hit
	if d.Answer, d.Reason, err = answerFromText(text); err != nil {
		return d, fmt.Errorf("anthropic agent %s: %w", a.model, err)
	}
	return d, nil
}

// send posts one Messages API request and returns the reply's text, which
// must not be empty and must pass accept when it is not nil.
func (a *anthropicAgent) send(ctx context.Context, d *Decision, p anthropic.BetaMessageNewParams, trial int, accept func(string) error) (string, bool, error) {
	m, hit, err := a.sendMessage(ctx, d, p, trial, func(m *anthropic.BetaMessage) error {
		t := messageText(m)
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("the reply has no text (stop_reason %q)", m.StopReason)
		}
		if accept != nil {
			return accept(t)
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	return messageText(m), hit, nil
}

// sendMessage posts one Messages API request and returns the reply, which
// must pass accept; a refused reply is an error and is not cached.
func (a *anthropicAgent) sendMessage(ctx context.Context, d *Decision, p anthropic.BetaMessageNewParams, trial int, accept func(*anthropic.BetaMessage) error) (*anthropic.BetaMessage, bool, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return nil, false, err
	}
	var got anthropic.BetaMessage
	rep, err := a.client.Post(ctx, &llm.Call{
		Op: "anthropic messages", Path: "/messages", Header: providers.AnthropicHeader(), Body: body, Trial: trial,
		Tokens: providers.EstimateAnthropic(p),
		Accept: func(b []byte) error {
			var m anthropic.BetaMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return err
			}
			if err := providers.AnthropicTruncated(string(m.StopReason), p.MaxTokens); err != nil {
				return err
			}
			if err := accept(&m); err != nil {
				return err
			}
			got = m
			return nil
		},
	})
	a.opts.ProviderProvenance(&d.Call, providers.KindAnthropic, a.model, a.client.Host(), map[string]any{"max_tokens": int(p.MaxTokens)}, rep)
	setExtra(&d.Call, "beta", providers.AnthropicBeta)
	if err != nil {
		return nil, false, fmt.Errorf("anthropic agent %s: %w", a.model, err)
	}
	d.Call.Usage.PromptTokens += int(got.Usage.InputTokens)
	d.Call.Usage.CompletionTokens += int(got.Usage.OutputTokens)
	return &got, rep.CacheHit, nil
}

// messageText is the text of a reply's text blocks.
func messageText(m *anthropic.BetaMessage) string {
	var parts []string
	for _, c := range m.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "")
}

func setExtra(c *result.Call, k, v string) {
	if c.Extra == nil {
		c.Extra = map[string]string{}
	}
	c.Extra[k] = v
}

func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(empty reply)"
	}
	return s
}
