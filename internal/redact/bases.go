package redact

import (
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"compress/gzip"
	"io"
	"math/big"
	"strings"
	"sync"
)

// The bases and compressions that people and libraries write besides
// base64, base32 and hex: base32hex (RFC 4648's extended alphabet), base58
// (Bitcoin's alphabet), base85 (Ascii85 as Adobe and Python's a85encode
// write it, and RFC 1924's alphabet as Python's b85encode and Git write
// it), uuencode, bits (8 binary digits a byte), and zlib, raw deflate and
// bzip2 under any of them, as gzip. Each decoded output is
// capped (maxInflate) and counts against the search's budget, so a
// decompression bomb costs at most that.

// maxInflate bounds what one compressed stream inside a text may expand
// to.
const maxInflate = 1 << 20

// inflate returns what b decompresses to when it is gzip, zlib, bzip2 or
// (when raw is set: the bytes start where an encoding of the whole stream
// starts) raw deflate, at most maxInflate bytes, and the name of the
// compression. A stream cut short, or bytes that only look like a header
// (random bytes often decompress to a few bytes before they fail), give
// what came out before the error, with ok set and clean not.
func inflate(b []byte, raw bool) (out []byte, name string, ok bool) {
	out, name, _, ok = inflateClean(b, raw)
	return out, name, ok
}

// inflateClean is inflate, saying whether the stream ended cleanly (or
// at the cap).
func inflateClean(b []byte, raw bool) ([]byte, string, bool, bool) {
	var r io.Reader
	name := ""
	switch {
	case len(b) >= 18 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8:
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, "", false, false
		}
		r, name = zr, "gzip"
	case len(b) >= 10 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h' && '1' <= b[3] && b[3] <= '9' && bytes.HasPrefix(b[4:], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}):
		r, name = bzip2.NewReader(bytes.NewReader(b)), "bzip2"
	case len(b) >= 6 && b[0]&0x0f == 8 && b[0]>>4 <= 7 && b[1]&0x20 == 0 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0:
		// zlib: a deflate stream after a two-byte header
		if !mayBeDeflate(b[2:]) {
			return nil, "", false, false
		}
		fr := getFlate(b[2:])
		defer flates.Put(fr)
		r, name = fr, "zlib"
	case raw && mayBeDeflate(b):
		fr := getFlate(b)
		defer flates.Put(fr)
		r, name = fr, "deflate"
	default:
		return nil, "", false, false
	}
	out, err := io.ReadAll(io.LimitReader(r, maxInflate))
	if len(out) == 0 || err != nil && len(out) < 8 {
		return nil, "", false, false
	}
	return out, name, err == nil, true
}

// mayBeDeflate reports whether b may start a deflate stream: its first
// block is stored (with a length and its complement), or compressed with
// the fixed or a dynamic code (not the reserved block type).
func mayBeDeflate(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	switch b[0] >> 1 & 3 {
	case 0:
		return len(b) >= 5 && b[1] == ^b[3] && b[2] == ^b[4]
	case 3:
		return false
	}
	return true
}

// flates are deflate readers, reused: each holds a 32 KiB window.
var flates sync.Pool

func getFlate(b []byte) io.ReadCloser {
	if fr, ok := flates.Get().(io.ReadCloser); ok {
		if fr.(flate.Resetter).Reset(bytes.NewReader(b), nil) == nil {
			return fr
		}
	}
	return flate.NewReader(bytes.NewReader(b))
}

// b32hex is the value of each base32hex character (RFC 4648 §7), either
// case.
var b32hex = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
	for i := range len(alpha) {
		t[alpha[i]] = int8(i)
		t[alpha[i]|0x20] = int8(i)
	}
	return t
}()

// b58 is the value of each base58 character (Bitcoin's alphabet).
var b58 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	for i := range len(alpha) {
		t[alpha[i]] = int8(i)
	}
	return t
}()

// b85 is the value of each character of RFC 1924's base85 alphabet.
var b85 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
	for i := range len(alpha) {
		t[alpha[i]] = int8(i)
	}
	return t
}()

// maxBase58 is the longest token read as base58 (its decoding is
// quadratic in the length).
const maxBase58 = 2048

// base58 decodes s[i:j], a run of base58 characters, as one number.
func (sr *searcher) base58(st *stream, i, j, next int) {
	s := st.b
	if j-i > maxBase58 {
		return
	}
	n := new(big.Int)
	d := new(big.Int)
	b58n := big.NewInt(58)
	zeros := 0
	for k := i; k < j && s[k] == '1'; k++ {
		zeros++
	}
	for k := i; k < j; k++ {
		n.Mul(n, b58n)
		n.Add(n, d.SetInt64(int64(b58[s[k]])))
	}
	dec := append(make([]byte, zeros), n.Bytes()...)
	sr.rawOK = true
	// each byte spreads over the whole token: every byte maps to it
	sr.emitDecoded(st, dec, func(int) (int, int) { return i, j }, "base58", next)
}

