package agents_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/result"
)

// providerRecall is the recall arm's request after a text summary through
// seq 4 that cites #1 but says nothing of what #1 holds; #5–#7 are in the
// context.
func providerRecall(lim agents.RecallLimits) *agents.Request {
	req := full()
	req.Arm = agents.ArmRecall
	req.Context.Summary = json.RawMessage(`{"schema_version":1,"covers_through":4,"decisions":[{"text":"a rule on the DB","source_seq":1}]}`)
	req.Context.Events = history[4:]
	x := agents.NewRecallIndex(history, func(s string) int { return len(s) / 4 })
	req.Recall = x.Store(req.Context.Summary, 4).Session(lim)
	return req
}

// recallScript is a model that reloads #1, then searches and calls a
// history tool in one reply, then answers from what it read: "ask first"
// when a tool result holds #1's rule, else "run the migration".
func recallScript(t *testing.T, fake *providerfake.Server) {
	fake.Call = func(q providerfake.Question) []providerfake.ToolCall {
		if !slices.Contains(q.Tools, agents.RecallToolName) || !slices.Contains(q.Tools, "db_query") {
			t.Errorf("tools offered %v, want the history's db_query and recall", q.Tools)
		}
		switch results := strings.Count(strings.Join(q.Context, "\n"), "recall calls left"); results {
		case 0:
			return []providerfake.ToolCall{{Name: agents.RecallToolName, Arguments: `{"seqs":[1]}`}}
		case 1:
			return []providerfake.ToolCall{{Name: agents.RecallToolName, Arguments: `{"query":"query select rows"}`}, {Name: "db_query", Arguments: `{"sql":"select 2"}`}}
		}
		return nil
	}
	fake.Answer = func(q providerfake.Question) string {
		if strings.Contains(strings.Join(q.Context, "\n"), "[#1 user] Keep the DB read-only.") {
			return q.Pick("ask first")
		}
		return q.Pick("run the migration")
	}
}

// TestProviderRecallTool: anthropic: and openai-responses: agents are
// offered the recall tool in their API's own format (a tool with an
// input_schema and tool_use/tool_result blocks; a function tool and
// function_call/function_call_output items), its calls are run, the
// results fed back, and the answer follows from what was reloaded; a
// call to a history tool is refused in a result; an unchanged rerun is
// answered from the cache.
func TestProviderRecallTool(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake := providerfake.New()
			t.Cleanup(fake.Close)
			fake.AnthropicKey, fake.OpenAIKey = canary, canary
			recallScript(t, fake)
			cache := t.TempDir()
			newAgent := func() agents.Agent {
				o := providers.Options{OpenAI: providers.OpenAIOptions{BaseURL: fake.URL + "/v1", APIKey: canary, CacheDir: cache}}
				a, err := agents.New(providers.Spec{Kind: kind, Name: "m", Raw: kind + ":m"}, o)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := a.(agents.RecallUser); !ok {
					t.Fatalf("%s is not a RecallUser", kind)
				}
				return a
			}
			d, err := newAgent().Decide(context.Background(), providerRecall(agents.RecallLimits{}))
			if err != nil {
				t.Fatal(err)
			}
			reqs := fake.Requests()
			if d.Choice != "ask" || len(reqs) != 3 {
				t.Fatalf("choice %q after %d requests, want ask after 3", d.Choice, len(reqs))
			}
			want := []result.RecallCall{
				{Kind: result.RecallBySeq, Seqs: []int{1}, Returned: []int{1}},
				{Kind: result.RecallBySearch, Query: "query select rows"},
			}
			got := d.RecallCalls
			if len(got) == 2 {
				want[0].Tokens, want[1].Tokens, want[1].Returned = got[0].Tokens, got[1].Tokens, got[1].Returned
			}
			if diff := cmp.Diff(want, got); diff != "" || got[0].Tokens == 0 || len(got[1].Returned) == 0 {
				t.Errorf("recall calls (-want +got):\n%s", diff)
			}
			first, last := string(reqs[0].Body), string(reqs[2].Body)
			switch kind {
			case providers.KindAnthropic:
				for _, w := range []string{`"type":"object","additionalProperties":false},"name":"recall"`, `"input_schema":{"properties":{"seqs":`, `"tool_choice":{"type":"auto"}`} {
					if !strings.Contains(first, w) {
						t.Errorf("first request lacks %s: %s", w, first)
					}
				}
				for _, w := range []string{`"type":"tool_use"`, `"type":"tool_result"`, `"is_error":true`, `only the recall tool`} {
					if !strings.Contains(last, w) {
						t.Errorf("third request lacks %s: %s", w, last)
					}
				}
			case providers.KindResponses:
				for _, w := range []string{`{"type":"function","name":"recall"`, `"tool_choice":"auto"`} {
					if !strings.Contains(first, w) {
						t.Errorf("first request lacks %s: %s", w, first)
					}
				}
				for _, w := range []string{`"type":"function_call"`, `"type":"function_call_output"`, `only the recall tool`} {
					if !strings.Contains(last, w) {
						t.Errorf("third request lacks %s: %s", w, last)
					}
				}
			}
			for _, r := range reqs {
				if strings.Contains(string(r.Body), canary) {
					t.Error("the key is in a request body")
				}
			}
			d2, err := newAgent().Decide(context.Background(), providerRecall(agents.RecallLimits{}))
			if err != nil || len(fake.Requests()) != 3 || d2.Choice != "ask" || !d2.Call.CacheHit || !cmp.Equal(d2.RecallCalls, d.RecallCalls) {
				t.Errorf("rerun: %d requests (want 3), %+v, %v", len(fake.Requests()), d2, err)
			}
		})
	}
}

