package summarizers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

const fakeKey = "sk-test-DONOTLEAK-1234567890"

func sumRequest() *summarizers.Request {
	r := summarizers.NewRequest()
	r.ScenarioID = "readonly"
	r.Generation = 1
	r.Cut = 4
	r.Goal = "Diagnose the db failure"
	r.Rules = "You are on call."
	r.Events = []scenarios.Event{
		{Seq: 1, Role: scenarios.RoleUser, Text: "This investigation is READ-ONLY."},
		{Seq: 2, Role: scenarios.RoleAssistant, Text: "Starting with DNS."},
		{Seq: 3, Role: scenarios.RoleAssistant, ToolCall: &scenarios.ToolCall{ID: "c1", Name: "dns_lookup", Args: map[string]any{"host": "db"}}},
		{Seq: 4, Role: scenarios.RoleTool, ToolResult: &scenarios.ToolResult{CallID: "c1", Status: "ok", Text: "db -> 10.0.3.7"}},
	}
	return r
}

// strictReply is what a model answering in json_schema mode writes: every
// property present, optional ones null.
const strictReply = `{"schema_version":1,"covers_through":4,"goal":"Diagnose the db failure",
"constraints":[{"text":"read-only","source_seq":1}],"decisions":null,"verified":[{"claim":"db resolves to 10.0.3.7","source_seq":4}],
"hypotheses":null,"pending":null,"artifacts":null,"corrections":null,"errors":null,"next_steps":null,"text":null}`

const cleanSummary = `{"constraints":[{"source_seq":1,"text":"read-only"}],"covers_through":4,"goal":"Diagnose the db failure","schema_version":1,"verified":[{"claim":"db resolves to 10.0.3.7","source_seq":4}]}`

func newSummarizer(t *testing.T, srv *llmtest.Server, mod func(*providers.OpenAIOptions)) summarizers.Summarizer {
	t.Helper()
	llm.ForgetOutputModes()
	opts := providers.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: fakeKey, CacheDir: t.TempDir(), Getenv: func(string) string { return "" }}
	if mod != nil {
		mod(&opts)
	}
	s, err := summarizers.NewOpenAI("test-model", opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestOpenAISummarizerStructured(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: strictReply, PromptTokens: 120, CompletionTokens: 40})
	temp, seed := float32(0), 42
	s := newSummarizer(t, srv, func(o *providers.OpenAIOptions) {
		o.Temperature, o.Seed, o.MaxTokens, o.Endpoint = &temp, &seed, 800, "local"
	})
	resp, err := s.Summarize(context.Background(), sumRequest())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cleanSummary, compact(t, resp.Summary)); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	digest := sha256.Sum256([]byte(summarizers.DefaultPrompt()))
	want := result.Call{
		Spec: "openai:test-model", Model: "test-model", Endpoint: strings.TrimPrefix(srv.URL, "http://"),
		Params:       map[string]any{"temperature": float32(0), "seed": 42, "max_tokens": 800},
		PromptDigest: "sha256:" + hex.EncodeToString(digest[:]), OutputMode: "json_schema",
		Usage: result.Usage{PromptTokens: 120, CompletionTokens: 40},
		Extra: map[string]string{"endpoint_name": "local"},
	}
	if diff := cmp.Diff(want, resp.Call, cmpopts.IgnoreFields(result.Call{}, "Latency")); diff != "" {
		t.Errorf("call (-want +got):\n%s", diff)
	}
	if srv.Count() != 1 {
		t.Fatalf("requests = %d, want 1", srv.Count())
	}
	got := srv.Requests()[0]
	var body map[string]any
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatal(err)
	}
	rf, _ := body["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["strict"] != true {
		t.Errorf("response_format = %v, want strict json_schema", rf)
	}
	for _, k := range []string{"temperature", "seed", "max_tokens"} {
		if _, ok := body[k]; !ok {
			t.Errorf("request body lacks %q (temperature 0 must be sent)", k)
		}
	}
	user := strings.Join(got.Messages("user"), "\n")
	for _, w := range []string{"[#1 user] This investigation is READ-ONLY.", "[#3 assistant call c1] dns_lookup(", "[#4 tool c1] db -> 10.0.3.7", `"covers_through": 4`} {
		if !strings.Contains(user, w) {
			t.Errorf("prompt lacks %q:\n%s", w, user)
		}
	}
	if len(got.Messages("system")) != 1 {
		t.Errorf("system messages = %d, want 1", len(got.Messages("system")))
	}
}

