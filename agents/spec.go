package agents

import (
	"fmt"

	"github.com/compact-eval/compact-eval/providers"
)

// New builds the agent a spec names: builtin:reference, exec:COMMAND… or
// openai:MODEL, anthropic:MODEL or openai-responses:MODEL. Specs parse with providers.ParseSpec; options are shared
// with summarizers.
func New(spec providers.Spec, opts providers.Options) (Agent, error) {
	return NewSampled(spec, opts, oneSample)
}

// NewSampled is New with the sampling of an openai: agent (option orders
// drawn from a seed, majority of several samples). Other agents refuse
// more than one sample: the reference agent is deterministic, and an exec
// agent keeps the option keys and order the scenario gives.
func NewSampled(spec providers.Spec, opts providers.Options, s Sampling) (Agent, error) {
	switch spec.Kind {
	case providers.KindOpenAI:
		return NewOpenAISampled(spec.Name, opts.OpenAI, s)
	case providers.KindAnthropic:
		return NewAnthropicSampled(spec.Name, opts.OpenAI, s)
	case providers.KindResponses:
		return NewResponsesSampled(spec.Name, opts.OpenAI, s)
	}
	if s.Samples > 1 {
		return nil, fmt.Errorf("%d samples: only a model agent (openai:, anthropic:, openai-responses:) is sampled", s.Samples)
	}
	switch spec.Kind {
	case providers.KindBuiltin:
		if spec.Name != "reference" {
			return nil, fmt.Errorf("unknown builtin agent %q (valid: reference)", spec.Name)
		}
		return Reference{}, nil
	case providers.KindExec:
		return NewExec(spec.Command, opts)
	}
	if spec.Kind == providers.KindRecorded {
		return nil, fmt.Errorf("spec %q: recorded is a summarizer (the compactions kept in the scenario), not an agent", spec.Raw)
	}
	return nil, fmt.Errorf("spec %q: unknown kind %q", spec.Raw, spec.Kind)
}