// base32hexRuns decodes the base32hex runs inside s[i:j] (one case each),
// at their eight alignments, forwards and backwards.
func (sr *searcher) base32hexRuns(st *stream, i, j, min32, next int) {
	s := st.b
	for i < j {
		if b32hex[s[i]] < 0 {
			i++
			continue
		}
		k, lower, upper := i, false, false
		for k < j && b32hex[s[k]] >= 0 {
			c := s[k]
			l, u := 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z'
			if l && upper || u && lower {
				break
			}
			lower, upper = lower || l, upper || u
			k++
		}
		if k-i >= min32 && (lower || upper) {
			sr.base32With(st, i, k, &b32hex, "base32hex", next)
		}
		i = k
	}
}

// base85 reads runs of Ascii85 and of RFC 1924 base85: at least 10
// characters (8 bytes) of either alphabet with no whitespace, that hold
// punctuation as encoded bytes do (three different marks or more, or one
// among letters of both cases and digits), in groups of five from each of
// the first five characters of the run (Ascii85's <~ ~> taken off, and
// its z for four zero bytes).
//
// In a JSON document (json set) a quote ends a run: an encoding inside a
// string that holds one escapes it, and the string is read decoded.
//
// Only the tokens in r (survey's) are read, and of them only those that
// may be base85.
func (sr *searcher) base85(st *stream, r b85Range, json bool, next int) {
	base85Tokens(st.b, r, func(i, j int) { sr.base85In(st, i, j, json, next) })
}

// base85Tokens calls f for every token s[i:j] from r.first to r.last that
// may be base85 (base85Token): the token, or a segment of it between
// quotes (a string of a JSON document without white space, which is one
// token).
func base85Tokens(s string, r b85Range, f func(i, j int)) {
	if r.first < 0 {
		return
	}
	for i := r.first; i < len(s) && i <= r.last; {
		for i < len(s) && classes[s[i]]&cSpace != 0 {
			i++
		}
		j, marks, nmarks := i, uint64(0), 0
		seg, segmarks, segnmarks, anySeg := i, uint64(0), 0, false
		var segcls uint16
		segpunct := false
		for j < len(s) && classes[s[j]]&cSpace == 0 {
			c := s[j]
			if classes[c]&cMark != 0 {
				marks |= 1 << (c & 63)
				nmarks++
				segmarks |= 1 << (c & 63)
				segnmarks++
			}
			if c == '"' {
				anySeg = anySeg || base85Token(j-seg, segnmarks, segmarks, segcls, segpunct)
				seg, segmarks, segnmarks, segcls, segpunct = j+1, 0, 0, 0, false
			} else {
				segcls |= classes[c]
				segpunct = segpunct || !isAlnumByte(c)
			}
			j++
		}
		if anySeg || base85Token(j-i, nmarks, marks, 0, false) || base85Token(j-seg, segnmarks, segmarks, segcls, segpunct) {
			f(i, j)
		}
		i = j
	}
}

// base85In reads the runs of Ascii85 and base85 in st.b[from:to].
func (sr *searcher) base85In(st *stream, from, to int, json bool, next int) {
	s := st.b[:to]
	for _, rfc := range []bool{false, true} {
		in := func(c byte) bool {
			if rfc {
				return b85[c] >= 0
			}
			return '!' <= c && c <= 'u' && !(json && c == '"') || c == 'z'
		}
		for i := from; i < len(s); {
			if !in(s[i]) {
				i++
				continue
			}
			j := i
			var marks [4]uint64
			var cls uint16
			kinds := 0
			for j < len(s) && in(s[j]) {
				c := s[j]
				if !isAlnumByte(c) && marks[c>>6]&(1<<(c&63)) == 0 {
					marks[c>>6] |= 1 << (c & 63)
					kinds++
				}
				cls |= classes[c]
				j++
			}
			if j-i >= 10 && (kinds >= 3 || kinds >= 1 && mixedClasses(cls)) {
				lo, hi := i, j
				if !rfc {
					// Ascii85's <~ ~>, wherever the run has them (a quote
					// or a bracket of the text may come first)
					if k := strings.Index(s[lo:hi], "<~"); k >= 0 && k < 5 {
						lo += k + 2
					}
					if k := strings.LastIndex(s[lo:hi], "~>"); k >= 0 && hi-(lo+k) <= 6 {
						hi = lo + k
					}
				}
				// at every alignment: the run may start with characters
				// of the text that the alphabet holds (a quote, a
				// bracket, key=), which shift its groups of five
				for a := 0; a < 5 && hi-(lo+a) >= 10 && !sr.done(); a++ {
					sr.base85Run(st, lo+a, hi, rfc, next)
				}
			}
			i = j
		}
	}
}

func isAlnumByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func (sr *searcher) base85Run(st *stream, i, j int, rfc bool, next int) {
	s := st.b
	dec := sr.dec[:0]
	var pos []int32 // the first character of each decoded byte's group
	group := make([]int, 0, 5)
	start := i
	flush := func(n int) {
		// a short last group is padded with the highest digit
		for len(group) < 5 {
			group = append(group, 84)
		}
		var v uint64
		for _, d := range group {
			v = v*85 + uint64(d)
		}
		if v > 0xffffffff {
			return
		}
		for b := range n {
			dec = append(dec, byte(v>>(24-8*b)))
			pos = append(pos, int32(start))
		}
	}
	for k := i; k < j; k++ {
		c := s[k]
		if !rfc && c == 'z' && len(group) == 0 {
			dec = append(dec, 0, 0, 0, 0)
			pos = append(pos, int32(k), int32(k), int32(k), int32(k))
			continue
		}
		var d int
		if rfc {
			d = int(b85[c])
		} else {
			d = int(c - '!')
		}
		if d < 0 || d > 84 {
			break
		}
		if len(group) == 0 {
			start = k
		}
		group = append(group, d)
		if len(group) == 5 {
			flush(4)
			group = group[:0]
		}
	}
	if len(group) > 1 {
		flush(len(group) - 1)
	}
	enc := "Ascii85"
	if rfc {
		enc = "base85"
	}
	sr.dec = dec[:0]
	sr.rawOK = true
	sr.emitDecoded(st, dec, func(d int) (int, int) {
		lo := int(pos[d])
		return lo, min(j, lo+5)
	}, enc, next)
}

// uuencode reads the lines of st that are uuencoded: a length character
// (' ' + n, n up to 45 bytes) and the 4⌈n/3⌉ characters of ' '…'`' that
// encode them; consecutive lines decode together.
func (sr *searcher) uuencode(st *stream, next int) {
	s := st.b
	bd := (*builder)(nil)
	flushed := func() {
		if bd != nil && len(bd.b) >= sr.minRun {
			sr.child(bd.stream("uuencoded"), next)
		}
		bd = nil
	}
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], '\n')
		if e < 0 {
			e = len(s) - i
		}
		line := strings.TrimRight(s[i:i+e], "\r \t")
		lo := i + len(line) - len(strings.TrimLeft(line, " \t"))
		line = strings.TrimLeft(line, " \t")
		if n, ok := uuLine(line); ok {
			if bd == nil {
				bd = newBuilder(st, 64)
			}
			var acc uint32
			bits, got := 0, 0
			for k := 1; k < len(line) && got < n; k++ {
				acc = acc<<6 | uint32((line[k]-' ')&0x3f)
				bits += 6
				if bits >= 8 {
					bits -= 8
					bd.add(byte(acc>>bits), lo+k-1, lo+k+1)
					got++
				}
			}
		} else if line != "" && !strings.HasPrefix(line, "begin ") && line != "`" && line != "end" {
			flushed()
		}
		i += e + 1
	}
	flushed()
}

// uuLine reports whether line is one line of uuencoded data, and how many
// bytes it holds.
func uuLine(line string) (int, bool) {
	if len(line) < 5 || line[0] <= ' ' || line[0] > 'M' {
		return 0, false
	}
	n := int(line[0] - ' ')
	want := 4 * ((n + 2) / 3)
	if body := len(line) - 1; body != want && body != want+1 {
		return 0, false
	}
	for k := 1; k < len(line); k++ {
		if line[k] < ' ' || line[k] > '`' {
			return 0, false
		}
	}
	return n, true
}

// bits reads runs of binary digits as bytes: groups of 8 (or 7, as ASCII
// is written) apart by one separator, or one unbroken run of whole bytes,
// at least as many bytes as a leaking run; a group of another length
// between them splits the run.
func (sr *searcher) bits(st *stream, next int) {
	s := st.b
	bin := func(c byte) bool { return c == '0' || c == '1' }
	for i := 0; i < len(s); {
		if !bin(s[i]) || i > 0 && isAlnumByte(s[i-1]) {
			i++
			continue
		}
		// the groups of the run
		var groups [][2]int
		j := i
		for j < len(s) && bin(s[j]) {
			k := j
			for k < len(s) && bin(s[k]) {
				k++
			}
			groups = append(groups, [2]int{j, k})
			if k+1 < len(s) && strings.IndexByte(" ,;:-_|/", s[k]) >= 0 && bin(s[k+1]) {
				j = k + 1
				continue
			}
			j = k
			break
		}
		i = max(j, i+1)
		// A group that is no whole byte (a number before the bytes, "000
		// 01110011 …") ends the bytes read so far; the next start anew.
		bd := newBuilder(st, len(groups))
		flush := func() {
			if len(bd.b) >= sr.minRun {
				sr.child(bd.stream("bits"), next)
			}
			bd = newBuilder(st, len(groups))
		}
		for _, g := range groups {
			n := g[1] - g[0]
			width := 8
			if len(groups) > 1 && n == 7 {
				width = 7
			} else if n%8 != 0 {
				flush()
				continue
			}
			for k := g[0]; k+width <= g[1]; k += width {
				var v byte
				for _, c := range []byte(s[k : k+width]) {
					v = v<<1 | (c - '0')
				}
				bd.add(v, k, k+width)
			}
		}
		flush()
	}
}
