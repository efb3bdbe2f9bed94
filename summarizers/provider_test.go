package summarizers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/summary"
)

const canary = "sk-canary-4f1d9c2e8b7a6d5c"

func providerEvents() []scenarios.Event {
	return []scenarios.Event{
		{Seq: 1, Role: scenarios.RoleUser, Text: "Keep the DB read-only."},
		{Seq: 2, Role: scenarios.RoleAssistant, Text: "Checking.", ToolCall: &scenarios.ToolCall{ID: "call 1", Name: "db.query", Args: map[string]any{"sql": "select 1"}}},
		{Seq: 3, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "call 1", Status: scenarios.StatusError, Text: "timeout"}},
		{Seq: 4, Role: scenarios.RoleAssistant, Text: "The query timed out."},
	}
}

func providerRequest() *summarizers.Request {
	req := summarizers.NewRequest()
	req.ScenarioID, req.Generation, req.Cut = "s", 1, 4
	req.Rules, req.Goal = "Never write to prod.", "Find the slow query."
	req.Events = providerEvents()
	return req
}

func newProvider(t *testing.T, kind string) (summarizers.Summarizer, *providerfake.Server) {
	t.Helper()
	fake := providerfake.New()
	t.Cleanup(fake.Close)
	fake.AnthropicKey, fake.OpenAIKey = canary, canary
	s, err := summarizers.New(providers.Spec{Kind: kind, Name: "m1", Raw: kind + ":m1"}, providers.Options{OpenAI: providers.OpenAIOptions{
		BaseURL: fake.URL + "/v1", APIKey: canary, CacheDir: t.TempDir(), MaxRetries: 2,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s, fake
}

// TestAnthropicRequest pins the Messages API request byte for byte: the
// headers of on-demand compaction, the key in x-api-key only, real
// tool_use and tool_result blocks (ids and names made acceptable, the
// error status as is_error), declared tools, and the compaction parameter.
func TestAnthropicRequest(t *testing.T) {
	s, fake := newProvider(t, providers.KindAnthropic)
	resp, err := s.Summarize(context.Background(), providerRequest())
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/messages" {
		t.Errorf("path %s", r.Path)
	}
	for k, want := range map[string]string{"Anthropic-Version": "2023-06-01", "Anthropic-Beta": "compact-2026-09-04", "X-Api-Key": canary, "Authorization": ""} {
		if got := r.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	want := `{"max_tokens":8192,"messages":[` +
		`{"content":[{"text":"Keep the DB read-only.","type":"text"}],"role":"user"},` +
		`{"content":[{"text":"Checking.","type":"text"},{"id":"call_1","input":{"sql":"select 1"},"name":"db_query","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"tool_use_id":"call_1","is_error":true,"content":[{"text":"[error] timeout","type":"text"}],"type":"tool_result"}],"role":"user"},` +
		`{"content":[{"text":"The query timed out.","type":"text"}],"role":"assistant"}],` +
		`"model":"m1","compaction":{"type":"summarize"},"system":[{"text":"Rules: Never write to prod.\nGoal: Find the slow query.","type":"text"}],` +
		`"tools":[{"input_schema":{"properties":{},"type":"object"},"name":"db_query"}]}`
	if diff := cmp.Diff(canonical(t, want), canonical(t, string(r.Body))); diff != "" {
		t.Errorf("body (-want +got):\n%s\nraw: %s", diff, r.Body)
	}
	// the summary: the block's text, covering the cut; the rest of the
	// block kept for the agent, the raw block in provenance
	var doc struct {
		SchemaVersion int    `json:"schema_version"`
		CoversThrough int    `json:"covers_through"`
		Text          string `json:"text"`
	}
	if err := json.Unmarshal(resp.Summary, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.CoversThrough != 4 || doc.SchemaVersion != 1 || !strings.Contains(doc.Text, "Keep the DB read-only.") {
		t.Errorf("summary %s", resp.Summary)
	}
	pc := summary.ProviderCompactionOf(resp.Summary)
	if pc == nil || pc.Opaque || pc.Provider != "anthropic" || pc.Beta != "compact-2026-09-04" || pc.Strategy != "summarize" {
		t.Fatalf("provider compaction %+v", pc)
	}
	if strings.Contains(string(pc.Block), `"content"`) || !strings.Contains(string(pc.Block), `"signature"`) {
		t.Errorf("kept block %s: want the block without its content", pc.Block)
	}
	c := resp.Call
	if c.Spec != "anthropic:m1" || c.Extra["beta"] != "compact-2026-09-04" || c.Extra["strategy"] != "summarize" ||
		!strings.Contains(c.Extra["compaction_block"], `"type":"compaction"`) || c.Usage.CompletionTokens == 0 || c.Usage.PromptTokens == 0 {
		t.Errorf("provenance %+v", c)
	}
	noKey(t, resp, nil)
}

// TestAnthropicIterative: the next generation sends the previous block back
// first and verbatim (the fake refuses a block whose signature does not
// match its content), then only the new events.
func TestAnthropicIterative(t *testing.T) {
	s, fake := newProvider(t, providers.KindAnthropic)
	first, err := s.Summarize(context.Background(), providerRequest())
	if err != nil {
		t.Fatal(err)
	}
	req := providerRequest()
	req.Generation, req.Cut, req.PreviousSummary = 2, 6, first.Summary
	req.Events = []scenarios.Event{{Seq: 5, Role: scenarios.RoleUser, Text: "Now check the index."}, {Seq: 6, Role: scenarios.RoleAssistant, Text: "Index is fine."}}
	if _, err := s.Summarize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(fake.Requests()[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 3 || body.Messages[0].Role != "assistant" || !strings.Contains(string(body.Messages[0].Content[0]), `"type":"compaction"`) {
		t.Fatalf("messages %s", fake.Requests()[1].Body)
	}
	// a tampered block is refused by the API: the error is the provider's
	pc := summary.ProviderCompactionOf(first.Summary)
	tampered := strings.Replace(string(first.Summary), "Keep the DB read-only.", "Writes are fine.", 1)
	if tampered == string(first.Summary) || pc == nil {
		t.Fatal("could not tamper")
	}
	req.PreviousSummary = json.RawMessage(tampered)
	if _, err := s.Summarize(context.Background(), req); err == nil || !strings.Contains(err.Error(), "invalid signature") {
		t.Errorf("tampered block: %v, want the API's invalid signature error", err)
	}
}

// TestResponsesRequest pins the /responses/compact request byte for byte and
// checks that the opaque output is kept verbatim, with no text.
func TestResponsesRequest(t *testing.T) {
	s, fake := newProvider(t, providers.KindResponses)
	resp, err := s.Summarize(context.Background(), providerRequest())
	if err != nil {
		t.Fatal(err)
	}
	r := fake.Requests()[0]
	if r.Path != "/v1/responses/compact" || r.Header.Get("Authorization") != "Bearer "+canary {
		t.Errorf("path %s, authorization %q", r.Path, r.Header.Get("Authorization"))
	}
	want := `{"model":"m1","input":[` +
		`{"type":"message","role":"user","content":"Keep the DB read-only."},` +
		`{"type":"message","role":"assistant","content":"Checking."},` +
		`{"type":"function_call","call_id":"call_1","name":"db_query","arguments":"{\"sql\":\"select 1\"}"},` +
		`{"type":"function_call_output","call_id":"call_1","output":"[error] timeout"},` +
		`{"type":"message","role":"assistant","content":"The query timed out."}],` +
		`"instructions":"Rules: Never write to prod.\nGoal: Find the slow query."}`
	if string(r.Body) != want {
		t.Errorf("body\n got %s\nwant %s", r.Body, want)
	}
	pc := summary.ProviderCompactionOf(resp.Summary)
	if pc == nil || !pc.Opaque || pc.Provider != "openai-responses" || pc.Tokens <= 0 {
		t.Fatalf("provider compaction %+v", pc)
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(resp.Summary, &top)
	if _, hasText := top["text"]; !summary.Opaque(resp.Summary) || hasText {
		t.Errorf("summary %s: want an opaque document with no text", resp.Summary)
	}
	if !strings.Contains(string(pc.Output), `"type":"compaction"`) || !strings.Contains(string(pc.Output), `"encrypted_content":"gAAAA`) {
		t.Errorf("output %s: want the compaction item verbatim", pc.Output)
	}
	if resp.Call.Spec != "openai-responses:m1" || resp.Call.Extra["endpoint_path"] != "/responses/compact" || resp.Call.Usage.CompletionTokens == 0 {
		t.Errorf("provenance %+v", resp.Call)
	}
	noKey(t, resp, nil)
}

// TestProviderErrors: 429 and 529 are retried (Retry-After honoured), a 400
// is not and carries the provider's message, a wrong key is a 401 whose
// error never shows the key; a reply without a compaction is an error.
func TestProviderErrors(t *testing.T) {
	for _, kind := range []string{providers.KindAnthropic, providers.KindResponses} {
		t.Run(kind, func(t *testing.T) {
			s, fake := newProvider(t, kind)
			fake.FailNext(providerfake.Failure{Status: 429, RetryAfter: "0"}, providerfake.Failure{Status: 529, RetryAfter: "0"})
			resp, err := s.Summarize(context.Background(), providerRequest())
			if err != nil {
				t.Fatalf("after 429 and 529: %v", err)
			}
			if resp.Call.Retries != 2 || fake.Count("") != 3 {
				t.Errorf("retries %d, requests %d; want 2 and 3", resp.Call.Retries, fake.Count(""))
			}
			fake.FailNext(providerfake.Failure{Status: 400, Message: "messages: bad shape"})
			req := providerRequest()
			req.Trial = 1 // not in the cache
			n := fake.Count("")
			resp, err = s.Summarize(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), "messages: bad shape") || fake.Count("")-n != 1 {
				t.Errorf("400: %v after %d requests; want the provider's message, not retried", err, fake.Count("")-n)
			}
			noKey(t, resp, err)
			fake.AnthropicKey, fake.OpenAIKey = "other", "other"
			req.Trial = 2
			resp, err = s.Summarize(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), "401") {
				t.Errorf("wrong key: %v, want a 401", err)
			}
			noKey(t, resp, err)
		})
	}
}

// TestProviderNoCompaction: a reply that holds no compaction (a block with no
// summary, an output with no compaction item) is an error, not a summary.
func TestProviderNoCompaction(t *testing.T) {
	s, fake := newProvider(t, providers.KindAnthropic)
	fake.Summarize = func([]string) string { return " " }
	if _, err := s.Summarize(context.Background(), providerRequest()); err == nil || !strings.Contains(err.Error(), "no summary") {
		t.Errorf("empty block: %v", err)
	}
	r, fake := newProvider(t, providers.KindResponses)
	fake.NoCompactionItem = true
	if _, err := r.Summarize(context.Background(), providerRequest()); err == nil || !strings.Contains(err.Error(), "no compaction item") {
		t.Errorf("no compaction item: %v", err)
	}
	// an unusable reply is not cached: the next call asks again
	fake.NoCompactionItem = false
	if _, err := r.Summarize(context.Background(), providerRequest()); err != nil || fake.Count("") != 2 {
		t.Errorf("after an unusable reply: %v, %d requests", err, fake.Count(""))
	}
}

func noKey(t *testing.T, resp *summarizers.Response, err error) {
	t.Helper()
	b, _ := json.Marshal(resp)
	for what, s := range map[string]string{"response": string(b), "error": fmt.Sprint(err)} {
		if strings.Contains(s, canary) {
			t.Errorf("the key is in the %s: %s", what, s)
		}
	}
	if resp != nil {
		b, _ := json.Marshal(resp.Call)
		if strings.Contains(string(b), canary) {
			t.Errorf("the key is in the provenance")
		}
	}
	_ = http.StatusOK
}

// canonical re-encodes JSON with sorted keys, so that two bodies compare by
// content (the SDK orders a block's fields its own way).
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}
