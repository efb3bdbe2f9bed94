package summarizers

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"text/template"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/summary"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/scenarios"
)

//go:embed prompts/summarize.tmpl
var defaultPrompt string

// DefaultPrompt is the built-in summarize prompt template.
func DefaultPrompt() string { return defaultPrompt }

// PromptData is what a summarize prompt template sees: the request's
// fields, plus the events rendered as text and the previous summary as a
// string ("" when there is none).
type PromptData struct {
	ScenarioID string
	Generation int
	Cut        int
	Goal       string
	Rules      string
	// PreviousSummary is the previous summary document as JSON text, ""
	// when there is none.
	PreviousSummary string
	// Events are the events to summarize.
	Events []scenarios.Event
	// Transcript is Events rendered one line per message, with seqs and call
	// ids (scenarios/transcript's text form).
	Transcript string
	// Trial is the trial index.
	Trial int
}

// Prompt is a parsed summarize prompt.
type Prompt struct {
	tmpl   *template.Template
	Digest string // "sha256:" + hex of the template's bytes
}

// ParsePrompt parses a prompt template; name is used in errors.
func ParsePrompt(name, text string) (*Prompt, error) {
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("prompt %s: %w", name, err)
	}
	sum := sha256.Sum256([]byte(text))
	return &Prompt{tmpl: t, Digest: "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// Render returns the system message ("" when the template defines none) and
// the user message for a request.
func (p *Prompt) Render(req *Request) (system, user string, err error) {
	prev := ""
	if len(req.PreviousSummary) > 0 && string(req.PreviousSummary) != "null" {
		prev = string(req.PreviousSummary)
	}
	d := PromptData{
		ScenarioID: req.ScenarioID, Generation: req.Generation, Cut: req.Cut,
		Goal: req.Goal, Rules: req.Rules, PreviousSummary: prev, Events: req.Events,
		Transcript: req.EventsText(), Trial: req.Trial,
	}
	if s := p.tmpl.Lookup("system"); s != nil {
		var b strings.Builder
		if err := s.Execute(&b, d); err != nil {
			return "", "", fmt.Errorf("rendering prompt: %w", err)
		}
		system = strings.TrimSpace(b.String())
	}
	// The transcript is most of the prompt: one allocation, which becomes
	// the string, not a doubling series of them and a copy.
	var b strings.Builder
	b.Grow(len(d.Transcript) + len(d.Rules) + len(d.Goal) + len(d.PreviousSummary) + 4096)
	if err := p.tmpl.Execute(&b, d); err != nil {
		return "", "", fmt.Errorf("rendering prompt: %w", err)
	}
	return system, strings.TrimSpace(b.String()), nil
}

// openAISummarizer is an openai: summarizer.
type openAISummarizer struct {
	model  string
	opts   providers.OpenAIOptions
	client *llm.Client
	prompt *Prompt
}

// SummarizeModes are the output modes an openai: summarizer tries, in order.
var SummarizeModes = []string{llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModeText}

// NewOpenAI returns a summarizer backed by an OpenAI-compatible endpoint.
// It asks for the summary document with a strict json_schema response
// format, falls back to json_object and then to plain text parsed for the
// first JSON object when the endpoint refuses a format, and records the mode
// used in Call.OutputMode.
func NewOpenAI(model string, opts providers.OpenAIOptions) (Summarizer, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai: missing model name (want openai:MODEL)")
	}
	opts = opts.WithMaxTokens(providers.DefaultSummarizerMaxTokens)
	name, text := "builtin:summarize.tmpl", defaultPrompt
	if opts.PromptFile != "" {
		b, err := inputfile.ReadFile(opts.PromptFile)
		if err != nil {
			return nil, fmt.Errorf("reading prompt: %w", err)
		}
		name, text = opts.PromptFile, string(b)
	}
	p, err := ParsePrompt(name, text)
	if err != nil {
		return nil, err
	}
	c, err := providers.NewOpenAIClient(opts)
	if err != nil {
		return nil, err
	}
	return &openAISummarizer{model: model, opts: opts, client: c, prompt: p}, nil
}

// Summarize implements Summarizer.
func (s *openAISummarizer) Summarize(ctx context.Context, req *Request) (*Response, error) {
	system, user, err := s.prompt.Render(req)
	if err != nil {
		return nil, err
	}
	var msgs []openai.ChatCompletionMessage
	if system != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: system})
	}
	msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: user})
	build := func(mode string) *llm.Request {
		cr := openai.ChatCompletionRequest{Model: s.model, Messages: msgs}
		s.opts.Apply(&cr)
		cr.ResponseFormat = responseFormat(mode)
		return &llm.Request{Chat: cr, Trial: req.Trial, RequireContent: true, Accept: func(r *openai.ChatCompletionResponse) error {
			_, err := summaryFromReply(r, mode)
			return err
		}}
	}
	out, err := s.client.ChatStructured(ctx, s.model, SummarizeModes, build)
	resp := &Response{}
	s.opts.Provenance(&resp.Call, s.model, s.client.Host(), out)
	resp.Call.PromptDigest = s.prompt.Digest
	if err != nil {
		return resp, fmt.Errorf("openai summarizer %s: %w", s.model, err)
	}
	resp.Call.CacheHit = out.CacheHit
	doc, err := summaryFromReply(&out.Response, out.Mode)
	if err != nil {
		return resp, fmt.Errorf("openai summarizer %s: %w", s.model, err)
	}
	resp.Summary = doc
	return resp, nil
}

