package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// DecideModes are the output modes an openai: agent tries, in order.
var DecideModes = []string{llm.ModeJSONObject, llm.ModeText}

// openAIAgent is an openai: agent.
type openAIAgent struct{ modelAgent }

// NewOpenAI returns an agent backed by an OpenAI-compatible endpoint.
//
// The conversation it sends is the agent's context as a chat: a system
// message with the rules, the goal and (on the compacted arm) the summary
// (scenarios/transcript.Header); the events as chat messages with real
// tool_calls and tool messages; then a user message with the probe's
// question and options asking for {"choice": KEY, "reason": …} (json_object
// mode, falling back to plain text when the endpoint refuses it). A reply
// whose choice is not an option key gets one correction message; a second
// bad reply is an error. Invariants, expect and requires are never sent.
//
// A choice probe is asked as Sampling says (NewOpenAISampled; NewOpenAI
// uses DefaultSeed and one sample): options in a drawn order, labelled A,
// B, C…, the label mapped back to its key.
func NewOpenAI(model string, opts providers.OpenAIOptions) (Agent, error) {
	return NewOpenAISampled(model, opts, oneSample)
}

// NewOpenAISampled is NewOpenAI with the given sampling.
func NewOpenAISampled(model string, opts providers.OpenAIOptions, s Sampling) (Agent, error) {
	m, err := newModelAgent(providers.KindOpenAI, model, opts, s)
	if err != nil {
		return nil, err
	}
	return &openAIAgent{m}, nil
}

// Decide implements Agent.
func (a *openAIAgent) Decide(ctx context.Context, req *Request) (*Decision, error) {
	if req.FreeText() {
		if req.Recall != nil {
			return a.decideRecall(ctx, req)
		}
		return a.answer(ctx, req)
	}
	if len(req.Probe.Options) == 0 {
		return nil, fmt.Errorf("openai agent: probe %q has no options", req.Probe.ID)
	}
	return a.sampling.sampled(ctx, req, a.decideOnce)
}

// decideOnce asks a choice probe once, with the options as req shows them.
func (a *openAIAgent) decideOnce(ctx context.Context, req *Request) (*Decision, error) {
	if len(req.Probe.Options) == 0 {
		return nil, fmt.Errorf("openai agent: probe %q has no options", req.Probe.ID)
	}
	if req.Recall != nil {
		return a.decideRecall(ctx, req)
	}
	msgs, tools := ChatMessages(req)
	build := func(msgs []openai.ChatCompletionMessage, accept func(*openai.ChatCompletionResponse) error) func(string) *llm.Request {
		return func(mode string) *llm.Request {
			cr := openai.ChatCompletionRequest{Model: a.model, Messages: msgs}
			if len(tools) > 0 {
				cr.Tools, cr.ToolChoice = tools, "none"
			}
			a.opts.Apply(&cr)
			if mode == llm.ModeJSONObject {
				cr.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
			}
			return &llm.Request{Chat: cr, Trial: req.Trial, RequireContent: true, Accept: accept}
		}
	}
	d := &Decision{}
	// The first reply is kept (and cached) even when unusable: the
	// correction round builds on it.
	out, err := a.client.ChatStructured(ctx, a.model, DecideModes, build(msgs, hasChoice))
	a.opts.Provenance(&d.Call, a.model, a.client.Host(), out)
	if err != nil {
		return d, fmt.Errorf("openai agent %s: %w", a.model, err)
	}
	hit := out.CacheHit
	choice, reason, perr := parseDecision(&out.Response, req.Probe.Options)
	if perr != nil {
		// One correction, in the mode that worked. Only a usable answer is
		// cached, so a unit that ends in an error is asked again next run.
		fix := append(append([]openai.ChatCompletionMessage(nil), msgs...),
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: replyText(&out.Response)},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: correction(perr, req.Probe.Options)},
		)
		accept := func(r *openai.ChatCompletionResponse) error {
			_, _, err := parseDecision(r, req.Probe.Options)
			return err
		}
		mode := out.Mode
		out, err = a.client.ChatStructured(ctx, a.model, []string{mode}, build(fix, accept))
		a.opts.Provenance(&d.Call, a.model, a.client.Host(), out)
		if d.Call.Extra == nil {
			d.Call.Extra = map[string]string{}
		}
		d.Call.Extra["corrections"] = "1"
		d.Call.Extra["first_reply_problem"] = clip.String(perr.Error(), 200)
		if err != nil {
			return d, fmt.Errorf("openai agent %s: after one correction (first reply: %v): %w", a.model, perr, err)
		}
		hit = hit && out.CacheHit
		choice, reason, perr = parseDecision(&out.Response, req.Probe.Options)
		if perr != nil {
			return d, fmt.Errorf("openai agent %s: after one correction: %w", a.model, perr)
		}
	}
	d.Call.CacheHit = hit
	d.Choice, d.Reason = choice, reason
	return d, nil
}

