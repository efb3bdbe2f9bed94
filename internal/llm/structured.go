package llm

import (
	"context"
	"errors"
	"time"
)

// Structured is the outcome of ChatStructured: the result of the request
// that answered, the output mode it used, and the totals over every request
// the call sent (fallbacks included).
type Structured struct {
	*Result
	// Mode is the output mode of the answering request.
	Mode string
	// FallbackFrom lists the modes the endpoint refused before Mode worked.
	FallbackFrom []string
	// Attempts, Retries and Latency are totals over the whole call.
	Attempts int
	Retries  int
	Latency  time.Duration
}

// ChatStructured asks for a structured reply, trying output modes strongest
// first (modes lists them in order, e.g. ModeJSONSchema, ModeJSONObject,
// ModeText) and falling back to the next one when the endpoint refuses a
// response format (UnsupportedFormat). It skips the modes this endpoint
// refused for the model earlier in the process (RefusedMode), whoever
// asked, and remembers each refusal; a mode that worked is not remembered,
// since it says nothing of the stronger modes another caller's list starts
// with. build returns the request for a mode.
//
// The cache is asked first for every mode from the starting one, so a
// second run with unchanged inputs sends no request even when the first run
// had to fall back.
func (c *Client) ChatStructured(ctx context.Context, model string, modes []string, build func(mode string) *Request) (*Structured, error) {
	if len(modes) == 0 {
		return nil, errors.New("chat completion: no output mode to try")
	}
	start := time.Now()
	from := 0
	for from < len(modes)-1 && c.RefusedMode(model, modes[from]) {
		from++
	}
	for _, m := range modes[from:] {
		if res, ok := c.Lookup(build(m)); ok {
			res.Latency = time.Since(start)
			return &Structured{Result: res, Mode: m, Latency: res.Latency}, nil
		}
	}
	out := &Structured{}
	for i := from; i < len(modes); i++ {
		m := modes[i]
		res, err := c.Chat(ctx, build(m))
		out.Attempts += res.Attempts
		out.Retries += res.Retries
		out.Result, out.Mode = res, m
		if err != nil && UnsupportedFormat(err) && i+1 < len(modes) {
			c.SetRefusedMode(model, m)
			out.FallbackFrom = append(out.FallbackFrom, m)
			continue
		}
		out.Latency = time.Since(start)
		return out, err
	}
	return out, errors.New("chat completion: no output mode worked")
}

// ForgetOutputModes forgets every output mode refused so far, as a new process
// would (tests, or a long-lived process starting a new run).
func ForgetOutputModes() { refusedModes.Clear() }
