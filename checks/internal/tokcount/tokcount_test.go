package tokcount

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/tiktoken-go/tokenizer"
)

// library counts with the tokenizer library itself, bypassing any memory
// internal/tokens keeps of texts it counted before.
func library(t testing.TB) func(string) int {
	t.Helper()
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) int {
		n, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

func TestCountMatchesLibrary(t *testing.T) {
	c := tokens.Default()
	texts := []string{
		"",
		"Hello world",
		`{"schema_version":1,"covers_through":80,"constraints":[{"text":"read-only: no changes","source_seq":1}]}`,
		"don't DON'T they're I'M we'll he'D it's IT'S",
		"HELLOworld helloWorld ABC ABC. (ABC) (hello)",
		"   leading spaces\n\n\n  and  \t tabs\r\n\r\nend   ",
		"numbers 1234567 and 3.14159 and 50,000 tokens and 10.0.3.7",
		"sesión de sólo lectura: nada de índices; ¿qué haces? Ñandú",
		"mixed ЯЗЫК русский 中文字符 日本語のテキスト 한국어",
		"emoji 🙂👍🏽 and symbols ©®™ → ← ∑",
		"path/to/file.yaml ./a/b ../x a//b https://example.com/a?b=c#d",
		"combining e\u0301 and \u0301 alone, a\u0308b",
		"trailing newline\n",
		"x\u00a0\u00a0y\u2003z",
		"'s alone and ' quote",
		"AAAA\x7f\"A DEL \x7f\x7f is skipped",
	}
	// the built-in scenarios: English and Spanish prose, logs, YAML, JSON.
	if files, _ := filepath.Glob("../../../scenarios/*.yaml"); len(files) > 0 {
		for _, f := range files {
			b, _ := os.ReadFile(f)
			texts = append(texts, string(b))
		}
	}
	lib := library(t)
	for _, s := range texts {
		want := lib(s)
		if got := Count(c, s); got != want {
			t.Errorf("Count(%.60q) = %d; library says %d", s, got, want)
		}
		if strings.Join(Pieces(s), "") != s {
			t.Errorf("pieces of %.60q do not rebuild it", s)
		}
	}
}

func FuzzCount(f *testing.F) {
	f.Add("Hello world, it's 50,000 tokens")
	f.Add("  \n\t x ")
	f.Add("ÀB'C d'S 1234")
	c := tokens.Default()
	lib := library(f)
	f.Fuzz(func(t *testing.T, s string) {
		if want, got := lib(s), Count(c, s); got != want {
			t.Fatalf("Count(%q) = %d; library says %d (pieces %q)", s, got, want, Pieces(s))
		}
	})
}

func BenchmarkCount(b *testing.B) {
	c := tokens.Default()
	s := strings.Repeat(`{"claim":"orders_123 uses orders_123_created_at_idx for the nightly report","source_seq":4},`, 60)
	Count(c, s)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(c, s)
	}
}

// Every rune of the Basic Multilingual Plane, in contexts that exercise each
// alternative of the pattern, counts as the library counts it.
func TestEveryBMPRune(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	c := tokens.Default()
	lib := library(t)
	bad := 0
	for r := rune(0); r < 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		for _, s := range []string{"a" + string(r) + "B1", " " + string(r) + "x'S", "Ab" + string(r) + "\n"} {
			if want, got := lib(s), Count(c, s); got != want {
				bad++
				if bad < 10 {
					t.Errorf("Count(%q) = %d; library says %d (pieces %q)", s, got, want, Pieces(s))
				}
			}
		}
	}
}

// BenchmarkCountCold counts with an empty piece memory each time: the worst
// case, when no piece of the text was seen before.
func BenchmarkCountCold(b *testing.B) {
	c := tokens.Default()
	s := strings.Repeat(`{"claim":"orders_123 uses orders_123_created_at_idx for the nightly report","source_seq":4},`, 60)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		memos.Delete(c.Name())
		Count(c, s)
	}
}

// BenchmarkLibraryCount is the tokenizer library on the same text, for
// comparison.
func BenchmarkLibraryCount(b *testing.B) {
	lib := library(b)
	s := strings.Repeat(`{"claim":"orders_123 uses orders_123_created_at_idx for the nightly report","source_seq":4},`, 60)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		lib(s)
	}
}
