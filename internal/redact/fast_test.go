package redact

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var fastTexts = []string{
	"", "a", "Sk-Live-ABCDEFGH", "  two  spaces\t\ttabs\r\n", "\x00ctl\x7fdel", "ﬁle ｓk ñ café", "mixed ASCII and ü\u200b zero-width",
	"bad \xff utf8 \xc3", "A\u00a0nbsp", "{\"k\": \"sk-live-abcdefgh12345678\"}",
}

// foldSlow is foldString without its ASCII fast path.
func foldSlow(s string) folded {
	var f folded
	for i, r := range s {
		w := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, w = utf8.DecodeRuneInString(s[i:])
		}
		f.add(r, span{int32(i), int32(i + w)})
	}
	return f
}

func TestFoldFastPathIsAdd(t *testing.T) {
	for _, s := range fastTexts {
		got, want := foldString(s), foldSlow(s)
		if !slices.Equal(got.r, want.r) || !slices.Equal(got.src, want.src) {
			t.Errorf("foldString(%q) = %q %v; add gives %q %v", s, string(got.r), got.src, string(want.r), want.src)
		}
	}
}

func TestIndexFoldASCII(t *testing.T) {
	for _, s := range []string{"", "x", "deadBEEF", "zzDeAdBeEfzz", "dead dEAD deadbee", "0123abcd", "aaaaab", "ABAB"} {
		for _, n := range []string{"deadbeef", "beef", "0123", "ab", "b", "aab"} {
			want := strings.Index(strings.ToLower(s), n)
			if got := indexFoldASCII(s, n); got != want {
				t.Errorf("indexFoldASCII(%q, %q) = %d; want %d", s, n, got, want)
			}
		}
	}
}

func TestContainsJSONIsJSON(t *testing.T) {
	r := New([]Secret{{ID: "k", Value: "sk-live-ABCDEFGH12345678"}, {ID: "pin", Value: "90210777"}}, "the key ends in 12345678 and the public sk-live-**** form")
	for _, doc := range []string{
		`{"a":"clean"}`, `{"a":"sk-live-ABCDEFGH"}`, `{"sk-live-ABCDEFGH":1}`, `{"a":"sk\u002dlive\u002dABCDEFGH"}`, `{"n":90210777}`, `{"n":9021}`,
		`not json sk-live-ABCDEFGH`, `not json`, `{"a":"12345678"}`, `["x", "c2stbGl2ZS1BQkNERUZHSDEyMzQ1Njc4"]`,
	} {
		red := r.JSON([]byte(doc))
		want := string(red) != doc
		if got := r.ContainsJSON([]byte(doc)); got != want {
			t.Errorf("ContainsJSON(%s) = %v; JSON redacts it to %s", doc, got, red)
		}
	}
}
