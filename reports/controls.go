package reports

import (
	"fmt"
	"unicode/utf8"
)

// EscapeControls returns an HTML page with every control character that
// reached it raw written visibly instead: C0 controls but tab, line feed
// and carriage return (ESC, BEL, backspace, …), DEL and C1 controls as
// \xNN, and the bidirectional overrides and isolates (U+202A–U+202E,
// U+2066–U+2069, which reorder what a line seems to say) as \uNNNN, the
// escapes the console and the Markdown report write. A summary's text is
// shown as it was written, escape sequences included, and none reaches the
// reader's browser or the terminal a page is printed to. html/template
// escapes for HTML, not for controls, so every page is passed through this
// once it is rendered: in a text, an attribute or a script the escape is
// text (in a script string it even means the same character). b is
// returned as it is when it holds none.
func EscapeControls(b []byte) []byte {
	i := nextControl(b, 0)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	at := 0
	for i >= 0 {
		r, n := utf8.DecodeRune(b[i:])
		out = append(out, b[at:i]...)
		if r < 0x100 {
			out = fmt.Appendf(out, `\x%02x`, r)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		at = i + n
		i = nextControl(b, at)
	}
	return append(out, b[at:]...)
}

// nextControl is the offset of the first control character of b at or
// after from that EscapeControls rewrites, -1 when there is none.
func nextControl(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0: // U+0080–U+009F
			return i
		case c == 0xe2 && i+2 < len(b) && (b[i+1] == 0x80 && b[i+2] >= 0xaa && b[i+2] <= 0xae || b[i+1] == 0x81 && b[i+2] >= 0xa6 && b[i+2] <= 0xa9):
			return i
		}
	}
	return -1
}
