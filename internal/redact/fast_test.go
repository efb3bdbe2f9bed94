package redact

import (
	"encoding/json"
	"fmt"
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
		"\"", "(", "\"the", "(cost", "823,", "1223", "5f3a", "9", "_", "x9", "0123-4567-", "89:01-", "hijk", "ghi", "jkl",
		"10.0.3.7);", ");", "!?", "Ab9(", "<~", "~>", "9&K", "*+",
		`"text":"leave`, `20},{"`, `"source_seq":52},{"text":"`, "0x1f", "0X", "a1b2", "statistics", "(cost=0.43..823.12"}
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
		if msg := surveyDisagrees(text, minRun); msg != "" {
			t.Fatalf("survey(%q, %d): %s", text, minRun, msg)
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
				if msg := surveyDisagrees(string(b), minRun); msg != "" {
					t.Errorf("%s: survey: %s", name, msg)
				}
			}
		}
	}
}

// surveyDisagrees says how the fast path of survey and the byte loop
// disagree on text, and how the base85 tokens in the range survey gives
// differ from those of the whole text ("" when they agree).
func surveyDisagrees(text string, minRun int) string {
	got, gotRange := surveyOf(text, minRun, true)
	want, wantRange := surveyOf(text, minRun, false)
	if got != want || gotRange != wantRange {
		return fmt.Sprintf("%b %v with the fast path, %b %v without", got, gotRange, want, wantRange)
	}
	var all, ranged [][2]int
	base85Tokens(text, b85Range{0, len(text)}, func(i, j int) { all = append(all, [2]int{i, j}) })
	base85Tokens(text, gotRange, func(i, j int) { ranged = append(ranged, [2]int{i, j}) })
	if !slices.Equal(all, ranged) {
		return fmt.Sprintf("base85 reads %v of the whole text, %v of the range %v", all, ranged, gotRange)
	}
	if (got&svBase85 != 0) != (len(all) > 0) {
		return fmt.Sprintf("svBase85 is %v and base85 reads %v", got&svBase85 != 0, all)
	}
	return ""
}

// mayBeSpelled classes a byte by one look-up; it must say what the byte
// by byte reading says on every text: table words, single letters and
// digits between them, Morse codes with their separators, words glued to
// dashes and dots.
func TestMayBeSpelled(t *testing.T) {
	words := []string{"alpha", "bravo", "one", "two", "be", "see", "capital", "the", "key", "is", "a", "x", "7",
		"...", "-.-", ".-", "---", "_", "-", ".", " ", " / ", "|", "\t", "\n", ",", "\"", "(", "x-ray", "double-u",
		"Alpha", "ONE", "abcdefghijklmnopq", "é", "9a", "a9"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		if got, want := mayBeSpelled(text), mayBeSpelledByByte(text); got != want {
			t.Fatalf("mayBeSpelled(%q) = %v, byte by byte %v", text, got, want)
		}
	}
	for _, f := range []string{"../../testdata/gold/*.json", "../../scenarios/builtin/*.yaml"} {
		files, _ := filepath.Glob(f)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := mayBeSpelled(string(b)), mayBeSpelledByByte(string(b)); got != want {
				t.Errorf("%s: mayBeSpelled = %v, byte by byte %v", name, got, want)
			}
		}
	}
}

