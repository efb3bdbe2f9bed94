package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/compact-eval/compact-eval/scenarios"
)

// chatDialect is OpenAI Chat Completions or Anthropic Messages: the two read
// the same containers and differ in how one message maps to events.
type chatDialect int

const (
	chatOpenAI chatDialect = iota
	chatAnthropic
)

// openaiMessage is one Chat Completions message.
type openaiMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	// Text is the content under the name some datasets give it.
	Text    json.RawMessage `json:"text"`
	Name    string          `json:"name"`
	Refusal string          `json:"refusal"`
	// Arguments are a string holding JSON (the wire form) or, as many
	// datasets and logs store them, the JSON object itself.
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID   string `json:"tool_call_id"`
	FunctionCall *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function_call"`
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// message adds one message in the dialect.
func (b *builder) message(d chatDialect, raw []byte) error {
	if d == chatAnthropic {
		var m anthropicMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		return b.anthropicContent(m.Role, m.Content)
	}
	var m openaiMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	return b.openaiMessage(&m)
}

func (b *builder) openaiMessage(m *openaiMessage) error {
	content := m.Content
	if c := bytes.TrimSpace(content); (len(c) == 0 || string(c) == "null") && len(m.Text) > 0 {
		content = m.Text
	}
	text, err := b.contentText(content)
	if err != nil {
		return fmt.Errorf("content: %w", err)
	}
	if text == "" && m.Refusal != "" {
		text = m.Refusal
	}
	switch m.Role {
	case "tool":
		return b.result(m.ToolCallID, scenarios.StatusOK, text)
	case "function":
		// Legacy function calling: the reply names the function, not a call id.
		id := "function-" + m.Name
		if !b.openCall(id) {
			b.drop("function replies with no open call")
			return nil
		}
		return b.result(id, scenarios.StatusOK, text)
	case "assistant":
		calls := 0
		for _, tc := range m.ToolCalls {
			if err := b.call(text, tc.ID, tc.Function.Name, argsValue(tc.Function.Arguments)); err != nil {
				return err
			}
			text = ""
			calls++
		}
		if m.FunctionCall != nil {
			if err := b.call(text, "function-"+m.FunctionCall.Name, m.FunctionCall.Name, argsValue(m.FunctionCall.Arguments)); err != nil {
				return err
			}
			text = ""
		}
		return b.text(scenarios.RoleAssistant, text)
	}
	r, ok := chatRole(m.Role)
	if !ok {
		b.drop("messages with role " + m.Role)
		return nil
	}
	return b.text(r, text)
}

// argsJSON turns a call's arguments string into raw JSON: an object as is,
// anything else (invalid JSON, a bare string, a free-form tool input) wrapped
// as {"input": "…"}.
func argsJSON(s string) []byte {
	t := bytes.TrimSpace([]byte(s))
	if len(t) == 0 {
		return nil
	}
	if t[0] == '{' && json.Valid(t) {
		return t
	}
	wrapped, _ := json.Marshal(map[string]string{"input": s})
	return wrapped
}

// parseChat reads OpenAI or Anthropic conversations: a JSON array of messages,
// an object with "messages", JSONL with one conversation a line, or JSONL with
// one message a line.
func parseChat(br *bufio.Reader, b *builder, d chatDialect) error {
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("reading input: %w", err)
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 {
		return inputErrorf(0, "the input is empty")
	}
	if t[0] == '{' {
		first := t
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			first = t[:i]
		}
		if json.Valid(first) && (len(first) < len(t) || len(head) < peekSize) {
			return parseChatLines(br, b, d)
		}
	}
	dec := json.NewDecoder(br)
	conv := 0
	found := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
		}
		delim, ok := tok.(json.Delim)
		if !ok || (delim != '[' && delim != '{') {
			return inputErrorf(0, "at byte %d: want a JSON array or object of messages", dec.InputOffset())
		}
		if conv != b.opts.Index {
			if err := skipValue(dec); err != nil {
				return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
			}
			conv++
			continue
		}
		found = true
		if delim == '[' {
			err = streamMessages(dec, b, d)
		} else {
			err = streamObject(dec, b, d)
		}
		if err != nil {
			return err
		}
		conv++
	}
	if !found {
		return inputErrorf(0, "--record %d: the input holds %d conversations", b.opts.Index, conv)
	}
	if conv > 1 {
		b.warns = append(b.warns, fmt.Sprintf("the input holds %d conversations; imported #%d (pick another with --record N, or all with --all)", conv, b.opts.Index))
	}
	return nil
}

