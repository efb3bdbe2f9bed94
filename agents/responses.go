package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
)

// ResponsesPath is the Responses API's create endpoint.
const ResponsesPath = "/responses"

// ResponsesRequest is the body an openai-responses: agent sends.
type ResponsesRequest struct {
	Model           string                    `json:"model"`
	Instructions    string                    `json:"instructions,omitempty"`
	Input           []json.RawMessage         `json:"input"`
	Tools           []providers.ResponsesTool `json:"tools,omitempty"`
	ToolChoice      string                    `json:"tool_choice,omitempty"`
	Store           bool                      `json:"store"`
	Temperature     *float32                  `json:"temperature,omitempty"`
	MaxOutputTokens int                       `json:"max_output_tokens,omitempty"`
}

// params are the sampling parameters r sends, as provenance records them.
func (r ResponsesRequest) params() map[string]any {
	p := map[string]any{}
	if r.Temperature != nil {
		p["temperature"] = *r.Temperature
	}
	if r.MaxOutputTokens > 0 {
		p["max_tokens"] = r.MaxOutputTokens
	}
	return p
}

// responsesReply is the part of a Responses API reply the agent reads.
type responsesReply struct {
	Status string `json:"status"`
	// IncompleteDetails says why an "incomplete" reply stopped.
	IncompleteDetails struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Output []struct {
		Type      string `json:"type"`
		Role      string `json:"role"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Content   []struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Refusal string `json:"refusal"`
		} `json:"content"`
	} `json:"output"`
	Usage providers.ResponsesUsage `json:"usage"`
}

func (r *responsesReply) text() string {
	var parts []string
	for _, o := range r.Output {
		if o.Type != "message" {
			continue
		}
		for _, c := range o.Content {
			if c.Type == "output_text" {
				parts = append(parts, c.Text)
			}
		}
	}
	return strings.Join(parts, "")
}

// responsesAgent is an openai-responses: agent.
type responsesAgent struct{ modelAgent }

// NewResponses returns an agent that answers through OpenAI's Responses API
// (POST /responses, store false). Both arms go through the same API and
// model: the full arm sends the whole history as input items; the
// compacted arm sends the output of /responses/compact an
// openai-responses: summarizer returned (the opaque compaction item, and
// whatever the provider kept), verbatim and first, then the events after
// it, then the question. A summary from any other summarizer is shown as
// text in the instructions. Tool calls are function_call and
// function_call_output items, with tool_choice none. A reply whose choice
// is not an option key gets one correction turn. A free-text probe is asked the same way
// for {"answer", "reason"} (no correction turn).
//
// A choice probe is asked as Sampling says, like an openai: agent's
// (NewResponsesSampled; NewResponses uses DefaultSeed and one sample).
func NewResponses(model string, opts providers.OpenAIOptions) (Agent, error) {
	return NewResponsesSampled(model, opts, oneSample)
}

// NewResponsesSampled is NewResponses with the given sampling.
func NewResponsesSampled(model string, opts providers.OpenAIOptions, s Sampling) (Agent, error) {
	m, err := newModelAgent(providers.KindResponses, model, opts, s)
	if err != nil {
		return nil, err
	}
	return &responsesAgent{m}, nil
}

// ResponsesBody is the request of a decide request.
func ResponsesBody(model string, opts providers.OpenAIOptions, req *Request) (ResponsesRequest, error) {
	c := req.Context
	pc := providerCompaction(c, providers.KindResponses)
	items, tools := providers.ResponsesItems(c.Events)
	items = append(items, providers.ResponsesItem{Type: "message", Role: "user", Content: promptText(req)})
	input, err := providers.ResponsesInput(pc, items)
	if err != nil {
		return ResponsesRequest{}, err
	}
	r := ResponsesRequest{Model: model, Instructions: systemText(c, pc != nil), Input: input, Tools: tools,
		Temperature: opts.Temperature, MaxOutputTokens: opts.WithMaxTokens(providers.DefaultAgentMaxTokens).MaxTokens}
	if len(tools) > 0 {
		r.ToolChoice = "none"
	}
	return r, nil
}

// Decide implements Agent.
func (a *responsesAgent) Decide(ctx context.Context, req *Request) (*Decision, error) {
	d := &Decision{}
	d.Call.Spec = providers.KindResponses + ":" + a.model
	if req.FreeText() {
		if req.Recall != nil {
			return a.decideRecall(ctx, req)
		}
		return a.answer(ctx, d, req)
	}
	if len(req.Probe.Options) == 0 {
		return d, fmt.Errorf("openai-responses agent: probe %q: %w", req.Probe.ID, errNoOptions)
	}
	return a.sampling.sampled(ctx, req, a.decideOnce)
}

// decideOnce asks a choice probe once, with the options as req shows them.
func (a *responsesAgent) decideOnce(ctx context.Context, req *Request) (*Decision, error) {
	if req.Recall != nil {
		return a.decideRecall(ctx, req)
	}
	d := &Decision{}
	d.Call.Spec = providers.KindResponses + ":" + a.model
	body, err := ResponsesBody(a.model, a.opts, req)
	if err != nil {
		return d, fmt.Errorf("openai-responses agent %s: %w", a.model, err)
	}
	text, hit, err := a.send(ctx, d, body, req.Trial, nil)
	if err != nil {
		return d, err
	}
	choice, reason, perr := decisionFromText(text, req.Probe.Options)
	if perr != nil {
		fix := body
		fix.Input = append([]json.RawMessage(nil), body.Input...)
		for _, it := range []providers.ResponsesItem{
			{Type: "message", Role: "assistant", Content: nonEmpty(text)},
			{Type: "message", Role: "user", Content: correction(perr, req.Probe.Options)},
		} {
			b, _ := json.Marshal(it)
			fix.Input = append(fix.Input, b)
		}
		setExtra(&d.Call, "corrections", "1")
		setExtra(&d.Call, "first_reply_problem", clip.String(perr.Error(), 200))
		accept := func(t string) error { _, _, err := decisionFromText(t, req.Probe.Options); return err }
		var hit2 bool
		text, hit2, err = a.send(ctx, d, fix, req.Trial, accept)
		if err != nil {
			return d, fmt.Errorf("openai-responses agent %s: after one correction (first reply: %v): %w", a.model, perr, err)
		}
		hit = hit && hit2
		if choice, reason, perr = decisionFromText(text, req.Probe.Options); perr != nil {
			return d, fmt.Errorf("openai-responses agent %s: after one correction: %w", a.model, perr)
		}
	}
	d.Call.CacheHit = hit
	d.Choice, d.Reason = choice, reason
	return d, nil
}

// answer asks a free-text probe: the same input, ending with the question
// and a request for {"answer", "reason"}; a reply with no answer is an
// error and is not cached.
func (a *responsesAgent) answer(ctx context.Context, d *Decision, req *Request) (*Decision, error) {
	body, err := ResponsesBody(a.model, a.opts, req)
	if err != nil {
		return d, fmt.Errorf("openai-responses agent %s: %w", a.model, err)
	}
	accept := func(t string) error { _, _, err := answerFromText(t); return err }
	text, hit, err := a.send(ctx, d, body, req.Trial, accept)
	if err != nil {
		return d, err
	}
	d.Call.CacheHit = hit
	if d.Answer, d.Reason, err = answerFromText(text); err != nil {
		return d, fmt.Errorf("openai-responses agent %s: %w", a.model, err)
	}
	return d, nil
}

// send posts one Responses API request and returns the reply's output
// text, which must not be empty and must pass accept when it is not nil.
func (a *responsesAgent) send(ctx context.Context, d *Decision, r ResponsesRequest, trial int, accept func(string) error) (string, bool, error) {
	rr, hit, err := a.sendReply(ctx, d, r, trial, func(rr *responsesReply) error {
		t := rr.text()
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("the reply has no output text (status %q)", rr.Status)
		}
		if accept != nil {
			return accept(t)
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	return rr.text(), hit, nil
}

// sendReply posts one Responses API request and returns the reply, which
// must pass accept; a refused reply is an error and is not cached.
func (a *responsesAgent) sendReply(ctx context.Context, d *Decision, r ResponsesRequest, trial int, accept func(*responsesReply) error) (*responsesReply, bool, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, false, err
	}
	var got responsesReply
	rep, err := a.client.Post(ctx, &llm.Call{
		Op: "openai responses", Path: ResponsesPath, Body: body, Trial: trial, Tokens: llmTokens(body),
		Accept: func(b []byte) error {
			var rr responsesReply
			if err := json.Unmarshal(b, &rr); err != nil {
				return err
			}
			if err := providers.ResponsesTruncated(rr.Status, rr.IncompleteDetails.Reason, r.MaxOutputTokens); err != nil {
				return err
			}
			if err := accept(&rr); err != nil {
				return err
			}
			got = rr
			return nil
		},
	})
	a.opts.ProviderProvenance(&d.Call, providers.KindResponses, a.model, a.client.Host(), r.params(), rep)
	if err != nil {
		return nil, false, fmt.Errorf("openai-responses agent %s: %w", a.model, err)
	}
	d.Call.Usage.PromptTokens += got.Usage.InputTokens
	d.Call.Usage.CompletionTokens += got.Usage.OutputTokens
	return &got, rep.CacheHit, nil
}

// llmTokens estimates a body's prompt tokens for the TPM limit: the whole
// JSON counted, which overestimates a little.
func llmTokens(body []byte) int {
	if len(body) == 0 {
		return 0
	}
	return len(body) / 4
}
