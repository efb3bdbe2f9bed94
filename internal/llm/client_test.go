package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

const fakeKey = "sk-test-DONOTLEAK-1234567890"

// sleeper records the waits the client asks for without spending them.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

func newClient(t *testing.T, srv *llmtest.Server, mod func(*llm.Config)) (*llm.Client, *sleeper) {
	t.Helper()
	sl := &sleeper{}
	cfg := llm.Config{BaseURL: srv.BaseURL(), APIKey: fakeKey, CacheDir: t.TempDir(), Sleep: sl.sleep, Timeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, sl
}

func chatReq(text string) *llm.Request {
	return &llm.Request{Chat: openai.ChatCompletionRequest{
		Model:    "test-model",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: text}},
	}}
}

// outcome is what a call did, for one cmp.Diff per case.
type outcome struct {
	Requests  int
	Content   string
	Retries   int
	Attempts  int
	CacheHit  bool
	Err       bool
	Status    int
	Retryable bool
	Waits     []time.Duration
}

func TestChatRetries(t *testing.T) {
	tests := []struct {
		name    string
		replies []llmtest.Reply
		mod     func(*llm.Config)
		want    outcome
	}{
		{
			name:    "success",
			replies: []llmtest.Reply{llmtest.Text("hello")},
			want:    outcome{Requests: 1, Content: "hello", Attempts: 1},
		},
		{
			name:    "429 with Retry-After seconds is honoured",
			replies: []llmtest.Reply{llmtest.TooMany("1"), llmtest.Text("ok")},
			want:    outcome{Requests: 2, Content: "ok", Retries: 1, Attempts: 2, Waits: []time.Duration{time.Second}},
		},
		{
			name:    "429 with Retry-After date is honoured",
			replies: []llmtest.Reply{llmtest.TooMany("Sun, 29 Nov 2026 10:00:03 GMT"), llmtest.Text("ok")},
			mod: func(c *llm.Config) {
				c.Now = func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }
			},
			want: outcome{Requests: 2, Content: "ok", Retries: 1, Attempts: 2, Waits: []time.Duration{3 * time.Second}},
		},
		{
			name:    "Retry-After is capped by MaxBackoff",
			replies: []llmtest.Reply{llmtest.TooMany("3600"), llmtest.Text("ok")},
			mod:     func(c *llm.Config) { c.MaxBackoff = 2 * time.Second },
			want:    outcome{Requests: 2, Content: "ok", Retries: 1, Attempts: 2, Waits: []time.Duration{2 * time.Second}},
		},
		{
			name:    "500s are retried then succeed",
			replies: []llmtest.Reply{llmtest.Status(500, "boom"), llmtest.Status(503, "busy"), llmtest.Text("ok")},
			want:    outcome{Requests: 3, Content: "ok", Retries: 2, Attempts: 3},
		},
		{
			name:    "500s until retries run out",
			replies: []llmtest.Reply{llmtest.Status(500, "a"), llmtest.Status(502, "b"), llmtest.Status(500, "c"), llmtest.Text("never")},
			mod:     func(c *llm.Config) { c.MaxRetries = 2 },
			want:    outcome{Requests: 3, Retries: 2, Attempts: 3, Err: true, Status: 500, Retryable: true},
		},
		{
			name:    "400 is not retried",
			replies: []llmtest.Reply{llmtest.Status(400, "bad request"), llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Status: 400},
		},
		{
			name:    "401 is not retried",
			replies: []llmtest.Reply{llmtest.Status(401, "bad key"), llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Status: 401},
		},
		{
			name:    "404 is not retried",
			replies: []llmtest.Reply{llmtest.Status(404, "no such model"), llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Status: 404},
		},
		{
			name:    "408 is a 4xx and is not retried",
			replies: []llmtest.Reply{llmtest.Status(408, "slow"), llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Status: 408},
		},
		{
			name:    "slow reply hits the timeout, no retries",
			replies: []llmtest.Reply{{Content: "late", Delay: 2 * time.Second}, llmtest.Text("never")},
			mod:     func(c *llm.Config) { c.Timeout = 50 * time.Millisecond; c.MaxRetries = -1 },
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Retryable: true},
		},
		{
			name:    "slow reply hits the timeout and is retried",
			replies: []llmtest.Reply{{Content: "late", Delay: 2 * time.Second}, llmtest.Text("ok")},
			mod:     func(c *llm.Config) { c.Timeout = 200 * time.Millisecond },
			want:    outcome{Requests: 2, Content: "ok", Retries: 1, Attempts: 2},
		},
		{
			name:    "a 200 body that is not JSON is an error, not retried",
			replies: []llmtest.Reply{{Body: "<html>gateway</html>"}, llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1, Err: true, Status: 200},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			c, sl := newClient(t, srv, tc.mod)
			res, err := c.Chat(context.Background(), chatReq("hi"))
			got := outcome{Requests: srv.Count(), Content: res.Content, Retries: res.Retries, Attempts: res.Attempts, CacheHit: res.CacheHit, Err: err != nil}
			var e *llm.Error
			if errors.As(err, &e) {
				got.Status, got.Retryable = e.Status, e.Retryable
			}
			if err != nil {
				got.Content = ""
			}
			// Jittered waits are random: keep only the exact ones
			// (Retry-After) the case asks about.
			if tc.want.Waits != nil {
				got.Waits = sl.got()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if err != nil && strings.Contains(err.Error(), fakeKey) {
				t.Errorf("error holds the API key: %v", err)
			}
		})
	}
}

