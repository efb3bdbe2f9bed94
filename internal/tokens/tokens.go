// Package tokens counts tokens offline with a tiktoken encoding.
package tokens

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// DefaultEncoding is the encoding used when none is chosen.
const DefaultEncoding = "o200k_base"

// Encodings lists the encodings Counter accepts.
var Encodings = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}

// Counter counts tokens in text. It is safe for concurrent use.
type Counter struct {
	name string
	// codec is the tiktoken-go codec; for o200k_base it is loaded only for
	// what the embedded table does not count (text that is not UTF-8, very
	// long pre-tokens).
	codec     tokenizer.Codec
	codecOnce sync.Once
	codecErr  error
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
	c := &Counter{name: encoding}
	if encoding == "o200k_base" {
		o200k() // the codec waits until it is needed
	} else if _, err := c.loadCodec(); err != nil {
		return nil, err
	}
	loaded[encoding] = c
	return c, nil
}

// loadCodec returns the encoding's tiktoken-go codec, loading it once.
func (c *Counter) loadCodec() (tokenizer.Codec, error) {
	c.codecOnce.Do(func() {
		c.codec, c.codecErr = tokenizer.Get(tokenizer.Encoding(c.name))
		if c.codecErr != nil {
			c.codecErr = fmt.Errorf("loading token encoding %s: %w", c.name, c.codecErr)
		}
	})
	return c.codec, c.codecErr
}

// Preload starts loading the counter for an encoding ("" means
// DefaultEncoding) in the background and returns at once. o200k_base
// needs no loading (its table is embedded, o200k.go); the other encodings
// build a map of their tokens, tens of ms of CPU; a command
// that will count tokens calls Preload before its other start-up work (such
// as loading scenarios) so that the two overlap. A later Get returns the
// preloaded counter, or waits for the load in progress rather than starting
// another. An unknown encoding is not an error here: Get reports it.
func Preload(encoding string) {
	go func() { _, _ = Get(encoding) }()
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

// Count returns the number of tokens in s. It keeps no reference to s once
// it returns.
//
// For o200k_base, s is cut into pre-tokens by splitO200k (the codec's split
// pattern, written out by hand because the regexp dominates the cost) and
// each distinct pre-token is encoded once per process: words repeat, so
// most pre-tokens cost a map lookup. The result is the codec's count, which
// a test checks on many texts.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	if c.name == "o200k_base" && utf8.ValidString(s) {
		// One read lock for the whole text; pieces never seen are counted
		// afterwards, outside it.
		total := 0
		var miss []string
		pretokMu.RLock()
		m := pretoks[c.name]
		splitO200k(s, func(p string) {
			if n, ok := m.get(p); ok {
				total += n
			} else {
				miss = append(miss, p)
			}
		})
		pretokMu.RUnlock()
		for _, p := range miss {
			total += c.pretoken(p)
		}
		return total
	}
	// The other encodings split text differently; they are counted whole.
	return c.count(s)
}

// maxTablePiece is the length from which a pre-token is counted by the
// codec rather than the embedded table, whose merge loop is quadratic in
// the piece's length (pre-tokens that long are rare: long runs of
// punctuation or letters with no space).
const maxTablePiece = 256

// maxPretokens bounds the pre-token memo; it is dropped when full.
const maxPretokens = 1 << 18

var (
	pretokMu sync.RWMutex
	pretoks  = map[string]*memo{} // encoding → pre-token → count
)

// pretoken counts one pre-token, remembering the count.
func (c *Counter) pretoken(p string) int {
	pretokMu.RLock()
	n, ok := pretoks[c.name].get(p)
	pretokMu.RUnlock()
	if ok {
		return n
	}
	if c.name == "o200k_base" && len(p) < maxTablePiece {
		n = o200k().count(p)
	} else {
		n = c.count(p)
	}
	pretokMu.Lock()
	m := pretoks[c.name]
	if m == nil || m.n >= maxPretokens {
		m = &memo{}
		pretoks[c.name] = m
	}
	m.put(strings.Clone(p), n)
	pretokMu.Unlock()
	return n
}

// memo maps a pre-token to its count. It stands in for a Go map (whose
// lookups were half the cost of counting a summary): open addressing with
// linear probing and a cheap hash of the bytes. Keys are compared in full,
// so a hash collision costs a probe, never another pre-token's count. The
// zero memo (and a nil *memo) is empty; "" is never a key.
type memo struct {
	slots []memoSlot // len is a power of two, at most half full
	n     int
}

type memoSlot struct {
	key string
	val int
}

// memoHash hashes the bytes of s eight at a time, then mixes the result
// (murmur3's finaliser) so that its low bits, which pick the slot, depend
// on every byte.
func memoHash(s string) uint64 {
	h := uint64(len(s))
	for len(s) >= 8 {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ x) * 0x9e3779b97f4a7c15
		s = s[8:]
	}
	var x uint64
	for i := 0; i < len(s); i++ {
		x |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ x) * 0x9e3779b97f4a7c15
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

func (m *memo) get(p string) (int, bool) {
	if m == nil || len(m.slots) == 0 || p == "" {
		return 0, false
	}
	mask := uint64(len(m.slots) - 1)
	for i := memoHash(p) & mask; ; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.key == p {
			return sl.val, true
		}
		if sl.key == "" {
			return 0, false
		}
	}
}

// put sets the count of p, which the memo keeps (the caller gives it a
// copy it owns).
func (m *memo) put(p string, n int) {
	if p == "" {
		return
	}
	if 2*(m.n+1) > len(m.slots) {
		old := m.slots
		size := 2 * len(old)
		if size < 1024 {
			size = 1024
		}
		m.slots = make([]memoSlot, size)
		for _, sl := range old {
			if sl.key != "" {
				m.insert(sl.key, sl.val)
			}
		}
	}
	if m.insert(p, n) {
		m.n++
	}
}

// insert sets p's slot, reporting whether p is new; there is a free slot.
func (m *memo) insert(p string, n int) bool {
	mask := uint64(len(m.slots) - 1)
	for i := memoHash(p) & mask; ; i = (i + 1) & mask {
		sl := &m.slots[i]
		if sl.key == p {
			sl.val = n
			return false
		}
		if sl.key == "" {
			*sl = memoSlot{p, n}
			return true
		}
	}
}

func (c *Counter) count(s string) int {
	codec, err := c.loadCodec()
	if err != nil {
		return (len(s) + 3) / 4
	}
	n, err := codec.Count(s)
	if err != nil {
		// Encoding never fails on valid Go strings; fall back to a rough
		// estimate rather than losing the figure.
		return (len(s) + 3) / 4
	}
	return n
}
