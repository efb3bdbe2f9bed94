package summarizers

import "errors"

// OpenAIOptions configure openai: summarizers. PLACEHOLDER until the openai
// issue lands.
type OpenAIOptions struct{}

// NewOpenAI returns a summarizer backed by an OpenAI-compatible endpoint.
func NewOpenAI(model string, opts OpenAIOptions) (Summarizer, error) {
	return nil, errors.New("openai summarizers are not built yet")
}
