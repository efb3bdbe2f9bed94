package meaning

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzWordSeq: WordSeq yields exactly the words of tokenize's word
// tokens, in order; on ASCII text, lower-casing the text first changes
// none of them (checks index a leaf's lower-cased copy).
func FuzzWordSeq(f *testing.F) {
	for _, s := range []string{
		"READ-ONLY investigation: prod-eu-1 is under a change freeze until Friday 18:00 UTC",
		"config/*.yaml and db.yml — l’équipe n’a RIEN changé", "İstanbul K ſ ǅ", "a--b c-/d e.", "",
		"call_migrate_0193: no result — do not assume applied (state unknown)", "`x: y` | Z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []string
		for _, tk := range tokenize(s) {
			if tk.Word {
				want = append(want, tk.W)
			}
		}
		if got := eachWord(s); !slices.Equal(got, want) {
			t.Fatalf("WordSeq(%q) = %q, tokenize has %q", s, got, want)
		}
		if isASCII(s) {
			if got := eachWord(strings.ToLower(s)); !slices.Equal(got, want) {
				t.Fatalf("WordSeq(lower %q) = %q, tokenize has %q", s, got, want)
			}
		}
	})
}

func eachWord(s string) []string { return slices.Collect(WordSeq(s)) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
