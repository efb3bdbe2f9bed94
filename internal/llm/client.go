package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/tokens"
)

// Client calls one OpenAI-compatible endpoint. It is safe for concurrent use.
type Client struct {
	cfg   Config
	oc    *openai.Client
	lim   *Limiter
	cache *Cache // nil when NoCache
	base  string
	host  string

	meters
	flights flights
}

// New builds a client. The configuration is validated first.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, base: cfg.baseURL()}
	c.meters.shared = cfg.Meter
	c.host = Host(c.base)
	// The key may come from anywhere (a config's api_key_env, a flag, an
	// injected environment): every output hides it from now on.
	redact.RegisterKey("api-key", cfg.APIKey)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(c.base, "/")
	oc.HTTPClient = doer{hc: hc, c: c}
	c.oc = openai.NewClientWithConfig(oc)
	c.lim = cfg.Limiter
	if c.lim == nil {
		c.lim = NewLimiter(cfg.Limits)
	}
	if !cfg.NoCache {
		c.cache = OpenCache(cfg.CacheDir)
	}
	return c, nil
}

var defaultHTTPClient = &http.Client{Transport: &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	ForceAttemptHTTP2:   true,
	MaxIdleConns:        256,
	MaxIdleConnsPerHost: 256,
	IdleConnTimeout:     90 * time.Second,
	TLSHandshakeTimeout: 10 * time.Second,
	// A summarize request is 10 to 30 KB: with the default 4 KB buffer
	// each one is written as its headers and first 4 KB, then the rest
	// through a copy buffer allocated per request. 32 KB (per connection)
	// sends most requests in one write, with no allocation.
	WriteBufferSize: 32 << 10,
}}

// Host is the endpoint's host[:port], for provenance.
func (c *Client) Host() string { return c.host }

// Limiter is the limiter the client applies.
func (c *Client) Limiter() *Limiter { return c.lim }

// Cache is the response cache, nil when caching is off.
func (c *Client) Cache() *Cache { return c.cache }

// Counters are a client's counts since it was built.
type Counters struct {
	Requests  int // HTTP requests sent
	Retries   int // requests that were retries
	Errors    int // calls that ended in an error
	CacheHits int // calls answered from the cache
}

// Counters returns the client's counts.
func (c *Client) Counters() Counters {
	return c.own.Counters()
}

// Request is one chat completion call.
type Request struct {
	// Chat is the request as sent. Stream must be false.
	Chat openai.ChatCompletionRequest
	// Trial is the trial index; it is part of the cache key so that trials
	// stay independent.
	Trial int
	// Accept, if not nil, checks a successful response. An error is
	// returned as the call's error and the response is not cached, so a
	// reply the caller cannot use never comes back from the cache.
	Accept func(*openai.ChatCompletionResponse) error
	// RequireContent makes a reply whose first choice has no content (only
	// white space, and no refusal) a failure retried like a 5xx: the
	// hiccup of an overloaded server, not an answer. A reply with no
	// choice at all is always retried.
	RequireContent bool
}

// Result is the outcome of a call. Chat returns it also on error, with the
// figures known so far (retries, latency).
type Result struct {
	Response openai.ChatCompletionResponse
	// Content is the first choice's message content ("" if none).
	Content string
	// Latency is the wall time of the call, waits and retries included.
	Latency time.Duration
	// Attempts is the number of HTTP requests sent (0 on a cache hit).
	Attempts int
	// Retries is Attempts-1 when Attempts > 0.
	Retries int
	// CacheHit is true when the response came from the cache.
	CacheHit bool
}

// Error is a call that did not succeed.
type Error struct {
	// Status is the HTTP status of the last attempt, 0 if none arrived
	// (timeout, connection error).
	Status int
	// Attempts is the number of HTTP requests sent.
	Attempts int
	// Retryable is true when the last failure was of a retryable kind
	// (the retries ran out).
	Retryable bool
	op        string // what was called, for the message; "" means opChat
	msg       string
	err       error
}

// opChat names a chat completion call in errors.
const opChat = "chat completion"

func (e *Error) Error() string {
	op := e.op
	if op == "" {
		op = opChat
	}
	s := op + ": " + e.msg
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	return s
}

// Unwrap returns the underlying error (its text may quote the endpoint's
// reply; it never holds the API key, which is redacted).
func (e *Error) Unwrap() error { return e.err }

// Message is the endpoint's error message, or the transport error's text.
func (e *Error) Message() string { return e.msg }

