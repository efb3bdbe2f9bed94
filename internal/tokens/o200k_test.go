package tokens

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// TestO200kTable: the embedded table holds exactly the codec's vocabulary,
// rank for rank, and finds every token at its rank.
func TestO200kTable(t *testing.T) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	tab := o200k()
	n := tab.n
	if n < 199000 {
		t.Fatalf("table holds %d tokens", n)
	}
	for r := 0; r < n; r++ {
		want, err := codec.Decode([]uint{uint(r)})
		if err != nil {
			t.Fatalf("codec has no token of rank %d: %v", r, err)
		}
		if got := tab.token(uint32(r)); got != want {
			t.Fatalf("rank %d: table has %q, codec %q", r, got, want)
		}
		if got, ok := tab.rank(want); !ok || got != uint32(r) {
			t.Fatalf("rank(%q) = %d, %v; want %d", want, got, ok, r)
		}
	}
	if _, err := codec.Decode([]uint{uint(n)}); err == nil {
		t.Errorf("the codec has a token of rank %d, past the table's end", n)
	}
	for _, s := range []string{"", "not a token at all, surely", "\xff\xfe"} {
		if r, ok := tab.rank(s); ok {
			t.Errorf("rank(%q) = %d, want none", s, r)
		}
	}
}

// TestVocabCache: the first load builds the table from the codec and
// writes it to the cache directory; the next reads that file (a marker
// token planted in it shows the file was read, not rebuilt); a damaged
// file is refused by its checksum and rebuilt; a directory that cannot be
// written still gives a working table.
func TestVocabCache(t *testing.T) {
	dir := t.TempDir()
	built := loadVocab(dir)
	path := filepath.Join(dir, vocabFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the first load wrote no file: %v", err)
	}
	if string(data) != string(buildO200k()) {
		t.Fatal("the cached file is not the table built from the codec")
	}
	if built.n != o200k().n {
		t.Fatalf("tables of %d and %d tokens", built.n, o200k().n)
	}
	// a file holding other tokens, well formed: the next load must use it
	os.WriteFile(path, encodeVocab([]string{"a", "b", "ab"}), 0o644)
	if got := loadVocab(dir); got.n != 3 {
		t.Fatalf("the second load did not read the cached file (%d tokens)", got.n)
	}
	// one byte flipped: the checksum refuses it and the table is rebuilt
	good := buildO200k()
	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 1
	os.WriteFile(path, bad, 0o644)
	if got := loadVocab(dir); got.n != built.n {
		t.Fatalf("a damaged file gave %d tokens", got.n)
	}
	if data, _ := os.ReadFile(path); string(data) != string(good) {
		t.Error("the damaged file was not rewritten")
	}
	// no cache directory at all
	if got := loadVocab(""); got.n != built.n {
		t.Errorf("without a cache directory: %d tokens", got.n)
	}
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, nil, 0o644)
	if got := loadVocab(filepath.Join(blocked, "sub")); got.n != built.n {
		t.Errorf("with an unwritable cache directory: %d tokens", got.n)
	}
}

// TestParseVocabRefuses: a file that is not a vocabulary, or whose sizes
// do not add up, is refused rather than read out of bounds.
func TestParseVocabRefuses(t *testing.T) {
	good := string(encodeVocab([]string{"a", "b", "ab"}))
	if _, err := parseVocab([]byte(good)); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	for name, data := range map[string]string{
		"empty":     "",
		"magic":     "o200k.v1" + good[8:],
		"truncated": good[:len(good)-1],
		"longer":    good + "x",
		"flipped":   good[:12] + string(good[12]^1) + good[13:],
	} {
		if _, err := parseVocab([]byte(data)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	tab, _ := parseVocab([]byte(good))
	for r, tok := range []string{"a", "b", "ab"} {
		if got, ok := tab.rank(tok); !ok || got != uint32(r) {
			t.Errorf("rank(%q) = %d, %v; want %d", tok, got, ok, r)
		}
	}
	if got := tab.count("abab"); got != 2 {
		t.Errorf("count(abab) = %d, want 2 (ab ab)", got)
	}
	if got := tab.count("ba"); got != 2 {
		t.Errorf("count(ba) = %d, want 2 (b a)", got)
	}
}

// TestO200kCountPieces: the table's byte-pair encoding counts every
// pre-token as the codec does, short and long (tiktoken-go switches
// algorithms at 96 bytes), in scripts that merge differently.
func TestO200kCountPieces(t *testing.T) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	tab := o200k()
	r := rand.New(rand.NewPCG(7, 8))
	alphabets := []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "qxzjkv", "!@#$%^&*()-=+[]{};:,./<>?|~`", "áéíóúñü", "日本語中文字", "абвгдежз"}
	var pieces []string
	for range 3000 {
		a := []rune(alphabets[r.IntN(len(alphabets))])
		var b strings.Builder
		for b.Len() < 1+r.IntN(250) {
			b.WriteRune(a[r.IntN(len(a))])
		}
		pieces = append(pieces, b.String())
	}
	counted := 0
	for _, p := range pieces {
		// count the piece only when the codec's split keeps it whole: the
		// table counts one pre-token
		_, toks, err := codec.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		whole := 0
		splitO200k(p, func(string) { whole++ })
		if whole != 1 {
			continue
		}
		counted++
		if got := tab.count(p); got != len(toks) {
			t.Fatalf("count(%q) = %d, codec %d", p, got, len(toks))
		}
	}
	if counted < 1000 {
		t.Fatalf("only %d pieces were single pre-tokens", counted)
	}
}

// TestCountNeedsNoCodec: counting UTF-8 text with o200k_base never loads
// the codec (the point of the table); text that is not UTF-8 does, and is
// counted as the codec counts it.
func TestCountNeedsNoCodec(t *testing.T) {
	c := &Counter{name: "o200k_base"}
	if got := c.Count("The read-only rule from turn 1 still holds: port 5432."); got == 0 {
		t.Fatal("no tokens")
	}
	if c.codec != nil {
		t.Error("counting UTF-8 text loaded the codec")
	}
	bad := "caf\xe9 latte"
	want := c.count(bad)
	if got := c.Count(bad); got != want || c.codec == nil {
		t.Errorf("Count(%q) = %d (codec loaded: %v), want %d", bad, got, c.codec != nil, want)
	}
}

// TestMain keeps the package's own table (o200k) out of the user's cache
// directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tokens-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
