package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A file of records holds several sessions: a JSON array of objects, JSONL
// with one object a line, or one object alone. Benchmarks publish their
// trajectories that way ({task_id, reward, traj: [messages…]}), OpenHands its
// evaluation output ({instance_id, history: [events…]}), and chat exports
// one conversation a line. Options.Index picks a record; ImportEach imports
// them all. A record is decoded whole, so memory follows the largest record,
// not the file.

// parsePointer splits an RFC 6901 JSON pointer ("" is the whole value).
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q must start with '/'", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// ValidPointer reports whether p is an RFC 6901 JSON pointer.
func ValidPointer(p string) error {
	_, err := parsePointer(p)
	return err
}

// resolvePointer walks raw JSON along a parsed pointer.
func resolvePointer(raw json.RawMessage, tokens []string) (json.RawMessage, error) {
	cur := bytes.TrimSpace(raw)
	for i, tok := range tokens {
		at := "/" + strings.Join(tokens[:i+1], "/")
		switch {
		case len(cur) > 0 && cur[0] == '{':
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, err
			}
			v, ok := obj[tok]
			if !ok {
				keys := make([]string, 0, len(obj))
				for k := range obj {
					keys = append(keys, k)
				}
				return nil, fmt.Errorf("%s: no such key (the object has %s)", at, strings.Join(sortedStrings(keys), ", "))
			}
			cur = bytes.TrimSpace(v)
		case len(cur) > 0 && cur[0] == '[':
			var arr []json.RawMessage
			if err := json.Unmarshal(cur, &arr); err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(arr) {
				return nil, fmt.Errorf("%s: not an index of an array of %d", at, len(arr))
			}
			cur = bytes.TrimSpace(arr[n])
		default:
			return nil, fmt.Errorf("%s: the value above is not an object or an array", at)
		}
	}
	return cur, nil
}

func sortedStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// recordIDKeys are the fields that name a record, in order of preference.
var recordIDKeys = []string{"task_id", "instance_id", "session_id", "conversation_id", "id", "name"}

// recordTrialKeys and recordRewardKeys are the fields that give a record's
// trial (a task run several times) and its reward, in order of preference.
var (
	recordTrialKeys  = []string{"trial", "trial_index", "trial_id", "attempt", "run_index", "sample_index"}
	recordRewardKeys = []string{"reward", "score"}
)

// recordInfo is what names a record: its naming field (task_id, …), its
// trial and its reward, each "" when the record has none.
type recordInfo struct {
	name, trial, reward string
}

// recordInfoOf reads a record's naming, trial and reward fields.
func recordInfoOf(raw json.RawMessage) recordInfo {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return recordInfo{}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return recordInfo{}
	}
	return recordInfo{name: firstField(obj, recordIDKeys), trial: firstField(obj, recordTrialKeys), reward: firstField(obj, recordRewardKeys)}
}

// firstField is the first of keys that obj holds as a non-empty string or a
// number, as text.
func firstField(obj map[string]json.RawMessage, keys []string) string {
	for _, k := range keys {
		v, ok := obj[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) != "" {
			return s
		}
		var n json.Number
		if json.Unmarshal(v, &n) == nil {
			return n.String()
		}
	}
	return ""
}

// eachRecord reads the records of the input: the elements of a top-level
// JSON array, the lines of JSONL, or one top-level object. fn gets the
// record's index, its line (0 when not read as JSONL) and its bytes; a
// malformed JSONL line reaches fn with a nil record and the error.
func eachRecord(br *bufio.Reader, maxLine int, fn func(i, line int, raw json.RawMessage, err error) error) (int, error) {
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, fmt.Errorf("reading input: %w", err)
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 {
		return 0, inputErrorf(0, "the input is empty")
	}
	if t[0] == '{' && isJSONL(t, len(head) < peekSize) {
		lr := newLineReader(br, maxLine)
		n := 0
		for {
			line, err := lr.next()
			if err == io.EOF {
				return n, nil
			}
			if err != nil && !errors.Is(err, errLineTooLong) {
				return n, fmt.Errorf("reading input: %w", err)
			}
			if err == nil {
				line = bytes.TrimSpace(line)
				if len(line) == 0 {
					continue
				}
				if !json.Valid(line) {
					err = errors.New("not a JSON value")
				}
			}
			var raw json.RawMessage
			if err == nil {
				raw = append(json.RawMessage(nil), line...)
			}
			if ferr := fn(n, lr.line, raw, err); ferr != nil {
				return n, ferr
			}
			n++
		}
	}
	dec := json.NewDecoder(br)
	if t[0] == '{' {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
		}
		return 1, fn(0, 0, raw, nil)
	}
	tok, err := dec.Token()
	if err != nil {
		return 0, inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return 0, inputErrorf(0, "want a JSON array or object of records")
	}
	n := 0
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return n, inputErrorf(0, "record %d at byte %d: %v", n, dec.InputOffset(), err)
		}
		if err := fn(n, 0, raw, nil); err != nil {
			return n, err
		}
		n++
	}
	if _, err := dec.Token(); err != nil {
		return n, inputErrorf(0, "at byte %d: %v", dec.InputOffset(), err)
	}
	return n, nil
}

// isJSONL reports whether input starting with '{' holds one JSON value a
// line: its first line is a whole JSON value and more follows (or the input
// ends there).
func isJSONL(t []byte, whole bool) bool {
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	return json.Valid(bytes.TrimSpace(first)) && (len(first) < len(t) || whole)
}

// pickRecord reads the records of the input and hands the one at
// opts.Index to use; the report says how many there were.
func pickRecord(br *bufio.Reader, b *builder, use func(raw json.RawMessage) error) error {
	found := false
	n, err := eachRecord(br, b.opts.MaxLineBytes, func(i, line int, raw json.RawMessage, err error) error {
		if i != b.opts.Index {
			return nil
		}
		found = true
		if err != nil {
			return &InputError{Line: line, Err: fmt.Errorf("record %d: %w", i, err)}
		}
		b.record = recordInfoOf(raw)
		if err := use(raw); err != nil {
			var ie *InputError
			if errors.As(err, &ie) {
				if ie.Line == 0 {
					ie.Line = line
				}
				return ie
			}
			return &InputError{Line: line, Err: fmt.Errorf("record %d: %w", i, err)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !found {
		return inputErrorf(0, "--record %d: the input holds %d records", b.opts.Index, n)
	}
	b.records = n
	if n > 1 {
		b.warns = append(b.warns, fmt.Sprintf("the input holds %d records; imported #%d (pick another with --record N, or all with --all)", n, b.opts.Index))
	}
	return nil
}

// messagesAt feeds the messages found at the pointer in a record to b.
func (b *builder) messagesAt(raw json.RawMessage, tokens []string, d chatDialect) error {
	v, err := resolvePointer(raw, tokens)
	if err != nil {
		return fmt.Errorf("--messages-path: %w", err)
	}
	if len(v) == 0 || v[0] != '[' {
		return fmt.Errorf("--messages-path %s: not an array of messages", b.opts.MessagesPath)
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.Token() // '['
	if err := streamMessages(dec, b, d); err != nil {
		return err
	}
	// A completion log: the reply beside the request (the record, or
	// the object that holds the messages).
	for _, at := range [][]string{nil, tokens[:len(tokens)-1]} {
		obj := map[string]json.RawMessage{}
		if p, err := resolvePointer(raw, at); err == nil && json.Unmarshal(p, &obj) == nil {
			if r, _ := completionReply(obj); r != nil {
				return b.addReply(d, obj)
			}
		}
		if len(tokens) <= 1 {
			break
		}
	}
	return nil
}
