package agents

import (
	"fmt"

	"github.com/compact-eval/compact-eval/summarizers"
)

// New builds the agent a spec names: builtin:reference, exec:COMMAND… or
// openai:MODEL, anthropic:MODEL or openai-responses:MODEL. Specs parse with summarizers.ParseSpec; options are shared
// with summarizers.
func New(spec summarizers.Spec, opts summarizers.Options) (Agent, error) {
	switch spec.Kind {
	case summarizers.KindBuiltin:
		if spec.Name != "reference" {
			return nil, fmt.Errorf("unknown builtin agent %q (valid: reference)", spec.Name)
		}
		return Reference{}, nil
	case summarizers.KindExec:
		return NewExec(spec.Command, opts)
	case summarizers.KindOpenAI:
		return NewOpenAI(spec.Name, opts.OpenAI)
	case summarizers.KindAnthropic:
		return NewAnthropic(spec.Name, opts.OpenAI)
	case summarizers.KindResponses:
		return NewResponses(spec.Name, opts.OpenAI)
	}
	return nil, fmt.Errorf("spec %q: unknown kind %q", spec.Raw, spec.Kind)
}
