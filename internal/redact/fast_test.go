package redact

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

func TestContainsJSONIsJSON(t *testing.T) {
	r := New([]Secret{{ID: "k", Value: "sk-live-ABCDEFGH12345678"}, {ID: "pin", Value: "90210777"}}, "the key ends in 12345678 and the public sk-live-**** form")
	for _, doc := range []string{
		`{"a":"clean"}`, `{"a":"sk-live-ABCDEFGH"}`, `{"sk-live-ABCDEFGH":1}`, `{"a":"sk\u002dlive\u002dABCDEFGH"}`, `{"n":90210777}`, `{"n":9021}`,
		`not json sk-live-ABCDEFGH`, `not json`, `{"a":"12345678"}`, `["x", "c2stbGl2ZS1BQkNERUZHSDEyMzQ1Njc4"]`,
		`{"a":"sk-live-%41BCDEFGH"}`, `{"a":"sk-live-&#65;BCDEFGH"}`, `{"a":"sk-live-","b":"ABCDEFGH"}`, `{"sk-live-":"ABCDEFGH12"}`,
		`{"a":"SK-LIVE-abcdefgh"}`, `{"a":"736b2d6c6976652d414243444546474831323334353637380a"}`, `{"n":-90210777e1}`,
		`{"a":"ends in 12345678"}`, `{"a":"x\u0073k-live-ABCDEFGH"}`,
	} {
		red := r.JSON([]byte(doc))
		want := string(red) != doc
		if got := r.ContainsJSON([]byte(doc)); got != want {
			t.Errorf("ContainsJSON(%s) = %v; JSON redacts it to %s", doc, got, red)
		}
		if json.Valid([]byte(doc)) {
			if got := r.ContainsValidJSON([]byte(doc)); got != want {
				t.Errorf("ContainsValidJSON(%s) = %v; JSON redacts it to %s", doc, got, red)
			}
		}
	}
}

// TestContainsJSONRandom compares ContainsJSON with what JSON redacts on
// documents built from pieces of the secret, its public part, escapes and
// noise, split across strings, keys and numbers.
func TestContainsJSONRandom(t *testing.T) {
	r := New([]Secret{{ID: "k", Value: "sk-live-ABCDEFGH12345678"}, {ID: "pin", Value: "90210777"}}, "the key ends in 12345678, sk-live-**** form")
	pieces := []string{"sk-live-", "ABCD", "EFGH", "1234", "5678", "abcdefgh", "SK-LIVE", " ", "  ", "\\n", "\\u0041", "%41", "&#65;", "&amp;", "\\\"", "ñ", "ｓ", "\u200b", "9021", "0777", "x", "-", "c2stbGl2ZS1B", "QkNERUZHSDEyMzQ1Njc4"}
	rng := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return `"` + b.String() + `"`
	}
	for range 5000 {
		var b strings.Builder
		b.WriteString("{")
		for j := range 1 + rng.IntN(4) {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(str() + ":")
			switch rng.IntN(3) {
			case 0:
				b.WriteString(str())
			case 1:
				b.WriteString(strconv.Itoa(rng.IntN(100000000)))
			default:
				b.WriteString("[" + str() + "," + str() + "]")
			}
		}
		b.WriteString("}")
		doc := []byte(b.String())
		if !json.Valid(doc) {
			continue
		}
		want := string(r.JSON(doc)) != string(doc)
		if got := r.ContainsValidJSON(doc); got != want {
			t.Fatalf("ContainsValidJSON(%s) = %v; JSON redacts it to %s", doc, got, r.JSON(doc))
		}
	}
}

// TestFoldRunesIsFoldString: folding without sources gives the same runes,
// whatever the pooled buffer folded before.
func TestFoldRunesIsFoldString(t *testing.T) {
	f := new(folded)
	for _, s := range append(fastTexts, "", " ", "  A\t\nB ", "x\u200by", "ÅB ｓ ﬁ ñ\u00a0\u2003z", "a\x7fb\x01c", "\xff\xfeok") {
		want := foldString(s)
		f.foldRunes(s)
		if !slices.Equal(f.r, want.r) || len(f.src) != 0 {
			t.Errorf("foldRunes(%q) = %q with %d sources; foldString gives %q", s, string(f.r), len(f.src), string(want.r))
		}
		f.foldString(s)
		if !slices.Equal(f.r, want.r) || !slices.Equal(f.src, want.src) {
			t.Errorf("foldString(%q) after foldRunes = %q %v; want %q %v", s, string(f.r), f.src, string(want.r), want.src)
		}
	}
}

// TestStringEndIsTheLoop: the first-quote shortcut of stringEnd ends every
// literal where the escape-aware loop does.
func TestStringEndIsTheLoop(t *testing.T) {
	loop := func(doc []byte, i int) int {
		for j := i + 1; j < len(doc); j++ {
			switch doc[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(doc)
	}
	alphabet := []byte(`"\ab"`)
	seed := uint32(11)
	for n := 0; n < 20000; n++ {
		b := make([]byte, 1+n%9)
		b[0] = '"'
		for k := 1; k < len(b); k++ {
			seed = seed*1664525 + 1013904223
			b[k] = alphabet[seed>>24%uint32(len(alphabet))]
		}
		if got, want := stringEnd(b, 0), loop(b, 0); got != want {
			t.Fatalf("stringEnd(%q, 0) = %d; the loop gives %d", b, got, want)
		}
	}
}

// survey reads a plain lower-case word at once; it must say what the byte
// loop says on every text: prose, chains of hex pairs split by words that
// start or end in hex letters ("de ad be ef", "added feed"), long words,
// numbers, line breaks, and every shortest run a secret may set.
func TestSurveyFastPath(t *testing.T) {
	words := []string{"the", "de", "ad", "be", "ef", "added", "feed", "cafe", "bead", "faced", "created", "used",
		"code", "a", "x", "ex", "configuration", "internationalization", "abcdefabcdefabcdef", "fedcba", "deadbeefcafebabe",
		"0x", "0", "115", "107", "sk_live", "QxT9mKq2", "Ab", "\n", "\t", "=", "%", "&#", ",", ".", "-", "é", "\x00", "zz", "cab", "bad",
		"\"", "(", "\"the", "(cost", "823,", "1223", "5f3a", "9", "_", "x9", "0123-4567-", "89:01-", "hijk", "ghi", "jkl"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(40) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(5) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		minRun := 4 + n%6
		if got, want := surveyOf(text, minRun, true), surveyOf(text, minRun, false); got != want {
			t.Fatalf("survey(%q, %d) = %b with the fast path, %b without", text, minRun, got, want)
		}
	}
	for _, f := range []string{"../../testdata/gold/*.json", "../../scenarios/builtin/*.yaml"} {
		files, _ := filepath.Glob(f)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, minRun := range []int{4, 6, 8} {
				if got, want := surveyOf(string(b), minRun, true), surveyOf(string(b), minRun, false); got != want {
					t.Errorf("%s: survey = %b with the fast path, %b without", name, got, want)
				}
			}
		}
	}
}
