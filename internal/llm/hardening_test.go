package llm_test

import (
	"context"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

// noChoices is the reply of the issue: a 200 whose choices array is empty.
const noChoices = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"test-model","choices":[]}`

// A 200 with no choices, or with empty content when content is required,
// is retried like a 5xx and counted; it was returned as a success.
func TestEmptyReplyIsRetried(t *testing.T) {
	tests := []struct {
		name    string
		replies []llmtest.Reply
		require bool
		maxRet  int
		want    outcome
		msg     string
	}{
		{
			name:    "no choices, then an answer",
			replies: []llmtest.Reply{{Body: noChoices}, llmtest.Text("ok")},
			want:    outcome{Requests: 2, Content: "ok", Retries: 1, Attempts: 2},
		},
		{
			name:    "no choices until the retries run out",
			replies: []llmtest.Reply{{Body: noChoices}, {Body: noChoices}, {Body: noChoices}},
			maxRet:  2,
			want:    outcome{Requests: 3, Retries: 2, Attempts: 3, Err: true, Status: 200, Retryable: true},
			msg:     "status 200: the reply has no choices (after 3 attempts)",
		},
		{
			name:    "empty content when content is required",
			replies: []llmtest.Reply{llmtest.Text("  \n"), llmtest.Text(`{"ok": true}`)},
			require: true,
			want:    outcome{Requests: 2, Content: `{"ok": true}`, Retries: 1, Attempts: 2},
		},
		{
			name:    "empty content is an answer when content is not required",
			replies: []llmtest.Reply{llmtest.Text(""), llmtest.Text("never")},
			want:    outcome{Requests: 1, Attempts: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.replies...)
			c, _ := newClient(t, srv, func(cfg *llm.Config) {
				if tc.maxRet != 0 {
					cfg.MaxRetries = tc.maxRet
				}
			})
			req := chatReq("hi")
			req.RequireContent = tc.require
			res, err := c.Chat(context.Background(), req)
			got := outcome{Requests: srv.Count(), Content: res.Content, Retries: res.Retries, Attempts: res.Attempts, Err: err != nil}
			var e *llm.Error
			if errors.As(err, &e) {
				got.Status, got.Retryable = e.Status, e.Retryable
				got.Content = ""
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("outcome (-want +got):\n%s", d)
			}
			if tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)) {
				t.Errorf("error %v, want it to say %q", err, tc.msg)
			}
			if n := c.Counters().Retries; n != tc.want.Retries {
				t.Errorf("client counted %d retries, want %d", n, tc.want.Retries)
			}
			if tc.want.Err && len(entryFiles(t, cacheDir(c))) != 0 {
				t.Error("an empty reply was cached")
			}
		})
	}
}

func cacheDir(c *llm.Client) string {
	if c.Cache() == nil {
		return ""
	}
	return c.Cache().Dir()
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case 'A' <= c && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func codes(s string) string {
	var parts []string
	for i := 0; i < len(s); i++ {
		parts = append(parts, strconv.Itoa(int(s[i])))
	}
	return strings.Join(parts, " ")
}

// The fourth finding: an openai summarizer that copied a scenario
// secret had its reply stored, secret and all, in the response cache. A
// reply that leaks a secret of the call's scenario (carried by the context)
// or an API key is not stored; the next call asks again.
func TestCacheNeverStoresASecret(t *testing.T) {
	const secret = "sk_live_51QxT9mKq2RwZ8vN4bLc7HyPd3eFgA6sJ0tUi1oVzX5nMkE7Hq2"
	rd := redact.New([]redact.Secret{{ID: "stripe-key", Value: secret}}, "masked: sk_live_****7Hq2")
	ctx := redact.NewContext(context.Background(), rd)
	for _, tc := range []struct {
		name, content string
		stored        bool
	}{
		{"the secret", `{"text": "key ` + secret + `"}`, false},
		{"the secret, \\u-escaped inside the content", `{"text": "key \u0073\u006b_live_51QxT9mKq2RwZ8vN4bLc7H"}`, false},
		{"the secret without its first character", `{"text": "` + secret[1:] + `"}`, false},
		{"the API key", `{"text": "my key is ` + fakeKey + `"}`, false},
		// Issue 26, finding 2: forms the secret check passed reached the cache.
		{"the secret's hex wrapped across a line", `{"text": "` + hex.EncodeToString([]byte(secret))[:40] + `\n` + hex.EncodeToString([]byte(secret))[40:] + `"}`, false},
		{"base64 of the secret without its first characters", `{"text": "` + base64.StdEncoding.EncodeToString([]byte(secret[2:])) + `"}`, false},
		{"the secret in ROT13", `{"text": "` + rot13(secret) + `"}`, false},
		{"the secret reversed", `{"text": "` + reverse(secret) + `"}`, false},
		{"the secret as base32", `{"text": "` + base32.StdEncoding.EncodeToString([]byte(secret)) + `"}`, false},
		{"the secret as decimal codes", `{"text": "` + codes(secret) + `"}`, false},
		{"only the public masked form", `{"text": "revoked key sk_live_****7Hq2"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Text(tc.content), llmtest.Text(tc.content))
			c, _ := newClient(t, srv, nil)
			for range 2 {
				if _, err := c.Chat(ctx, chatReq("summarize")); err != nil {
					t.Fatal(err)
				}
			}
			files := entryFiles(t, c.Cache().Dir())
			if stored := len(files) > 0; stored != tc.stored {
				t.Fatalf("stored = %v, want %v", stored, tc.stored)
			}
			wantRequests := 2
			if tc.stored {
				wantRequests = 1 // the second call came from the cache
			}
			if srv.Count() != wantRequests {
				t.Errorf("%d requests, want %d", srv.Count(), wantRequests)
			}
			filepath.WalkDir(c.Cache().Dir(), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					if strings.Contains(string(b), "mKq2RwZ8") || strings.Contains(string(b), fakeKey) {
						t.Errorf("%s holds the secret", p)
					}
				}
				return nil
			})
		})
	}
}
