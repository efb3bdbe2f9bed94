// Package llmtest is an OpenAI-compatible chat-completions server for tests
// and benchmarks. It answers POST /v1/chat/completions (and
// /chat/completions) from a scripted queue of replies, then from a default
// reply; it counts requests and records their bodies so tests can assert the
// exact number of calls and what was sent.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/testkit/providerfake"
)

// Reply is one scripted answer. The zero value is a 200 with empty content.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Content is the assistant message content of a 200 reply, or the error
	// message of a non-200 reply (wrapped as {"error": {"message": …}}).
	Content string
	// Body, when set, is sent verbatim instead of a generated body (for
	// replies that are not JSON at all).
	Body string
	// RetryAfter is the Retry-After header value, if any.
	RetryAfter string
	// Delay is waited before answering (a slow reply); a client that gives
	// up first makes the handler return early.
	Delay time.Duration
	// ToolCalls are put on the assistant message (a reply that calls a tool
	// instead of answering).
	ToolCalls []openai.ToolCall
	// Refusal is put on the assistant message (a model refusing to answer).
	Refusal string
	// PromptTokens and CompletionTokens are the usage reported.
	PromptTokens, CompletionTokens int
	// FinishReason is the first choice's finish_reason; "" means "stop"
	// ("tool_calls" with ToolCalls). "length" is a reply cut at the
	// request's max_tokens.
	FinishReason openai.FinishReason
}

// Truncated is r cut at the output limit, as an endpoint sends a reply
// that reached the request's max_tokens: its content's first half, with
// finish_reason "length".
func Truncated(r Reply) Reply {
	r.Content = r.Content[:len(r.Content)/2]
	r.FinishReason = openai.FinishReasonLength
	return r
}

// Text is a 200 reply whose content is s.
func Text(s string) Reply { return Reply{Content: s} }

// Status is an error reply with the given status and message.
func Status(code int, msg string) Reply { return Reply{Status: code, Content: msg} }

// TooMany is a 429 reply with a Retry-After header.
func TooMany(retryAfter string) Reply {
	return Reply{Status: http.StatusTooManyRequests, Content: "rate limit reached", RetryAfter: retryAfter}
}

// Request is one request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   []byte
	// Chat is Body decoded (zero if it did not decode).
	Chat openai.ChatCompletionRequest
}

// Server is a scripted chat-completions endpoint.
type Server struct {
	*httptest.Server
	h *Handler
}

// New starts a server answering with replies in order, then with the
// handler's default (a 500 saying the script ran out, unless Default is
// set). It is closed when the test ends.
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	h := NewHandler(replies...)
	s := &Server{Server: httptest.NewServer(h), h: h}
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the base URL to give a client (with the /v1 prefix).
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Handler is the server's handler (also used by the standalone simserver).
func (s *Server) Handler() *Handler { return s.h }

// Push appends replies to the script.
func (s *Server) Push(r ...Reply) { s.h.Push(r...) }

// Count is the number of chat requests received.
func (s *Server) Count() int { return s.h.Count() }

// Requests returns the recorded requests, in arrival order.
func (s *Server) Requests() []Request { return s.h.Requests() }

// SetDefault sets the reply used once the script is empty.
func (s *Server) SetDefault(f func(Request) Reply) { s.h.SetDefault(f) }

// RejectFormats makes requests with these response_format types fail with
// a 400 naming the format (see Handler.RejectFormats).
func (s *Server) RejectFormats(types ...string) { s.h.RejectFormats(types...) }

// PeakInFlight is the most chat requests served at once.
func (s *Server) PeakInFlight() int { return s.h.PeakInFlight() }

// Handler serves chat completions from a script. It is safe for concurrent
// use.
type Handler struct {
	// Latency is added before every reply (the simulated model time).
	Latency time.Duration
	// Record keeps request bodies (on by default; the simserver turns it
	// off to stay lean).
	Record bool
	// OnRequest, if set, is called when a request arrives (before any
	// delay), with the 1-based request number.
	OnRequest func(n int)
	// Odd writes every generated 200 reply as providerfake.OddJSON does
	// (indented, CRLF, escaped unicode, a trailing newline), as OpenAI's
	// own API indents its JSON.
	Odd bool

	mu       sync.Mutex
	queue    []Reply
	def      func(Request) Reply
	reject   map[string]bool
	count    int
	requests []Request
	inFlight int
	peak     int
}

// NewHandler returns a handler with the given script.
func NewHandler(replies ...Reply) *Handler {
	return &Handler{queue: replies, Record: true, reject: map[string]bool{}}
}

// Push appends replies to the script.
func (h *Handler) Push(r ...Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queue = append(h.queue, r...)
}

// SetDefault sets the reply used once the script is empty.
func (h *Handler) SetDefault(f func(Request) Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.def = f
}

// RejectFormats makes every request whose response_format type is one of
// types fail with a 400 naming the format, as endpoints without structured
// output do. Such requests do not consume the script.
func (h *Handler) RejectFormats(types ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range types {
		h.reject[t] = true
	}
}

// Count is the number of chat requests received.
func (h *Handler) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count
}

// PeakInFlight is the most chat requests the handler was serving at once.
func (h *Handler) PeakInFlight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peak
}