func TestJitterBounds(t *testing.T) {
	// Without Retry-After the wait before retry i is uniform in
	// [0, base·2^i).
	srv := llmtest.New(t, llmtest.Status(500, "a"), llmtest.Status(500, "b"), llmtest.Status(500, "c"), llmtest.Text("ok"))
	c, sl := newClient(t, srv, func(c *llm.Config) { c.BaseBackoff = 100 * time.Millisecond; c.MaxRetries = 3 })
	if _, err := c.Chat(context.Background(), chatReq("hi")); err != nil {
		t.Fatal(err)
	}
	waits := sl.got()
	if len(waits) != 3 {
		t.Fatalf("waits = %v, want 3", waits)
	}
	for i, w := range waits {
		if ceil := 100 * time.Millisecond << i; w < 0 || w >= ceil {
			t.Errorf("wait %d = %v, want in [0, %v)", i, w, ceil)
		}
	}
}

func TestCancelStopsRetrying(t *testing.T) {
	srv := llmtest.New(t, llmtest.Status(500, "a"), llmtest.Text("never"))
	ctx, cancel := context.WithCancel(context.Background())
	c, _ := newClient(t, srv, func(c *llm.Config) {
		c.Sleep = func(context.Context, time.Duration) error { cancel(); return context.Canceled }
	})
	_, err := c.Chat(ctx, chatReq("hi"))
	if err == nil || srv.Count() != 1 {
		t.Fatalf("err = %v, requests = %d; want an error after 1 request", err, srv.Count())
	}
}

