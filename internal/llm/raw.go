package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/clip"
)

// MaxReplyBytes bounds the body of one reply read by Post; a longer reply is
// an error (never retried: the endpoint would send it again).
const MaxReplyBytes = 32 << 20

// Call is one JSON POST to a provider API that is not chat completions (the
// Anthropic Messages API, the OpenAI Responses API). It goes through the same
// limiter, retries, timeouts and cache as Chat.
type Call struct {
	// Op names the call in errors, e.g. "anthropic messages".
	Op string
	// Path is appended to the endpoint's base URL, e.g. "/responses/compact".
	Path string
	// Header holds the request headers that shape the reply (an API
	// version, beta flags). They are sent, and they are part of the cache
	// key: never put a credential here (the client adds the key itself).
	Header http.Header
	// Body is the JSON request body, sent byte for byte.
	Body []byte
	// Trial is the trial index; it is part of the cache key so that trials
	// stay independent.
	Trial int
	// Tokens is the request's estimated prompt tokens, for the TPM limit
	// (0: counted as nothing).
	Tokens int
	// Accept, if not nil, checks a successful reply's body. An error fails
	// the call (not retried) and the reply is not cached; a *Truncated one
	// (the reply stopped at its output limit) is returned as it is, with
	// Config.LimitHint.
	Accept func(body []byte) error
}

// Reply is the outcome of Post. Post returns it also on error, with the
// figures known so far.
type Reply struct {
	// Body is the reply's JSON body (a 2xx reply; nil on error, except when
	// Accept refused it).
	Body []byte
	// Latency is the wall time of the call, waits and retries included.
	Latency time.Duration
	// Attempts is the number of HTTP requests sent (0 on a cache hit);
	// Retries is Attempts-1 when Attempts > 0.
	Attempts, Retries int
	// CacheHit is true when the reply came from the cache.
	CacheHit bool
}

// URL is the address a call to path goes to: the base URL with path
// appended (one slash between them).
func (c *Client) URL(path string) string {
	return strings.TrimRight(c.base, "/") + "/" + strings.TrimLeft(path, "/")
}

// CallKey is the cache key of a Call: the SHA-256 of the endpoint's host and
// path, the call's path, its headers (sorted), the trial index and the body.
// The API key is not an input.
func CallKey(endpoint string, call *Call) string {
	h := sha256.New()
	fmt.Fprintf(h, "compact-eval cache %s\nendpoint %s\npath %s\ntrial %d\n", cacheLayout, endpointID(endpoint), call.Path, call.Trial)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range call.Header {
			if !yield(http.CanonicalHeaderKey(k)) {
				return
			}
		}
	}) {
		fmt.Fprintf(h, "header %s: %s\n", k, strings.Join(call.Header.Values(k), ", "))
	}
	h.Write([]byte("\n"))
	h.Write(call.Body)
	return hex.EncodeToString(h.Sum(nil))
}

// Post sends a call: from the cache when it holds the reply, else through the
// limiter, retrying 429, 5xx (529 included), timeouts and connection errors
// like Chat. Any other 4xx is not retried. The error is an *Error whose
// message is the provider's own error message (error.message of the JSON
// body), with the key redacted.
func (c *Client) Post(ctx context.Context, call *Call) (*Reply, error) {
	start := time.Now()
	if c.cache != nil {
		if body, ok := c.cache.Get(CallKey(c.base, call)); ok && (call.Accept == nil || call.Accept(body) == nil) {
			c.countHit()
			return &Reply{Body: body, CacheHit: true, Latency: time.Since(start)}, nil
		}
	}
	if c.cfg.CacheOnly {
		return &Reply{}, ErrNotCached
	}
	if c.cache != nil {
		key := CallKey(c.base, call)
		end, _ := c.flights.join(ctx, key)
		defer end()
		// The same call may have been in flight, or have ended since the
		// lookup above: its reply is in the cache now, unless it could not
		// be stored.
		if body, ok := c.cache.Get(key); ok && (call.Accept == nil || call.Accept(body) == nil) {
			c.countHit()
			return &Reply{Body: body, CacheHit: true, Latency: time.Since(start)}, nil
		}
	}
	if !json.Valid(call.Body) {
		return &Reply{}, &Error{op: call.op(), msg: "request body is not JSON"}
	}
	rep := &Reply{}
	err := c.retry(ctx, &rep.Attempts, call.Tokens, call.op(), func(ctx context.Context, a *attempt) *Error {
		body, e := c.postOnce(ctx, call, a)
		if e == nil {
			rep.Body = body
		}
		return e
	})
	rep.Latency = time.Since(start)
	if rep.Attempts > 0 {
		rep.Retries = rep.Attempts - 1
	}
	if err == nil && call.Accept != nil {
		var t *Truncated
		if aerr := call.Accept(rep.Body); errors.As(aerr, &t) {
			// Cut at the output limit: named as such, with the hint.
			t.Op = call.op()
			if t.Hint == "" {
				t.Hint = c.cfg.LimitHint
			}
			err = t
		} else if aerr != nil {
			err = &Error{op: call.op(), Status: http.StatusOK, Attempts: rep.Attempts, msg: "unusable reply: " + Redact(aerr.Error(), c.cfg.APIKey), err: redactErr(aerr, c.cfg.APIKey)}
		}
	}
	if err != nil {
		c.countError()
		return rep, err
	}
	if c.cache != nil && storable(ctx, rep.Body) {
		// A cache that cannot be written costs only speed.
		_ = c.cache.Put(CallKey(c.base, call), rep.Body)
	}
	return rep, nil
}

func (call *Call) op() string {
	if call.Op == "" {
		return "api call"
	}
	return call.Op
}

// postOnce sends one attempt and reads the reply, classifying a failure.
func (c *Client) postOnce(ctx context.Context, call *Call, a *attempt) ([]byte, *Error) {
	key := c.cfg.APIKey
	req, err := http.NewRequestWithContext(context.WithValue(ctx, attemptKey{}, a), http.MethodPost, c.URL(call.Path), bytes.NewReader(call.Body))
	if err != nil {
		return nil, &Error{msg: Redact(err.Error(), key), err: redactErr(err, key)}
	}
	for k, vs := range call.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if key != "" {
		switch c.cfg.KeyHeader {
		case "", "Authorization":
			req.Header.Set("Authorization", "Bearer "+key)
		default:
			req.Header.Set(c.cfg.KeyHeader, key)
		}
	}
	hc := c.cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	resp, err := doer{hc: hc, c: c}.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxReplyBytes+1))
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if len(body) > MaxReplyBytes {
		return nil, &Error{Status: resp.StatusCode, msg: fmt.Sprintf("status %d: reply larger than %d MiB", resp.StatusCode, MaxReplyBytes>>20)}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if !json.Valid(body) {
			return nil, &Error{Status: resp.StatusCode, msg: "unreadable reply: not JSON: " + clip.String(Redact(strings.TrimSpace(string(body)), key), 200)}
		}
		return body, nil
	}
	e := &Error{Status: resp.StatusCode, msg: fmt.Sprintf("status %d: %s", resp.StatusCode, errorMessage(body, key))}
	e.Retryable = ctx.Err() == nil && (e.Status == http.StatusTooManyRequests || e.Status >= 500)
	return nil, e
}

// transportError classifies a failure to send or read: cancellation is
// final, a timeout or a dropped connection may be retried.
func (c *Client) transportError(ctx context.Context, err error) *Error {
	key := c.cfg.APIKey
	e := &Error{err: redactErr(err, key)}
	switch {
	case ctx.Err() != nil:
		e.msg = "cancelled: " + ctx.Err().Error()
	case errors.Is(err, context.DeadlineExceeded):
		e.msg = fmt.Sprintf("timed out after %v", c.cfg.timeout())
		e.Retryable = true
	case transient(err):
		e.msg = "connection error: " + Redact(err.Error(), key)
		e.Retryable = true
	default:
		e.msg = Redact(err.Error(), key)
	}
	return e
}

// errorMessage is the provider's error message in an error reply: the
// error.message of {"error": {"message": …}} (OpenAI and Anthropic both
// answer so), else the start of the body.
func errorMessage(body []byte, key string) string {
	var v struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &v) == nil && v.Error.Message != "" {
		msg = v.Error.Message
		if v.Error.Type != "" && !strings.Contains(msg, v.Error.Type) {
			msg = v.Error.Type + ": " + msg
		}
	}
	if msg == "" {
		msg = "(empty body)"
	}
	return clip.String(Redact(msg, key), 500)
}
