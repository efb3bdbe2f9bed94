package summarizers

import (
	"fmt"

	"github.com/compact-eval/compact-eval/providers"
)

// New builds the summarizer a spec names.
func New(spec providers.Spec, opts providers.Options) (Summarizer, error) {
	switch spec.Kind {
	case providers.KindBuiltin:
		return NewBuiltin(spec.Name)
	case providers.KindExec:
		return NewExec(spec.Command, opts)
	case providers.KindOpenAI:
		return NewOpenAI(spec.Name, opts.OpenAI)
	case providers.KindAnthropic:
		return NewAnthropic(spec.Name, opts.OpenAI)
	case providers.KindResponses:
		return NewResponses(spec.Name, opts.OpenAI)
	case providers.KindRecorded:
		return NewRecorded(), nil
	}
	return nil, fmt.Errorf("spec %q: unknown kind %q", spec.Raw, spec.Kind)
}
