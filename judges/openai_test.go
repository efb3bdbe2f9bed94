package judges_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
	"github.com/compact-eval/compact-eval/judges"
)

const fakeKey = "sk-test-DONOTLEAK-1234567890"

func newOpenAI(t *testing.T, srv *llmtest.Server, cache string, mod func(*providers.OpenAIOptions)) *judges.OpenAI {
	t.Helper()
	llm.ForgetOutputModes()
	opts := providers.OpenAIOptions{BaseURL: srv.BaseURL(), APIKey: fakeKey, CacheDir: cache, Getenv: func(string) string { return "" }}
	if mod != nil {
		mod(&opts)
	}
	j, err := judges.NewOpenAI("judge-model", opts)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestOpenAIJudge plays a scripted judge over the real wire format: a
// right verdict, a wrong one, malformed JSON, a refusal and a timeout. Each
// bad reply is an error for its judgement alone; request counts are exact;
// a rerun asks only what failed, and a third run asks nothing.
func TestOpenAIJudge(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Text(`{"verdict":"kept","quote":"This run is READ-ONLY","reason":"the rule is listed"}`),
		llmtest.Text(`{"verdict":"contradicted","quote":"\"supersedes\":\"5432\"","reason":"wrongly read"}`),
		llmtest.Text(`{"verdict": "kept", "quote": `), // malformed JSON
		llmtest.Reply{Refusal: "I can't help with grading this."},
		llmtest.Reply{Delay: 2 * time.Second, Content: `{"verdict":"missing"}`}, // timeout, twice (one retry)
		llmtest.Reply{Delay: 2 * time.Second, Content: `{"verdict":"missing"}`},
	)
	cache := t.TempDir()
	mod := func(o *providers.OpenAIOptions) { o.Timeout = 200 * time.Millisecond; o.MaxRetries = 1 }
	j := newOpenAI(t, srv, cache, mod)
	ctx := context.Background()
	reqs := make([]*judges.Request, 5)
	for i := range reqs {
		reqs[i] = invReq()
		reqs[i].Invariant.Statement = "fact " + string(rune('a'+i)) // five distinct requests
	}
	type outcome struct {
		verdict, err string
	}
	want := []outcome{
		{judges.Kept, ""},
		{judges.Contradicted, ""},
		{"", "the reply is not a JSON object"},
		{"", "the judge refused: I can't help"},
		{"", "timed out"},
	}
	for i, r := range reqs {
		v, err := j.Judge(ctx, r)
		got := outcome{}
		if v != nil {
			got.verdict = v.Verdict
		}
		if err != nil {
			got.err = err.Error()
		}
		if got.verdict != want[i].verdict || (want[i].err == "") != (err == nil) || !strings.Contains(got.err, want[i].err) {
			t.Errorf("request %d: got %+v, want %+v", i, got, want[i])
		}
		if v == nil || v.Call.Model != "judge-model" || !strings.HasPrefix(v.Call.PromptDigest, "sha256:") {
			t.Errorf("request %d: provenance %+v", i, v)
		}
		if strings.Contains(got.err, fakeKey) {
			t.Errorf("request %d: the key is in the error", i)
		}
	}
	// 2 good + malformed + refusal + the timeout and its retry.
	if n := srv.Count(); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
	first := srv.Requests()[0]
	if first.Chat.ResponseFormat == nil || first.Chat.ResponseFormat.Type != "json_schema" {
		t.Errorf("first request asks for %+v, want a strict json_schema", first.Chat.ResponseFormat)
	}
	if first.Chat.Temperature == 0 {
		t.Error("temperature not sent: a judge asks for temperature 0")
	}
	for _, s := range []string{"READ-ONLY", "The fact (constraint)", "The summary:"} {
		if !first.Contains(s) {
			t.Errorf("the request lacks %q", s)
		}
	}

	// Second run: the three failures are asked again, and now answered.
	srv.SetDefault(func(llmtest.Request) llmtest.Reply {
		return llmtest.Text(`{"verdict":"missing","quote":"","reason":"r"}`)
	})
	j = newOpenAI(t, srv, cache, mod)
	for i, r := range reqs {
		v, err := j.Judge(ctx, r)
		if err != nil {
			t.Fatalf("rerun %d: %v", i, err)
		}
		if i < 2 && (v.Verdict != want[i].verdict || !v.Call.CacheHit) {
			t.Errorf("rerun %d: %+v, want the cached verdict %q", i, v, want[i].verdict)
		}
	}
	if n := srv.Count(); n != 9 {
		t.Errorf("%d requests after the rerun, want 9 (the 3 failures asked again)", n)
	}
	// Third run: everything from the cache.
	j = newOpenAI(t, srv, cache, mod)
	for _, r := range reqs {
		if _, err := j.Judge(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Count(); n != 9 {
		t.Errorf("the third run sent %d requests, want 0", n-9)
	}
}

// TestOpenAIJudgeFallsBack: an endpoint without structured outputs gets
// json_object, then plain text.
func TestOpenAIJudgeFallsBack(t *testing.T) {
	srv := llmtest.New(t)
	srv.RejectFormats("json_schema", "json_object")
	srv.SetDefault(func(llmtest.Request) llmtest.Reply {
		return llmtest.Text("Here you go:\n```json\n{\"verdict\":\"unsure\",\"quote\":\"\",\"reason\":\"cannot tell\"}\n```")
	})
	j := newOpenAI(t, srv, t.TempDir(), nil)
	v, err := j.Judge(context.Background(), ansReq("maybe"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != judges.Unsure || v.Call.OutputMode != llm.ModeText {
		t.Errorf("got %+v", v)
	}
	if n := srv.Count(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if got := srv.Requests()[2].Messages("user")[0]; !strings.Contains(got, "The agent's answer:\nmaybe") || !strings.Contains(got, "Expected answer:\nrefuse") {
		t.Errorf("answer prompt:\n%s", got)
	}
}

// TestOpenAIJudgeClientErrors: a 400 that is not about the format is not
// retried, and the judgement is an error.
func TestOpenAIJudgeClientErrors(t *testing.T) {
	srv := llmtest.New(t, llmtest.Status(http.StatusUnauthorized, "bad key "+fakeKey))
	j := newOpenAI(t, srv, t.TempDir(), nil)
	_, err := j.Judge(context.Background(), invReq())
	if err == nil || strings.Contains(err.Error(), fakeKey) || !strings.Contains(err.Error(), "401") {
		t.Errorf("err = %v", err)
	}
	if srv.Count() != 1 {
		t.Errorf("%d requests, want 1", srv.Count())
	}
}

func TestPromptDigests(t *testing.T) {
	_, a := judges.Prompt(judges.KindInvariant)
	_, b := judges.Prompt(judges.KindAnswer)
	if a == b || !strings.HasPrefix(a, "sha256:") {
		t.Errorf("digests %q and %q", a, b)
	}
	var req judges.Request
	json.Unmarshal([]byte(`{"kind":"judge_invariant"}`), &req)
	if judges.UserMessage(&req) == "" {
		t.Error("empty user message for an empty request")
	}
}

// TestOpenAIJudgeRerunOfOddReplies: OpenAI's API indents its JSON; a reply
// in any bytes (indented, CRLF, escaped unicode, a trailing newline) is
// served from the cache on the rerun, which sends nothing.
func TestOpenAIJudgeRerunOfOddReplies(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handler().Odd = true
	srv.SetDefault(func(llmtest.Request) llmtest.Reply {
		return llmtest.Text(`{"verdict":"kept","quote":"This run is READ-ONLY","reason":"listed <here> — café"}`)
	})
	cache := t.TempDir()
	for run := range 2 {
		j := newOpenAI(t, srv, cache, nil)
		v, err := j.Judge(context.Background(), invReq())
		if err != nil {
			t.Fatal(err)
		}
		if v.Verdict != judges.Kept || v.Call.CacheHit != (run == 1) {
			t.Errorf("run %d: verdict %q, cache hit %v", run+1, v.Verdict, v.Call.CacheHit)
		}
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("%d requests over two runs, want 1", n)
	}
}
