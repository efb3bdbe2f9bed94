package agents_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/summarizers"
)

// TestProviderProvenanceParamsAreSent: the parameters a provider call's
// provenance records are the ones its request sent. The Messages API
// request compact-eval builds has no temperature or seed (the SDK's typed
// params have neither) and /responses/compact takes none, so a run asked
// for --temperature 0 --seed 7 must not record them there: a reader would
// take a default-temperature run for a deterministic one.
func TestProviderProvenanceParamsAreSent(t *testing.T) {
	zero, seed := float32(0), 7
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake := providerfake.New()
			t.Cleanup(fake.Close)
			o := providers.Options{OpenAI: providers.OpenAIOptions{BaseURL: fake.URL + "/v1", APIKey: canary, NoCache: true,
				Temperature: &zero, Seed: &seed, MaxTokens: 300}}
			spec := providers.Spec{Kind: kind, Name: "m", Raw: kind + ":m"}
			s, err := summarizers.New(spec, o)
			if err != nil {
				t.Fatal(err)
			}
			a, err := agents.New(spec, o)
			if err != nil {
				t.Fatal(err)
			}
			sreq := summarizers.NewRequest()
			sreq.Cut, sreq.Events = 4, history[:4]
			resp, err := s.Summarize(context.Background(), sreq)
			if err != nil {
				t.Fatal(err)
			}
			d, err := a.Decide(context.Background(), full())
			if err != nil {
				t.Fatal(err)
			}
			reqs := fake.Requests()
			for i, c := range []result.Call{resp.Call, d.Call} {
				var body map[string]any
				if err := json.Unmarshal(reqs[i].Body, &body); err != nil {
					t.Fatal(err)
				}
				sent := map[string]bool{}
				for _, k := range []string{"temperature", "seed", "max_tokens", "max_output_tokens"} {
					_, sent[k] = body[k]
				}
				for k := range c.Params {
					name := k
					if k == "max_tokens" && kind == providers.KindResponses {
						name = "max_output_tokens"
					}
					if !sent[name] {
						t.Errorf("call %d (%s) records %s=%v, which its request did not send: %s", i, reqs[i].Path, k, c.Params[k], reqs[i].Body)
					}
				}
				for k, ok := range sent {
					name := k
					if k == "max_output_tokens" {
						name = "max_tokens"
					}
					if _, rec := c.Params[name]; ok && !rec {
						t.Errorf("call %d (%s) sent %s but does not record it", i, reqs[i].Path, k)
					}
				}
			}
		})
	}
}
