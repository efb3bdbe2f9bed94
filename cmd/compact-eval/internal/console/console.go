// Package console keeps the console from being commanded by what it
// prints.
//
// A GitHub Actions runner reads every line of a step's output that starts with "::" (after
// blanks) as a workflow command (::error::, ::add-mask::, ::stop-commands::
// …), and a terminal obeys escape sequences. compact-eval prints names and
// texts it did not write (file names, scenario ids, summarizer names, check
// messages quoting a summary, a child's stderr), so:
//
//   - every such string is printed through Text, which escapes control
//     characters: a file name holding "\n::error::" prints as one line;
//   - standard output and standard error go through a Guard, which escapes
//     a ':' that starts a line (after any Unicode blank) and the '[' of
//     "##[" (the legacy form, read anywhere in a line), so no line
//     compact-eval prints, whatever it holds, is a workflow command. Only the annotations compact-eval
//     means to emit, and the documents written to standard output (report,
//     import, schema), bypass it (the command's Env.Data).
package console

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/redact"
)

// Text is s for a console line: control characters (C0 but none, DEL,
// C1, line and paragraph separators, bidirectional overrides) and invalid
// UTF-8 are escaped as \n, \r, \t, \xNN or \uNNNN, so that s stays one line
// and reads as written.
func Text(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || mustEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && mustEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case mustEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func mustEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Lines is Text for each line of a text that may hold several (an
// error listing problems): its own line breaks stay.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Text(l)
	}
	return strings.Join(lines, "\n")
}

// Guard is a writer through which no line can hold a workflow command:
// a ':' first on a line (after blanks; '\n' and '\r' both start a line)
// is written as \x3a, and the '[' of "##[" (the runner's legacy form,
// read anywhere in a line) as \x5b. The runner trims every Unicode blank
// before looking for "::", so any non-ASCII character at the start of a
// line counts as a blank here (a ':' after "日本" is escaped too, which
// costs nothing but looks). Other control characters but '\n', '\r' and
// '\t' are escaped as \xNN, so that no escape sequence reaches a
// terminal. Every API key the harness knows (redact.Keys) is hidden as
// [redacted:NAME] in what a Write carries, whatever printed it. It is safe
// for concurrent use; each Write is whole.
type Guard struct {
	mu     sync.Mutex
	w      io.Writer
	start  bool // at the start of a line, or after blanks that start it
	hashes int  // '#' bytes just written
	buf    []byte
}

// NewGuard guards w.
func NewGuard(w io.Writer) *Guard { return &Guard{w: w, start: true} }

// Write writes p, guarded.
func (g *Guard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buf = g.buf[:0]
	n := len(p)
	if keys := redact.Keys(); keys != nil {
		if s := string(p); keys.Contains(s) {
			p = []byte(keys.String(s))
		}
	}
	for _, c := range p {
		hashes := g.hashes
		g.hashes = 0
		switch {
		case c == '\n' || c == '\r':
			g.start = true
			g.buf = append(g.buf, c)
		case c == ' ' || c == '\t' || c >= 0x80:
			// (a byte of a non-ASCII character leaves start as it was)
			g.buf = append(g.buf, c)
		case c == '#':
			g.hashes = hashes + 1
			g.buf = append(g.buf, c)
			g.start = false
		case c == '[' && hashes >= 2:
			g.buf = append(g.buf, `\x5b`...)
			g.start = false
		case c == ':' && g.start:
			g.buf = append(g.buf, `\x3a`...)
			g.start = false
		case c < 0x20 || c == 0x7f:
			g.buf = fmt.Appendf(g.buf, `\x%02x`, c)
			g.start = false
		default:
			g.buf = append(g.buf, c)
			g.start = false
		}
	}
	if _, err := g.w.Write(g.buf); err != nil {
		return 0, err
	}
	return n, nil
}