// skipValue consumes the rest of a value whose opening delimiter was read.
func skipValue(dec *json.Decoder) error {
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '[', '{':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// streamMessages reads array elements one at a time after the '['.
func streamMessages(dec *json.Decoder, b *builder, d chatDialect) error {
	i := 0
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return inputErrorf(0, "message %d at byte %d: %v", i, dec.InputOffset(), err)
		}
		if err := b.message(d, raw); err != nil {
			var ie *InputError
			if errors.As(err, &ie) || b.opts.Strict {
				return inputErrorf(0, "message %d: %v", i, err)
			}
			b.warns = append(b.warns, fmt.Sprintf("message %d: unreadable, skipped: %v", i, shorten(err.Error(), 160)))
		}
		i++
	}
	_, err := dec.Token() // ']'
	if err != nil {
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return nil
}

// streamObject reads {"messages": [...], "system": ..., ...} after the '{'.
// A top-level system prompt (Anthropic) becomes the scenario's rules; other
// keys (model, tools, ...) are ignored.
func streamObject(dec *json.Decoder, b *builder, d chatDialect) error {
	sawMessages := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
		}
		key, _ := tok.(string)
		switch key {
		case "messages":
			t, err := dec.Token()
			if err != nil {
				return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
			}
			if dl, ok := t.(json.Delim); !ok || dl != '[' {
				return inputErrorf(0, "at byte %d: \"messages\" is not an array", dec.InputOffset())
			}
			sawMessages = true
			if err := streamMessages(dec, b, d); err != nil {
				return err
			}
		case "system":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
			}
			s, err := b.contentText(raw)
			if err != nil {
				return inputErrorf(0, "system: %v", err)
			}
			b.rules = s
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	if !sawMessages {
		return inputErrorf(0, "the object has no \"messages\" array")
	}
	return nil
}

// parseChatLines reads JSONL: one message a line (objects with "role") or one
// conversation a line (arrays, or objects with "messages").
func parseChatLines(br *bufio.Reader, b *builder, d chatDialect) error {
	lr := newLineReader(br, b.opts.MaxLineBytes)
	mode := 0 // 0 unknown, 1 messages, 2 conversations
	conv := 0
	found := false
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return fmt.Errorf("reading input: %w", err)
		}
		if err != nil {
			if mode != 2 || conv == b.opts.Index {
				if err := b.malformedLine(lr.line, err); err != nil {
					return err
				}
			}
			if mode == 2 {
				conv++
			}
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if mode == 0 {
			mode = lineMode(line)
		}
		if mode == 2 {
			if conv == b.opts.Index {
				found = true
				if err := parseConversation(line, b, d); err != nil {
					return &InputError{Line: lr.line, Err: err}
				}
			}
			conv++
			continue
		}
		if err := b.message(d, line); err != nil {
			if err := b.malformedLine(lr.line, err); err != nil {
				return err
			}
		}
	}
	if mode == 2 {
		if !found {
			return inputErrorf(0, "--record %d: the input holds %d conversations", b.opts.Index, conv)
		}
		if conv > 1 {
			b.warns = append(b.warns, fmt.Sprintf("the input holds %d conversations, one a line; imported #%d (pick another with --record N, or all with --all)", conv, b.opts.Index))
		}
	}
	return nil
}

func lineMode(line []byte) int {
	if line[0] == '[' {
		return 2
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) == nil {
		if _, ok := obj["messages"]; ok {
			return 2
		}
	}
	return 1
}

func parseConversation(line []byte, b *builder, d chatDialect) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("malformed conversation: %w", err)
	}
	switch tok {
	case json.Delim('['):
		return streamMessages(dec, b, d)
	case json.Delim('{'):
		return streamObject(dec, b, d)
	}
	return errors.New("a conversation is a JSON array or an object with \"messages\"")
}