func TestCache(t *testing.T) {
	t.Run("second identical call makes zero requests", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("first"))
		c, _ := newClient(t, srv, nil)
		r1, err := c.Chat(context.Background(), chatReq("same"))
		if err != nil {
			t.Fatal(err)
		}
		r2, err := c.Chat(context.Background(), chatReq("same"))
		if err != nil {
			t.Fatal(err)
		}
		got := []any{srv.Count(), r1.CacheHit, r2.CacheHit, r2.Content, r2.Attempts}
		if diff := cmp.Diff([]any{1, false, true, "first", 0}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("a new client on the same dir makes zero requests", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("first"))
		dir := t.TempDir()
		for i := range 2 {
			c, _ := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir })
			if _, err := c.Chat(context.Background(), chatReq("same")); err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		if srv.Count() != 1 {
			t.Errorf("requests = %d, want 1", srv.Count())
		}
	})
	t.Run("trials are independent", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("t0"), llmtest.Text("t1"))
		c, _ := newClient(t, srv, nil)
		var got []string
		for trial := range 2 {
			r := chatReq("same")
			r.Trial = trial
			res, err := c.Chat(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, res.Content)
		}
		if diff := cmp.Diff([]string{"t0", "t1"}, got); diff != "" || srv.Count() != 2 {
			t.Errorf("requests = %d, contents (-want +got):\n%s", srv.Count(), diff)
		}
	})
	t.Run("errors are not cached", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Status(400, "nope"), llmtest.Text("ok"))
		c, _ := newClient(t, srv, nil)
		if _, err := c.Chat(context.Background(), chatReq("x")); err == nil {
			t.Fatal("want an error")
		}
		res, err := c.Chat(context.Background(), chatReq("x"))
		if err != nil || res.CacheHit || srv.Count() != 2 {
			t.Errorf("err = %v, hit = %v, requests = %d; want a fresh request", err, res.CacheHit, srv.Count())
		}
	})
	t.Run("rejected replies are not cached", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("garbage"), llmtest.Text("good"))
		c, _ := newClient(t, srv, nil)
		req := chatReq("x")
		req.Accept = func(r *openai.ChatCompletionResponse) error {
			if r.Choices[0].Message.Content != "good" {
				return errors.New("unusable")
			}
			return nil
		}
		if _, err := c.Chat(context.Background(), req); err == nil {
			t.Fatal("want an error")
		}
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		res, err := c.Chat(context.Background(), req)
		if err != nil || !res.CacheHit || srv.Count() != 2 {
			t.Errorf("err = %v, hit = %v, requests = %d", err, res.CacheHit, srv.Count())
		}
	})
	t.Run("corrupt entry is a miss and is removed", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("a"), llmtest.Text("b"))
		dir := t.TempDir()
		c, _ := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir })
		if _, err := c.Chat(context.Background(), chatReq("x")); err != nil {
			t.Fatal(err)
		}
		files := entryFiles(t, dir)
		if len(files) != 1 {
			t.Fatalf("entries = %v", files)
		}
		data, _ := os.ReadFile(files[0])
		if err := os.WriteFile(files[0], data[:len(data)/2], 0o644); err != nil { // torn
			t.Fatal(err)
		}
		res, err := c.Chat(context.Background(), chatReq("x"))
		if err != nil || res.CacheHit || res.Content != "b" || srv.Count() != 2 {
			t.Errorf("err = %v, hit = %v, content = %q, requests = %d", err, res.CacheHit, res.Content, srv.Count())
		}
		// The fresh reply replaced the torn entry.
		res, err = c.Chat(context.Background(), chatReq("x"))
		if err != nil || !res.CacheHit || res.Content != "b" {
			t.Errorf("after repair: err = %v, hit = %v, content = %q", err, res.CacheHit, res.Content)
		}
	})
	t.Run("NoCache reads and writes nothing", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("a"), llmtest.Text("b"))
		dir := t.TempDir()
		c, _ := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir; c.NoCache = true })
		for range 2 {
			if _, err := c.Chat(context.Background(), chatReq("x")); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(entryFiles(t, dir)); srv.Count() != 2 || n != 0 {
			t.Errorf("requests = %d, entries = %d; want 2, 0", srv.Count(), n)
		}
	})
	t.Run("the API key is not part of the key", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("a"))
		dir := t.TempDir()
		for _, key := range []string{fakeKey, "sk-other-key-0987654321"} {
			c, _ := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir; c.APIKey = key })
			if _, err := c.Chat(context.Background(), chatReq("x")); err != nil {
				t.Fatal(err)
			}
		}
		if srv.Count() != 1 {
			t.Errorf("requests = %d, want 1: a second key must hit the same entry", srv.Count())
		}
	})
}

func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "v1", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestKey(t *testing.T) {
	base := func() openai.ChatCompletionRequest {
		r := chatReq("hello").Chat
		return r
	}
	k0, err := llm.Key("http://h:1/v1", 0, base())
	if err != nil {
		t.Fatal(err)
	}
	seed := 7
	tests := []struct {
		name     string
		endpoint string
		trial    int
		mod      func(*openai.ChatCompletionRequest)
		same     bool
	}{
		{name: "identical", endpoint: "http://h:1/v1", same: true},
		{name: "user info and query do not count", endpoint: "http://user:pw@h:1/v1/?x=1", same: true},
		{name: "other host", endpoint: "http://h:2/v1"},
		{name: "other path", endpoint: "http://h:1/openai/v1"},
		{name: "other trial", endpoint: "http://h:1/v1", trial: 1},
		{name: "other model", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) { r.Model = "m2" }},
		{name: "temperature", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) { r.Temperature = 0.5 }},
		{name: "seed", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) { r.Seed = &seed }},
		{name: "max tokens", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) { r.MaxTokens = 10 }},
		{name: "messages", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) { r.Messages[0].Content = "other" }},
		{name: "response format", endpoint: "http://h:1/v1", mod: func(r *openai.ChatCompletionRequest) {
			r.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := base()
			if tc.mod != nil {
				tc.mod(&r)
			}
			k, err := llm.Key(tc.endpoint, tc.trial, r)
			if err != nil {
				t.Fatal(err)
			}
			if (k == k0) != tc.same {
				t.Errorf("key equal = %v, want %v", k == k0, tc.same)
			}
		})
	}
}

