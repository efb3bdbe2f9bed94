package agents_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/result"
)

// recallRequest is openaiRequest's probe on the recall arm: the summary
// covers through 2 and cites #1; #3 and #4 are in the context.
func recallRequest(lim agents.RecallLimits) *agents.Request {
	r := openaiRequest(agents.ArmCompacted)
	all := r.Context.Events
	r.Arm = agents.ArmRecall
	r.Context.Summary = json.RawMessage(`{"schema_version":1,"covers_through":2,"decisions":[{"text":"a rule on changes","source_seq":1}]}`)
	r.Context.Events = all[2:]
	x := agents.NewRecallIndex(all, func(s string) int { return len(s) / 4 })
	r.Recall = x.Store(r.Context.Summary, 2).Session(lim)
	return r
}

func toolCall(id, args string) openai.ToolCall {
	return openai.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: agents.RecallToolName, Arguments: args}}
}

// TestOpenAIRecallTool: on the recall arm the model is offered the recall
// tool in the chat-completions wire format, its calls are run and their
// results fed back as tool messages, and the answer comes after; an
// unchanged rerun is answered from the cache.
func TestOpenAIRecallTool(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply{ToolCalls: []openai.ToolCall{toolCall("call_1", `{"seqs":[1]}`)}},
		llmtest.Reply{ToolCalls: []openai.ToolCall{toolCall("call_2", `{"query":"dns lookup db"}`), {ID: "call_3", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "run_sql", Arguments: `{}`}}}},
		llmtest.Text(`{"choice":"refuse","reason":"#1 says the investigation is read-only"}`),
	)
	cache := t.TempDir()
	agent := newAgent(t, srv, func(o *providers.OpenAIOptions) { o.CacheDir = cache })
	d, err := agent.Decide(context.Background(), recallRequest(agents.RecallLimits{}))
	if err != nil {
		t.Fatal(err)
	}
	if d.Choice != "refuse" || srv.Count() != 3 {
		t.Fatalf("choice %q after %d requests, want refuse after 3", d.Choice, srv.Count())
	}
	want := []result.RecallCall{
		{Kind: result.RecallBySeq, Seqs: []int{1}, Returned: []int{1}, Tokens: d.RecallCalls[0].Tokens},
		{Kind: result.RecallBySearch, Query: "dns lookup db", Returned: []int{2}, Tokens: d.RecallCalls[1].Tokens},
	}
	if diff := cmp.Diff(want, d.RecallCalls); diff != "" || d.RecallCalls[0].Tokens == 0 {
		t.Errorf("recall calls (-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	// the wire format: the tool declared with its schema, tool_choice auto
	var body struct {
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice string `json:"tool_choice"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	last := body.Tools[len(body.Tools)-1]
	if body.ToolChoice != "auto" || last.Type != "function" || last.Function.Name != "recall" || string(last.Function.Parameters) != string(agents.RecallToolParameters) {
		t.Errorf("first request: tool_choice %q, last tool %+v", body.ToolChoice, last)
	}
	// the results fed back: the assistant's calls, then one tool message per call
	got := msgs(reqs[2].Chat.Messages)
	n := len(got)
	if n < 5 {
		t.Fatalf("third request has %d messages", n)
	}
	tail := got[n-5:]
	if tail[0].Role != "assistant" || !cmp.Equal(tail[0].Calls, []string{`call_1 recall {"seqs":[1]}`}) ||
		tail[1].Role != "tool" || tail[1].CallID != "call_1" || !strings.Contains(tail[1].Content, "[#1 user] READ-ONLY investigation.") ||
		tail[2].Role != "assistant" || len(tail[2].Calls) != 2 ||
		tail[3].CallID != "call_2" || !strings.Contains(tail[3].Content, "[#2 assistant call c1] dns_lookup") ||
		tail[4].CallID != "call_3" || !strings.Contains(tail[4].Content, "only the recall tool") {
		t.Errorf("the conversation's tail:\n%+v", tail)
	}
	// an unchanged rerun sends nothing
	again := newAgent(t, srv, func(o *providers.OpenAIOptions) { o.CacheDir = cache })
	d2, err := again.Decide(context.Background(), recallRequest(agents.RecallLimits{}))
	if err != nil || srv.Count() != 3 || d2.Choice != "refuse" || !d2.Call.CacheHit || !cmp.Equal(d2.RecallCalls, d.RecallCalls) {
		t.Errorf("rerun: %d requests (want 3), %+v, %v", srv.Count(), d2, err)
	}
}

// TestOpenAIRecallBudget: once the budget is spent the model is asked with
// tool_choice none and must answer.
func TestOpenAIRecallBudget(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply{ToolCalls: []openai.ToolCall{toolCall("call_1", `{"query":"read-only"}`), toolCall("call_2", `{"seqs":[2]}`)}},
		llmtest.Text(`{"choice":"refuse","reason":"read-only"}`),
	)
	d, err := newAgent(t, srv, nil).Decide(context.Background(), recallRequest(agents.RecallLimits{Calls: 1}))
	if err != nil || d.Choice != "refuse" || srv.Count() != 2 {
		t.Fatalf("%+v, %v after %d requests", d, err, srv.Count())
	}
	if c := srv.Requests()[1].Chat.ToolChoice; c != "none" {
		t.Errorf("tool_choice after the budget: %v, want none", c)
	}
	if len(d.RecallCalls) != 2 || d.RecallCalls[1].Error != agents.ErrRecallBudget.Error() {
		t.Errorf("calls %+v: want the second refused for the budget", d.RecallCalls)
	}
	if c := msgs(srv.Requests()[1].Chat.Messages); !strings.Contains(c[len(c)-1].Content, "recall budget of this probe is spent") {
		t.Errorf("the refused call's tool message: %q", c[len(c)-1].Content)
	}
}

// TestRecallFreeText: a free-text probe on the recall arm gets the recall
// tool as well, with every model API, and its answer is read from the
// final reply ({"answer", "reason"}).
func TestRecallFreeText(t *testing.T) {
	freeText := func(r *agents.Request) *agents.Request {
		r.Kind = agents.KindAnswer
		r.Probe.Options, r.Requires = nil, nil
		r.Probe.Question = "What is the rule of this session?"
		return r
	}
	srv := llmtest.New(t,
		llmtest.Reply{ToolCalls: []openai.ToolCall{toolCall("call_1", `{"seqs":[1]}`)}},
		llmtest.Text(`{"answer":"Read-only: nothing may change.","reason":"#1"}`),
	)
	d, err := newAgent(t, srv, nil).Decide(context.Background(), freeText(recallRequest(agents.RecallLimits{})))
	if err != nil || d.Answer != "Read-only: nothing may change." || len(d.RecallCalls) != 1 || srv.Count() != 2 {
		t.Fatalf("openai: %+v, %v after %d requests", d, err, srv.Count())
	}
	if !strings.Contains(string(srv.Requests()[1].Body), "READ-ONLY investigation.") {
		t.Error("openai: the recalled event is not in the second request")
	}
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		fake, _, a := setup(t, kind)
		fake.Call = func(q providerfake.Question) []providerfake.ToolCall {
			if !q.FreeText {
				t.Errorf("%s: the question is not asked for words", kind)
			}
			if strings.Contains(strings.Join(q.Context, "\n"), "recall calls left") {
				return nil
			}
			return []providerfake.ToolCall{{Name: agents.RecallToolName, Arguments: `{"seqs":[1]}`}}
		}
		fake.Answer = func(q providerfake.Question) string {
			if strings.Contains(strings.Join(q.Context, "\n"), "Keep the DB read-only.") {
				return "read-only"
			}
			return "cannot tell"
		}
		req := freeText(providerRecall(agents.RecallLimits{}))
		d, err := a.Decide(context.Background(), req)
		if err != nil || d.Answer != "read-only" || len(d.RecallCalls) != 1 || len(fake.Requests()) != 2 {
			t.Errorf("%s: %+v, %v after %d requests", kind, d, err, len(fake.Requests()))
		}
	}
}