func responseFormat(mode string) *openai.ChatCompletionResponseFormat {
	switch mode {
	case llm.ModeJSONSchema:
		return &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: "compaction_summary", Strict: true, Schema: json.RawMessage(StrictSummarySchema()),
			},
		}
	case llm.ModeJSONObject:
		return &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return nil
}

// summaryFromReply extracts the summary document from a reply. In
// json_schema mode the null values the strict schema forced on optional
// fields are dropped (they mean "absent"); in the other modes the document
// is passed on as the model wrote it, for the checks to judge.
func summaryFromReply(r *openai.ChatCompletionResponse, mode string) (json.RawMessage, error) {
	if len(r.Choices) == 0 {
		return nil, errors.New("reply has no choices")
	}
	m := r.Choices[0].Message
	if m.Refusal != "" {
		return nil, fmt.Errorf("model refused: %s", clip.String(m.Refusal, 200))
	}
	obj, err := providers.FirstJSONObject(m.Content)
	if err != nil {
		return nil, fmt.Errorf("%s reply: %w", mode, err)
	}
	if mode == llm.ModeJSONSchema {
		var v any
		if err := json.Unmarshal(obj, &v); err != nil {
			return nil, fmt.Errorf("%s reply: %w", mode, err)
		}
		b, err := json.Marshal(dropNulls(v))
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	return obj, nil
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = dropNulls(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}

var (
	strictOnce   sync.Once
	strictSchema []byte
)

// StrictSummarySchema is the summary document's schema in the form OpenAI's
// strict structured outputs accept, derived from the Summary type: every
// property required, optional ones nullable, additionalProperties false,
// and no "extensions" (a free-form object is not allowed in strict mode).
func StrictSummarySchema() []byte {
	strictOnce.Do(func() {
		s := strictObject(reflect.TypeFor[summary.Summary](), "Summary")
		b, err := json.Marshal(s)
		if err != nil {
			panic(err) // a map of strings and slices always marshals
		}
		strictSchema = b
	})
	return strictSchema
}

// strictEnums are the closed value sets of string fields, by Type.Field.
var strictEnums = map[string][]any{
	"Hypothesis.Status":  {summary.HypothesisOpen, summary.HypothesisRefuted, summary.HypothesisConfirmed},
	"Pending.Status":     {summary.PendingPending, summary.PendingInFlight, summary.PendingUnknown, summary.PendingFailed, summary.PendingDone},
	"ArtifactRef.Status": {summary.ArtifactCurrent, summary.ArtifactStale, summary.ArtifactSuperseded, summary.ArtifactDeleted},
	"Approval.Status":    {summary.ApprovalValid, summary.ApprovalExpired, summary.ApprovalStale, summary.ApprovalRevoked},
}

func strictObject(t reflect.Type, name string) map[string]any {
	props := map[string]any{}
	var required []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		fname, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || fname == "-" || fname == "extensions" {
			continue
		}
		if fname == "" {
			fname = f.Name
		}
		optional := strings.Contains(opts, "omitempty")
		var s map[string]any
		if name == "Summary" && fname == "schema_version" {
			s = map[string]any{"type": "integer", "enum": []any{summary.SchemaVersion}}
		} else {
			s = strictType(f.Type, name+"."+f.Name)
		}
		if optional {
			s = nullable(s)
		}
		props[fname] = s
		required = append(required, fname)
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func strictType(t reflect.Type, path string) map[string]any {
	switch t.Kind() {
	case reflect.String:
		s := map[string]any{"type": "string"}
		if e, ok := strictEnums[path]; ok {
			s["enum"] = e
		}
		return s
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": strictType(t.Elem(), path)}
	case reflect.Struct:
		return strictObject(t, t.Name())
	case reflect.Pointer:
		return strictType(t.Elem(), path) // handoff: an object, not a string
	}
	return map[string]any{"type": "string"}
}

func nullable(s map[string]any) map[string]any {
	s["type"] = []any{s["type"], "null"}
	if e, ok := s["enum"].([]any); ok {
		s["enum"] = append(append([]any(nil), e...), nil)
	}
	return s
}