func TestSecretNeverLeaks(t *testing.T) {
	// A hostile endpoint echoes the key back in its errors.
	srv := llmtest.New(t,
		llmtest.Status(401, "invalid key "+fakeKey),
		llmtest.Status(500, "upstream said "+fakeKey),
		llmtest.Text("ok"),
	)
	dir := t.TempDir()
	c, _ := newClient(t, srv, func(c *llm.Config) { c.CacheDir = dir; c.MaxRetries = -1 })
	var texts []string
	for range 3 {
		_, err := c.Chat(context.Background(), chatReq("x"))
		if err != nil {
			texts = append(texts, err.Error())
			var e *llm.Error
			if errors.As(err, &e) {
				texts = append(texts, e.Message())
			}
		}
	}
	if len(texts) != 4 {
		t.Fatalf("want 2 errors, got %q", texts)
	}
	for _, s := range texts {
		if strings.Contains(s, fakeKey) {
			t.Errorf("error text holds the key: %q", s)
		}
	}
	// The key was sent as a bearer token, and only there.
	for i, r := range srv.Requests() {
		if got := r.Header.Get("Authorization"); got != "Bearer "+fakeKey {
			t.Errorf("request %d: Authorization = %q", i, got)
		}
		if r.Contains(fakeKey) {
			t.Errorf("request %d body holds the key", i)
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), fakeKey) {
				t.Errorf("cache file %s holds the key", p)
			}
		}
		return nil
	})
	if err := (llm.Config{BaseURL: "ftp://" + fakeKey + "@h"}).Validate(); err == nil || strings.Contains(err.Error(), fakeKey) {
		t.Errorf("Validate error = %v", err)
	}
}

func TestUnsupportedFormat(t *testing.T) {
	srv := llmtest.New(t, llmtest.Status(400, "max_tokens is too large"))
	srv.RejectFormats("json_schema")
	c, _ := newClient(t, srv, nil)
	req := chatReq("x")
	req.Chat.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema}
	_, err := c.Chat(context.Background(), req)
	if !llm.UnsupportedFormat(err) {
		t.Errorf("json_schema refusal: UnsupportedFormat(%v) = false", err)
	}
	_, err = c.Chat(context.Background(), chatReq("y"))
	if err == nil || llm.UnsupportedFormat(err) {
		t.Errorf("other 400: UnsupportedFormat(%v) = true", err)
	}
	if srv.Count() != 2 {
		t.Errorf("requests = %d, want 2", srv.Count())
	}
}

func TestRepeated429LowersConcurrency(t *testing.T) {
	srv := llmtest.New(t, llmtest.TooMany("0"), llmtest.TooMany("0"), llmtest.Text("ok"))
	lim := llm.NewLimiter(llm.Limits{Concurrency: 8})
	c, _ := newClient(t, srv, func(c *llm.Config) { c.Limiter = lim })
	if _, err := c.Chat(context.Background(), chatReq("x")); err != nil {
		t.Fatal(err)
	}
	if got := lim.Concurrency(); got != 4 {
		t.Errorf("concurrency after two 429s = %d, want 4", got)
	}
	if srv.Count() != 3 {
		t.Errorf("requests = %d, want 3", srv.Count())
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, header, ms string
		want             time.Duration
		ok               bool
	}{
		{name: "seconds", header: "2", want: 2 * time.Second, ok: true},
		{name: "fraction", header: "0.5", want: 500 * time.Millisecond, ok: true},
		{name: "date", header: now.Add(4 * time.Second).Format(http.TimeFormat), want: 4 * time.Second, ok: true},
		{name: "past date", header: now.Add(-time.Hour).Format(http.TimeFormat), want: 0, ok: true},
		{name: "ms wins", header: "9", ms: "250", want: 250 * time.Millisecond, ok: true},
		{name: "empty", ok: false},
		{name: "garbage", header: "soon", ok: false},
		{name: "negative", header: "-1", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := llm.RetryAfter(tc.header, tc.ms, now)
			if diff := cmp.Diff([]any{tc.want, tc.ok}, []any{d, ok}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  llm.Config
		want string // substring of the error, "" for none
	}{
		{name: "zero value", cfg: llm.Config{}},
		{name: "local endpoint", cfg: llm.Config{BaseURL: "http://localhost:11434/v1"}},
		{name: "not http", cfg: llm.Config{BaseURL: "ftp://x/v1"}, want: "http or https"},
		{name: "no host", cfg: llm.Config{BaseURL: "http:///v1"}, want: "missing host"},
		{name: "negative timeout", cfg: llm.Config{Timeout: -1}, want: "timeout"},
		{name: "negative rpm", cfg: llm.Config{Limits: llm.Limits{RPM: -1}}, want: "rpm"},
		{name: "negative tpm", cfg: llm.Config{Limits: llm.Limits{TPM: -5}}, want: "tpm"},
		{name: "negative concurrency", cfg: llm.Config{Limits: llm.Limits{Concurrency: -2}}, want: "concurrency"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Validate() = %q, want it to contain %q", got, tc.want)
			}
		})
	}
}

