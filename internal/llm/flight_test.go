package llm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// blockingServer answers every request with body, holding the first one
// until release is closed; arrived is closed when the first arrives.
func blockingServer(t *testing.T, status int, body string) (srv *httptest.Server, count *atomic.Int64, arrived, release chan struct{}) {
	count = &atomic.Int64{}
	arrived, release = make(chan struct{}), make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) == 1 {
			close(arrived)
			<-release
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, count, arrived, release
}

// whileWaiting runs first, waits until its request reached the server,
// starts second and waits until second waits for first's flight (or, had
// it not waited, returned), then releases the server.
func whileWaiting(c *llm.Client, arrived, release chan struct{}, first, second func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); first() }()
	<-arrived
	var secondDone atomic.Bool
	go func() { defer wg.Done(); second(); secondDone.Store(true) }()
	for c.Waiting() == 0 && !secondDone.Load() {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
}

const chatReply = `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hello"},"finish_reason":"stop"}]}`

// Two identical chat requests at once go out once: the second waits for
// the first and is answered from the cache it filled.
func TestIdenticalChatsInFlightGoOutOnce(t *testing.T) {
	srv, count, arrived, release := blockingServer(t, http.StatusOK, chatReply)
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var a, b *llm.Result
	var errA, errB error
	whileWaiting(c, arrived, release,
		func() { a, errA = c.Chat(context.Background(), meteredReq("same")) },
		func() { b, errB = c.Chat(context.Background(), meteredReq("same")) })
	if errA != nil || errB != nil {
		t.Fatalf("errors: %v, %v", errA, errB)
	}
	if count.Load() != 1 || a.CacheHit || !b.CacheHit || b.Content != "hello" {
		t.Errorf("requests %d, first hit %v, second hit %v %q; want 1 request, the second from the cache", count.Load(), a.CacheHit, b.CacheHit, b.Content)
	}
}

// When the first reply is not stored (here an error, never cached), the
// waiting call sends its own request.
func TestWaiterSendsWhenNothingWasStored(t *testing.T) {
	srv, count, arrived, release := blockingServer(t, http.StatusBadRequest, `{"error":{"message":"no"}}`)
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	whileWaiting(c, arrived, release,
		func() { c.Chat(context.Background(), meteredReq("same")) },
		func() { c.Chat(context.Background(), meteredReq("same")) })
	if count.Load() != 2 {
		t.Errorf("requests %d, want 2", count.Load())
	}
}

// The same holds for the provider APIs' POST calls.
func TestIdenticalPostsInFlightGoOutOnce(t *testing.T) {
	srv, count, arrived, release := blockingServer(t, http.StatusOK, `{"ok":true}`)
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	call := func() *llm.Call { return &llm.Call{Path: "/responses", Body: []byte(`{"q":1}`)} }
	var b *llm.Reply
	whileWaiting(c, arrived, release,
		func() { c.Post(context.Background(), call()) },
		func() { b, _ = c.Post(context.Background(), call()) })
	if count.Load() != 1 || b == nil || !b.CacheHit {
		t.Errorf("requests %d, second %+v; want 1 request, the second from the cache", count.Load(), b)
	}
}
