// Package tokens counts tokens offline with a tiktoken encoding.
package tokens

import (
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// DefaultEncoding is the encoding used when none is chosen.
const DefaultEncoding = "o200k_base"

// Encodings lists the encodings Counter accepts.
var Encodings = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}

// Counter counts tokens in text. It is safe for concurrent use.
type Counter struct {
	name  string
	codec tokenizer.Codec
}

var (
	mu     sync.Mutex
	loaded = map[string]*Counter{}
)

// Get returns the counter for an encoding name ("" means DefaultEncoding).
// Counters are loaded once and shared.
func Get(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	mu.Lock()
	defer mu.Unlock()
	if c, ok := loaded[encoding]; ok {
		return c, nil
	}
	ok := false
	for _, e := range Encodings {
		ok = ok || e == encoding
	}
	if !ok {
		return nil, fmt.Errorf("unknown token encoding %q (valid: %v)", encoding, Encodings)
	}
	codec, err := tokenizer.Get(tokenizer.Encoding(encoding))
	if err != nil {
		return nil, fmt.Errorf("loading token encoding %s: %w", encoding, err)
	}
	c := &Counter{name: encoding, codec: codec}
	loaded[encoding] = c
	return c, nil
}

// Default returns the DefaultEncoding counter. It panics only if the embedded
// encoding is broken, which a test would catch.
func Default() *Counter {
	c, err := Get(DefaultEncoding)
	if err != nil {
		panic(err)
	}
	return c
}

// Name is the encoding name.
func (c *Counter) Name() string { return c.name }

// Long texts (a summary is counted by the runner and again by the
// compression check) are remembered by a hash of their bytes, so that
// counting the same long text twice costs a hash, not a tokenization.
const (
	memoMin     = 4 << 10 // shorter texts are cheaper to count than to remember
	memoEntries = 4096    // the memo is dropped when it grows past this
)

type memoKey struct {
	hash uint64
	n    int
}

var (
	memoSeed = maphash.MakeSeed()
	memoMu   sync.Mutex
	memo     = map[string]map[memoKey]int{} // encoding → key → count
)

// Count returns the number of tokens in s.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	if len(s) < memoMin {
		return c.count(s)
	}
	k := memoKey{maphash.String(memoSeed, s), len(s)}
	memoMu.Lock()
	n, ok := memo[c.name][k]
	memoMu.Unlock()
	if ok {
		return n
	}
	n = c.count(s)
	memoMu.Lock()
	m := memo[c.name]
	if m == nil || len(m) >= memoEntries {
		m = map[memoKey]int{}
		memo[c.name] = m
	}
	m[k] = n
	memoMu.Unlock()
	return n
}

func (c *Counter) count(s string) int {
	n, err := c.codec.Count(s)
	if err != nil {
		// Encoding never fails on valid Go strings; fall back to a rough
		// estimate rather than losing the figure.
		return (len(s) + 3) / 4
	}
	return n
}