// Requests returns the recorded requests, in arrival order.
func (h *Handler) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || (r.URL.Path != "/v1/chat/completions" && r.URL.Path != "/chat/completions") {
		writeError(w, http.StatusNotFound, "no route "+r.Method+" "+r.URL.Path)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "reading body: "+err.Error())
		return
	}
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	h.mu.Lock()
	record := h.Record
	h.mu.Unlock()
	if err := decodeChat(body, &req.Chat, record); err != nil {
		writeError(w, http.StatusBadRequest, "body is not a chat request: "+err.Error())
		return
	}

	h.mu.Lock()
	h.count++
	n := h.count
	h.inFlight++
	h.peak = max(h.peak, h.inFlight)
	defer func() {
		h.mu.Lock()
		h.inFlight--
		h.mu.Unlock()
	}()
	if record {
		h.requests = append(h.requests, req)
	}
	var reply Reply
	format := ""
	if req.Chat.ResponseFormat != nil {
		format = string(req.Chat.ResponseFormat.Type)
	}
	switch {
	case format != "" && h.reject[format]:
		reply = Status(http.StatusBadRequest, fmt.Sprintf("response_format type %q is not supported by this model", format))
	case len(h.queue) > 0:
		reply = h.queue[0]
		h.queue = h.queue[1:]
	case h.def != nil:
		reply = h.def(req)
	default:
		reply = Status(http.StatusInternalServerError, "llmtest: script exhausted")
	}
	latency := h.Latency
	on := h.OnRequest
	odd := h.Odd
	h.mu.Unlock()
	if on != nil {
		on(n)
	}

	if d := latency + reply.Delay; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if reply.RetryAfter != "" {
		w.Header().Set("Retry-After", reply.RetryAfter)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if reply.Body != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply.Body)
		return
	}
	if status != http.StatusOK {
		writeError(w, status, reply.Content)
		return
	}
	resp := openai.ChatCompletionResponse{
		ID:      fmt.Sprintf("chatcmpl-%d", n),
		Object:  "chat.completion",
		Created: 1700000000,
		Model:   req.Chat.Model,
		Choices: []openai.ChatCompletionChoice{{
			Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls, Refusal: reply.Refusal},
			FinishReason: openai.FinishReasonStop,
		}},
		Usage: openai.Usage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens, TotalTokens: reply.PromptTokens + reply.CompletionTokens},
	}
	if len(reply.ToolCalls) > 0 {
		resp.Choices[0].FinishReason = openai.FinishReasonToolCalls
	}
	if reply.FinishReason != "" {
		resp.Choices[0].FinishReason = reply.FinishReason
	}
	w.Header().Set("Content-Type", "application/json")
	if odd {
		b, _ := json.Marshal(resp)
		w.Write(providerfake.OddJSON(b))
		return
	}
	json.NewEncoder(w).Encode(resp)
}

// decodeChat decodes a chat request: fully when recording (tests look at
// everything), else only the model, the messages' roles and contents and
// the response format's type, which is all a default reply needs and keeps
// the simulated endpoint's own CPU cost out of the benchmarks.
func decodeChat(body []byte, c *openai.ChatCompletionRequest, full bool) error {
	if full {
		return json.Unmarshal(body, c)
	}
	var light struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &light); err != nil {
		return err
	}
	c.Model = light.Model
	for _, m := range light.Messages {
		c.Messages = append(c.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	if light.ResponseFormat != nil {
		c.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatType(light.ResponseFormat.Type)}
	}
	return nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	typ := "server_error"
	if status < 500 {
		typ = "invalid_request_error"
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ}})
}

// Messages returns the contents of a request's messages by role, for
// assertions.
func (r Request) Messages(role string) []string {
	var out []string
	for _, m := range r.Chat.Messages {
		if m.Role == role {
			out = append(out, m.Content)
		}
	}
	return out
}

// Contains reports whether the raw body contains s.
func (r Request) Contains(s string) bool { return strings.Contains(string(r.Body), s) }

var (
	cutRE  = regexp.MustCompile(`"covers_through": (\d+)`)
	keysRE = regexp.MustCompile(`exactly one of: ([^.\n]+)\.`)
)

// Simulated is a default reply for benchmarks and end-to-end tests: a
// decide prompt of the openai agent (it names the option keys) gets its
// first option, a free-text question "simulated answer"; a judge's question about an invariant gets "missing" and
// one about an answer "unsure" (verdicts that need no quote); anything
// else gets a minimal text-only summary document covering the cut the
// built-in summarize prompt names (0 if none).
func Simulated(r Request) Reply {
	last := ""
	if n := len(r.Chat.Messages); n > 0 {
		last = r.Chat.Messages[n-1].Content
	}
	switch {
	case strings.HasPrefix(last, "The fact ("):
		return Reply{Content: `{"verdict":"missing","quote":"","reason":"simulated"}`, PromptTokens: len(last) / 4, CompletionTokens: 12}
	case strings.HasPrefix(last, "Question:\n") && strings.Contains(last, "\nThe agent's answer:\n"):
		return Reply{Content: `{"verdict":"unsure","quote":"","reason":"simulated"}`, PromptTokens: len(last) / 4, CompletionTokens: 12}
	case strings.HasPrefix(last, "Question needing an answer."):
		return Reply{Content: `{"answer":"simulated answer","reason":"simulated"}`, PromptTokens: len(last) / 4, CompletionTokens: 12}
	}
	if m := keysRE.FindStringSubmatch(last); m != nil {
		key := strings.TrimSpace(strings.Split(m[1], ",")[0])
		return Reply{Content: fmt.Sprintf(`{"choice":%q,"reason":"simulated"}`, key), PromptTokens: len(last) / 4, CompletionTokens: 12}
	}
	cut := "0"
	if m := cutRE.FindStringSubmatch(last); m != nil {
		cut = m[1]
	}
	return Reply{Content: `{"schema_version":1,"covers_through":` + cut + `,"text":"simulated summary"}`, PromptTokens: len(last) / 4, CompletionTokens: 20}
}