// answer asks a free-text probe: the same chat, ending with the question
// and a request for {"answer": TEXT, "reason": …}; a reply that is not
// JSON is read as the answer itself (plain-text endpoints). An empty
// answer is an error and is not cached.
func (a *openAIAgent) answer(ctx context.Context, req *Request) (*Decision, error) {
	msgs, tools := ChatMessages(req)
	build := func(mode string) *llm.Request {
		cr := openai.ChatCompletionRequest{Model: a.model, Messages: msgs}
		if len(tools) > 0 {
			cr.Tools, cr.ToolChoice = tools, "none"
		}
		a.opts.Apply(&cr)
		if mode == llm.ModeJSONObject {
			cr.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		}
		return &llm.Request{Chat: cr, Trial: req.Trial, RequireContent: true, Accept: func(r *openai.ChatCompletionResponse) error {
			_, _, err := parseAnswer(r)
			return err
		}}
	}
	d := &Decision{}
	out, err := a.client.ChatStructured(ctx, a.model, DecideModes, build)
	a.opts.Provenance(&d.Call, a.model, a.client.Host(), out)
	if err != nil {
		return d, fmt.Errorf("openai agent %s: %w", a.model, err)
	}
	d.Call.CacheHit = out.CacheHit
	d.Answer, d.Reason, err = parseAnswer(&out.Response)
	if err != nil {
		return d, fmt.Errorf("openai agent %s: %w", a.model, err)
	}
	return d, nil
}

// answerQuestionText is the last user turn of a free-text probe, for every
// model agent: the question, and how to answer.
func answerQuestionText(q Question) string {
	return fmt.Sprintf("Question needing an answer. %s\n\nAnswer in a few sentences from what you know of this session, "+
		"and say so when you cannot tell. Reply with only a JSON object {\"answer\": \"your answer\", \"reason\": \"one sentence\"}.", q.Question)
}

// answerFromText reads {"answer", "reason"} from a reply's text, or the
// text itself as the answer when it holds no JSON object with an answer;
// an empty answer is an error.
func answerFromText(text string) (answer, reason string, err error) {
	answer = strings.TrimSpace(text)
	if obj, err := providers.FirstJSONObject(text); err == nil {
		var v struct {
			Answer any `json:"answer"`
			Reason any `json:"reason"`
		}
		if json.Unmarshal(obj, &v) == nil && v.Answer != nil {
			if s, ok := v.Answer.(string); ok {
				answer = strings.TrimSpace(s)
			} else {
				b, _ := json.Marshal(v.Answer)
				answer = string(b)
			}
			if rs, ok := v.Reason.(string); ok {
				reason = rs
			}
		}
	}
	if answer == "" {
		return "", "", errors.New("the reply holds no answer")
	}
	return answer, reason, nil
}

// parseAnswer reads {"answer", "reason"} from a reply, or the reply's text
// as the answer when it holds no JSON object with an answer.
func parseAnswer(r *openai.ChatCompletionResponse) (answer, reason string, err error) {
	if len(r.Choices) == 0 {
		return "", "", errors.New("the reply has no choices")
	}
	m := r.Choices[0].Message
	if m.Content == "" && len(m.ToolCalls) > 0 {
		return "", "", errors.New("the reply called a tool instead of answering")
	}
	if m.Content == "" && m.Refusal != "" {
		return "", "", fmt.Errorf("the agent refused: %s", clip.String(m.Refusal, 200))
	}
	return answerFromText(m.Content)
}

