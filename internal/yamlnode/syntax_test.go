package yamlnode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSyntaxPos places yaml.v3's syntax errors where libyaml, the C parser
// yaml.v3 is a port of, puts its problem mark (the positions were read
// with PyYAML's CSafeLoader, which runs libyaml, on the same inputs), but
// for the two places that differ on purpose: the opener of what the end of
// the file leaves open, and a key with no ':'. reported is the line
// yaml.v3's own message names, the line before the problem's wherever the
// error is the parser's or its context began on an earlier line.
func TestSyntaxPos(t *testing.T) {
	const head = "version: 1\nid: x\n"
	for _, tc := range []struct {
		name     string
		src      string
		reported int // the line in yaml.v3's message; 0: none
		want     string
	}{
		// The classes of issue 35: a tab, an unquoted ': '.
		{"tab indenting a key", head + "events:\n  - role: user\n\ttext: a\n", 4,
			"5:1: found a tab character that violates indentation (a tab cannot indent YAML: indent with spaces)"},
		{"tab before a key", "x: 1\n\ty: 2\n", 2,
			"2:1: found a tab character that violates indentation (a tab cannot indent YAML: indent with spaces)"},
		{"tab in a folded block", "x: >\n a\n\tb\n", 3,
			"3:1: found a tab character where an indentation space is expected (a tab cannot indent YAML: indent with spaces)"},
		{"unquoted ': ' in a flow event", head + "events:\n  - {role: user, text: \"a\"}\n  - {role: user, text: Note: b}\n", 4,
			"5:28: did not find expected ',' or '}' (a ': ' in a plain value starts a key: put the value in quotes)"},
		{"unquoted ': ' in a flow on line 1", "x: {a, b: c: d}\n", 0,
			"1:12: did not find expected ',' or '}' (a ': ' in a plain value starts a key: put the value in quotes)"},
		{"unquoted ': ' in a flow list", "x: [a: b: c]\n", 0,
			"1:9: did not find expected ',' or ']' (a ': ' in a plain value starts a key: put the value in quotes)"},
		{"unquoted ': ' in a block value", head + "events:\n  - role: user\n    text: Note: this is it\n", 5,
			"5:15: mapping values are not allowed in this context (a ': ' in a plain value starts a key: put the value in quotes)"},
		{"': ' after a quoted key's value", "k: v\n\"q\": x: y\n", 2,
			"2:7: mapping values are not allowed in this context (a ': ' in a plain value starts a key: put the value in quotes)"},
		// Indentation.
		{"a key indented under a value", "a: 1\n  b: 2\n", 2,
			"2:4: mapping values are not allowed in this context (a line indented deeper than the one before it continues that line's value: indent it as the lines beside it)"},
		{"a key indented under a list item", "a:\n- b\n c: d\n", 3,
			"3:3: mapping values are not allowed in this context (a line indented deeper than the one before it continues that line's value: indent it as the lines beside it)"},
		{"a list item out of its block", "a:\n  - x\n - y\n", 2,
			"3:2: did not find expected key"},
		{"a list item indented out of the events", head + "events:\n  - role: user\n    text: a\n   - role: b\n", 3,
			"6:4: did not find expected '-' indicator"},
		{"a key after list items", "x:\n  - a\n  b: c\n", 1,
			"3:3: did not find expected '-' indicator"},
		{"a key after a top-level list", "- a\nb: c\n", 1,
			"2:1: did not find expected '-' indicator"},
		{"a list after a mapping", "a: b\n- c\n", 1,
			"2:1: did not find expected key"},
		{"a line out of a block scalar", "x: 1\ny: |\n    a\n  b\n", 3,
			"4:3: did not find expected key"},
		{"an empty key's ':' indented", "x: 1\n? a\n: b\n  : c\n", 3,
			"4:3: did not find expected key"},
		{"a list entry where a value was", "x: 1\ny: - a\n", 2,
			"2:4: block sequence entries are not allowed in this context"},
		{"a key with no ':'", "a: 1\nfoo\nb: 2\n", 2,
			"2:1: could not find expected ':' (no ':' follows this key on its line)"},
		{"a key with no ':' in a nested mapping", "a:\n  b: 1\n  c\n  d: 2\n", 3,
			"3:3: could not find expected ':' (no ':' follows this key on its line)"},
		// Quotes and brackets.
		{"text after a closing quote", "text: \"he said \"no\"\"\n", 0,
			"1:17: did not find expected key (text after a closing quote: quote the whole value, and escape a \" inside it as \\\" or double a ' inside '…')"},
		{"an apostrophe in single quotes", "text: 'it's'\n", 0,
			"1:11: did not find expected key (text after a closing quote: quote the whole value, and escape a \" inside it as \\\" or double a ' inside '…')"},
		{"a quote never closed", head + "title: \"abc\nevents: []\n", 3,
			"3:8: found unexpected end of stream (this quote is never closed)"},
		{"a quote never closed in an event", "events:\n  - {role: user, text: \"a}\n  - {role: user, text: b}\n", 2,
			"2:24: found unexpected end of stream (this quote is never closed)"},
		{"a brace never closed", "x: 1\na: {b: 1\n", 1,
			"2:4: did not find expected ',' or '}' (this '{' is never closed by a '}')"},
		{"a bracket left open before a key", "a: 1\nb: [1, 2\nc: 3\n", 1,
			"3:2: did not find expected ',' or ']' (inside the '[' at line 2, column 4: is it closed?)"},
		{"a flow list over two lines", "x: [a\n  b: c]\n", 1,
			"2:4: did not find expected ',' or ']' (inside the '[' at line 1, column 4: is it closed?)"},
		{"a ']' closing a '{'", "k: {a: [1, 2}, b: 3}\n", 0,
			"1:13: did not find expected ',' or ']'"},
		{"a ']' too many", "a: [1, 2]]\n", 0, "1:10: did not find expected key"},
		// Escapes, anchors, tags, directives, characters.
		{"an unknown escape", "x: 1\ny: \"a\\qb\"\n", 2, "2:6: found unknown escape character"},
		{"a bad hex escape", "y: \"a\\x4Z\"\n", 0, "1:8: did not find expected hexdecimal number"},
		{"a short unicode escape", "y: \"\\u12\"\n", 0, "1:7: did not find expected hexdecimal number"},
		{"an anchor with no name", "x: 1\na: & x\n", 2, "2:5: did not find expected alphabetic or numeric character"},
		{"an anchor ending badly", "x: 1\ny: &a1*\n", 2, "2:7: did not find expected alphabetic or numeric character"},
		{"an alias with no name", "x: 1\ny: *\n", 2, "2:5: did not find expected alphabetic or numeric character"},
		{"an alias to no anchor", "x: 1\ny: [*nowhere]\n", 0, "2:5: unknown anchor 'nowhere' referenced"},
		{"an undefined tag handle", "x: 1\ny: !foo!bar x\n", 1, "2:4: found undefined tag handle"},
		{"a verbatim tag never closed", "x: !<foo y\n", 0, "1:9: did not find the expected '>'"},
		{"a block scalar header", "x: 1\ny: |x\n  a\n", 2, "2:5: did not find expected comment or line break"},
		{"a directive with no document", "x: 1\n%YAML 1.1\n", 2, "3:1: did not find expected <document start>"},
		{"a directive, then a comment", "%YAML 1.1\n\n# c\nx: 1\n", 3, "4:1: did not find expected <document start>"},
		{"text after a quoted document", "\"a\" b\n", 0,
			"1:5: did not find expected <document start> (text after a closing quote: quote the whole value, and escape a \" inside it as \\\" or double a ' inside '…')"},
		{"a value starting with '@'", "a: @b\n", 0,
			"1:4: found character that cannot start any token (a plain value cannot start with '@': put it in quotes)"},
		{"a value starting with '`'", "x: 1\ny: `cmd`\n", 2,
			"2:4: found character that cannot start any token (a plain value cannot start with '`': put it in quotes)"},
		{"a control character", "x: 1\ny: a\x01b\n", 0, "2:5: control characters are not allowed"},
		// Where it is found.
		{"in a second document", "a: 1\n---\nb: 2\n  c: 3\n", 4,
			"4:4: mapping values are not allowed in this context (a line indented deeper than the one before it continues that line's value: indent it as the lines beside it)"},
		{"columns count characters", "text: \"café ☕\" x\n", 0,
			"1:16: did not find expected key (text after a closing quote: quote the whole value, and escape a \" inside it as \\\" or double a ' inside '…')"},
		{"CRLF lines", "x: 1\r\ny: [a, b: c: d]\r\n", 1,
			"2:12: did not find expected ',' or ']' (a ': ' in a plain value starts a key: put the value in quotes)"},
		{"after blank lines", "x: a\n\n\ny: b\n   z: c\n", 5,
			"5:5: mapping values are not allowed in this context (a line indented deeper than the one before it continues that line's value: indent it as the lines beside it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.src)
			err := parseAll(data)
			if err == nil {
				t.Fatalf("yaml.v3 reads %q without error", tc.src)
			}
			if line, _ := SyntaxError(err); line != tc.reported {
				t.Errorf("yaml.v3 reports line %d (%v), want %d", line, err, tc.reported)
			}
			p, msg := SyntaxPos(data, err)
			if diff := cmp.Diff(tc.want, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, msg)); diff != "" {
				t.Errorf("SyntaxPos (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSyntaxPosFallback: an error not of yaml.v3's form has no place, and
// a document over MaxSyntaxSearch is placed at yaml.v3's line, corrected
// to its context's line for an error of the parser.
func TestSyntaxPosFallback(t *testing.T) {
	if p, msg := SyntaxPos([]byte("x"), fmt.Errorf("unexpected EOF")); p != (Pos{}) || msg != "unexpected EOF" {
		t.Errorf("SyntaxPos(other error) = %v, %q", p, msg)
	}
	big := strings.Repeat("k: v\n", MaxSyntaxSearch/5) + "e: {a: b: c}\n"
	err := parseAll([]byte(big))
	if err == nil {
		t.Fatal("want a syntax error")
	}
	line, _ := SyntaxError(err)
	p, _ := SyntaxPos([]byte(big), err)
	if want := (Pos{Line: line + 1, Col: 1}); p != want {
		t.Errorf("SyntaxPos(over MaxSyntaxSearch) = %v, want %v (yaml.v3 said line %d)", p, want, line)
	}
}

// FuzzSyntaxPos: whatever yaml.v3 refuses is placed inside the input (or
// just past its end) and never panics.
func FuzzSyntaxPos(f *testing.F) {
	for _, s := range []string{"a: 1\n\tb: 2\n", "x: {a: b: c}\n", "t: \"abc\n", "a: [1,\n", "- a\nb: c\n", "x: &\n", "y: \"\\q\"\n", "%YAML 1.1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		err := parseAll(data)
		if err == nil || len(data) > 4096 {
			return
		}
		p, msg := SyntaxPos(data, err)
		if msg == "" {
			t.Fatalf("no message for %q", s)
		}
		lines := strings.Count(s, "\n") + 1
		if p.Line < 0 || p.Line > lines || p.Line > 0 && p.Col < 1 {
			t.Fatalf("SyntaxPos(%q) = %v, outside its %d lines (%v)", s, p, lines, err)
		}
	})
}
