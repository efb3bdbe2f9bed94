package summarizers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Limits on a summary document. A document beyond them is not read: Decode
// returns an error, and the schema check reports it, so a runaway or hostile
// summarizer costs neither memory nor a stack overflow.
const (
	// MaxSummaryBytes is the largest summary document read: 8 MiB, far above
	// any useful summary (the compression check fails long before).
	MaxSummaryBytes = 8 << 20
	// MaxSummaryDepth is the deepest nesting of arrays and objects accepted,
	// extensions included. The contract itself needs 3 levels.
	MaxSummaryDepth = 64
)

// ErrUnreadable wraps every reason a document could not be read as JSON at
// all (too large, too deep, not JSON).
var ErrUnreadable = errors.New("summary is not a readable JSON document")

// Decode reads a summary document. It returns:
//   - an error (wrapping ErrUnreadable) when raw is empty, larger than
//     MaxSummaryBytes, nested deeper than MaxSummaryDepth, or not one JSON
//     value; the summary and violations are then nil;
//   - otherwise the schema violations (nil when valid), and the decoded
//     summary, which is nil when the document's shape does not fit the
//     Summary type (not an object, schema_version or covers_through
//     missing, a field of the wrong type such as covers_through as a
//     string): then the violations say why.
//
// A document with violations but a usable shape (an unknown top-level
// property, a bad enum value) still decodes, so that other checks can judge
// its content while the schema check reports the violations.
func Decode(raw []byte) (*Summary, []Violation, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, fmt.Errorf("%w: the document is empty", ErrUnreadable)
	}
	if len(raw) > MaxSummaryBytes {
		return nil, nil, fmt.Errorf("%w: it is %d bytes; the limit is %d (8 MiB)", ErrUnreadable, len(raw), MaxSummaryBytes)
	}
	if d, at := depth(raw); d > MaxSummaryDepth {
		return nil, nil, fmt.Errorf("%w: it nests deeper than %d levels (at byte %d)", ErrUnreadable, MaxSummaryDepth, at)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("%w: data after the end of the JSON value", ErrUnreadable)
	}
	vs := validateValue(v)
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, vs, nil
	}
	for _, req := range []string{"schema_version", "covers_through"} {
		if _, ok := obj[req]; !ok {
			return nil, vs, nil
		}
	}
	var s Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		if len(vs) == 0 {
			vs = []Violation{{Message: fmt.Sprintf("does not fit the summary document: %v", err)}}
		}
		return nil, vs, nil
	}
	return &s, vs, nil
}

// depth returns the maximum nesting depth of arrays and objects in raw and
// the offset where it was first exceeded beyond MaxSummaryDepth. Strings are
// skipped, escapes honoured; invalid JSON is left to the decoder.
func depth(raw []byte) (max, at int) {
	d := 0
	inString, esc := false, false
	for i, c := range raw {
		if inString {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			d++
			if d > max {
				max = d
				if d > MaxSummaryDepth && at == 0 {
					at = i
					return max, at
				}
			}
		case ']', '}':
			d--
		}
	}
	return max, at
}
