package summarizers

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/compact-eval/compact-eval/result"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/scenarios"
)

// OpenAIOptions configure openai: summarizers and agents (an OpenAI-compatible
// chat-completions endpoint: OpenAI, vLLM, Ollama, llama.cpp server,
// gateways). The zero value is usable: each field says what zero means.
type OpenAIOptions struct {
	// BaseURL is the endpoint, e.g. http://localhost:8000/v1. "" means
	// OPENAI_BASE_URL, and https://api.openai.com/v1 when that is unset too.
	BaseURL string
	// APIKey is the bearer token. "" means OPENAI_API_KEY (and no
	// Authorization header when that is unset too). It is sent to the
	// endpoint only: never logged, never in provenance, errors or the cache.
	APIKey string
	// Endpoint is the endpoint's name in a config file; recorded in
	// provenance as extra "endpoint_name". "" records nothing.
	Endpoint string
	// PromptFile is a Go text/template replacing the built-in summarize
	// prompt (summarizers only). Its data is PromptData; an optional
	// {{define "system"}} block is the system message. Its SHA-256 is
	// recorded as Call.PromptDigest. "" means the built-in prompt (whose
	// digest is recorded too).
	PromptFile string
	// Temperature is sent when not nil (0 included); nil leaves the
	// endpoint's default.
	Temperature *float32
	// Seed is sent when not nil; nil sends none.
	Seed *int
	// MaxTokens bounds the reply (max_tokens); 0 sends no bound.
	MaxTokens int
	// MaxRetries is the number of retries of a 429, 5xx or timeout; 0
	// means llm.DefaultMaxRetries (4); negative means none.
	MaxRetries int
	// Timeout bounds one HTTP attempt; 0 means llm.DefaultTimeout (120 s).
	Timeout time.Duration
	// RPM and TPM are requests and prompt tokens per minute; 0 means no
	// limit. Ignored when Limiter is set.
	RPM, TPM int
	// Concurrency is the most requests in flight (the run's -j); 0 means
	// llm.DefaultConcurrency. Ignored when Limiter is set.
	Concurrency int
	// Limiter, when set, is shared by every summarizer and agent built with
	// it, so that limits and the adaptive concurrency apply to the whole run
	// (build one with llm.NewLimiter). nil gives each one its own.
	Limiter *llm.Limiter
	// CacheDir is the response cache directory; "" means
	// os.UserCacheDir()/compact-eval.
	CacheDir string
	// NoCache turns the response cache off.
	NoCache bool
	// Getenv reads OPENAI_BASE_URL and OPENAI_API_KEY; nil means os.Getenv.
	Getenv func(string) string
}

// Validate refuses out-of-range options.
func (o OpenAIOptions) Validate() error {
	var errs []error
	if o.Temperature != nil && (*o.Temperature < 0 || *o.Temperature > 2 || math.IsNaN(float64(*o.Temperature))) {
		errs = append(errs, fmt.Errorf("temperature %v: want a value in [0, 2]", *o.Temperature))
	}
	if o.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("max tokens %d: must not be negative", o.MaxTokens))
	}
	if err := o.clientConfig().Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (o OpenAIOptions) clientConfig() llm.Config {
	return llm.Config{
		BaseURL:    o.BaseURL,
		APIKey:     o.APIKey,
		MaxRetries: o.MaxRetries,
		Timeout:    o.Timeout,
		CacheDir:   o.CacheDir,
		NoCache:    o.NoCache,
		Limiter:    o.Limiter,
		Limits:     llm.Limits{RPM: o.RPM, TPM: o.TPM, Concurrency: o.Concurrency},
	}.FromEnv(o.Getenv)
}

// NewOpenAIClient builds the client an openai: summarizer or agent uses.
func NewOpenAIClient(o OpenAIOptions) (*llm.Client, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("openai options: %w", err)
	}
	return llm.New(o.clientConfig())
}

// Params are the request parameters as provenance records them.
func (o OpenAIOptions) Params() map[string]any {
	p := map[string]any{}
	if o.Temperature != nil {
		p["temperature"] = *o.Temperature
	}
	if o.Seed != nil {
		p["seed"] = *o.Seed
	}
	if o.MaxTokens > 0 {
		p["max_tokens"] = o.MaxTokens
	}
	if len(p) == 0 {
		return nil
	}
	return p
}

