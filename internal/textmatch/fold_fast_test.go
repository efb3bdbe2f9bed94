package textmatch

import (
	"strings"
	"testing"
	"unicode"
)

// foldSlow is Fold without the already-folded fast path (ASCII input).
func foldSlow(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

func TestFoldASCIIFastPath(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\vb", "a\fb", "a\rb", "x\x00y", "read-only: no changes", "ends. "} {
		if got, want := Fold(s), foldSlow(s); got != want {
			t.Errorf("Fold(%q) = %q; want %q", s, got, want)
		}
	}
}
