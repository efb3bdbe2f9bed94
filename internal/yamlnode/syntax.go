package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A yaml.v3 syntax error ("yaml: line N: message") names a line, not
// always the problem's, and never a column. yaml.v3's parser.fail prints
// the line of the error's context mark (where the enclosing construct
// began: the flow mapping, the quoted or plain scalar, the block mapping)
// whenever that is past the first line, and the problem's line only when
// the context is on the first line; and it adds 1 to libyaml's line,
// counted from 0, only for an error of the scanner, so an error of the
// parser ("did not find expected ',' or '}'") names the line before its
// context. That is the class of the lines one early: an unquoted ': ' in
// a flow event (`- {role: user, text: Note: b}`) is reported on the line
// before the event; a tab that indents a line, on the line of the plain
// value before it; a list item indented out of its block, on the line
// before the block. SyntaxPos finds the place itself: the problem mark of
// libyaml, the C parser yaml.v3 is a port of, which yaml.v3 does not give.

// MaxSyntaxSearch is the largest document SyntaxPos searches for the
// place of a syntax error (each step parses a prefix of it); above it,
// the place is yaml.v3's line, corrected, at column 1.
const MaxSyntaxSearch = 1 << 20

// SyntaxPos positions err, the syntax error yaml.v3 gave on data (the
// first error of decoding its documents in turn, as a yaml.Decoder reads
// them), at the place of the problem, and returns the message without its
// "yaml: line N: " prefix, with a hint for the classes a hand-written file
// meets most (a ': ' in a plain value, a tab or a line indented out of its
// block, text after a closing quote, a quote or a bracket never closed).
//
// The place is where libyaml puts its problem mark: the first character
// of the token the parser could not take (the ':' an unquoted ': ' makes
// in a flow, the key of a mapping where a list item was expected, a line
// indented out of its block), or the character the scanner could not read
// (a tab, the second ': ' of a block value, a bad escape's backslash).
// Two places differ on purpose: for a problem at the end of the file, a
// quote or bracket never closed, it is the opener, not the end; for a key
// with no ':', the key, not the token after it where libyaml gave up.
//
// It is found by parsing prefixes of data, each with the quotes and
// brackets it leaves open closed, for the shortest one that fails with the
// same error, then moved, for the classes where the token began earlier or
// the scanner stopped later, as placeRules says. An error it cannot place
// (a document over MaxSyntaxSearch) is at yaml.v3's line, corrected to the
// context's line, column 1; Pos is zero when err is not a yaml.v3 error.
func SyntaxPos(data []byte, err error) (Pos, string) {
	line, msg := SyntaxError(err)
	if line == 0 && msg == err.Error() {
		return Pos{}, msg // not of the form yaml.v3 writes
	}
	fallback := Pos{Line: max(line, 1), Col: 1}
	if isParserError(msg) && line > 0 {
		fallback.Line = line + 1 // the context mark, counted from 1
	}
	if len(data) > MaxSyntaxSearch {
		return fallback, msg
	}
	want := err.Error()
	fails := func(k int) bool {
		prefix := data[:k]
		e := parseAll(append(bytes.Clone(prefix), closers(prefix)...))
		return e != nil && e.Error() == want
	}
	if !fails(len(data)) {
		// Closing what the file leaves open mends it: the problem is the
		// end of the file, and the place the opener never closed.
		if open := openers(data); len(open) > 0 {
			o := open[len(open)-1]
			return offsetToPos(data, o), msg + hintEOF(data[o])
		}
		return fallback, msg
	}
	p := place(data, shortestFailing(data, line, fails)-1, msg)
	return offsetToPos(data, p), msg + hint(data, p, msg)
}

