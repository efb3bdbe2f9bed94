package llm_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

func meteredReq(text string) *llm.Request {
	return &llm.Request{Chat: openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: text}}}}
}

// A Meter shared by two clients counts the calls of both; each client's
// own Counters count only its own. A CacheOnly client answers what the
// cache holds and fails every other call with ErrNotCached, sending
// nothing, on the chat path and the POST path alike.
func TestMeterAndCacheOnly(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("one"), llmtest.Status(http.StatusServiceUnavailable, "busy"), llmtest.Text("two"))
	dir := t.TempDir()
	meter := &llm.Meter{}
	cfg := llm.Config{BaseURL: srv.BaseURL(), CacheDir: dir, Meter: meter, Sleep: func(context.Context, time.Duration) error { return nil }}
	a, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := a.Chat(ctx, meteredReq("first")); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat(ctx, meteredReq("second")); err != nil { // a 503, then a reply
		t.Fatal(err)
	}
	only := cfg
	only.CacheOnly = true
	b, err := llm.New(only)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := b.Chat(ctx, meteredReq("first")); err != nil || !r.CacheHit || r.Content != "one" {
		t.Errorf("a cached request: %+v, %v", r, err)
	}
	if _, err := b.Chat(ctx, meteredReq("never asked")); !errors.Is(err, llm.ErrNotCached) {
		t.Errorf("an uncached request: %v, want ErrNotCached", err)
	}
	if _, err := b.Post(ctx, &llm.Call{Path: "/responses", Body: []byte(`{"x":1}`)}); !errors.Is(err, llm.ErrNotCached) {
		t.Errorf("an uncached POST: %v, want ErrNotCached", err)
	}
	if srv.Count() != 3 {
		t.Errorf("the endpoint got %d requests, want 3 (none from the cache-only client)", srv.Count())
	}
	if diff := cmp.Diff(llm.Counters{Requests: 3, Retries: 1, CacheHits: 1}, meter.Counters()); diff != "" {
		t.Errorf("shared meter (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(llm.Counters{CacheHits: 1}, b.Counters()); diff != "" {
		t.Errorf("the cache-only client's own counters (-want +got):\n%s", diff)
	}
	var none *llm.Meter
	if none.Counters() != (llm.Counters{}) {
		t.Error("a nil meter counts")
	}
}
