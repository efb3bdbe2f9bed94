package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// JSON returns the JSON document doc with every leak hidden: each string
// (property names included) is decoded, redacted as text (so escapes
// inside a decoded string are read too) and re-encoded; a number that leaks
// a secret becomes the tag as a string. Then the document is searched as a
// whole, for what only its values together spell (an array of character
// codes): every string or number a leak touches becomes the tag. The result
// is valid JSON when doc is. A doc that is not valid JSON is redacted as
// text. doc is returned unchanged (the same slice) when it leaks nothing.
func (r *Redactor) JSON(doc []byte) []byte {
	if r == nil || len(doc) == 0 {
		return doc
	}
	if !json.Valid(doc) {
		s := string(doc)
		if red := r.String(s); red != s {
			return []byte(red)
		}
		return doc
	}
	if !containsByte(doc, '\\') && !r.plainLeak(doc) {
		return doc
	}
	out := r.jsonValues(doc)
	// What the values spell together: replace the values a leak touches,
	// until none is left (each round replaces at least one value).
	for range 8 {
		leaks := r.find(string(out), decValidJSON)
		if len(leaks) == 0 {
			break
		}
		next := r.replaceValues(out, leaks)
		if next == nil {
			break
		}
		out = next
	}
	return out
}

// jsonValues redacts every string and number of the valid JSON doc on its
// own; it returns doc itself when nothing changes.
func (r *Redactor) jsonValues(doc []byte) []byte {
	var out []byte // nil until something changes
	copied := 0    // doc[:copied] is in out
	replace := func(from, to int, with []byte) {
		out = append(out, doc[copied:from]...)
		out = append(out, with...)
		copied = to
	}
	for i := 0; i < len(doc); {
		switch c := doc[i]; {
		case c == '"':
			end := stringEnd(doc, i)
			lit := doc[i:end]
			var s string
			if !containsByte(lit, '\\') {
				s = string(lit[1 : len(lit)-1])
			} else if json.Unmarshal(lit, &s) != nil {
				s = string(lit)
			}
			if red := r.String(s); red != s {
				replace(i, end, appendJSONString(nil, red))
			}
			i = end
		case c == '-' || '0' <= c && c <= '9':
			end := i + 1
			for end < len(doc) && strings.IndexByte("0123456789.eE+-", doc[end]) >= 0 {
				end++
			}
			if leaks := r.Find(string(doc[i:end])); len(leaks) > 0 {
				replace(i, end, appendJSONString(nil, r.tag(leaks[0].ID)))
			}
			i = end
		default:
			i++
		}
	}
	if out == nil {
		return doc
	}
	return append(out, doc[copied:]...)
}

// replaceValues replaces every string or number of the valid JSON doc that
// overlaps a leak by the tag of the leak's secret; nil when no value does.
func (r *Redactor) replaceValues(doc []byte, leaks []Leak) []byte {
	var out []byte
	copied := 0
	for i := 0; i < len(doc); {
		end := i + 1
		switch c := doc[i]; {
		case c == '"':
			end = stringEnd(doc, i)
		case c == '-' || '0' <= c && c <= '9':
			for end < len(doc) && strings.IndexByte("0123456789.eE+-", doc[end]) >= 0 {
				end++
			}
		default:
			i++
			continue
		}
		for _, l := range leaks {
			if l.Start < end && l.End > i {
				tag := appendJSONString(nil, r.tag(l.ID))
				if string(doc[i:end]) != string(tag) {
					out = append(out, doc[copied:i]...)
					out = append(out, tag...)
					copied = end
				}
				break
			}
		}
		i = end
	}
	if out == nil {
		return nil
	}
	return append(out, doc[copied:]...)
}

// ContainsJSON reports whether the JSON document doc (or text, when it is
// not JSON) leaks a secret.
//
// It reads what JSON would redact, string by string and number by number,
// and stops at the first leak, building nothing.
func (r *Redactor) ContainsJSON(doc []byte) bool {
	if r == nil || len(doc) == 0 {
		return false
	}
	if !json.Valid(doc) {
		return len(r.Find(string(doc))) > 0
	}
	return r.containsValidJSON(doc)
}

// ContainsValidJSON is ContainsJSON for a doc the caller knows is valid
// JSON (it decoded), without validating it again.
func (r *Redactor) ContainsValidJSON(doc []byte) bool {
	if r == nil || len(doc) == 0 {
		return false
	}
	return r.containsValidJSON(doc)
}

func (r *Redactor) containsValidJSON(doc []byte) bool {
	// JSON searches the whole document after its strings and numbers one by
	// one: a leak there touches a value, which it replaces. A string or a
	// number without escapes is a piece of the document, searched there
	// with its bytes as they are; only strings with escapes need reading
	// one by one, decoded.
	if r.plainLeak(doc) {
		return true
	}
	for i := 0; i < len(doc); {
		if doc[i] != '"' {
			i++
			continue
		}
		end := stringEnd(doc, i)
		lit := doc[i:end]
		if containsByte(lit, '\\') {
			var s string
			if json.Unmarshal(lit, &s) != nil {
				s = string(lit)
			}
			if r.anyLeak(s, decAll) {
				return true
			}
		}
		i = end
	}
	return false
}

// stringEnd returns the index just past the string literal that starts at
// doc[i] (a quote); doc is valid JSON.
func stringEnd(doc []byte, i int) int {
	// Most strings hold no backslash: the first quote ends them.
	if q := bytes.IndexByte(doc[i+1:], '"'); q >= 0 && bytes.IndexByte(doc[i+1:i+1+q], '\\') < 0 {
		return i + 1 + q + 1
	}
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(doc)
}

func containsByte(b []byte, c byte) bool { return bytes.IndexByte(b, c) >= 0 }

// appendJSONString appends s as a JSON string literal, escaping only what
// JSON requires (and U+2028, U+2029), never <, > or &.
func appendJSONString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			dst = append(dst, s[i:i+w]...)
		}
		i += w
	}
	return append(dst, '"')
}
