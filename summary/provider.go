package summary

import (
	"encoding/json"
	"strings"
)

// ExtProviderCompaction is the extensions member in which a provider
// summarizer keeps what the provider returned (docs/providers.md). The
// runner hands it to provider agents (agents.Context.Compaction); it never
// reaches an agent's text, and no content check reads it.
const ExtProviderCompaction = "provider_compaction"

// The values of ProviderCompaction.Provider: the spec kinds of the
// provider summarizers (docs/providers.md).
const (
	ProviderAnthropic = "anthropic"
	ProviderResponses = "openai-responses"
)

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
// compaction: its text checks skip with checks.OpaqueReason.
func Opaque(raw json.RawMessage) bool {
	pc := ProviderCompactionOf(raw)
	return pc != nil && pc.Opaque
}
