package llm

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// Truncated is a reply the model stopped at the request's output-token
// limit: a chat completion whose finish_reason is "length", a Messages API
// reply whose stop_reason is "max_tokens", a Responses API reply that is
// "incomplete" for "max_output_tokens". What it holds is cut short (a JSON
// object without its end, a verdict without its quote), so it is an error
// of the call, never a parse failure of what came back. It is not retried
// (the same request stops at the same limit again) and not cached (it is
// not an answer).
type Truncated struct {
	// Op is the call, e.g. "chat completion".
	Op string
	// Field is the request field that set the limit (max_tokens,
	// max_completion_tokens, max_output_tokens) and Limit its value; 0
	// when the request sent none and the endpoint's own limit applied.
	Field string
	Limit int
	// Reason is how the reply said so, e.g. `finish_reason "length"`.
	Reason string
	// Hint says how to raise the limit (Config.LimitHint); "" names none.
	Hint string
}

// Error names the limit and how to raise it, and not the call (Op): the
// caller's prefix names the target, and a console line has room for 200
// characters.
func (t *Truncated) Error() string {
	s := fmt.Sprintf("reply truncated at %s %d (%s)", t.Field, t.Limit, t.Reason)
	if t.Limit == 0 {
		s = fmt.Sprintf("reply truncated at the endpoint's own output limit (%s; the request sent no %s)", t.Reason, t.Field)
	}
	if t.Hint != "" {
		s += "; raise " + t.Hint
	}
	return s
}

// IsTruncated reports whether err is, or wraps, a Truncated reply.
func IsTruncated(err error) bool {
	var t *Truncated
	return errors.As(err, &t)
}

// chatTruncated returns the Truncated error of a chat completion reply whose
// first choice stopped at the length limit, nil otherwise.
func (c *Client) chatTruncated(r *openai.ChatCompletionResponse, req *openai.ChatCompletionRequest) *Truncated {
	if len(r.Choices) == 0 || r.Choices[0].FinishReason != openai.FinishReasonLength {
		return nil
	}
	t := &Truncated{Op: opChat, Field: "max_tokens", Limit: req.MaxTokens, Reason: `finish_reason "length"`, Hint: c.cfg.LimitHint}
	if req.MaxCompletionTokens > 0 {
		t.Field, t.Limit = "max_completion_tokens", req.MaxCompletionTokens
	}
	return t
}

// completionTokens remembers, per endpoint and model, that the endpoint
// refused max_tokens and wants max_completion_tokens instead (OpenAI's
// reasoning models, under any deployment name).
var completionTokens sync.Map // endpoint id + "\x00" + model → true

// UsesCompletionTokens reports whether a chat request to model carries its
// output limit as max_completion_tokens rather than max_tokens: the models
// go-openai knows to refuse max_tokens (o1, o3, o4, gpt-5 and the like),
// and those an endpoint of this process refused it for.
func (c *Client) UsesCompletionTokens(model string) bool {
	if _, ok := completionTokens.Load(endpointID(c.base) + "\x00" + model); ok {
		return true
	}
	return RefusesMaxTokens(model)
}

// RefusesMaxTokens reports whether go-openai refuses a request to model
// that sets max_tokens (its reasoning models, which take
// max_completion_tokens).
func RefusesMaxTokens(model string) bool {
	err := openai.NewReasoningValidator().Validate(openai.ChatCompletionRequest{Model: model, MaxTokens: 1})
	return errors.Is(err, openai.ErrReasoningModelMaxTokensDeprecated)
}

// withCompletionTokens moves a request's max_tokens to
// max_completion_tokens when the client knows the model wants it so.
func (c *Client) withCompletionTokens(req openai.ChatCompletionRequest) openai.ChatCompletionRequest {
	if req.MaxTokens > 0 && c.UsesCompletionTokens(req.Model) {
		req.MaxCompletionTokens, req.MaxTokens = req.MaxTokens, 0
	}
	return req
}

// refusedMaxTokens reports whether err is an endpoint refusing max_tokens
// and asking for max_completion_tokens (a 400 naming both).
func refusedMaxTokens(err error) bool {
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest {
		return false
	}
	return strings.Contains(e.msg, "max_tokens") && strings.Contains(e.msg, "max_completion_tokens")
}