// hasChoice accepts any reply with a choice to read.
func hasChoice(r *openai.ChatCompletionResponse) error {
	if len(r.Choices) == 0 {
		return errors.New("reply has no choices")
	}
	return nil
}

func replyText(r *openai.ChatCompletionResponse) string {
	if len(r.Choices) == 0 {
		return "(no reply)"
	}
	m := r.Choices[0].Message
	if m.Content != "" {
		return m.Content
	}
	if len(m.ToolCalls) > 0 {
		var names []string
		for _, c := range m.ToolCalls {
			names = append(names, c.Function.Name)
		}
		return "(called tools instead of answering: " + strings.Join(names, ", ") + ")"
	}
	if m.Refusal != "" {
		return m.Refusal
	}
	return "(empty reply)"
}

// parseDecision reads {"choice", "reason"} from a reply; the choice must
// be exactly one of the option keys (surrounding spaces aside).
func parseDecision(r *openai.ChatCompletionResponse, opts scenarios.Options) (choice, reason string, err error) {
	if len(r.Choices) == 0 {
		return "", "", errors.New("the reply has no choices")
	}
	m := r.Choices[0].Message
	if m.Content == "" && len(m.ToolCalls) > 0 {
		return "", "", errors.New("the reply called a tool instead of answering")
	}
	return decisionFromText(m.Content, opts)
}

func keys(opts scenarios.Options) string {
	ks := make([]string, len(opts))
	for i, o := range opts {
		ks[i] = o.Key
	}
	return strings.Join(ks, ", ")
}

func correction(problem error, opts scenarios.Options) string {
	return fmt.Sprintf("Your answer could not be used: %v. Reply again with only a JSON object "+
		`{"choice": KEY, "reason": "one sentence"}`+" where KEY is exactly one of: %s.", problem, keys(opts))
}

// ChatMessages renders a decide request as the chat an openai: agent sends,
// with the tool definitions the history's calls need (tool_choice is then
// "none": the agent answers, it does not act).
func ChatMessages(req *Request) ([]openai.ChatCompletionMessage, []openai.Tool) {
	tc := transcript.Context{Rules: req.Context.Rules, Goal: req.Context.Goal, Summary: req.Context.Summary, Events: req.Context.Events}
	var msgs []openai.ChatCompletionMessage
	if h := transcript.Header(tc); h != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: h})
	}
	seen := map[string]bool{}
	var tools []openai.Tool
	for _, m := range transcript.EventMessages(tc.Events) {
		cm := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.CallID}
		for _, c := range m.Calls {
			name := ToolName(c.Name)
			cm.ToolCalls = append(cm.ToolCalls, openai.ToolCall{ID: c.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: name, Arguments: c.Arguments}})
			if !seen[name] {
				seen[name] = true
				tools = append(tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
					Name: name, Parameters: json.RawMessage(`{"type":"object"}`)}})
			}
		}
		msgs = append(msgs, cm)
	}
	var b strings.Builder
	if req.FreeText() {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: answerQuestionText(req.Probe)})
		return msgs, tools
	}
	fmt.Fprintf(&b, "Decision needed. %s\n\nOptions:\n", req.Probe.Question)
	for _, o := range req.Probe.Options {
		fmt.Fprintf(&b, "- %s: %s\n", o.Key, o.Description)
	}
	fmt.Fprintf(&b, "\nAnswer with only a JSON object {\"choice\": KEY, \"reason\": \"one sentence\"} where KEY is exactly one of: %s.", keys(req.Probe.Options))
	msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: b.String()})
	return msgs, tools
}

// ToolName makes a scenario's tool name acceptable to chat APIs, which
// want ^[a-zA-Z0-9_-]{1,64}$: other characters become '_', and the name is
// cut to 64 bytes ("tool" if empty).
func ToolName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "tool"
	}
	return string(b)
}
