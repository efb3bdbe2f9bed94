package clip

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 5, "abc"},
		{"exact", "abcde", 5, "abcde"},
		{"cut", "abcdef", 3, "abc…"},
		{"inside a character", "sesión", 5, "sesi…"}, // ó is 2 bytes at 4-5
		{"after a character", "sesión", 6, "sesió…"},
		{"zero", "abc", 0, "…"},
		{"negative", "abc", -1, "…"},
		{"empty", "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := String(tc.in, tc.n)
			if got != tc.want {
				t.Errorf("String(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("String(%q, %d) = %q is not valid UTF-8", tc.in, tc.n, got)
			}
		})
	}
}
