package tokens

import (
	_ "embed"
	"encoding/binary"
	"sync"
)

//go:generate go run o200k_gen.go

// o200kData is the o200k_base vocabulary (o200k_gen.go writes it from the
// pinned tiktoken-go module; TestO200kTable checks it against the codec).
// The codec builds a Go map of its 200,000 tokens on first use: some 50 ms
// of CPU and 7 MB of heap that every garbage collection scans, paid by every
// run before its first request. The table below costs a fraction of both
// and holds no pointer.
//
//go:embed o200k.bin
var o200kData string

// vocabTable maps a token's bytes to its rank: open addressing over the
// tokens in rank order.
type vocabTable struct {
	blob  string   // the tokens' bytes, in rank order
	off   []uint32 // token r is blob[off[r]:off[r+1]]
	slots []uint32 // rank+1, 0 for an empty slot; len is a power of two
}

var (
	o200kOnce  sync.Once
	o200kTable *vocabTable
)

// o200k returns the o200k_base table, built on first use. It panics if the
// embedded file is broken, which TestO200kTable would have caught.
func o200k() *vocabTable {
	o200kOnce.Do(func() {
		t, err := parseVocab(o200kData)
		if err != nil {
			panic("tokens: o200k.bin: " + err.Error())
		}
		o200kTable = t
	})
	return o200kTable
}

type vocabError string

func (e vocabError) Error() string { return string(e) }

func parseVocab(data string) (*vocabTable, error) {
	const magic = "o200k.v1"
	if len(data) < len(magic)+4 || data[:len(magic)] != magic {
		return nil, vocabError("not an o200k.v1 vocabulary")
	}
	n := int(binary.LittleEndian.Uint32([]byte(data[len(magic) : len(magic)+4])))
	rest := data[len(magic)+4:]
	t := &vocabTable{off: make([]uint32, n+1)}
	pos := 0
	for r := 0; r < n; r++ {
		l, w := uvarint(rest[pos:])
		if w <= 0 {
			return nil, vocabError("truncated lengths")
		}
		pos += w
		t.off[r+1] = t.off[r] + uint32(l)
	}
	t.blob = rest[pos:]
	if int(t.off[n]) != len(t.blob) {
		return nil, vocabError("lengths do not add up to the tokens' bytes")
	}
	size := 1
	for size < 2*n {
		size <<= 1
	}
	t.slots = make([]uint32, size)
	mask := uint64(size - 1)
	for r := 0; r < n; r++ {
		i := memoHash(t.token(uint32(r))) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = uint32(r) + 1
	}
	return t, nil
}

// uvarint is binary.Uvarint on a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		b := s[i]
		if b < 0x80 {
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

func (t *vocabTable) token(r uint32) string { return t.blob[t.off[r]:t.off[r+1]] }

// rank returns the rank of the token s, if s is one.
func (t *vocabTable) rank(s string) (uint32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := memoHash(s) & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if t.token(v-1) == s {
			return v - 1, true
		}
	}
}

// noMerge is the rank of a pair that is not a token.
const noMerge = ^uint32(0)

// count returns the number of tokens byte-pair encoding makes of piece, one
// pre-token: 1 when piece is a token; otherwise, starting from its bytes,
// the adjacent pair whose merge is the lowest-ranked token (the leftmost of
// equals) is merged until no pair is a token, as tiktoken does.
func (t *vocabTable) count(piece string) int {
	if piece == "" {
		return 0
	}
	if _, ok := t.rank(piece); ok {
		return 1
	}
	// start[i] is where part i begins; part i ends where part i+1 begins.
	// rank[i] is the rank of part i merged with part i+1.
	n := len(piece)
	start := make([]int, n+1)
	rank := make([]uint32, n+1)
	for i := range start {
		start[i] = i
	}
	pairRank := func(i int) uint32 {
		if i+2 >= len(start) {
			return noMerge
		}
		if r, ok := t.rank(piece[start[i]:start[i+2]]); ok {
			return r
		}
		return noMerge
	}
	for i := range n {
		rank[i] = pairRank(i)
	}
	rank[n] = noMerge
	for len(start) > 2 {
		best, at := noMerge, -1
		for i := 0; i+1 < len(start); i++ {
			if rank[i] < best {
				best, at = rank[i], i
			}
		}
		if at < 0 {
			break
		}
		// parts at and at+1 become one
		start = append(start[:at+1], start[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pairRank(at)
		if at > 0 {
			rank[at-1] = pairRank(at - 1)
		}
	}
	return len(start) - 1
}
