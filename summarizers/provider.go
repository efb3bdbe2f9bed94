package summarizers

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/tokens"
)

// Provider compaction kinds (docs/providers.md): the compaction a model
// provider ships, evaluated as a summarizer, and the agents that read it back.
const (
	// KindAnthropic is anthropic:MODEL: Anthropic's Messages API, with
	// on-demand compaction (the `compaction` parameter) as the summarizer.
	KindAnthropic = "anthropic"
	// KindResponses is openai-responses:MODEL: OpenAI's Responses API, with
	// POST /responses/compact as the summarizer.
	KindResponses = "openai-responses"
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

// ExtProviderCompaction is the extensions member in which a provider
// summarizer keeps what the provider returned (docs/providers.md). The
// runner hands it to provider agents (agents.Context.Compaction); it never
// reaches an agent's text, and no content check reads it.
const ExtProviderCompaction = "provider_compaction"

// OpaqueReason is the message of every check that needs the summary's text
// when the summary is an opaque provider compaction.
const OpaqueReason = "opaque provider compaction"

// ProviderCompaction is the value of extensions.provider_compaction.
type ProviderCompaction struct {
	// Provider is the spec kind that made it: "anthropic" or
	// "openai-responses". Only an agent of the same kind can replay it.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Opaque is true when the provider's item holds no text compact-eval
	// can read (OpenAI's encrypted compaction item).
	Opaque bool `json:"opaque,omitempty"`
	// Beta and Strategy say how compaction was asked for (Anthropic).
	Beta     string `json:"beta,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	// Block is Anthropic's compaction block without its content (the
	// content is the summary's text): encrypted_content, signature,
	// tool_changes, to be sent back verbatim.
	Block json.RawMessage `json:"block,omitempty"`
	// Output is the output list of /responses/compact, verbatim: the
	// compacted conversation to send as the start of the next input.
	Output json.RawMessage `json:"output,omitempty"`
	// Tokens is the size of the compacted context by the provider's
	// reported usage (docs/providers.md says how it is reckoned); the
	// compression check of an opaque summary uses it.
	Tokens int `json:"tokens,omitempty"`
}

// ProviderCompactionOf reads extensions.provider_compaction of a summary
// document; nil when it has none or it does not decode.
func ProviderCompactionOf(raw json.RawMessage) *ProviderCompaction {
	if len(raw) == 0 || !strings.Contains(string(raw), ExtProviderCompaction) {
		return nil
	}
	var doc struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	b, ok := doc.Extensions[ExtProviderCompaction]
	if !ok {
		return nil
	}
	var pc ProviderCompaction
	if json.Unmarshal(b, &pc) != nil || pc.Provider == "" {
		return nil
	}
	return &pc
}

// Opaque reports whether a summary document is an opaque provider
// compaction: its text checks skip with OpaqueReason.
func Opaque(raw json.RawMessage) bool {
	pc := ProviderCompactionOf(raw)
	return pc != nil && pc.Opaque
}

// CheckAgentReads refuses a summarizer whose compaction the agent cannot
// read: an opaque provider item (openai-responses:) goes only to an agent of
// the same kind. The error is one sentence, for `run` to print.
func CheckAgentReads(summarizer, agent Spec) error {
	if summarizer.Kind == KindResponses && agent.Kind != KindResponses {
		return fmt.Errorf("summarizer %s returns an opaque, encrypted compaction item that only the OpenAI Responses API can read, and agent %s cannot read it: use --agent openai-responses:MODEL", summarizer.Raw, agent.Raw)
	}
	return nil
}

// providerDoc builds the summary document of a provider compaction.
func providerDoc(cut int, text string, pc ProviderCompaction) (json.RawMessage, error) {
	ext, err := json.Marshal(pc)
	if err != nil {
		return nil, err
	}
	doc := struct {
		SchemaVersion int                        `json:"schema_version"`
		CoversThrough int                        `json:"covers_through"`
		Text          string                     `json:"text,omitempty"`
		Extensions    map[string]json.RawMessage `json:"extensions"`
	}{SchemaVersion, cut, text, map[string]json.RawMessage{ExtProviderCompaction: ext}}
	return json.Marshal(doc)
}

// ProviderClientConfig is the llm configuration of a provider target of
// kind: the options' endpoint and key when set (a config file's endpoint),
// else the provider's variables (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY,
// or OPENAI_BASE_URL and OPENAI_API_KEY), else the provider's public API.
func (o OpenAIOptions) ProviderClientConfig(kind string) llm.Config {
	c := llm.Config{
		BaseURL: o.BaseURL, APIKey: o.APIKey, MaxRetries: o.MaxRetries, Timeout: o.Timeout,
		CacheDir: o.CacheDir, NoCache: o.NoCache, Limiter: o.Limiter,
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

func setExtra(c *result.Call, k, v string) {
	if c.Extra == nil {
		c.Extra = map[string]string{}
	}
	c.Extra[k] = v
}

// errNoModel is the error of a provider spec without a model.
func errNoModel(kind string) error {
	return fmt.Errorf("%s: missing model name (want %s:MODEL)", kind, kind)
}

// textTokens counts s with the default encoding.
func textTokens(s string) int { return tokens.Default().Count(s) }

var errEmptyEvents = errors.New("no events to compact")
