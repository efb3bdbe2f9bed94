package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// scripted is an httptest handler answering from a list of (status, body,
// headers) and recording what it received.
type scripted struct {
	mu       sync.Mutex
	replies  []scriptedReply
	requests []recorded
}

type scriptedReply struct {
	status int
	body   string
	header map[string]string
	delay  time.Duration
}

type recorded struct {
	path   string
	header http.Header
	body   string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, recorded{path: r.URL.Path, header: r.Header.Clone(), body: string(b)})
	rep := scriptedReply{status: 500, body: `{"error":{"message":"script exhausted"}}`}
	if len(s.replies) > 0 {
		rep, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	if rep.delay > 0 {
		select {
		case <-time.After(rep.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

func (s *scripted) got() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.requests...)
}

func newRawClient(t *testing.T, replies []scriptedReply, mod func(*llm.Config)) (*llm.Client, *scripted, *sleeper) {
	t.Helper()
	h := &scripted{replies: replies}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	sl := &sleeper{}
	cfg := llm.Config{BaseURL: srv.URL + "/v1", APIKey: fakeKey, CacheDir: t.TempDir(), Sleep: sl.sleep, Timeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, h, sl
}

func rawCall(body string) *llm.Call {
	return &llm.Call{Op: "test call", Path: "/things", Header: http.Header{"Api-Version": {"7"}}, Body: []byte(body)}
}

func TestPostSendsTheBodyAndHeaders(t *testing.T) {
	for _, tc := range []struct {
		name      string
		keyHeader string
		wantAuth  map[string]string
	}{
		{"bearer by default", "", map[string]string{"Authorization": "Bearer " + fakeKey, "X-Api-Key": ""}},
		{"x-api-key", "x-api-key", map[string]string{"Authorization": "", "X-Api-Key": fakeKey}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, h, _ := newRawClient(t, []scriptedReply{{status: 200, body: `{"ok":true}`}}, func(c *llm.Config) { c.KeyHeader = tc.keyHeader })
			body := `{"model":"m","input":[{"role":"user","content":"hi"}]}`
			rep, err := c.Post(context.Background(), rawCall(body))
			if err != nil {
				t.Fatal(err)
			}
			if string(rep.Body) != `{"ok":true}` || rep.Attempts != 1 || rep.CacheHit {
				t.Errorf("reply %+v", rep)
			}
			got := h.got()
			if len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			r := got[0]
			if r.path != "/v1/things" || r.body != body {
				t.Errorf("sent %s %s", r.path, r.body)
			}
			want := map[string]string{"Content-Type": "application/json", "Api-Version": "7"}
			for k, v := range tc.wantAuth {
				want[k] = v
			}
			gotH := map[string]string{}
			for k := range want {
				gotH[k] = r.header.Get(k)
			}
			if d := cmp.Diff(want, gotH); d != "" {
				t.Errorf("headers (-want +got):\n%s", d)
			}
		})
	}
}

func TestPostRetries(t *testing.T) {
	tooMany := scriptedReply{status: 429, body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, header: map[string]string{"Retry-After": "2"}}
	overloaded := scriptedReply{status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	ok := scriptedReply{status: 200, body: `{"ok":1}`}
	tests := []struct {
		name      string
		replies   []scriptedReply
		timeout   time.Duration
		want      outcome
		wantMsg   string
		wantWaits []time.Duration
	}{
		{name: "429 honours Retry-After", replies: []scriptedReply{tooMany, ok},
			want: outcome{Requests: 2, Attempts: 2, Retries: 1, Waits: []time.Duration{2 * time.Second}}},
		{name: "529 overloaded is retried", replies: []scriptedReply{overloaded, overloaded, ok},
			want: outcome{Requests: 3, Attempts: 3, Retries: 2}},
		{name: "400 is final and quotes the provider", replies: []scriptedReply{{status: 400, body: `{"type":"error","error":{"type":"invalid_request_error","message":"compaction: nothing to summarize"}}`}, ok},
			want: outcome{Requests: 1, Attempts: 1, Err: true, Status: 400}, wantMsg: "test call: status 400: invalid_request_error: compaction: nothing to summarize"},
		{name: "a body that is not JSON is final", replies: []scriptedReply{{status: 200, body: `<html>`}, ok},
			want: outcome{Requests: 1, Attempts: 1, Err: true, Status: 200}, wantMsg: "test call: unreadable reply: not JSON: <html>"},
		{name: "the key echoed in an error is redacted", replies: []scriptedReply{{status: 401, body: `{"error":{"message":"bad key ` + fakeKey + `"}}`}},
			want: outcome{Requests: 1, Attempts: 1, Err: true, Status: 401}, wantMsg: "test call: status 401: bad key [redacted]"},
		{name: "a slow reply times out and is retried", replies: []scriptedReply{{status: 200, body: `{}`, delay: time.Second}, ok}, timeout: 100 * time.Millisecond,
			want: outcome{Requests: 2, Attempts: 2, Retries: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, h, sl := newRawClient(t, tc.replies, func(c *llm.Config) {
				if tc.timeout > 0 {
					c.Timeout = tc.timeout
				}
			})
			rep, err := c.Post(context.Background(), rawCall(`{"q":1}`))
			got := outcome{Requests: len(h.got()), Attempts: rep.Attempts, Retries: rep.Retries, Err: err != nil}
			var e *llm.Error
			if errors.As(err, &e) {
				got.Status = e.Status
			}
			if tc.want.Waits != nil {
				got.Waits = sl.got()
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if tc.wantMsg != "" && (err == nil || err.Error() != tc.wantMsg) {
				t.Errorf("error %v, want %q", err, tc.wantMsg)
			}
			if err != nil && strings.Contains(fmt.Sprintf("%v %+v", err, errors.Unwrap(err)), fakeKey) {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func TestPostCache(t *testing.T) {
	ok := scriptedReply{status: 200, body: `{"ok":1}`}
	t.Run("a second identical call sends nothing", func(t *testing.T) {
		c, h, _ := newRawClient(t, []scriptedReply{ok, ok}, nil)
		for i := range 2 {
			rep, err := c.Post(context.Background(), rawCall(`{"q":1}`))
			if err != nil {
				t.Fatal(err)
			}
			if rep.CacheHit != (i == 1) || string(rep.Body) != `{"ok":1}` {
				t.Errorf("call %d: %+v", i, rep)
			}
		}
		if n := len(h.got()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	// Whatever bytes the provider sends, the rerun reads them back: a
	// cache that kept the JSON value (compacted) missed these every time.
	t.Run("an indented, CRLF, escaped reply is served again", func(t *testing.T) {
		odd := scriptedReply{status: 200, body: "{\r\n\t\"text\": \"caf\\u00e9 <b>\",\r\n\t\"n\": [ 1, 2 ]\r\n}\r\n"}
		c, h, _ := newRawClient(t, []scriptedReply{odd, odd}, nil)
		for i := range 2 {
			rep, err := c.Post(context.Background(), rawCall(`{"q":1}`))
			if err != nil {
				t.Fatal(err)
			}
			if rep.CacheHit != (i == 1) || string(rep.Body) != odd.body {
				t.Errorf("call %d: hit %v, body %q", i, rep.CacheHit, rep.Body)
			}
		}
		if n := len(h.got()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("headers, trial, path and body are part of the key", func(t *testing.T) {
		c, h, _ := newRawClient(t, []scriptedReply{ok, ok, ok, ok, ok}, nil)
		calls := []*llm.Call{rawCall(`{"q":1}`), rawCall(`{"q":2}`), rawCall(`{"q":1}`), rawCall(`{"q":1}`), rawCall(`{"q":1}`)}
		calls[2].Trial = 1
		calls[3].Header = http.Header{"Api-Version": {"8"}}
		calls[4].Path = "/other"
		for _, call := range calls {
			if _, err := c.Post(context.Background(), call); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(h.got()); n != 5 {
			t.Errorf("%d requests, want 5 (every call differs)", n)
		}
	})
	t.Run("the key is not part of the key; errors and refused replies are not cached", func(t *testing.T) {
		dir := t.TempDir()
		h := &scripted{replies: []scriptedReply{{status: 500, body: `{}`}, {status: 200, body: `{"bad":1}`}, ok}}
		srv := httptest.NewServer(h)
		defer srv.Close()
		accept := func(b []byte) error {
			if strings.Contains(string(b), "bad") {
				return errors.New("bad reply")
			}
			return nil
		}
		mk := func(key string) *llm.Client {
			c, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: key, CacheDir: dir, MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		call := rawCall(`{"q":1}`)
		call.Accept = accept
		for i, key := range []string{"k1", "k2", "k3", "k4"} {
			_, err := mk(key).Post(context.Background(), call)
			if (err != nil) != (i < 2) {
				t.Errorf("call %d: %v", i, err)
			}
		}
		if n := len(h.got()); n != 3 {
			t.Errorf("%d requests, want 3 (500 and refused reply not cached; the last served from the cache)", n)
		}
	})
}

func TestPostRefusesAHugeReply(t *testing.T) {
	huge := `{"x":"` + strings.Repeat("a", llm.MaxReplyBytes) + `"}`
	// Reading 32 MiB under -race on a loaded machine can take longer than
	// the 5 s attempt timeout, which would be retried: give it room.
	c, h, _ := newRawClient(t, []scriptedReply{{status: 200, body: huge}}, func(c *llm.Config) { c.Timeout = 2 * time.Minute })
	_, err := c.Post(context.Background(), rawCall(`{}`))
	if err == nil || !strings.Contains(err.Error(), "reply larger than 32 MiB") {
		t.Errorf("error %v", err)
	}
	if n := len(h.got()); n != 1 {
		t.Errorf("%d requests, want 1 (not retried)", n)
	}
}