// Apply sets the request parameters on a chat request. A temperature of 0
// is sent as the smallest positive float32, because go-openai omits a zero
// temperature and the endpoint would use its default (1).
func (o OpenAIOptions) Apply(r *openai.ChatCompletionRequest) {
	if o.Temperature != nil {
		r.Temperature = *o.Temperature
		if r.Temperature == 0 {
			r.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if o.Seed != nil {
		s := *o.Seed
		r.Seed = &s
	}
	r.MaxTokens = o.MaxTokens
}

// Provenance fills the parts of a Call every openai call shares.
func (o OpenAIOptions) Provenance(c *result.Call, model, host string, s *llm.Structured) {
	c.Spec = KindOpenAI + ":" + model
	c.Model = model
	c.Endpoint = host
	c.Params = o.Params()
	if o.Endpoint != "" {
		if c.Extra == nil {
			c.Extra = map[string]string{}
		}
		c.Extra["endpoint_name"] = o.Endpoint
	}
	if s == nil {
		return
	}
	c.OutputMode = s.Mode
	c.Latency += s.Latency
	c.Retries += s.Retries
	if s.Result != nil {
		c.Usage.PromptTokens += s.Response.Usage.PromptTokens
		c.Usage.CompletionTokens += s.Response.Usage.CompletionTokens
	}
	if len(s.FallbackFrom) > 0 {
		if c.Extra == nil {
			c.Extra = map[string]string{}
		}
		c.Extra["fallback_from"] = strings.Join(s.FallbackFrom, ",")
	}
}

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
	// ids (internal/transcript's text form).
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
	opts   OpenAIOptions
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
func NewOpenAI(model string, opts OpenAIOptions) (Summarizer, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai: missing model name (want openai:MODEL)")
	}
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
	c, err := NewOpenAIClient(opts)
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
	obj, err := FirstJSONObject(m.Content)
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

// maxObjectTries bounds the start positions FirstJSONObject tries.
const maxObjectTries = 64

// FirstJSONObject returns the first complete JSON object in s: the whole
// of s when it is one, else the first balanced {…} that parses (text around
// it and Markdown code fences are ignored). It fails when there is none
// among the first 64 opening braces.
func FirstJSONObject(s string) (json.RawMessage, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, errors.New("empty content")
	}
	if t[0] == '{' && json.Valid([]byte(t)) {
		return json.RawMessage(t), nil
	}
	// Each try may scan to the end of s: bound the tries so that a hostile
	// reply (say, a megabyte of unterminated objects) costs linear time.
	tries := 0
	for i := 0; i < len(s) && tries < maxObjectTries; i++ {
		if s[i] != '{' {
			continue
		}
		tries++
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == nil && len(raw) > 0 && raw[0] == '{' {
			return raw, nil
		}
	}
	return nil, fmt.Errorf("no JSON object in the content (%q)", clip.String(t, 80))
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
		s := strictObject(reflect.TypeFor[Summary](), "Summary")
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
	"Hypothesis.Status":  {HypothesisOpen, HypothesisRefuted, HypothesisConfirmed},
	"Pending.Status":     {PendingPending, PendingInFlight, PendingUnknown, PendingFailed, PendingDone},
	"ArtifactRef.Status": {ArtifactCurrent, ArtifactStale, ArtifactSuperseded, ArtifactDeleted},
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
			s = map[string]any{"type": "integer", "enum": []any{SchemaVersion}}
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

// RegisterFlags declares the command-line flags of openai: summarizers and
// agents on fs, writing into o: --prompt, --temperature, --seed,
// --max-tokens, --max-retries, --call-timeout, --rpm, --tpm, --no-cache and
// --cache-dir. Values already in o are the defaults shown. --max-retries 0
// means no retry (stored as a negative MaxRetries, since zero there means
// the default). Concurrency is not a flag here: set it from the run's -j.
func (o *OpenAIOptions) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.PromptFile, "prompt", o.PromptFile, "summarize prompt template `FILE` for openai: summarizers (Go text/template; default: the built-in prompt)")
	fs.Func("temperature", "sampling temperature in [0, 2] sent to openai: models (default: the endpoint's)", func(s string) error {
		v, err := strconv.ParseFloat(s, 32)
		if err != nil || v < 0 || v > 2 {
			return fmt.Errorf("want a number in [0, 2]")
		}
		t := float32(v)
		o.Temperature = &t
		return nil
	})
	fs.Func("seed", "sampling seed sent to openai: models (default: none)", func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want an integer")
		}
		o.Seed = &v
		return nil
	})
	fs.IntVar(&o.MaxTokens, "max-tokens", o.MaxTokens, "max_tokens of each openai: reply (0: no bound)")
	retries := o.MaxRetries
	switch {
	case retries == 0:
		retries = llm.DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	fs.Func("max-retries", fmt.Sprintf("retries of a 429, 5xx or timed-out openai: call (0: none) (default %d)", retries), func(s string) error {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return fmt.Errorf("want an integer ≥ 0")
		}
		o.MaxRetries = v
		if v == 0 {
			o.MaxRetries = -1
		}
		return nil
	})
	timeout := o.Timeout
	if timeout == 0 {
		timeout = llm.DefaultTimeout
	}
	fs.DurationVar(&o.Timeout, "call-timeout", timeout, "timeout of one openai: HTTP attempt (waiting for a slot excluded)")
	fs.IntVar(&o.RPM, "rpm", o.RPM, "requests per minute to an openai: endpoint (0: no limit)")
	fs.IntVar(&o.TPM, "tpm", o.TPM, "prompt tokens per minute to an openai: endpoint, estimated offline (0: no limit)")
	fs.BoolVar(&o.NoCache, "no-cache", o.NoCache, "neither read nor write the model response cache")
	fs.StringVar(&o.CacheDir, "cache-dir", o.CacheDir, "model response cache `DIR` (default: the user cache directory plus compact-eval)")
}