// UnsupportedFormat reports whether err is an endpoint refusing the
// requested response_format (a 400 or 422 naming it), the signal to fall
// back to a weaker output mode.
func UnsupportedFormat(err error) bool {
	var e *Error
	if !errors.As(err, &e) || (e.Status != http.StatusBadRequest && e.Status != http.StatusUnprocessableEntity) {
		return false
	}
	m := strings.ToLower(e.msg)
	for _, w := range []string{"response_format", "response format", "json_schema", "json_object", "structured output", "guided", "grammar"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// attempt carries what the transport needs (the token estimate) and
// records what it saw of one HTTP attempt.
type attempt struct {
	tokens     int
	status     int
	retryAfter string
	retryMS    string
}

type attemptKey struct{}

// doer is the HTTP client handed to go-openai. It applies the limiter
// once the request is fully built (so building a request is never done
// while holding a slot), bounds the attempt with the per-attempt timeout
// (waiting for a slot does not count), counts requests, and keeps the status
// and Retry-After of the reply for the retry loop. The slot is held until
// go-openai closes the reply's body.
type doer struct {
	hc *http.Client
	c  *Client
}

func (d doer) Do(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	if a == nil {
		a = &attempt{}
	}
	release, err := d.c.lim.Acquire(ctx, a.tokens)
	if err != nil {
		return nil, err
	}
	tctx, cancel := context.WithTimeout(ctx, d.c.cfg.timeout())
	d.c.countRequest()
	resp, err := d.hc.Do(r.WithContext(tctx))
	if err != nil {
		cancel()
		release()
		return nil, err
	}
	a.status = resp.StatusCode
	a.retryAfter = resp.Header.Get("Retry-After")
	a.retryMS = resp.Header.Get("Retry-After-Ms")
	resp.Body = &heldBody{ReadCloser: resp.Body, done: func() { cancel(); release() }}
	return resp, nil
}

// heldBody gives the slot back (and ends the attempt's timeout) when the
// reply's body is closed.
type heldBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *heldBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.done)
	return err
}

// EstimateTokens estimates the prompt tokens of a request offline (for the
// TPM limit): the messages' text counted with the default encoding, plus a
// few tokens per message of framing.
func EstimateTokens(req *openai.ChatCompletionRequest) int {
	c := tokens.Default()
	n := 0
	for _, m := range req.Messages {
		n += 4 + c.Count(m.Content)
		for _, tc := range m.ToolCalls {
			n += 4 + c.Count(tc.Function.Name) + c.Count(tc.Function.Arguments)
		}
	}
	return n
}

// Lookup answers a request from the cache only, sending nothing.
func (c *Client) Lookup(req *Request) (*Result, bool) {
	if c.cache == nil {
		return nil, false
	}
	chat := c.withCompletionTokens(req.Chat)
	key, err := Key(c.base, req.Trial, chat)
	if err != nil {
		return nil, false
	}
	body, ok := c.cache.Get(key)
	if !ok {
		return nil, false
	}
	var resp openai.ChatCompletionResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, false
	}
	if c.chatTruncated(&resp, &chat) != nil {
		// Stored by an older version: a truncated reply is no answer.
		return nil, false
	}
	if req.Accept != nil && req.Accept(&resp) != nil {
		return nil, false
	}
	c.countHit()
	return &Result{Response: resp, Content: content(&resp), CacheHit: true}, true
}

func content(r *openai.ChatCompletionResponse) string {
	if len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Message.Content
}

// Chat sends a chat completion request: from the cache when it holds the
// answer, else through the limiter, retrying 429, 5xx, timeouts, connection
// errors and a 200 with no answer (no choice; an empty message when
// Request.RequireContent) up to MaxRetries times with exponential backoff and full
// jitter (or the wait Retry-After asks for). Any other 4xx is not retried.
//
// A reply cut at the output limit (finish_reason "length") is a *Truncated
// error: neither retried nor cached. The request's max_tokens goes out as
// max_completion_tokens to a model that takes only that
// (UsesCompletionTokens); an endpoint that refuses max_tokens with a 400
// asking for max_completion_tokens gets the request again so, once, and
// the client remembers it for that model.
func (c *Client) Chat(ctx context.Context, req *Request) (*Result, error) {
	r := *req
	r.Chat = c.withCompletionTokens(req.Chat)
	res, err := c.chat(ctx, &r)
	if err != nil && r.Chat.MaxTokens > 0 && refusedMaxTokens(err) {
		completionTokens.Store(endpointID(c.base)+"\x00"+r.Chat.Model, true)
		r.Chat = c.withCompletionTokens(r.Chat)
		first := res
		res, err = c.chat(ctx, &r)
		res.Attempts += first.Attempts
		res.Latency += first.Latency
		if res.Attempts > 0 {
			res.Retries = res.Attempts - 1
		}
	}
	if err != nil && !errors.Is(err, ErrNotCached) {
		c.countError()
	}
	return res, err
}

