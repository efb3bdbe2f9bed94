package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

// A reply cut at max_tokens (finish_reason "length") is named as
// truncation, with the limit the request sent and the hint that raises it,
// not as a reply that does not parse; it is neither retried (the same
// request stops at the same limit) nor cached (the next call sends again).
func TestChatTruncated(t *testing.T) {
	half := llmtest.Truncated(llmtest.Text(`{"schema_version":1,"covers_through":12,"text":"a long summary"}`))
	srv := llmtest.New(t, half, half)
	c, sl := newClient(t, srv, func(cfg *llm.Config) { cfg.LimitHint = "--summarizer-max-tokens N" })
	req := chatReq("summarize")
	req.Chat.MaxTokens = 300
	req.RequireContent = true
	for i := range 2 {
		res, err := c.Chat(context.Background(), req)
		var tr *llm.Truncated
		if !errors.As(err, &tr) {
			t.Fatalf("call %d: err = %v, want a *llm.Truncated", i+1, err)
		}
		want := `reply truncated at max_tokens 300 (finish_reason "length"); raise --summarizer-max-tokens N`
		if err.Error() != want {
			t.Errorf("call %d: error\n got %q\nwant %q", i+1, err, want)
		}
		if res.CacheHit || res.Attempts != 1 {
			t.Errorf("call %d: cache hit %v, %d attempts; want a request sent once, not retried", i+1, res.CacheHit, res.Attempts)
		}
	}
	if n := srv.Count(); n != 2 {
		t.Errorf("the endpoint got %d requests, want 2: one per call, no retry, nothing cached", n)
	}
	if len(sl.got()) != 0 {
		t.Errorf("the client waited %v: a truncated reply is not retried", sl.got())
	}
	if _, ok := c.Lookup(req); ok {
		t.Error("a truncated reply was cached as an answer")
	}
}

// A reply that merely says something unexpected is no truncation: only
// finish_reason "length" is.
func TestChatNotTruncated(t *testing.T) {
	for _, fr := range []openai.FinishReason{openai.FinishReasonStop, openai.FinishReasonContentFilter, ""} {
		srv := llmtest.New(t, llmtest.Reply{Content: "ok", FinishReason: fr})
		c, _ := newClient(t, srv, nil)
		req := chatReq("hello")
		req.Chat.MaxTokens = 10
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Errorf("finish_reason %q: %v", fr, err)
		}
	}
}

// The cache key is the request as sent: a changed max_tokens is another
// request, answered afresh, and the old entry still answers the old one.
func TestChatKeyHoldsMaxTokens(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("one"), llmtest.Text("two"))
	c, _ := newClient(t, srv, nil)
	a, b := chatReq("same words"), chatReq("same words")
	a.Chat.MaxTokens, b.Chat.MaxTokens = 100, 200
	ka, _ := llm.Key(srv.BaseURL(), 0, a.Chat)
	kb, _ := llm.Key(srv.BaseURL(), 0, b.Chat)
	if ka == kb {
		t.Fatal("two requests that differ in max_tokens have one cache key")
	}
	var got []string
	for _, r := range []*llm.Request{a, b, a, b} {
		res, err := c.Chat(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Content)
	}
	if diff := cmp.Diff([]string{"one", "two", "one", "two"}, got); diff != "" {
		t.Errorf("replies (-want +got):\n%s", diff)
	}
	if srv.Count() != 2 {
		t.Errorf("%d requests, want 2", srv.Count())
	}
}

// A model that takes only max_completion_tokens gets its limit so: the
// ones go-openai knows (it refuses max_tokens for them before sending), and
// one whose endpoint refuses max_tokens with a 400, which is asked again
// once in the other field and remembered for the rest of the process.
func TestChatCompletionTokens(t *testing.T) {
	t.Run("known reasoning model", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("ok"))
		c, _ := newClient(t, srv, nil)
		req := chatReq("hi")
		req.Chat.Model, req.Chat.MaxTokens = "o3-mini", 64
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		got := srv.Requests()[0].Chat
		if got.MaxTokens != 0 || got.MaxCompletionTokens != 64 {
			t.Errorf("sent max_tokens %d, max_completion_tokens %d; want 0 and 64", got.MaxTokens, got.MaxCompletionTokens)
		}
	})
	t.Run("refused by the endpoint", func(t *testing.T) {
		refuse := llmtest.Status(http.StatusBadRequest, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
		srv := llmtest.New(t, refuse, llmtest.Text("ok"), llmtest.Text("again"))
		c, _ := newClient(t, srv, nil)
		req := chatReq("hi")
		req.Chat.Model, req.Chat.MaxTokens = "my-reasoning-deployment", 64
		res, err := c.Chat(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "ok" || res.Attempts != 2 {
			t.Errorf("content %q after %d attempts; want ok after 2", res.Content, res.Attempts)
		}
		other := chatReq("another question")
		other.Chat.Model, other.Chat.MaxTokens = "my-reasoning-deployment", 64
		if _, err := c.Chat(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		var fields []string
		for _, r := range srv.Requests() {
			switch {
			case r.Chat.MaxTokens > 0:
				fields = append(fields, "max_tokens")
			case r.Chat.MaxCompletionTokens > 0:
				fields = append(fields, "max_completion_tokens")
			}
		}
		if diff := cmp.Diff([]string{"max_tokens", "max_completion_tokens", "max_completion_tokens"}, fields); diff != "" {
			t.Errorf("limit fields sent (-want +got):\n%s", diff)
		}
		if c.Counters().Errors != 0 {
			t.Errorf("%d errors counted; the call succeeded", c.Counters().Errors)
		}
	})
}

// A Post call whose Accept says the reply stopped at its limit fails with
// that *Truncated error and the client's hint, not as an unusable reply;
// it is not cached.
func TestPostTruncated(t *testing.T) {
	srv := llmtest.New(t)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"stop_reason":"max_tokens","content":[{"type":"text","text":"{\"choice\":"}]}`))
	})
	c, _ := newClient(t, srv, func(cfg *llm.Config) { cfg.LimitHint = "--agent-max-tokens N" })
	call := &llm.Call{Op: "anthropic messages", Path: "/messages", Body: []byte(`{"max_tokens":50}`), Accept: func(b []byte) error {
		if strings.Contains(string(b), `"max_tokens"`) {
			return &llm.Truncated{Field: "max_tokens", Limit: 50, Reason: `stop_reason "max_tokens"`}
		}
		return nil
	}}
	for range 2 {
		rep, err := c.Post(context.Background(), call)
		want := `reply truncated at max_tokens 50 (stop_reason "max_tokens"); raise --agent-max-tokens N`
		if err == nil || err.Error() != want || !llm.IsTruncated(err) {
			t.Fatalf("err = %v, want %q", err, want)
		}
		if rep.CacheHit {
			t.Error("a truncated reply came from the cache")
		}
	}
}