// shortestFailing is the length of the shortest prefix of data that fails,
// searched by whole lines from line (yaml.v3's; the problem is never
// before it), then by characters in the line found.
func shortestFailing(data []byte, line int, fails func(k int) bool) int {
	starts := lineStarts(data)
	from := 0
	if line > 1 && line <= len(starts) {
		from = line - 1
	}
	lineEnd := func(i int) int {
		if i+1 < len(starts) {
			return starts[i+1]
		}
		return len(data)
	}
	// The problem is most often on the reported line or soon after: gallop
	// from it, then halve. Each step parses a prefix from the start.
	lo, hi := from, len(starts)-1 // the problem's line index is in [lo, hi]
	for step := 0; lo+step < hi; step = 2*step + 1 {
		if fails(lineEnd(lo + step)) {
			hi = lo + step
			break
		}
		lo += step + 1
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(lineEnd(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	first, last := starts[lo], lineEnd(lo)
	a, b := first+1, last // the shortest failing length is in [a, b]
	for a < b {
		mid := (a + b) / 2
		if fails(mid) {
			b = mid
		} else {
			a = mid + 1
		}
	}
	for n := 0; n < 16 && a > first+1 && fails(a-1); n++ {
		a-- // a prefix the search stepped over
	}
	return a
}

// placeRules move p, the last character of the shortest failing prefix,
// to libyaml's problem mark for the classes of error where they differ:
// the token began before p, or the scanner stopped after it. Each rule is
// a case of TestSyntaxPos.
var placeRules = []struct {
	msg   string
	place func(data []byte, p int) int
}{
	// The escape's backslash, not its letter.
	{"found unknown escape character", func(data []byte, p int) int { return backslash(data, p) }},
	// The first of the digits the escape's letter asks for.
	{"did not find expected hexdecimal number", func(data []byte, p int) int { return min(backslash(data, p)+2, len(data)) }},
	// An anchor or alias with no name, or one followed by what cannot
	// end it: where its name ends.
	{"did not find expected alphabetic or numeric character", func(data []byte, p int) int {
		if (data[p] == '&' || data[p] == '*') && (p == 0 || strings.IndexByte(" \t\r\n[]{},", data[p-1]) >= 0) {
			p++
			for p < len(data) && isNameChar(data[p]) {
				p++
			}
		}
		return p
	}},
	// A verbatim tag !<…> never closed: where its URI ends.
	{"did not find the expected '>'", func(data []byte, p int) int {
		for p < len(data) && strings.IndexByte(" \t\r\n>", data[p]) < 0 {
			p++
		}
		return p
	}},
	// A directive with no document after it: the token after it.
	{"did not find expected <document start>", func(data []byte, p int) int {
		if s := bytes.LastIndexByte(data[:p], '\n') + 1; data[s] == '%' {
			for p < len(data) && data[p] != '\n' {
				p++ // past the directive
			}
		}
		return nextToken(data, p)
	}},
	// A key with no ':' on its line: the key, where the ':' is missing.
	// libyaml's mark is the token after it, where the scanner gave up,
	// often lines later: this place differs from it on purpose.
	{"could not find expected ':'", func(data []byte, p int) int {
		k := bytes.LastIndexByte(data[:p], '\n') + 1
		for k < p && (isBlank(data[k]) || (data[k] == '-' || data[k] == '?') && k+1 < len(data) && isBlank(data[k+1])) {
			k++ // the indentation and the "- " of its line
		}
		return k
	}},
	// A tag or an alias the parser cannot resolve: the whole token.
	{"found undefined tag handle", tokenStart},
	{"unknown anchor", tokenStart},
}

// place is libyaml's problem mark for the error msg whose shortest failing
// prefix ends at p.
func place(data []byte, p int, msg string) int {
	for _, r := range placeRules {
		if strings.HasPrefix(msg, r.msg) {
			return r.place(data, p)
		}
	}
	// A flow ends a plain scalar at "a:}" but not at "a: }": the prefix
	// fails one blank after the ':' that made it fail.
	if c := data[p]; (c == ' ' || c == '\n' || c == '\r') && p > 0 && data[p-1] == ':' {
		p--
	}
	if data[p] == ':' && isParserError(msg) {
		// The parser took the ':' after a simple key as the key's token,
		// which begins with the key.
		if k, ok := simpleKey(data, p); ok {
			return k
		}
	}
	return p
}

// simpleKey returns the start of the key the ':' at p ends, and whether
// YAML allows a simple key there, so that the scanner made the ':' a key's
// and the parser met the key's token first: in a block, a key after the
// line's indentation and its '- ' and '? ' indicators; in a flow, a key
// after a '{', '[', ',' or '?'. In a flow a ': ' after a value's first
// word ends no key: its ':' is the token.
func simpleKey(data []byte, p int) (int, bool) {
	first := bytes.LastIndexByte(data[:p], '\n') + 1
	i := p
	for i > first && isBlank(data[i-1]) {
		i--
	}
	if i == first {
		return 0, false // no key before the ':'
	}
	flow := slices.ContainsFunc(openers(data[:p]), func(o int) bool { return data[o] == '[' || data[o] == '{' })
	k := i
	switch q := data[i-1]; {
	case q == '"' || q == '\'':
		k = bytes.LastIndexByte(data[first:i-1], q) + first
		if k < first {
			return 0, false
		}
	case flow:
		for k > first && strings.IndexByte(",[]{}", data[k-1]) < 0 && !(isBlank(data[k-1]) && k-2 >= first && data[k-2] == ':') {
			k--
		}
		for isBlank(data[k]) {
			k++
		}
	default:
		k = first
		for {
			for k < i && isBlank(data[k]) {
				k++
			}
			if k+1 < i && (data[k] == '-' || data[k] == '?') && isBlank(data[k+1]) {
				k++
				continue
			}
			break
		}
	}
	if !flow {
		return k, k < i
	}
	j := k - 1
	for j >= 0 && (isBlank(data[j]) || data[j] == '\n' || data[j] == '\r') {
		j--
	}
	return k, j >= 0 && strings.IndexByte("[{,?", data[j]) >= 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isParserError reports whether msg is one of yaml.v3's parser errors,
// whose line it counts from 0, not one of its scanner errors.
func isParserError(msg string) bool {
	for _, m := range parserErrors {
		if strings.HasPrefix(msg, m) {
			return true
		}
	}
	return false
}

// parserErrors are the problems yaml.v3's parser (parserc.go) reports;
// the others are its scanner's and its reader's.
var parserErrors = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"did not find expected node content", "did not find expected key",
	"did not find expected '-' indicator", "did not find expected ',' or '}'",
	"did not find expected ',' or ']'", "found undefined tag handle",
	"found incompatible YAML document", "found duplicate %YAML directive",
	"found duplicate %TAG directive",
}

// hint says what a hand-written file most often means by the error msg
// placed at p, or "".
func hint(data []byte, p int, msg string) string {
	if p >= len(data) {
		return ""
	}
	first := bytes.LastIndexByte(data[:p], '\n') + 1
	before := data[first:p]
	c := data[p]
	switch {
	case c == '\t':
		return " (a tab cannot indent YAML: indent with spaces)"
	case c == ':' && (msg == "mapping values are not allowed in this context" || isParserError(msg)):
		if bytes.Contains(before, []byte(": ")) || bytes.Contains(before, []byte(":\t")) {
			return " (a ': ' in a plain value starts a key: put the value in quotes)"
		}
		if open := openers(data[:p]); len(open) > 0 && data[open[len(open)-1]] != '"' && data[open[len(open)-1]] != '\'' {
			o := offsetToPos(data, open[len(open)-1])
			if o.Line < offsetToPos(data, p).Line {
				return fmt.Sprintf(" (inside the '%c' at line %d, column %d: is it closed?)", data[open[len(open)-1]], o.Line, o.Col)
			}
		}
		if !isParserError(msg) {
			return " (a line indented deeper than the one before it continues that line's value: indent it as the lines beside it)"
		}
	case msg == "could not find expected ':'":
		return " (no ':' follows this key on its line)"
	case msg == "found character that cannot start any token" && (c == '@' || c == '`'):
		return fmt.Sprintf(" (a plain value cannot start with '%c': put it in quotes)", c)
	case isParserError(msg):
		j := p - 1
		for j >= first && (data[j] == ' ' || data[j] == '\t') {
			j--
		}
		if j >= first && (data[j] == '"' || data[j] == '\'') {
			return " (text after a closing quote: quote the whole value, and escape a \" inside it as \\\" or double a ' inside '…')"
		}
	}
	return ""
}

// parseAll decodes the documents of data in turn into nodes, as the
// loaders do, and returns the first error (nil at the end of the data).
func parseAll(data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("yaml: panic") // never the error searched for
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// backslash is the last '\' at or before p.
func backslash(data []byte, p int) int {
	if i := bytes.LastIndexByte(data[:p+1], '\\'); i >= 0 {
		return i
	}
	return p
}

// tokenStart is the start of the token holding p: back to a blank or a
// flow indicator.
func tokenStart(data []byte, p int) int {
	for p > 0 && strings.IndexByte(" \t\r\n,[]{}", data[p-1]) < 0 {
		p--
	}
	return p
}

// nextToken is the first character from i that is no blank and in no
// comment, or the end of data.
func nextToken(data []byte, i int) int {
	for i < len(data) {
		switch c := data[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case c == '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// isNameChar reports whether c may be in an anchor's name, as yaml.v3's
// is_alpha reads it.
func isNameChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

func hintEOF(opener byte) string {
	switch opener {
	case '"', '\'':
		return " (this quote is never closed)"
	case '[':
		return " (this '[' is never closed by a ']')"
	}
	return " (this '{' is never closed by a '}')"
}

// closers are the characters that close, innermost first, the quotes and
// brackets data leaves open.
func closers(data []byte) []byte {
	open := openers(data)
	out := make([]byte, 0, len(open))
	for i := len(open) - 1; i >= 0; i-- {
		switch data[open[i]] {
		case '[':
			out = append(out, ']')
		case '{':
			out = append(out, '}')
		default:
			out = append(out, data[open[i]])
		}
	}
	return out
}

// openers returns the offsets of the quotes and flow brackets data opens
// and does not close, outermost first. It reads YAML as far as that needs:
// a quote or a bracket opens only where a value may start (at the start
// of a line's content, or after a ':', '-', '?', ',' or bracket with a
// blank), inside a flow every bracket counts, comments and block scalars
// (| and >) are skipped, and quotes end as YAML ends them ("\"" and ”).
func openers(data []byte) []int {
	var stack []int
	inFlow := func() bool {
		for _, o := range stack {
			if data[o] == '[' || data[o] == '{' {
				return true
			}
		}
		return false
	}
	valueStart := func(i int) bool {
		j := i - 1
		for j >= 0 && (data[j] == ' ' || data[j] == '\t') {
			j--
		}
		if j < 0 || data[j] == '\n' {
			return true
		}
		switch data[j] {
		case '[', '{', ',':
			return true
		case ':', '-', '?':
			return j < i-1 // followed by a blank
		}
		return false
	}
	blockIndent := -1 // the indentation a block scalar's lines exceed, or -1
	for i := 0; i < len(data); i++ {
		c := data[i]
		if len(stack) > 0 {
			switch top := data[stack[len(stack)-1]]; {
			case top == '"':
				switch c {
				case '\\':
					i++
				case '"':
					stack = stack[:len(stack)-1]
				}
				continue
			case top == '\'':
				if c == '\'' {
					if i+1 < len(data) && data[i+1] == '\'' {
						i++
					} else {
						stack = stack[:len(stack)-1]
					}
				}
				continue
			}
		}
		if blockIndent >= 0 && (i == 0 || data[i-1] == '\n') {
			// A line of a block scalar: skipped while more indented (or
			// blank).
			ind := 0
			for i+ind < len(data) && data[i+ind] == ' ' {
				ind++
			}
			if i+ind >= len(data) || data[i+ind] == '\n' || ind > blockIndent {
				i += ind
				for i < len(data) && data[i] != '\n' {
					i++
				}
				continue
			}
			blockIndent = -1
		}
		switch {
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i-- // the newline is read next
		case (c == '"' || c == '\'') && valueStart(i):
			stack = append(stack, i)
		case (c == '[' || c == '{') && (inFlow() || valueStart(i)):
			stack = append(stack, i)
		case (c == ']' || c == '}') && inFlow():
			stack = stack[:len(stack)-1]
		case (c == '|' || c == '>') && !inFlow() && valueStart(i) && restIsHeader(data[i+1:]):
			blockIndent = lineIndent(data, i)
		}
	}
	return stack
}

// restIsHeader reports whether rest, after a '|' or '>', is a block
// scalar's header to the end of the line: indicators, blanks, a comment.
func restIsHeader(rest []byte) bool {
	for i, c := range rest {
		switch {
		case c == '\n':
			return true
		case c == '#':
			return i > 0 && (rest[i-1] == ' ' || rest[i-1] == '\t')
		case !strings.ContainsRune("+-0123456789 \t\r", rune(c)):
			return false
		}
	}
	return true
}

// lineIndent is the indentation of the line holding offset i.
func lineIndent(data []byte, i int) int {
	s := bytes.LastIndexByte(data[:i], '\n') + 1
	n := 0
	for s+n < len(data) && data[s+n] == ' ' {
		n++
	}
	return n
}

// lineStarts are the offsets where the lines of data start.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offsetToPos is the line and column (in characters, from 1) of offset i.
func offsetToPos(data []byte, i int) Pos {
	s := bytes.LastIndexByte(data[:i], '\n') + 1
	return Pos{Line: bytes.Count(data[:s], []byte{'\n'}) + 1, Col: utf8.RuneCount(data[s:i]) + 1}
}
