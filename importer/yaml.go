package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// appendField writes "key: value" at the given indentation. Identifiers are
// written plain, long or multi-line text as a literal block when that
// represents it exactly (see literalSafe), anything else through yaml.v3.
func appendField(buf []byte, indent int, key, value string) []byte {
	switch {
	case plainSafe(value) || plainSentence(value):
		buf = appendSpaces(buf, indent)
		buf = append(buf, key...)
		buf = append(buf, ": "...)
		buf = append(buf, value...)
		return append(buf, '\n')
	case literalSafe(value):
		return appendLiteral(buf, indent, key, value)
	}
	v := str(value)
	if strings.ContainsAny(value, "\n\r") || strings.TrimSpace(value) != value {
		// yaml.v3 drops a leading line break in block style: quote instead.
		v.Style = yaml.DoubleQuotedStyle
	}
	return appendNode(buf, indent, mapping(key, v))
}

// appendNode encodes a one-key mapping with yaml.v3 and indents it.
func appendNode(buf []byte, indent int, n *yaml.Node) []byte {
	var b bytes.Buffer
	if err := encode(&b, n); err != nil {
		// yaml.v3 encodes any string node; keep going with a visible marker.
		b.Reset()
		encode(&b, mapping(n.Content[0].Value, str("[unencodable value]")))
	}
	out := b.Bytes()
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i+1], out[i+1:]
		} else {
			out = nil
		}
		if len(line) > 1 {
			buf = appendSpaces(buf, indent)
		}
		buf = append(buf, line...)
	}
	return buf
}

func appendSpaces(buf []byte, n int) []byte {
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	return buf
}

// plainSafe reports a short identifier-like string that YAML reads back as
// the same string when written plain.
func plainSafe(s string) bool {
	if len(s) == 0 || len(s) > 80 {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		return false
	}
	return true
}

// plainSentence reports a one-line text that YAML reads back unchanged when
// written plain, and that yaml.v3 writes plain too (so the fast path and
// the encoder agree): it starts with a letter and ends with a letter, a
// digit, "." or ")", and holds only letters, digits, single spaces and
// "_-./,()'"; it is not a word YAML reads as a boolean or null.
func plainSentence(s string) bool {
	if len(s) == 0 || len(s) >= 200 {
		return false
	}
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	last := s[len(s)-1]
	if !(last >= 'a' && last <= 'z' || last >= 'A' && last <= 'Z' || last >= '0' && last <= '9' || last == '.' || last == ')') {
		return false
	}
	space := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c == ' ':
			if space {
				return false
			}
		case c == '_' || c == '-' || c == '.' || c == '/' || c == ',' || c == '(' || c == ')' || c == '\'':
		default:
			return false
		}
		space = c == ' '
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		return false
	}
	return true
}

// literalSafe reports whether s can be written as a literal block scalar and
// read back unchanged: it does not start with a space, tab or line break (the
// indentation is then detected from its first line), and every character is
// printable in YAML and not a line break other than "\n" (no "\r", NEL,
// U+2028, U+2029, nor a byte order mark).
func literalSafe(s string) bool {
	if len(s) < 200 && strings.IndexByte(s, '\n') < 0 {
		return false // one-liners read better quoted or plain
	}
	if s == "" || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f) {
				i++
				continue
			}
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r == 0xFEFF || r == 0x2028 || r == 0x2029:
			return false
		case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
		i += size
	}
	return true
}

// appendLiteral writes "key: |" and s's lines indented two more spaces, with
// the chomping indicator that keeps its trailing line breaks exactly.
func appendLiteral(buf []byte, indent int, key, s string) []byte {
	buf = appendSpaces(buf, indent)
	buf = append(buf, key...)
	body := strings.TrimRight(s, "\n")
	switch len(s) - len(body) {
	case 0:
		buf = append(buf, ": |-\n"...)
	case 1:
		buf = append(buf, ": |\n"...)
	default:
		buf = append(buf, ": |+\n"...)
	}
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if line != "" {
			buf = appendSpaces(buf, indent+2)
			buf = append(buf, line...)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// appendFlatArgs writes "args:" and a call's arguments when they are a flat
// JSON object of plain keys and of values yaml.v3 writes plain (plain
// strings, integers, booleans, null), exactly as the encoder would, without
// it; anything else reports false and goes through argsNode.
func appendFlatArgs(buf []byte, indent int, raw []byte) ([]byte, bool) {
	start := len(buf)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return buf, false
	}
	buf = appendSpaces(buf, indent)
	buf = append(buf, "args:\n"...)
	n := 0
	for dec.More() {
		kt, err := dec.Token()
		key, _ := kt.(string)
		if err != nil || !plainSafe(key) {
			return buf[:start], false
		}
		vt, err := dec.Token()
		if err != nil {
			return buf[:start], false
		}
		var val string
		switch v := vt.(type) {
		case string:
			if !plainSafe(v) && !plainSentence(v) || looksNonString(v) {
				return buf[:start], false
			}
			val = v
		case json.Number:
			if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
				return buf[:start], false
			}
			val = string(v)
		case bool:
			val = strconv.FormatBool(v)
		case nil:
			val = "null"
		default: // an object or an array
			return buf[:start], false
		}
		buf = appendSpaces(buf, indent+2)
		buf = append(buf, key...)
		buf = append(buf, ": "...)
		buf = append(buf, val...)
		buf = append(buf, '\n')
		n++
	}
	if _, err := dec.Token(); err != nil || n == 0 {
		return buf[:start], false
	}
	return buf, true
}

// looksNonString reports a plain-safe string that YAML would read as
// something else, which yaml.v3 therefore quotes.
func looksNonString(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf", "~":
		return true
	}
	return false
}

// argsNode converts a call's JSON arguments into a YAML mapping, keeping key
// order; a value that is not an object is wrapped as {input: value}.
func argsNode(raw []byte) *yaml.Node {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := jsonNode(dec)
	if err != nil {
		return mapping("input", str(string(raw)))
	}
	if n.Kind != yaml.MappingNode {
		return mapping("input", n)
	}
	return n
}

func jsonNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := jsonNode(dec)
				if err != nil {
					return nil, err
				}
				m.Content = append(m.Content, str(key), val)
			}
			_, err := dec.Token()
			return m, err
		}
		s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for dec.More() {
			val, err := jsonNode(dec)
			if err != nil {
				return nil, err
			}
			s.Content = append(s.Content, val)
		}
		_, err := dec.Token()
		return s, err
	case string:
		return str(v), nil
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(v)}, nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return str(string(v)), nil
		}
		return floatNode(f), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}, nil
	default:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
}

func encode(buf *bytes.Buffer, n *yaml.Node) error {
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return fmt.Errorf("encoding yaml: %w", err)
	}
	return enc.Close()
}

func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// strs is a string node for each of list.
func strs(list []string) []*yaml.Node {
	out := make([]*yaml.Node, len(list))
	for i, s := range list {
		out[i] = str(s)
	}
	return out
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func floatNode(f float64) *yaml.Node {
	if f == float64(int64(f)) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(int64(f), 10)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func flowSeq(items ...*yaml.Node) *yaml.Node {
	return withStyle(seq(items...), yaml.FlowStyle)
}

func withStyle(n *yaml.Node, s yaml.Style) *yaml.Node {
	n.Style = s
	return n
}
