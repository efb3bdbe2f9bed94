package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// chatDialect is OpenAI Chat Completions or Anthropic Messages: the two read
// the same containers and differ in how one message maps to events.
type chatDialect int

const (
	chatOpenAI chatDialect = iota
	chatAnthropic
)

// message adds one message in the dialect.
func (b *builder) message(d chatDialect, raw []byte) error {
	b.lastMessage = raw
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
// A top-level system prompt (Anthropic) becomes the scenario's rules; the
// reply of a completion log ("choices", "response", "completion") is added
// after the messages (completion.go); other keys (model, tools, ...) are
// ignored.
func streamObject(dec *json.Decoder, b *builder, d chatDialect) error {
	sawMessages := false
	reply := map[string]json.RawMessage{}
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
		case "choices", "response", "completion":
			// A completion log: the reply to the messages, added after them.
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
			}
			reply[key] = raw
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
	if err := b.addReply(d, reply); err != nil {
		return inputErrorf(0, "the completion's reply: %v", err)
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