// chat is one Chat of req as it is (its limit field already chosen).
func (c *Client) chat(ctx context.Context, req *Request) (*Result, error) {
	start := time.Now()
	if r, ok := c.Lookup(req); ok {
		r.Latency = time.Since(start)
		return r, nil
	}
	res := &Result{}
	if c.cfg.CacheOnly {
		return res, ErrNotCached
	}
	if c.cache != nil {
		if key, err := Key(c.base, req.Trial, req.Chat); err == nil {
			end, _ := c.flights.join(ctx, key)
			defer end()
			// The same request may have been in flight, or have ended
			// since the lookup above: its reply is in the cache now,
			// unless it could not be stored.
			if r, ok := c.Lookup(req); ok {
				r.Latency = time.Since(start)
				return r, nil
			}
		}
	}
	resp, err := c.send(ctx, req, res)
	res.Latency = time.Since(start)
	if res.Attempts > 0 {
		res.Retries = res.Attempts - 1
	}
	if err == nil {
		if t := c.chatTruncated(&resp, &req.Chat); t != nil {
			err = t
		}
	}
	if err == nil && req.Accept != nil {
		if aerr := req.Accept(&resp); aerr != nil {
			err = aerr
		}
	}
	if err != nil {
		res.Response = resp
		res.Content = content(&resp)
		return res, err
	}
	res.Response = resp
	res.Content = content(&resp)
	if c.cache != nil {
		if key, kerr := Key(c.base, req.Trial, req.Chat); kerr == nil {
			if body, merr := json.Marshal(resp); merr == nil && storable(ctx, body) {
				// A cache that cannot be written costs only speed.
				_ = c.cache.Put(key, body)
			}
		}
	}
	return res, nil
}

// storable reports whether a reply may go in the cache: not when it leaks a
// secret of the call's scenario (a summarizer that copied it; the Redactor
// comes with ctx) or an API key, which the cache would keep on disk for
// good. Such a reply is asked for again next run.
func storable(ctx context.Context, body []byte) bool {
	return !redact.Join(redact.FromContext(ctx), redact.Keys()).ContainsJSON(body)
}

func (c *Client) send(ctx context.Context, req *Request, res *Result) (openai.ChatCompletionResponse, error) {
	if req.Chat.Stream {
		return openai.ChatCompletionResponse{}, fmt.Errorf("chat completion: streaming is not supported")
	}
	est := 0
	if c.lim.tpm != nil {
		est = EstimateTokens(&req.Chat)
	}
	var resp openai.ChatCompletionResponse
	err := c.retry(ctx, &res.Attempts, est, opChat, func(ctx context.Context, a *attempt) *Error {
		var err error
		resp, err = c.oc.CreateChatCompletion(context.WithValue(ctx, attemptKey{}, a), req.Chat)
		if err == nil {
			why := emptyReply(&resp, req.RequireContent)
			if why == "" {
				return nil
			}
			err = errEmptyReply(why)
		}
		return c.classify(ctx, err, a)
	})
	return resp, err
}

// retry runs try until it succeeds, fails in a way that is not retryable,
// or MaxRetries retries have been spent: the loop every API call of the
// client shares. try sends one attempt (est estimated prompt tokens, for the
// TPM limit) and classifies its failure; *attempts counts the attempts.
// Retries wait with exponential backoff and full jitter, or as long as
// Retry-After asks; 429 replies feed the adaptive concurrency limit.
func (c *Client) retry(ctx context.Context, attempts *int, est int, op string, try func(context.Context, *attempt) *Error) error {
	maxRetries := c.cfg.maxRetries()
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if i > 0 {
			c.countRetry()
		}
		*attempts++
		a := &attempt{tokens: est}
		e := try(ctx, a)
		if e == nil {
			c.lim.ObserveSuccess()
			return nil
		}
		e.op = op
		if e.Status == http.StatusTooManyRequests {
			c.lim.Observe429()
		}
		e.Attempts = *attempts
		if !e.Retryable || i >= maxRetries {
			return e
		}
		wait := c.backoff(i, a)
		sleep := c.cfg.Sleep
		if sleep == nil {
			sleep = sleepCtx
		}
		if err := sleep(ctx, wait); err != nil {
			e.Retryable = false
			e.msg += "; cancelled while waiting to retry"
			return e
		}
	}
}

