package agents_test

import (
	"fmt"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/providers"
)

// TestModelAgentRefusals pins what the three model agents refuse before
// any call, by their constructors and through a spec alike: an empty
// model, a sample count out of range and options that do not validate,
// each said with the agent's kind; a valid spec builds.
func TestModelAgentRefusals(t *testing.T) {
	ctors := map[string]func(string, providers.OpenAIOptions, agents.Sampling) (agents.Agent, error){
		"openai":           agents.NewOpenAISampled,
		"anthropic":        agents.NewAnthropicSampled,
		"openai-responses": agents.NewResponsesSampled,
	}
	one := agents.Sampling{Seed: agents.DefaultSeed, Samples: 1}
	opts := providers.OpenAIOptions{BaseURL: "http://127.0.0.1:1", APIKey: "sk-test-0123456789", NoCache: true}
	for kind, ctor := range ctors {
		for _, tc := range []struct {
			name  string
			model string
			opts  providers.OpenAIOptions
			s     agents.Sampling
			want  string
		}{
			{"empty model", " ", opts, one, kind + ": missing model name (want " + kind + ":MODEL)"},
			{"no sample", "m", opts, agents.Sampling{Samples: 0}, fmt.Sprintf("%s agent: 0 samples: want 1 to %d", kind, agents.MaxSamples)},
			{"too many samples", "m", opts, agents.Sampling{Samples: agents.MaxSamples + 1}, fmt.Sprintf("%s agent: %d samples: want 1 to %d", kind, agents.MaxSamples+1, agents.MaxSamples)},
			{"bad options", "m", providers.OpenAIOptions{MaxTokens: -1, BaseURL: opts.BaseURL, APIKey: opts.APIKey}, one, kind + " options: max tokens -1: must not be negative"},
		} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				a, err := ctor(tc.model, tc.opts, tc.s)
				if err == nil || err.Error() != tc.want {
					t.Fatalf("got %v, %v; want the error %q", a, err, tc.want)
				}
				spec, perr := providers.ParseSpec(kind + ":" + tc.model)
				if perr != nil {
					return // the spec parser refuses it first
				}
				if _, err := agents.NewSampled(spec, providers.Options{OpenAI: tc.opts}, tc.s); err == nil || err.Error() != tc.want {
					t.Errorf("through the spec: got %v; want the error %q", err, tc.want)
				}
			})
		}
		t.Run(kind+"/builds", func(t *testing.T) {
			spec, err := providers.ParseSpec(kind + ":m")
			if err != nil {
				t.Fatal(err)
			}
			for _, build := range []func() (agents.Agent, error){
				func() (agents.Agent, error) { return ctor("m", opts, agents.Sampling{Samples: agents.MaxSamples}) },
				func() (agents.Agent, error) { return agents.New(spec, providers.Options{OpenAI: opts}) },
			} {
				if a, err := build(); err != nil || a == nil {
					t.Errorf("got %v, %v; want an agent", a, err)
				}
			}
		})
	}
}