func TestTimeoutExcludesQueueing(t *testing.T) {
	// Concurrency 1, two calls of 400 ms each, timeout 700 ms: the second
	// waits ~400 ms for the slot, then needs 400 ms of its own. Only the
	// attempt counts against the timeout, so both succeed. (The 300 ms
	// margins hold under -race on a loaded machine; 100 ms did not.)
	srv := llmtest.New(t, llmtest.Reply{Content: "a", Delay: 400 * time.Millisecond}, llmtest.Reply{Content: "b", Delay: 400 * time.Millisecond})
	c, _ := newClient(t, srv, func(c *llm.Config) {
		c.Timeout = 700 * time.Millisecond
		c.MaxRetries = -1
		c.NoCache = true
		c.Limits = llm.Limits{Concurrency: 1}
	})
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { _, errs[i] = c.Chat(context.Background(), chatReq(fmt.Sprint(i))) })
	}
	wg.Wait()
	if diff := cmp.Diff([]error{nil, nil}, errs, cmpopts.EquateErrors()); diff != "" || srv.Count() != 2 {
		t.Errorf("requests = %d, errors (-want +got):\n%s", srv.Count(), diff)
	}
}

func TestConcurrencyInFlight(t *testing.T) {
	// 40 calls at once through a client limited to 4: the endpoint never
	// serves more than 4, and does serve 4.
	srv := llmtest.New(t)
	srv.SetDefault(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "ok", Delay: 10 * time.Millisecond} })
	c, _ := newClient(t, srv, func(c *llm.Config) { c.NoCache = true; c.Limits = llm.Limits{Concurrency: 4} })
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if _, err := c.Chat(context.Background(), chatReq(fmt.Sprint(i))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := []int{srv.Count(), srv.PeakInFlight()}; !cmp.Equal([]int{40, 4}, got) {
		t.Errorf("requests, peak in flight = %v, want [40 4]", got)
	}
}

func TestRepeated429sUnderLoad(t *testing.T) {
	// An endpoint that throttles: the first 6 replies are 429s. The shared
	// limit falls from 8, and every call still succeeds.
	var replies []llmtest.Reply
	for range 6 {
		replies = append(replies, llmtest.TooMany("0"))
	}
	srv := llmtest.New(t, replies...)
	srv.SetDefault(func(llmtest.Request) llmtest.Reply { return llmtest.Text("ok") })
	lim := llm.NewLimiter(llm.Limits{Concurrency: 8})
	c, _ := newClient(t, srv, func(c *llm.Config) { c.NoCache = true; c.Limiter = lim; c.MaxRetries = 10 })
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if _, err := c.Chat(context.Background(), chatReq(fmt.Sprint(i))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if lim.Decreases() == 0 || srv.Count() != 14 {
		t.Errorf("decreases = %d, requests = %d; want > 0 and 14 (8 calls + 6 retries)", lim.Decreases(), srv.Count())
	}
	if got := c.Counters(); got.Retries != 6 || got.Errors != 0 {
		t.Errorf("counters = %+v, want 6 retries and no error", got)
	}
}

// TestConnectionDropIsRetried: an endpoint that closes the connection
// without answering (a crashed proxy) is a connection error, retried like a
// 5xx; the next attempt's reply is returned.
func TestConnectionDropIsRetried(t *testing.T) {
	h := llmtest.NewHandler(llmtest.Text("ok"))
	var dropped atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dropped.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			conn.Close()
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	sl := &sleeper{}
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: fakeKey, NoCache: true, Sleep: sl.sleep, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Chat(context.Background(), chatReq("hi"))
	if err != nil {
		t.Fatalf("a dropped connection was not retried: %v", err)
	}
	if got, want := []any{res.Content, res.Attempts, dropped.Load(), h.Count()}, []any{"ok", 2, int32(2), 1}; !cmp.Equal(want, got) {
		t.Errorf("content, attempts, connections, answered = %v, want %v", got, want)
	}
}
