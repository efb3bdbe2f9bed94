package agents

import (
	"errors"

	"github.com/compact-eval/compact-eval/summarizers"
)

// NewOpenAI returns an agent backed by an OpenAI-compatible endpoint.
// PLACEHOLDER until the openai issue lands.
func NewOpenAI(model string, opts summarizers.OpenAIOptions) (Agent, error) {
	return nil, errors.New("openai agents are not built yet")
}