func TestOpenAISummarizerFallback(t *testing.T) {
	const objectReply = `{"schema_version":1,"covers_through":4,"text":"read-only investigation"}`
	tests := []struct {
		name     string
		reject   []string
		replies  []llmtest.Reply
		mode     string
		fallback string
		requests int
		want     string
	}{
		{name: "json_schema refused, json_object works", reject: []string{"json_schema"},
			replies: []llmtest.Reply{llmtest.Text(objectReply)}, mode: "json_object", fallback: "json_schema", requests: 2, want: objectReply},
		{name: "both refused, text parsed for the object", reject: []string{"json_schema", "json_object"},
			replies: []llmtest.Reply{llmtest.Text("Sure!\n```json\n" + objectReply + "\n```\nHope it helps {not json}")},
			mode:    "text", fallback: "json_schema,json_object", requests: 3, want: objectReply},
		{name: "json_object nulls are kept for the checks to judge", reject: []string{"json_schema"},
			replies: []llmtest.Reply{llmtest.Text(`{"schema_version":1,"covers_through":4,"goal":null}`)},
			mode:    "json_object", fallback: "json_schema", requests: 2, want: `{"schema_version":1,"covers_through":4,"goal":null}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			srv.RejectFormats(tc.reject...)
			s := newSummarizer(t, srv, nil)
			resp, err := s.Summarize(context.Background(), sumRequest())
			if err != nil {
				t.Fatal(err)
			}
			got := []any{resp.Call.OutputMode, resp.Call.Extra["fallback_from"], srv.Count(), compact(t, resp.Summary)}
			want := []any{tc.mode, tc.fallback, tc.requests, compact(t, []byte(tc.want))}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(mode, fallback, requests, summary) (-want +got):\n%s", diff)
			}
			// The working mode is remembered: the next call starts there.
			srv.Push(tc.replies...)
			r2 := sumRequest()
			r2.Generation = 2
			resp, err = s.Summarize(context.Background(), r2)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Call.OutputMode != tc.mode || srv.Count() != tc.requests+1 {
				t.Errorf("second call: mode %q, requests %d; want %q, %d", resp.Call.OutputMode, srv.Count(), tc.mode, tc.requests+1)
			}
		})
	}
}

func TestOpenAISummarizerCache(t *testing.T) {
	t.Run("second identical run makes zero requests", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text(strictReply))
		dir := t.TempDir()
		var calls []result.Call
		for range 2 {
			s := newSummarizer(t, srv, func(o *providers.OpenAIOptions) { o.CacheDir = dir })
			resp, err := s.Summarize(context.Background(), sumRequest())
			if err != nil {
				t.Fatal(err)
			}
			calls = append(calls, resp.Call)
		}
		if srv.Count() != 1 || calls[0].CacheHit || !calls[1].CacheHit {
			t.Errorf("requests = %d, hits = %v, %v; want 1, false, true", srv.Count(), calls[0].CacheHit, calls[1].CacheHit)
		}
	})
	t.Run("second run after a fallback makes zero requests", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text(`{"schema_version":1,"covers_through":4}`))
		srv.RejectFormats("json_schema")
		dir := t.TempDir()
		for range 2 {
			// newSummarizer forgets remembered modes, as a new process.
			s := newSummarizer(t, srv, func(o *providers.OpenAIOptions) { o.CacheDir = dir })
			resp, err := s.Summarize(context.Background(), sumRequest())
			if err != nil || resp.Call.OutputMode != "json_object" {
				t.Fatalf("err = %v, mode = %q", err, resp.Call.OutputMode)
			}
		}
		if srv.Count() != 2 {
			t.Errorf("requests = %d, want 2 (refusal + answer, then none)", srv.Count())
		}
	})
	t.Run("trials are independent", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text(strictReply), llmtest.Text(strictReply))
		s := newSummarizer(t, srv, nil)
		for trial := range 2 {
			r := sumRequest()
			r.Trial = trial
			if _, err := s.Summarize(context.Background(), r); err != nil {
				t.Fatal(err)
			}
		}
		if srv.Count() != 2 {
			t.Errorf("requests = %d, want 2", srv.Count())
		}
	})
}

func TestOpenAISummarizerErrors(t *testing.T) {
	tests := []struct {
		name     string
		reject   []string
		replies  []llmtest.Reply
		mod      func(*providers.OpenAIOptions)
		requests int
		retries  int
		errHas   string
	}{
		{name: "non-JSON content in json_object mode", reject: []string{"json_schema"},
			replies: []llmtest.Reply{llmtest.Text("I cannot summarize this.")}, requests: 2, errHas: "no JSON object"},
		{name: "array instead of object", replies: []llmtest.Reply{llmtest.Text(`[1,2]`)}, requests: 1, errHas: "no JSON object"},
		{name: "empty content is retried like a 5xx", replies: []llmtest.Reply{llmtest.Text(""), llmtest.Text(" ")},
			mod: func(o *providers.OpenAIOptions) { o.MaxRetries = 1 }, requests: 2, retries: 1, errHas: "status 200: the reply's message is empty"},
		{name: "no choices is retried like a 5xx", replies: []llmtest.Reply{{Body: `{"choices": []}`}, {Body: `{"choices": []}`}},
			mod: func(o *providers.OpenAIOptions) { o.MaxRetries = 1 }, requests: 2, retries: 1, errHas: "status 200: the reply has no choices"},
		{name: "400 that is not about the format is not a fallback", replies: []llmtest.Reply{llmtest.Status(400, "context length exceeded")},
			requests: 1, errHas: "status 400"},
		{name: "500s exhaust the retries", replies: []llmtest.Reply{llmtest.Status(500, "a"), llmtest.Status(500, "b")},
			mod: func(o *providers.OpenAIOptions) { o.MaxRetries = 1 }, requests: 2, retries: 1, errHas: "status 500"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			srv.RejectFormats(tc.reject...)
			s := newSummarizer(t, srv, tc.mod)
			resp, err := s.Summarize(context.Background(), sumRequest())
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.errHas)
			}
			if srv.Count() != tc.requests || resp.Call.Retries != tc.retries {
				t.Errorf("requests = %d, retries = %d; want %d, %d", srv.Count(), resp.Call.Retries, tc.requests, tc.retries)
			}
			if strings.Contains(err.Error(), fakeKey) {
				t.Errorf("error holds the key: %v", err)
			}
		})
	}
	t.Run("an unusable reply is not cached", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("garbage"), llmtest.Text(strictReply))
		s := newSummarizer(t, srv, nil)
		if _, err := s.Summarize(context.Background(), sumRequest()); err == nil {
			t.Fatal("want an error")
		}
		resp, err := s.Summarize(context.Background(), sumRequest())
		if err != nil || resp.Call.CacheHit || srv.Count() != 2 {
			t.Errorf("err = %v, hit = %v, requests = %d", err, resp.Call.CacheHit, srv.Count())
		}
	})
	t.Run("429 with Retry-After then success records the retry", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.TooMany("0"), llmtest.Text(strictReply))
		s := newSummarizer(t, srv, nil)
		resp, err := s.Summarize(context.Background(), sumRequest())
		if err != nil || resp.Call.Retries != 1 || srv.Count() != 2 {
			t.Errorf("err = %v, retries = %d, requests = %d", err, resp.Call.Retries, srv.Count())
		}
	})
}

func TestOpenAISummarizerPromptFile(t *testing.T) {
	dir := t.TempDir()
	tmpl := `{{define "system"}}Custom system for {{.ScenarioID}}{{end}}Cut {{.Cut}} gen {{.Generation}} goal {{.Goal}}
prev={{.PreviousSummary}} n={{len .Events}}
{{.Transcript}}`
	path := filepath.Join(dir, "p.tmpl")
	if err := os.WriteFile(path, []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Text(strictReply))
	s := newSummarizer(t, srv, func(o *providers.OpenAIOptions) { o.PromptFile = path })
	req := sumRequest()
	req.PreviousSummary = json.RawMessage(`{"schema_version":1,"covers_through":0}`)
	resp, err := s.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(tmpl))
	if want := "sha256:" + hex.EncodeToString(sum[:]); resp.Call.PromptDigest != want {
		t.Errorf("digest = %s, want %s", resp.Call.PromptDigest, want)
	}
	r := srv.Requests()[0]
	wantSys := []string{"Custom system for readonly"}
	wantUser := "Cut 4 gen 1 goal Diagnose the db failure\nprev={\"schema_version\":1,\"covers_through\":0} n=4\n[#1 user] This investigation is READ-ONLY."
	if diff := cmp.Diff(wantSys, r.Messages("system")); diff != "" {
		t.Errorf("system (-want +got):\n%s", diff)
	}
	if u := r.Messages("user"); len(u) != 1 || !strings.HasPrefix(u[0], wantUser) {
		t.Errorf("user = %q, want prefix %q", u, wantUser)
	}

	for name, bad := range map[string]string{"parse error": "{{.Cut", "unknown field": "{{.Invariants}}"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
			os.WriteFile(p, []byte(bad), 0o644)
			s, err := summarizers.NewOpenAI("m", providers.OpenAIOptions{BaseURL: srv.BaseURL(), PromptFile: p, NoCache: true})
			if err == nil {
				_, err = s.Summarize(context.Background(), sumRequest())
			}
			if err == nil {
				t.Error("want an error")
			}
		})
	}
	if _, err := summarizers.NewOpenAI("m", providers.OpenAIOptions{PromptFile: filepath.Join(dir, "missing")}); err == nil {
		t.Error("missing prompt file: want an error")
	}
}

func TestOpenAISummarizerSecret(t *testing.T) {
	srv := llmtest.New(t, llmtest.Status(401, "bad key "+fakeKey), llmtest.Text(strictReply))
	dir := t.TempDir()
	s := newSummarizer(t, srv, func(o *providers.OpenAIOptions) { o.CacheDir = dir })
	var seen []string
	_, err := s.Summarize(context.Background(), sumRequest())
	if err == nil {
		t.Fatal("want the 401 as an error")
	}
	seen = append(seen, err.Error())
	resp, err := s.Summarize(context.Background(), sumRequest())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(resp.Call)
	seen = append(seen, string(b), string(resp.Summary))
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			seen = append(seen, string(data))
		}
		return nil
	})
	for _, s := range seen {
		if strings.Contains(s, fakeKey) {
			t.Errorf("the API key leaked into %q", s)
		}
	}
	if len(seen) < 4 {
		t.Errorf("nothing cached? seen %d texts", len(seen))
	}
}

func TestStrictSummarySchema(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(summarizers.StrictSummarySchema(), &s); err != nil {
		t.Fatal(err)
	}
	var objects int
	var walk func(path string, v map[string]any)
	walk = func(path string, v map[string]any) {
		if props, ok := v["properties"].(map[string]any); ok {
			objects++
			if v["additionalProperties"] != false {
				t.Errorf("%s: additionalProperties = %v, want false", path, v["additionalProperties"])
			}
			var req []string
			for _, r := range v["required"].([]any) {
				req = append(req, r.(string))
			}
			var keys []string
			for k, p := range props {
				keys = append(keys, k)
				walk(path+"."+k, p.(map[string]any))
			}
			if diff := cmp.Diff(keys, req, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("%s: required is not every property (-props +required):\n%s", path, diff)
			}
		}
		if items, ok := v["items"].(map[string]any); ok {
			walk(path+"[]", items)
		}
	}
	walk("$", s)
	if objects != 11 {
		t.Errorf("objects = %d, want 11 (the summary, its 9 item types and the handoff)", objects)
	}
	if h := s["properties"].(map[string]any)["handoff"].(map[string]any); h["properties"] == nil {
		t.Errorf("handoff is %v, not an object", h["type"])
	}
	props := s["properties"].(map[string]any)
	if _, ok := props["extensions"]; ok {
		t.Error("strict schema must not carry extensions")
	}
	want := map[string]any{"type": []any{"string", "null"}, "enum": []any{"open", "refuted", "confirmed", nil}}
	status := props["hypotheses"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["status"]
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("hypothesis status (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"type": "integer"}, props["covers_through"]); diff != "" {
		t.Errorf("covers_through must be required and not nullable (-want +got):\n%s", diff)
	}
}

// BenchmarkOpenAISummarize is the harness cost of one summarize call
// against a zero-latency endpoint (client and in-process server).
func BenchmarkOpenAISummarize(b *testing.B) {
	srv := llmtest.New(b)
	srv.Handler().Record = false
	srv.SetDefault(func(llmtest.Request) llmtest.Reply { return llmtest.Text(strictReply) })
	s, err := summarizers.NewOpenAI("m", providers.OpenAIOptions{BaseURL: srv.BaseURL(), NoCache: true, Concurrency: 32})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req := sumRequest()
		req.Trial = i
		if _, err := s.Summarize(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
