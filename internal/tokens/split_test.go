package tokens

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
)

// o200kPattern is the split pattern of tiktoken-go's o200k_base codec.
const o200kPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

func regexpSplit(t *testing.T, re *regexp2.Regexp, s string) []string {
	t.Helper()
	var out []string
	m, err := re.FindStringMatch(s)
	for m != nil && err == nil {
		out = append(out, m.String())
		m, err = re.FindNextMatch(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// randomText mixes characters of every class the pattern cares about.
func randomText(r *rand.Rand, n int) string {
	pools := [][]rune{
		[]rune("abcxyzABCXYZ'sStTrReEvVmMlLdD"),
		[]rune("0123456789٠١٢³½ⅫⅩ"),
		[]rune(" \t\n\r\v\f\u0085\u00a0\u1680\u2000\u2028\u2029\u202f\u3000"),
		[]rune(".,;:!?/\\\"'[]{}()<>-_=+*&^%$#@~`|"),
		[]rune("éüñçÅØßǅǈʰˆ中文日本語한국어ـ\u0301\u0308\u0903\u20dd"),
		[]rune("🙂👍🏽"),
	}
	var b strings.Builder
	for b.Len() < n {
		p := pools[r.IntN(len(pools))]
		for k := 1 + r.IntN(4); k > 0; k-- {
			b.WriteRune(p[r.IntN(len(p))])
		}
	}
	return b.String()
}

func TestSplitO200kMatchesRegexp(t *testing.T) {
	re := regexp2.MustCompile(o200kPattern, regexp2.None)
	r := rand.New(rand.NewPCG(3, 4))
	texts := corpus()
	for range 3000 {
		texts = append(texts, randomText(r, 1+r.IntN(80)))
	}
	// Every single rune of the Basic Multilingual Plane, alone and between
	// letters, spaces and punctuation.
	var all strings.Builder
	for c := rune(0); c < 0x10000; c++ {
		if utf8.ValidRune(c) && c != 0 {
			all.WriteRune(c)
			if c%7 == 0 {
				all.WriteString(" a")
			}
			if c%11 == 0 {
				all.WriteString("'S\n")
			}
		}
	}
	texts = append(texts, all.String())
	// A sample of the other planes.
	var astral strings.Builder
	for c := rune(0x10000); c < 0x110000; c += 37 {
		if utf8.ValidRune(c) {
			astral.WriteRune(c)
			if c%5 == 0 {
				astral.WriteString(" x'll\r\n")
			}
		}
	}
	texts = append(texts, astral.String())
	// Runes alone and between letters, spaces and contractions.
	for c := rune(1); c < 0x10000; c++ {
		if utf8.ValidRune(c) && (c < 0x3000 || c%13 == 0) {
			texts = append(texts, string(c), "x"+string(c)+"y", " "+string(c)+" ", string(c)+"'S", "A"+string(c)+"\n")
		}
	}
	for i, s := range texts {
		var got []string
		splitO200k(s, func(p string) { got = append(got, p) })
		want := regexpSplit(t, re, s)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("text %d %q: pieces (-regexp +split):\n%s", i, clipTest(s), diff)
		}
	}
}

func clipTest(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestSplitO200kASCIIPairs: every pair of ASCII characters, alone and
// before a letter, an accent and a non-ASCII letter, splits as the regexp
// does (the pre-split skips the letter alternatives when neither of the
// first two bytes is a letter).
func TestSplitO200kASCIIPairs(t *testing.T) {
	re := regexp2.MustCompile(o200kPattern, regexp2.None)
	for a := 1; a < utf8.RuneSelf; a++ {
		for b := 1; b < utf8.RuneSelf; b++ {
			for _, tail := range []string{"", "x", "\u0301", "é", "Ünd", "1"} {
				s := string(rune(a)) + string(rune(b)) + tail
				var got []string
				splitO200k(s, func(p string) { got = append(got, p) })
				if diff := cmp.Diff(regexpSplit(t, re, s), got); diff != "" {
					t.Fatalf("%q: pieces (-regexp +split):\n%s", s, diff)
				}
			}
		}
	}
}
