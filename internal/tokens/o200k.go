package tokens

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/tiktoken-go/tokenizer"
)

// o200k_base is counted with a table of its vocabulary read in place:
// the tiktoken-go codec builds a Go map of its 200,000 tokens on first
// use, some 50 ms of CPU before the first request and 7 MB of heap that
// every garbage collection scans. The table is derived from the codec
// once per machine and kept in the user cache directory
// (compact-eval/tokens/o200k.v2.bin); a run then reads 4 MB, checks its
// CRC, and holds it as one pointer-free string. A missing, stale or
// damaged file is rebuilt; a cache directory that cannot be written only
// means the table is built in memory every run.
var o200k = sync.OnceValue(func() *vocabTable { return loadVocab(vocabCacheDir()) })

// vocabCacheDir is the user cache directory's compact-eval/tokens ("" when
// there is none).
func vocabCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil || d == "" {
		return ""
	}
	return filepath.Join(d, "compact-eval", "tokens")
}

// vocabFile is the table's file name in the cache directory.
const vocabFile = "o200k.v2.bin"

// loadVocab reads the o200k_base table from dir, or builds it from the
// codec and writes it there for the next run.
func loadVocab(dir string) *vocabTable {
	if dir != "" {
		if data, err := readVocabFile(filepath.Join(dir, vocabFile)); err == nil {
			if t, err := parseVocab(data); err == nil {
				return t
			}
		}
	}
	data := buildO200k()
	if dir != "" {
		writeVocab(dir, data) // best effort: the next run builds it again
	}
	t, err := parseVocab(data)
	if err != nil {
		panic("tokens: the o200k table just built does not parse: " + err.Error()) // TestVocabCache
	}
	return t
}

// buildO200k is the vocabulary file of the codec's o200k_base tokens.
func buildO200k() []byte {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		panic("tokens: loading o200k_base: " + err.Error()) // embedded in the module; a test would fail first
	}
	var toks []string
	for id := uint(0); ; id++ {
		s, err := codec.Decode([]uint{id})
		if err != nil {
			break // ranks are dense; the special tokens are not in the vocabulary
		}
		toks = append(toks, s)
	}
	return encodeVocab(toks)
}

// writeVocab writes data to dir atomically (a temporary file renamed), so
// that a concurrent run reads the old file or the new one, never half.
func writeVocab(dir string, data []byte) {
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-"+vocabFile+"-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, vocabFile)) != nil {
		os.Remove(f.Name())
	}
}

// vocabMagic starts a vocabulary file.
const vocabMagic = "o200k.v2"

// A vocabulary file (all integers little-endian uint32):
//
//	magic "o200k.v2" | N | S | off[0..N] | slots[0..S-1] | tokens' bytes | CRC-32C
//
// The CRC (Castagnoli) is of everything before it.
// Token r is bytes[off[r]:off[r+1]]. slots is an open-addressing table
// (linear probing, S a power of two at least 2N) of the tokens by
// memoHash: an empty slot is 0; a full one holds rank+1 in its low
// rankBits and the hash's top bits above them, so that most probes are
// settled without reading the token.
const (
	rankBits = 18 // 2^18 > the 199,998 tokens of o200k_base
	rankMask = 1<<rankBits - 1
)

// vocabTable reads a vocabulary file in place.
type vocabTable struct {
	data  string
	n     int
	mask  uint64 // S-1
	slots int    // offset of slots[0] in data
	toks  int    // offset of the tokens' bytes
}

func u32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// parseVocab reads a vocabulary file; the table keeps data, which the
// caller must not change afterwards.
func parseVocab(b []byte) (*vocabTable, error) {
	h := len(vocabMagic)
	if len(b) < h+12 || string(b[:h]) != vocabMagic {
		return nil, errors.New("not an " + vocabMagic + " vocabulary")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, errors.New("checksum mismatch")
	}
	// The table reads the bytes in place, as a string: no copy of 4 MB.
	data := unsafe.String(&b[0], len(b))
	n, s := int(u32(data, h)), int(u32(data, h+4))
	if n >= rankMask || s < 2*n || s&(s-1) != 0 {
		return nil, errors.New("bad token or slot count")
	}
	t := &vocabTable{data: data, n: n, mask: uint64(s - 1)}
	t.slots = h + 8 + 4*(n+1)
	t.toks = t.slots + 4*s
	if t.toks > len(data) || t.toks+int(u32(data, t.slots-4))+4 != len(data) {
		return nil, errors.New("sizes do not add up")
	}
	return t, nil
}

func (t *vocabTable) token(r uint32) string {
	o := t.slots - 4*(t.n+1) + 4*int(r)
	return t.data[t.toks+int(u32(t.data, o)) : t.toks+int(u32(t.data, o+4))]
}

// rank returns the rank of the token s, if s is one.
func (t *vocabTable) rank(s string) (uint32, bool) {
	h := memoHash(s)
	tag := uint32(h>>(64-(32-rankBits))) << rankBits
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := u32(t.data, t.slots+4*int(i))
		if v == 0 {
			return 0, false
		}
		if v&^rankMask == tag {
			if r := v&rankMask - 1; t.token(r) == s {
				return r, true
			}
		}
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeVocab writes a vocabulary file of toks, the tokens in rank order.
func encodeVocab(toks []string) []byte {
	n := len(toks)
	s := 1
	for s < 2*n {
		s <<= 1
	}
	slots := make([]uint32, s)
	for r, tok := range toks {
		h := memoHash(tok)
		tag := uint32(h>>(64-(32-rankBits))) << rankBits
		i := h & uint64(s-1)
		for slots[i] != 0 {
			i = (i + 1) & uint64(s-1)
		}
		slots[i] = tag | uint32(r+1)
	}
	b := []byte(vocabMagic)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(s))
	off := 0
	b = binary.LittleEndian.AppendUint32(b, 0)
	for _, tok := range toks {
		off += len(tok)
		b = binary.LittleEndian.AppendUint32(b, uint32(off))
	}
	for _, v := range slots {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, tok := range toks {
		b = append(b, tok...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
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
