// Package tokens counts tokens offline with a tiktoken encoding.
package tokens

import (
	"fmt"
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

// Count returns the number of tokens in s.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := c.codec.Count(s)
	if err != nil {
		// Encoding never fails on valid Go strings; fall back to a rough
		// estimate rather than losing the figure.
		return (len(s) + 3) / 4
	}
	return n
}
