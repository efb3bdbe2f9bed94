package agents

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// oneSample is the sampling of an agent built without one: the default
// seed, one sample.
var oneSample = Sampling{Seed: DefaultSeed, Samples: 1}

// modelAgent is what every model agent (openai:, anthropic:,
// openai-responses:) holds: its model, its endpoint options, the client of
// its provider and how it samples a choice probe.
type modelAgent struct {
	model    string
	opts     providers.OpenAIOptions
	client   *llm.Client
	sampling Sampling
}

// newModelAgent is the one constructor path of the model agents: it
// refuses an empty model name and a sample count out of range, and builds
// the client of kind's provider from opts.
func newModelAgent(kind, model string, opts providers.OpenAIOptions, s Sampling) (modelAgent, error) {
	if strings.TrimSpace(model) == "" {
		return modelAgent{}, fmt.Errorf("%s: missing model name (want %s:MODEL)", kind, kind)
	}
	if s.Samples < 1 || s.Samples > MaxSamples {
		return modelAgent{}, fmt.Errorf("%s agent: %d samples: want 1 to %d", kind, s.Samples, MaxSamples)
	}
	opts = opts.WithMaxTokens(providers.DefaultAgentMaxTokens)
	c, err := providers.NewProviderClient(kind, opts)
	if err != nil {
		return modelAgent{}, err
	}
	return modelAgent{model: model, opts: opts, client: c, sampling: s}, nil
}
