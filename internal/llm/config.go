package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults used when a Config field is zero.
const (
	// DefaultBaseURL is the endpoint used when neither Config.BaseURL nor
	// OPENAI_BASE_URL is set.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultMaxRetries is the number of retries after the first attempt.
	DefaultMaxRetries = 4
	// DefaultTimeout bounds one HTTP attempt.
	DefaultTimeout = 120 * time.Second
	// DefaultConcurrency is the number of requests in flight at once.
	DefaultConcurrency = 4
	// DefaultBaseBackoff is the first backoff ceiling; it doubles per retry.
	DefaultBaseBackoff = 500 * time.Millisecond
	// DefaultMaxBackoff caps one backoff wait (and a Retry-After wait).
	DefaultMaxBackoff = 60 * time.Second
)

// Config configures a Client. The zero value is usable: every field says
// what zero means. APIKey is never logged, never put in a cache key, an error
// message or provenance.
type Config struct {
	// BaseURL is the OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.
	// "" means DefaultBaseURL. (Callers read OPENAI_BASE_URL themselves; see
	// FromEnv.)
	BaseURL string
	// APIKey is sent as a bearer token (or in KeyHeader). "" sends no key
	// (local servers such as Ollama need none).
	APIKey string
	// KeyHeader is the header that carries APIKey on Post calls: "" (or
	// "Authorization") sends "Authorization: Bearer KEY", as OpenAI-compatible
	// endpoints want; Anthropic's API wants "x-api-key". Chat calls always
	// send a bearer token.
	KeyHeader string
	// MaxRetries is how many times a retryable failure (429, 5xx, timeout,
	// connection error) is retried. 0 means DefaultMaxRetries; a negative
	// value means no retry at all.
	MaxRetries int
	// Timeout bounds one HTTP attempt, from sending the request to reading
	// the reply; waiting for a concurrency slot or a rate limit does not
	// count. 0 means DefaultTimeout.
	Timeout time.Duration
	// BaseBackoff is the ceiling of the first backoff wait (full jitter:
	// a uniform wait in [0, ceiling)); the ceiling doubles per retry. 0 means
	// DefaultBaseBackoff.
	BaseBackoff time.Duration
	// MaxBackoff caps one wait, including one asked for by Retry-After.
	// 0 means DefaultMaxBackoff.
	MaxBackoff time.Duration
	// CacheDir is the response cache directory. "" means DefaultCacheDir().
	CacheDir string
	// NoCache turns the response cache off: nothing is read or written.
	NoCache bool
	// CacheOnly answers from the cache alone and never sends a request: a
	// call the cache cannot answer fails with ErrNotCached (run
	// --dry-run). With NoCache every call fails so.
	CacheOnly bool
	// Limiter holds the rate limits and the adaptive concurrency shared by
	// every Client of a run that talks to the same endpoint. nil means the
	// Client gets its own, built from Limits.
	Limiter *Limiter
	// Meter, when set, counts this client's requests, retries, errors and
	// cache hits too, with those of every client sharing it (a run's
	// progress line). nil: only the client's own Counters count them.
	Meter *Meter
	// Limits are used only when Limiter is nil.
	Limits Limits
	// HTTPClient sends the requests. nil means a client tuned for many
	// concurrent requests to one host (keep-alive, no global timeout: the
	// per-attempt Timeout applies).
	HTTPClient *http.Client
	// Sleep waits between retries. nil means a real, cancellable sleep.
	// Tests replace it to observe waits without spending them.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read Retry-After dates. nil means time.Now.
	Now func() time.Time
	// LimitHint says how a user raises the output-token limit of this
	// client's requests (a flag, a config key), named in a Truncated
	// error; "" names nothing.
	LimitHint string
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	var errs []error
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("endpoint: %w", redactErr(err, c.APIKey)))
		case u.Scheme != "http" && u.Scheme != "https":
			errs = append(errs, fmt.Errorf("endpoint %q: want an http or https URL", Host(c.BaseURL)))
		case u.Host == "":
			errs = append(errs, fmt.Errorf("endpoint: missing host"))
		}
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %v: must not be negative", c.Timeout))
	}
	if c.BaseBackoff < 0 || c.MaxBackoff < 0 {
		errs = append(errs, fmt.Errorf("backoff: must not be negative"))
	}
	if c.Limiter == nil {
		if err := c.Limits.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c Config) baseURL() string {
	if c.BaseURL == "" {
		return DefaultBaseURL
	}
	return c.BaseURL
}

func (c Config) maxRetries() int {
	switch {
	case c.MaxRetries < 0:
		return 0
	case c.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return c.MaxRetries
}

func (c Config) timeout() time.Duration {
	if c.Timeout == 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// FromEnv fills BaseURL and APIKey from OPENAI_BASE_URL and OPENAI_API_KEY
// when they are empty, reading variables through getenv (os.Getenv if nil).
func (c Config) FromEnv(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	if c.BaseURL == "" {
		c.BaseURL = getenv("OPENAI_BASE_URL")
	}
	if c.APIKey == "" {
		c.APIKey = getenv("OPENAI_API_KEY")
	}
	return c
}

// DefaultCacheDir is os.UserCacheDir()/compact-eval, or a compact-eval
// directory under the temporary directory when the user has no cache dir.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil || d == "" {
		d = os.TempDir()
	}
	return filepath.Join(d, "compact-eval")
}

// Host is the host[:port] of an endpoint URL: what provenance records. It
// never includes user info, path or query. An unparsable URL gives "".
func Host(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return ""
	}
	return u.Host
}

// endpointID is host and path of an endpoint (no user info, no query): what
// the cache key uses, so that two gateways on one host stay apart.
func endpointID(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host) + strings.TrimRight(u.Path, "/")
}

// redactErr hides key in an error's text.
func redactErr(err error, key string) error {
	if err == nil || key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return redacted{msg: Redact(err.Error(), key), err: err}
}

type redacted struct {
	msg string
	err error
}

func (r redacted) Error() string { return r.msg }

// Unwrap keeps errors.Is/As working on the original error; its text still
// holds the key, so callers print only Error().
func (r redacted) Unwrap() error { return r.err }

// Redact replaces every occurrence of key in s by "[redacted]".
func Redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}
