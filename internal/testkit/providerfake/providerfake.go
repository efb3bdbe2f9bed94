// Package providerfake is a fake of the two provider APIs whose compaction
// compact-eval evaluates, built from their public documentation, for tests:
//
//   - Anthropic's Messages API, POST /v1/messages, with on-demand compaction
//     ("compaction": {"type": "summarize"}, beta header compact-2026-09-04):
//     https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand
//   - OpenAI's Responses API, POST /v1/responses/compact and POST
//     /v1/responses: https://developers.openai.com/api/reference/resources/beta/subresources/responses
//
// One server answers both (their paths do not overlap). It checks what the
// documentation requires of a request (headers, the key, required fields,
// block and item shapes, that every tool_result and function_call_output
// answers a call, that a compaction block or item comes back exactly as it
// was issued) and answers 400 or 401 with the provider's error shape when
// a request is wrong; it can be scripted to fail (429 with Retry-After,
// 529, 500). Compaction summaries and answers come from replaceable
// functions. It counts and records every request.
package providerfake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
)

// Beta is the beta header on-demand compaction requires.
const Beta = "compact-2026-09-04"

// Request is one request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Failure is a scripted failing reply.
type Failure struct {
	Status     int
	RetryAfter string
	Message    string
}

// Question is what an answer function sees of a decide request.
type Question struct {
	// API is "anthropic" or "responses".
	API string
	// Context is every text the model would read, in order: system and
	// instructions, the compaction's summary (decoded, for an opaque
	// item), messages, tool results; the question is last.
	Context []string
	// Keys are the option keys of the question, as the prompt lists them
	// (the labels A, B, … when the agent shuffles), and Descriptions their
	// descriptions, by key.
	Keys         []string
	Descriptions map[string]string
	// Compacted is true when the request replays a compaction.
	Compacted bool
	// FreeText is true when the question asks for an answer in words
	// (a free-text probe) instead of an option key.
	FreeText bool
	// Tools are the names of the tools the model may call now: those the
	// request declares, none under tool_choice none.
	Tools []string
}

// ToolCall is a tool call a scripted model makes: the tool's name and its
// arguments, a JSON object.
type ToolCall struct {
	Name      string
	Arguments string
}

// Server is the fake. Set the fields before the first request.
type Server struct {
	URL string // base URL of the API roots: URL+"/v1"
	// AnthropicKey and OpenAIKey, when set, are the keys a request must
	// carry (x-api-key; Authorization: Bearer).
	AnthropicKey, OpenAIKey string
	// Summarize writes a compaction's summary from the texts it
	// compacts; nil keeps every distinct line.
	Summarize func(texts []string) string
	// Answer chooses an option key, or writes the answer to a free-text
	// question; nil chooses the first key, or answers that it cannot tell.
	Answer func(q Question) string
	// Call, when set and the request lets the model call tools, may call
	// them instead of answering: a tool_use block (Messages API) or a
	// function_call item (Responses API) per call, in the provider's
	// format. nil or no calls answers. Calling a tool the request does not
	// offer is a bug of the script: the server answers 500.
	Call func(q Question) []ToolCall
	// NoCompactionItem makes /responses/compact answer without its
	// compaction item (a provider that compacted nothing).
	NoCompactionItem bool
	// Truncate cuts every answer at the request's output limit, as a model
	// that ran out of tokens: a Messages API reply with half its text and
	// stop_reason "max_tokens" (a compaction too), a Responses API reply
	// with status "incomplete" and incomplete_details.reason
	// "max_output_tokens".
	Truncate bool
	// Odd writes every successful reply as some providers do: indented,
	// with CRLF line ends, every non-ASCII character escaped as \uXXXX and
	// a trailing newline. The same document, other bytes.
	Odd bool

	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
	failures []Failure
	issued   map[string]string // signature or encrypted_content → summary
}

// New starts a fake; Close stops it.
func New() *Server {
	s := &Server{issued: map[string]string{}}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// FailNext makes the next requests fail, one per Failure, in order.
func (s *Server) FailNext(f ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, f...)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Count is the number of requests received so far whose path ends in
// suffix ("" counts all).
func (s *Server) Count(suffix string) int {
	n := 0
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var fail *Failure
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		fail = &f
	}
	s.mu.Unlock()
	api := "responses"
	if strings.HasSuffix(r.URL.Path, "/messages") {
		api = "anthropic"
	}
	if fail != nil {
		if fail.RetryAfter != "" {
			w.Header().Set("Retry-After", fail.RetryAfter)
		}
		msg := fail.Message
		if msg == "" {
			msg = http.StatusText(fail.Status)
		}
		writeError(w, api, fail.Status, msg)
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, api, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, api, http.StatusBadRequest, "content-type must be application/json")
		return
	}
	var status int
	var reply any
	var err error
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		status, reply, err = s.messages(r.Header, body)
	case strings.HasSuffix(r.URL.Path, "/v1/responses/compact"):
		status, reply, err = s.compact(r.Header, body)
	case strings.HasSuffix(r.URL.Path, "/v1/responses"):
		status, reply, err = s.responses(r.Header, body)
	default:
		writeError(w, api, http.StatusNotFound, "no route "+r.URL.Path)
		return
	}
	if err != nil {
		writeError(w, api, status, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(reply)
	if s.Odd {
		b = OddJSON(b)
	}
	w.Write(b)
}

// OddJSON rewrites a compact JSON document b as the same document in
// other bytes: indented with a tab, CRLF line ends, every non-ASCII
// character escaped as \uXXXX (a surrogate pair above the BMP), and a
// trailing CRLF.
func OddJSON(b []byte) []byte {
	var ind bytes.Buffer
	if json.Indent(&ind, b, "", "\t") != nil {
		return b
	}
	var out strings.Builder
	for _, r := range ind.String() {
		switch {
		case r == '\n':
			out.WriteString("\r\n")
		case r < 0x80:
			out.WriteRune(r)
		default:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&out, "\\u%04x", u)
			}
		}
	}
	out.WriteString("\r\n")
	return []byte(out.String())
}