// classify turns a go-openai error into an *Error saying whether it may be
// retried. The parent context being done is never retryable.
func (c *Client) classify(ctx context.Context, err error, a *attempt) *Error {
	key := c.cfg.APIKey
	e := &Error{Status: a.status, err: redactErr(err, key)}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var empty errEmptyReply
	switch {
	case ctx.Err() != nil:
		e.msg = "cancelled: " + ctx.Err().Error()
	case errors.As(err, &empty):
		e.Status = a.status
		e.msg = fmt.Sprintf("status %d: %s", a.status, string(empty))
		e.Retryable = true
		return e
	case errors.As(err, &apiErr):
		e.Status = apiErr.HTTPStatusCode
		e.msg = fmt.Sprintf("status %d: %s", apiErr.HTTPStatusCode, clip.String(Redact(apiErr.Message, key), 500))
	case errors.As(err, &reqErr):
		e.Status = reqErr.HTTPStatusCode
		body := Redact(strings.TrimSpace(string(reqErr.Body)), key)
		e.msg = fmt.Sprintf("status %d: %s", reqErr.HTTPStatusCode, clip.String(body, 200))
	case errors.Is(err, context.DeadlineExceeded):
		e.msg = fmt.Sprintf("timed out after %v", c.cfg.timeout())
		e.Retryable = true
		return e
	case transient(err):
		e.msg = "connection error: " + Redact(err.Error(), key)
		e.Retryable = true
		return e
	default:
		e.msg = Redact(err.Error(), key)
		if a.status >= 200 && a.status < 300 {
			e.msg = "unreadable reply: " + e.msg
		}
		return e
	}
	e.Retryable = ctx.Err() == nil && (e.Status == http.StatusTooManyRequests || e.Status >= 500)
	return e
}

// errEmptyReply is a 200 that carries no answer; it is retried.
type errEmptyReply string

func (e errEmptyReply) Error() string { return string(e) }

// emptyReply says why a successful reply holds no answer ("" when it holds
// one): no choice at all, or, when content is required, a first choice with
// neither content nor a refusal.
func emptyReply(r *openai.ChatCompletionResponse, requireContent bool) string {
	switch {
	case len(r.Choices) == 0:
		return "the reply has no choices"
	case requireContent && strings.TrimSpace(r.Choices[0].Message.Content) == "" && r.Choices[0].Message.Refusal == "" && len(r.Choices[0].Message.ToolCalls) == 0:
		return "the reply's message is empty"
	}
	return ""
}

// transient reports connection-level failures worth retrying.
func transient(err error) bool {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.As(err, &ne):
		return true
	}
	return false
}

// backoff is the wait before retry number i+1: what Retry-After (or
// Retry-After-Ms) asks for when the reply had it, else a uniform wait in
// [0, BaseBackoff·2^i), capped by MaxBackoff.
func (c *Client) backoff(i int, a *attempt) time.Duration {
	maxB := c.cfg.MaxBackoff
	if maxB == 0 {
		maxB = DefaultMaxBackoff
	}
	now := time.Now
	if c.cfg.Now != nil {
		now = c.cfg.Now
	}
	if d, ok := RetryAfter(a.retryAfter, a.retryMS, now()); ok {
		return min(d, maxB)
	}
	base := c.cfg.BaseBackoff
	if base == 0 {
		base = DefaultBaseBackoff
	}
	ceil := base << min(i, 30)
	if ceil <= 0 || ceil > maxB {
		ceil = maxB
	}
	return rand.N(ceil)
}

// RetryAfter parses a Retry-After header value (seconds, possibly
// fractional, or an HTTP date, relative to now) or a Retry-After-Ms value in
// milliseconds, which wins when both are present. ok is false when neither
// parses.
func RetryAfter(header, ms string, now time.Time) (d time.Duration, ok bool) {
	if ms = strings.TrimSpace(ms); ms != "" {
		if v, err := strconv.ParseFloat(ms, 64); err == nil && v >= 0 {
			return time.Duration(v * float64(time.Millisecond)), true
		}
	}
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, false
	}
	if v, err := strconv.ParseFloat(header, 64); err == nil {
		if v < 0 {
			return 0, false
		}
		return time.Duration(v * float64(time.Second)), true
	}
	if t, err := http.ParseTime(header); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Output modes of a structured reply, strongest first.
const (
	ModeJSONSchema = "json_schema"
	ModeJSONObject = "json_object"
	ModeText       = "text"
)

// refusedModes holds the output modes an endpoint refused for a model
// during this process: endpoint id + "\x00" + model + "\x00" + mode.
// What is remembered is a refusal, never a success: that an agent's
// json_object request was answered says nothing of whether the judge's
// json_schema would be, and remembering it as "the mode that works" made
// every later caller of the model start weaker, as soon as one finished
// first (a judge's question sent in another mode from one trial to the
// next, so the cache never answered it).
var refusedModes sync.Map

func modeKey(base, model, mode string) string {
	return endpointID(base) + "\x00" + model + "\x00" + mode
}

// RefusedMode reports whether this endpoint refused mode for model during
// this process.
func (c *Client) RefusedMode(model, mode string) bool {
	_, ok := refusedModes.Load(modeKey(c.base, model, mode))
	return ok
}

// SetRefusedMode remembers that this endpoint refused mode for model, for
// the rest of the process: every caller of the model skips it.
func (c *Client) SetRefusedMode(model, mode string) {
	refusedModes.Store(modeKey(c.base, model, mode), true)
}
