package tokens

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// corpus is long texts shaped like what compact-eval counts: rendered
// transcripts, raw and inside JSON, with awkward neighbours of '['.
func corpus() []string {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"port", "5432", "latency", "12ms", "[x]", "sesión", "naïve", "日本語", "  ", "\t", "\n", "\r\n", "'s", "don't", "a[0]", "x\\n[", "\\\\n[", "::", "/", "[", "]", "{", "}", "\"", "é[", "9[", " [", ".[", "\n\n[", "ÅB[", "emoji🙂[", "١٢٣[", "ǅ[", "e\u0301["}
	var out []string
	for n := 0; n < 60; n++ {
		var b strings.Builder
		for b.Len() < 5000+r.IntN(20000) {
			if r.IntN(4) == 0 {
				fmt.Fprintf(&b, "[#%d tool c%d] ", r.IntN(900), r.IntN(50))
			}
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) == 0 {
				b.WriteString(" ")
			}
			if r.IntN(8) == 0 {
				b.WriteString("\n")
			}
		}
		out = append(out, b.String())
		j, _ := json.Marshal(map[string]string{"text": b.String()})
		out = append(out, string(j))
	}
	return out
}

// TestCountPiecesExact: counting a long text piece by piece (with the
// memo) gives exactly the count of the whole text, for every encoding, the
// first time and when the pieces are remembered.
func TestCountPiecesExact(t *testing.T) {
	texts := corpus()
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		texts = append(texts, randomText(r, 1+r.IntN(300)))
	}
	for c := rune(1); c < 0x3000; c += 3 {
		texts = append(texts, "x"+string(c)+"y 's", " "+string(c)+"\n")
	}
	for _, enc := range Encodings {
		c, err := Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range texts {
			want := c.count(s)
			for pass := 0; pass < 2; pass++ {
				if got := c.Count(s); got != want {
					t.Fatalf("%s, text %d (%d bytes), pass %d: Count = %d, whole text counts %d", enc, i, len(s), pass, got, want)
				}
			}
		}
	}
}

func TestCountShort(t *testing.T) {
	c := Default()
	if got := c.Count(""); got != 0 {
		t.Errorf("Count(\"\") = %d", got)
	}
	if got := c.Count("hello world"); got != 2 {
		t.Errorf("Count(hello world) = %d, want 2", got)
	}
}

// TestPreload: Get after Preload returns the one shared counter, whether the
// background load has finished or not, and a bad name is still Get's error.
func TestPreload(t *testing.T) {
	for _, enc := range []string{"", "r50k_base"} {
		Preload(enc)
		a, err := Get(enc)
		if err != nil {
			t.Fatalf("Get(%q) after Preload: %v", enc, err)
		}
		b, err := Get(enc)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("Get(%q) gave two counters", enc)
		}
		if got := a.Count("hello world"); got != 2 {
			t.Errorf("Get(%q).Count(hello world) = %d, want 2", enc, got)
		}
	}
	Preload("o300k")
	if _, err := Get("o300k"); err == nil {
		t.Error(`Get("o300k") after Preload: no error`)
	}
}

// TestMemoIsMap: the pre-token memo answers as a Go map given the same
// puts would, through its growths, for present and absent keys alike.
func TestMemoIsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var m *memo
	if _, ok := m.get("x"); ok {
		t.Fatal("a nil memo holds x")
	}
	m = &memo{}
	want := map[string]int{}
	key := func() string {
		b := make([]byte, 1+r.IntN(6))
		for i := range b {
			b[i] = "ab \n'é"[r.IntN(7)]
		}
		return string(b)
	}
	for i := 0; i < 30000; i++ {
		k, v := key(), r.IntN(9)
		m.put(k, v)
		want[k] = v
		if i%7 == 0 {
			q := key()
			got, ok := m.get(q)
			w, wok := want[q]
			if got != w || ok != wok {
				t.Fatalf("after %d puts, get(%q) = %d, %v; the map gives %d, %v", i+1, q, got, ok, w, wok)
			}
		}
	}
	if m.n != len(want) {
		t.Fatalf("memo holds %d keys; the map %d", m.n, len(want))
	}
	for k, w := range want {
		if got, ok := m.get(k); !ok || got != w {
			t.Fatalf("get(%q) = %d, %v; want %d", k, got, ok, w)
		}
	}
	m.put("", 3)
	if _, ok := m.get(""); ok || m.n != len(want) {
		t.Fatal(`"" became a key`)
	}
}