// mayBeSpelledByByte is mayBeSpelled as it read byte by byte, each class
// tested on its own: the reference TestMayBeSpelled holds it to.
func mayBeSpelledByByte(s string) bool {
	var buf [16]byte
	inRow, codes := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if isMorseByte(c) && (i == 0 || !isAlnumByte(s[i-1])) {
			j := i
			for j < len(s) && isMorseByte(s[j]) {
				j++
			}
			if j-i <= 7 && (j == len(s) || !isAlnumByte(s[j])) {
				if codes++; codes >= minSpelled {
					return true
				}
			} else {
				codes = 0
			}
			i = j
			continue
		}
		if !isLetterByte(c) {
			if isAlnumByte(c) || strings.IndexByte(" \t\r\n/|", c) < 0 {
				codes = 0
			}
			i++
			continue
		}
		codes = 0
		j := letters(s, i)
		n := j - i
		switch {
		case n < 2:
		case n > len(buf) || !inBloom(s[i:j]):
			inRow = 0
		default:
			for k := range n {
				buf[k] = lowerASCII(s[i+k])
			}
			if sp, ok := spelledWords[string(buf[:n])]; !ok {
				inRow = 0
			} else if sp.c != 0 {
				if inRow++; inRow >= 2 {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// The fold of a text takes its ASCII bytes at once, past buffers sized to
// the text's bytes: a rune of another script that folds to more runes
// than it has bytes (U+FDFA folds to 18) fills them first. The fold is
// the same as rune by rune.
func TestFoldPastItsBuffer(t *testing.T) {
	for _, text := range []string{
		"\uFDFA" + "sk_live_51QxT9mKq2RwZ8vN4bLc7HyPd3eFgA6sJ0tUi1oVzX5nMkE7Hq2",
		"\uFDFA\uFDFA" + "AB--CD..EF" + strings.Repeat("x", 40),
		"ﬃ" + strings.Repeat("Ab1-", 20),
		strings.Repeat("\uFDFA", 3) + "==*==*",
	} {
		var want folded
		for i, r := range text {
			want.add(r, span{int32(i), int32(i + utf8.RuneLen(r))})
		}
		for _, runesOnly := range []bool{false, true} {
			var got folded
			if runesOnly {
				got.foldRunes(text)
			} else {
				got.foldString(text)
			}
			if !slices.Equal(got.r, want.r) || !slices.Equal(got.k, want.k) || !slices.Equal(got.ki, want.ki) || got.masked != want.masked {
				t.Errorf("fold(%q) (runes only %v):\n got %q %q %v\nwant %q %q %v", text, runesOnly, string(got.r), string(got.k), got.masked, string(want.r), string(want.k), want.masked)
			}
			if !runesOnly && !slices.Equal(got.src, want.src) {
				t.Errorf("fold(%q): src\n got %v\nwant %v", text, got.src, want.src)
			}
		}
	}
}

// A key whose pieces are joined by '.', '-' or '_' is one key-like run
// to the byte loop; a lower-case word after the joint (the fast path's
// plain word) must go on counting it, not start a run of its own.
func TestSurveyFastPathKeepsKeyRun(t *testing.T) {
	for _, text := range []string{
		"token QxT9mKq2.shuffled done", "token Zr4Wq8Lp-statistics here", "id Np3Xk7Vb_shuffled now",
		"Ab3dE9fGh2.xyz.shuffled end", "a 9f3k2m8q-zz7x.shuffled b",
	} {
		for _, minRun := range []int{4, 6, 8} {
			if msg := surveyDisagrees(text, minRun); msg != "" {
				t.Errorf("survey(%q, %d): %s", text, minRun, msg)
			}
		}
	}
	// its faithful twin: the same word after a space stays a word of its own
	for _, text := range []string{"token QxT9mKq2 shuffled done", "see e.g. the shuffled deck"} {
		got, _ := surveyOf(text, MinRun, true)
		want, _ := surveyOf(text, MinRun, false)
		if got != want {
			t.Errorf("survey(%q): %b with the fast path, %b without", text, got, want)
		}
	}
}

// TestSurveyFastPathRandomBytes: on random bytes drawn from the classes
// the byte loop tells apart (letters of both cases, hex letters, digits,
// key joints, blanks, quotes, marks, escapes, NUL, non-ASCII) the fast
// path says what the byte loop says.
func TestSurveyFastPathRandomBytes(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyzabcdefxyzqshuffledABCDEFGHQXZ0123456789-_.-_. \n\t\"\",:{}[]!#$*+<~>&%=\\x\x00\xc3\xa9"
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 0, 96)
	for n := range 40000 {
		buf = buf[:0]
		for range 1 + rng.IntN(90) {
			buf = append(buf, alphabet[rng.IntN(len(alphabet))])
		}
		text := string(buf)
		minRun := 4 + n%6
		if msg := surveyDisagrees(text, minRun); msg != "" {
			t.Fatalf("survey(%q, %d): %s", text, minRun, msg)
		}
	}
}