// TestProviderRecallBudget: once the budget is spent the model is asked
// with tool_choice none, the refused call's result says so, and the
// answer comes from what the one call returned.
func TestProviderRecallBudget(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			fake, _, a := setup(t, kind)
			fake.Call = func(q providerfake.Question) []providerfake.ToolCall {
				return []providerfake.ToolCall{{Name: agents.RecallToolName, Arguments: `{"query":"select"}`}, {Name: agents.RecallToolName, Arguments: `{"seqs":[1]}`}}
			}
			fake.Answer = func(q providerfake.Question) string { return q.Pick("ask first") }
			d, err := a.Decide(context.Background(), providerRecall(agents.RecallLimits{Calls: 1}))
			reqs := fake.Requests()
			if err != nil || d.Choice != "ask" || len(reqs) != 2 {
				t.Fatalf("%+v, %v after %d requests", d, err, len(reqs))
			}
			second := string(reqs[1].Body)
			if !strings.Contains(second, `"tool_choice":{"type":"none"}`) && !strings.Contains(second, `"tool_choice":"none"`) {
				t.Errorf("tool_choice after the budget: %s", second)
			}
			if !strings.Contains(second, "recall budget of this probe is spent") {
				t.Errorf("the refused call's result is not in the second request: %s", second)
			}
			if len(d.RecallCalls) != 2 || d.RecallCalls[1].Error != agents.ErrRecallBudget.Error() {
				t.Errorf("calls %+v: want the second refused for the budget", d.RecallCalls)
			}
		})
	}
}

// TestProviderRecallBadChoice: a final reply whose choice is not an
// option is an error of that probe (no correction turn on the recall
// arm), named once as the agent's.
func TestProviderRecallBadChoice(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		fake, _, a := setup(t, kind)
		fake.Answer = func(providerfake.Question) string { return "perhaps" }
		_, err := a.Decide(context.Background(), providerRecall(agents.RecallLimits{}))
		if err == nil || !strings.Contains(err.Error(), kind+" agent m") || strings.Count(err.Error(), "agent m") != 1 {
			t.Errorf("%s: %v, want one error naming the agent", kind, err)
		}
	}
}