// writeError answers with the provider's error shape.
func writeError(w http.ResponseWriter, api string, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var v any
	if api == "anthropic" {
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}[status]
		if typ == "" {
			typ = "api_error"
		}
		v = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	} else {
		typ := "invalid_request_error"
		if status == 429 {
			typ = "rate_limit_exceeded"
		} else if status >= 500 {
			typ = "server_error"
		}
		v = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	b, _ := json.Marshal(v)
	w.Write(b)
}

// summarize is the summary of texts.
func (s *Server) summarize(texts []string) string {
	if s.Summarize != nil {
		return s.Summarize(texts)
	}
	seen := map[string]bool{}
	var b strings.Builder
	b.WriteString("Summary of the conversation so far:")
	for _, t := range texts {
		for _, line := range strings.Split(t, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || seen[line] {
				continue
			}
			seen[line] = true
			b.WriteString("\n- ")
			b.WriteString(line)
		}
	}
	return b.String()
}

func (s *Server) answer(q Question) string {
	if s.Answer != nil {
		return s.Answer(q)
	}
	if q.FreeText {
		return "I cannot tell from my context."
	}
	if len(q.Keys) > 0 {
		return q.Keys[0]
	}
	return ""
}

// question is what an answer function sees of a request: the question is
// the last text that lists options or asks for an answer in words (tool
// calls and their results may follow it), else the last text.
func question(api string, texts []string, compacted bool) Question {
	last := ""
	if len(texts) > 0 {
		last = texts[len(texts)-1]
	}
	for i := len(texts) - 1; i >= 0; i-- {
		if t := texts[i]; strings.Contains(t, "Options:\n") || strings.HasPrefix(strings.TrimSpace(t), "Question needing an answer.") {
			last = t
			break
		}
	}
	return Question{API: api, Context: texts, Keys: optionKeys(last), Descriptions: optionDescriptions(last), Compacted: compacted,
		FreeText: strings.HasPrefix(strings.TrimSpace(last), "Question needing an answer.")}
}

// replyText is the model's reply to q: {"answer"} for a free-text question,
// else {"choice"}.
func (s *Server) replyText(q Question) string {
	if q.FreeText {
		b, _ := json.Marshal(map[string]string{"answer": s.answer(q), "reason": "fake provider answer"})
		return string(b)
	}
	return decisionJSON(s.answer(q))
}

// calls is what the script makes the model call for q; an error when it
// calls a tool q does not offer.
func (s *Server) calls(q Question) ([]ToolCall, error) {
	if s.Call == nil || len(q.Tools) == 0 {
		return nil, nil
	}
	cs := s.Call(q)
	for _, c := range cs {
		if !slices.Contains(q.Tools, c.Name) {
			return nil, errf("the script calls %q, which the request does not offer (%v)", c.Name, q.Tools)
		}
		var obj map[string]any
		if json.Unmarshal([]byte(c.Arguments), &obj) != nil {
			return nil, errf("the script's arguments for %q are not a JSON object: %s", c.Name, c.Arguments)
		}
	}
	return cs, nil
}

// issue records a token (signature or encrypted_content) for summary.
func (s *Server) issue(prefix, summary string) string {
	h := sha256.Sum256([]byte(prefix + "\x00" + summary))
	tok := prefix + hex.EncodeToString(h[:20])
	s.mu.Lock()
	s.issued[tok] = summary
	s.mu.Unlock()
	return tok
}

// redeem returns the summary a token was issued for.
func (s *Server) redeem(tok string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.issued[tok]
	return v, ok
}

// optionKeys reads the option keys from a question as compact-eval's
// agents write it ("- KEY: description" lines after "Options:").
func optionKeys(q string) []string {
	_, after, ok := strings.Cut(q, "Options:\n")
	if !ok {
		return nil
	}
	var keys []string
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "- ") {
			if len(keys) > 0 {
				break
			}
			continue
		}
		k, _, ok := strings.Cut(line[2:], ":")
		if ok {
			keys = append(keys, strings.TrimSpace(k))
		}
	}
	return keys
}

// optionDescriptions reads the "- KEY: description" lines of a question.
func optionDescriptions(q string) map[string]string {
	_, after, ok := strings.Cut(q, "Options:\n")
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "- ") {
			if len(out) > 0 {
				break
			}
			continue
		}
		if k, d, ok := strings.Cut(line[2:], ":"); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(d)
		}
	}
	return out
}

// Pick is the key of q whose description is desc ("" when none is): what
// a scripted model answers to choose an option whatever label it has.
func (q Question) Pick(desc string) string {
	for _, k := range q.Keys {
		if q.Descriptions[k] == desc {
			return k
		}
	}
	return ""
}

// tokens is a rough token count: one per four bytes.
func tokens(s string) int { return (len(s) + 3) / 4 }

func decisionJSON(choice string) string {
	b, _ := json.Marshal(map[string]string{"choice": choice, "reason": "fake provider answer"})
	return string(b)
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }
