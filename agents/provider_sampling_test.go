package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/scenarios"
)

func providerSampled(t *testing.T, kind string, s agents.Sampling) (*providerfake.Server, agents.Agent) {
	t.Helper()
	fake := providerfake.New()
	t.Cleanup(fake.Close)
	o := providers.Options{OpenAI: providers.OpenAIOptions{BaseURL: fake.URL + "/v1", APIKey: canary, NoCache: true}}
	a, err := agents.NewSampled(providers.Spec{Kind: kind, Name: "m", Raw: kind + ":m"}, o, s)
	if err != nil {
		t.Fatal(err)
	}
	return fake, a
}

// TestProviderAgentsShuffle: provider agents are model agents with the
// same position bias as openai: ones, so they show a choice probe's options
// in the seeded per-trial order, labelled A, B, C, and map the label back:
// a model that always takes the first option shown spreads its choices
// over every option, each the key that was shown first, and the scenario's
// keys never reach the prompt.
func TestProviderAgentsShuffle(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake, a := providerSampled(t, kind, agents.Sampling{Seed: 5, Samples: 1})
			opts := scenarios.Options{{Key: "proceed", Description: "Run the restart"}, {Key: "refuse", Description: "Decline: read-only"},
				{Key: "ask", Description: "Ask the user to confirm"}}
			got := map[string]int{}
			for trial := range 30 {
				req := full()
				req.Trial, req.ScenarioID = trial, "sc"
				req.Probe.Options = opts
				d, err := a.Decide(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if d.Sampling == nil || len(d.Sampling.Orders) != 1 || d.Choice != d.Sampling.Orders[0][0] {
					t.Fatalf("trial %d: choice %q, sampling %+v: want the key shown first", trial, d.Choice, d.Sampling)
				}
				got[d.Choice]++
			}
			for _, o := range opts {
				if got[o.Key] == 0 {
					t.Errorf("option %s never chosen by a first-option model over 30 trials: %v", o.Key, got)
				}
			}
			for _, r := range fake.Requests() {
				if strings.Contains(string(r.Body), "- proceed:") || !strings.Contains(string(r.Body), "- A: ") {
					t.Fatalf("the prompt shows the scenario's keys, not labels: %s", r.Body)
				}
			}
		})
	}
}

// TestProviderAgentsVote: --agent-samples applies to provider agents: three
// samples, the majority wins, the votes are recorded.
func TestProviderAgentsVote(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake, a := providerSampled(t, kind, agents.Sampling{Seed: 1, Samples: 3})
			n := 0
			fake.Answer = func(q providerfake.Question) string {
				n++
				if n == 2 {
					return q.Pick("run the migration")
				}
				return q.Pick("ask first")
			}
			d, err := a.Decide(context.Background(), full())
			if err != nil {
				t.Fatal(err)
			}
			if d.Choice != "ask" || d.Sampling == nil || d.Sampling.Votes["ask"] != 2 || d.Sampling.Votes["write"] != 1 || len(fake.Requests()) != 3 {
				t.Errorf("choice %q sampling %+v, %d requests: want ask by 2 votes to 1 in 3 requests", d.Choice, d.Sampling, len(fake.Requests()))
			}
		})
	}
}
