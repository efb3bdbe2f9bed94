package providers

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"
	"github.com/sashabaranov/go-openai"
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
	// MaxTokens bounds the reply (max_tokens, or max_completion_tokens for
	// a model that takes only that; an Anthropic request's max_tokens; a
	// Responses API request's max_output_tokens). 0 means the default of
	// the role the options build (DefaultSummarizerMaxTokens,
	// DefaultAgentMaxTokens, DefaultJudgeMaxTokens): every request
	// carries a bound, so that a local server never generates until its
	// context is full.
	MaxTokens int
	// MaxTokensHint says how a user raises MaxTokens (a flag, a config
	// key), named when a reply is cut at it; "" names MaxTokens itself.
	MaxTokensHint string
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
	// Meter, when set, counts the calls of every client built with it
	// (llm.Config.Meter): a run's progress line reads it. nil: none.
	Meter *llm.Meter
	// CacheDir is the response cache directory; "" means
	// os.UserCacheDir()/compact-eval.
	CacheDir string
	// NoCache turns the response cache off.
	NoCache bool
	// CacheOnly answers from the cache alone, sending nothing: a call the
	// cache cannot answer fails with llm.ErrNotCached (run --dry-run).
	CacheOnly bool
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

// The default output-token limit of each role (OpenAIOptions.MaxTokens
// 0). A summary may be long: the compression check allows a share of the
// tokens it replaces (max_ratio), which on the built-in suite reaches
// about 6,000 tokens; an agent's choice ({"choice", "reason"}) and a
// judge's verdict ({"verdict", "quote", "reason"}) are short, and the
// rest is room for a reasoning model's thinking, which counts against the
// same limit.
const (
	DefaultSummarizerMaxTokens = 8192
	DefaultAgentMaxTokens      = 2048
	DefaultJudgeMaxTokens      = 2048
)

// WithMaxTokens returns o with MaxTokens set to def when it sets none: the
// role's default.
func (o OpenAIOptions) WithMaxTokens(def int) OpenAIOptions {
	if o.MaxTokens == 0 {
		o.MaxTokens = def
	}
	return o
}

// limitHint is what a truncation error names to raise the limit.
func (o OpenAIOptions) limitHint() string {
	if o.MaxTokensHint != "" {
		return o.MaxTokensHint
	}
	return "OpenAIOptions.MaxTokens"
}

func (o OpenAIOptions) clientConfig() llm.Config {
	return llm.Config{
		LimitHint:  o.limitHint(),
		BaseURL:    o.BaseURL,
		APIKey:     o.APIKey,
		MaxRetries: o.MaxRetries,
		Timeout:    o.Timeout,
		CacheDir:   o.CacheDir,
		NoCache:    o.NoCache,
		Limiter:    o.Limiter,
		Meter:      o.Meter,
		CacheOnly:  o.CacheOnly,
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
	// The client sends it as max_completion_tokens to a model that takes
	// only that (llm.Client.UsesCompletionTokens).
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
	fs.IntVar(&o.MaxTokens, "max-tokens", o.MaxTokens, fmt.Sprintf("bound on every model reply, in tokens (max_tokens; max_output_tokens on the Responses API), unless a role's own flag or a target's params.max_tokens says otherwise (0: each role's default: summarizer %d, agent %d, judge %d)",
		DefaultSummarizerMaxTokens, DefaultAgentMaxTokens, DefaultJudgeMaxTokens))
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

// Provider compaction kinds (docs/providers.md): the compaction a model
// provider ships, evaluated as a summarizer, and the agents that read it back.
const (
	// KindAnthropic is anthropic:MODEL: Anthropic's Messages API, with
	// on-demand compaction (the `compaction` parameter) as the summarizer.
	KindAnthropic = summary.ProviderAnthropic
	// KindResponses is openai-responses:MODEL: OpenAI's Responses API, with
	// POST /responses/compact as the summarizer.
	KindResponses = summary.ProviderResponses
)

// ProviderKind reports whether kind names a provider-compaction target.
func ProviderKind(kind string) bool { return kind == KindAnthropic || kind == KindResponses }

// ModelKind reports whether kind is model-backed (openai, anthropic,
// openai-responses): the kinds that take an endpoint and model parameters.
func ModelKind(kind string) bool { return kind == KindOpenAI || ProviderKind(kind) }

// Default endpoints of the provider APIs.
const (
	DefaultAnthropicBaseURL = "https://api.anthropic.com/v1"
	// AnthropicVersion is the anthropic-version header every Messages API
	// call sends.
	AnthropicVersion = "2023-06-01"
)

// ProviderClientConfig is the llm configuration of a provider target of
// kind: the options' endpoint and key when set (a config file's endpoint),
// else the provider's variables (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY,
// or OPENAI_BASE_URL and OPENAI_API_KEY), else the provider's public API.
func (o OpenAIOptions) ProviderClientConfig(kind string) llm.Config {
	c := llm.Config{
		LimitHint: o.limitHint(),
		BaseURL:   o.BaseURL, APIKey: o.APIKey, MaxRetries: o.MaxRetries, Timeout: o.Timeout,
		CacheDir: o.CacheDir, NoCache: o.NoCache, Limiter: o.Limiter, Meter: o.Meter, CacheOnly: o.CacheOnly,
		Limits: llm.Limits{RPM: o.RPM, TPM: o.TPM, Concurrency: o.Concurrency},
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	switch kind {
	case KindAnthropic:
		c.KeyHeader = "x-api-key"
		if c.BaseURL == "" {
			c.BaseURL = getenv("ANTHROPIC_BASE_URL")
		}
		if c.BaseURL == "" {
			c.BaseURL = DefaultAnthropicBaseURL
		}
		if c.APIKey == "" {
			c.APIKey = getenv("ANTHROPIC_API_KEY")
		}
		return c
	}
	return c.FromEnv(getenv)
}

// NewProviderClient builds the client of a provider target.
func NewProviderClient(kind string, o OpenAIOptions) (*llm.Client, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("%s options: %w", kind, err)
	}
	return llm.New(o.ProviderClientConfig(kind))
}

// ProviderProvenance fills the parts of a Call every provider call shares.
// params are the sampling parameters the request sent, and only those: a
// provider API that takes no temperature or seed must not be recorded as
// having run with the options' (nil or empty: none).
func (o OpenAIOptions) ProviderProvenance(c *result.Call, kind, model, host string, params map[string]any, rep *llm.Reply) {
	c.Spec = kind + ":" + model
	c.Model = model
	c.Endpoint = host
	c.Params = nil
	if len(params) > 0 {
		c.Params = params
	}
	if o.Endpoint != "" {
		if c.Extra == nil {
			c.Extra = map[string]string{}
		}
		c.Extra["endpoint_name"] = o.Endpoint
	}
	if rep == nil {
		return
	}
	c.Latency += rep.Latency
	c.Retries += rep.Retries
	c.CacheHit = rep.CacheHit
}
