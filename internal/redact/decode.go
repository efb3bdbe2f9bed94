package redact

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The normalising search. A text is searched as it is, and under every
// decoding of a family applied alone and in pairs: a leak is a run of a
// secret (or of one of its variants: reversed, letter-shifted) in any of
// them. The decodings:
//
//   - escapes: JSON, JavaScript, Python, C and Go backslash escapes
//     (octal \163 too), URL %73, HTML &#115; and &#x73; with or without the
//     semicolon; CSS escapes (\73 ); quoted-printable (=73, soft breaks);
//   - character codes: runs of numbers read as decimal or octal code
//     points ("115 107 95", "0163,0153", "chr(115)+chr(107)");
//   - line joins: whitespace holding a line break dropped (a token wrapped
//     across lines);
//   - tokens: base64 (standard and URL alphabets, every alignment), base32
//     (every alignment, either case), hex (either case, with or without
//     separators, "0x" prefixes), each also read backwards; gzip inside
//     base64 where it decodes;
//   - UTF-16 (little and big endian) of a stream with NUL bytes;
//   - reversal, and letter shifts of a token (as the outer of two
//     decodings: the inner is then one of the above).
//
// Case folding, reversal and letter shifts of the secret itself are its
// variants, searched for in every stream, so they cost nothing more.
//
// Cost. Every decoding has a cheap trigger (a byte it needs, a token long
// enough to hold a run), and a decoded stream is read only where it holds
// enough bytes of plausible text in a row: ordinary prose triggers almost
// nothing and is searched about once.

// maxDepth is how many decodings are applied in a chain.
const maxDepth = 2

// stream is text derived from the searched text by decodings: each byte of
// b comes from the bytes src[i] of the original text.
type stream struct {
	b     string
	src   []span // nil: byte i is the original's byte i
	enc   string // the decodings applied, outermost first; "" for the text
	depth int
}

// span returns the bytes of the original text that spell b[lo:hi].
// Decodings map bytes in order (or, reversed, in reverse order), so the
// ends of the range bound it.
func (st *stream) span(lo, hi int) span {
	if st.src == nil {
		return span{int32(lo), int32(hi)}
	}
	a, b := st.src[lo], st.src[hi-1]
	return span{min(a.start, b.start), max(a.end, b.end)}
}

// join names a decoding applied inside enc.
func join(enc, inner string) string {
	switch {
	case enc == "":
		return inner
	case inner == "":
		return enc
	}
	return enc + " of " + inner
}

// builder builds a child stream of parent.
type builder struct {
	parent *stream
	b      []byte
	src    []span
}

func newBuilder(parent *stream, n int) *builder {
	return &builder{parent: parent, b: make([]byte, 0, n), src: make([]span, 0, n)}
}

// add appends byte c, spelled by parent bytes [lo, hi).
func (bd *builder) add(c byte, lo, hi int) {
	bd.b = append(bd.b, c)
	bd.src = append(bd.src, bd.parent.span(lo, hi))
}

// addRune appends r, spelled by parent bytes [lo, hi).
func (bd *builder) addRune(r rune, lo, hi int) {
	sp := bd.parent.span(lo, hi)
	n := len(bd.b)
	bd.b = utf8.AppendRune(bd.b, r)
	for range len(bd.b) - n {
		bd.src = append(bd.src, sp)
	}
}

func (bd *builder) stream(enc string) *stream {
	return &stream{b: string(bd.b), src: bd.src, enc: join(bd.parent.enc, enc), depth: bd.parent.depth + 1}
}

// decoder masks: which decodings apply to a stream.
const (
	decEscapes = 1 << iota
	decCodes
	decJoin
	decTokens
	decUTF16
	decReverse
	decUnshift
	decHex      // hex alone (decTokens includes it)
	decBases    // base85, uuencode, bits
	decSpelled  // NATO, Morse, letter names
	decShuffled // pairs swapped, interleaved
	decAll      = 1<<iota - 1

	// decValidJSON is what a valid JSON document is read under: a line
	// break there falls between tokens (a string holds none raw), so
	// joining lines would only glue values that JSON keeps apart, at the
	// cost of reading a pretty-printed document twice. What a string
	// holds is read under every decoding.
	decValidJSON = decAll &^ decJoin
)

// searcher runs one search of a Redactor over a text.
type searcher struct {
	r      *Redactor
	root   stream // the searched text
	leaks  []Leak
	any    bool // stop at the first leak
	found  bool
	minRun int // the shortest leaking run of any secret
	f      *folded
	dec    []byte // scratch for decoded tokens
	pos    []int  // scratch for the digits of a hex run
	nums   [][2]int
	// rawOK is set by a decoder whose next decoded bytes start where the
	// encoding of a whole stream would: only there is raw deflate tried.
	rawOK bool
	cur   string  // the stream being scanned
	ps    []piece // scratch of the partial rule
	best  []int
	from  []int
	cover []Leak // the leaks of the text as it is, merged
	// budget is how many more bytes the decodings may scan; spent, the
	// search stops and the whole text counts as a leak (exhausted).
	budget    int
	exhausted bool
}

// budgetFor is what a search of n bytes may scan across its decodings:
// ordinary text uses a small part of it; a text built to multiply the
// decodings (escapes of every kind in every byte) would cost more, and is
// hidden whole instead of searched.
func budgetFor(n int) int { return 16*n + 1<<20 }

// covered reports whether the original bytes sp lie inside a leak that the
// text as it is showed: decoding what is already hidden whole finds nothing
// more to hide.
func (sr *searcher) covered(sp span) bool {
	i, _ := slices.BinarySearchFunc(sr.cover, int(sp.start), func(l Leak, at int) int { return l.Start - at })
	// the leak starting at or before sp.start
	if i < len(sr.cover) && sr.cover[i].Start == int(sp.start) {
		return int(sp.end) <= sr.cover[i].End
	}
	return i > 0 && int(sp.end) <= sr.cover[i-1].End
}

// uncovered returns how many bytes of sp no leak of the root's scan
// covers (sr.cover).
func (sr *searcher) uncovered(sp span) int {
	n := int(sp.end - sp.start)
	for _, l := range sr.cover {
		if l.Start >= int(sp.end) {
			break
		}
		n -= max(0, min(l.End, int(sp.end))-max(l.Start, int(sp.start)))
	}
	return n
}

func (sr *searcher) done() bool { return sr.any && sr.found || sr.exhausted }

// child scans a decoded stream and decodes it further.
func (sr *searcher) child(st *stream, mask int) {
	if sr.done() {
		return
	}
	sr.scan(st)
	sr.decode(st, mask)
}

// scan folds st and reports the runs of every secret in it.
func (sr *searcher) scan(st *stream) {
	if sr.done() || len(st.b) < sr.minRun {
		return
	}
	if st.depth > 0 {
		if sr.budget -= len(st.b); sr.budget < 0 {
			sr.exhausted = true
			return
		}
	}
	f := sr.f
	if sr.any {
		f.foldRunes(st.b)
	} else {
		f.foldString(st.b)
	}
	sr.cur = st.b
	sr.scanFolded(f, st)
}

func (sr *searcher) scanFolded(f *folded, st *stream) {
	sr.dropTags(f)
	for _, x := range sr.r.secrets {
		sr.scanSecret(x, f, st)
		if x.twin != nil {
			sr.scanSecret(x.twin, f, st)
		}
	}
}

// scanSecret reports the leaks of the secret x in the folded text f of
// the stream st.
func (sr *searcher) scanSecret(x *secret, f *folded, st *stream) {
	{
		if sr.done() {
			return
		}
		first := len(sr.leaks)
		t, ti := x.text(f)
		x.scan(t, func(p, j, l, vi int) {
			if sr.done() {
				return
			}
			v := &x.vars[vi]
			if !x.raw {
				p, j, l = trimRun(f, ti, v, p, j, l)
			}
			// the run's first and last characters, in the text and in
			// the variant, widened by the separators of the value that the
			// text writes the same way around it
			ta, tb := at(ti, p), at(ti, p+l-1)
			ia, ib := ta, tb
			fa, fb := int(v.ki[j]), int(v.ki[j+l-1])
			// fewer than MinRun letters and digits are a leak only as the
			// value writes them, separators included ("sk_live_5"): with
			// other separators between them they are a few letters of
			// ordinary words as often as not ("judge: ke" of "judge-key")
			if l < min(MinRun, len(v.k)) && !x.raw && !slices.Equal(f.r[ia:ib+1], v.s[fa:fb+1]) {
				return
			}
			for fa > 0 && ta > 0 && !isAlnum(v.s[fa-1]) && v.s[fa-1] == f.r[ta-1] {
				fa, ta = fa-1, ta-1
			}
			for fb+1 < len(v.s) && tb+1 < len(f.r) && !isAlnum(v.s[fb+1]) && v.s[fb+1] == f.r[tb+1] {
				fb, tb = fb+1, tb+1
			}
			// another form of the value (reversed, shifted) needs MinRun
			// letters and digits of its own: there are fifty of them, and
			// each is a chance for text to hold a few characters by luck
			if l < x.skel || fb-fa+1 < x.run || vi != 0 && l < min(MinRun, len(v.k)) || x.isPublic(vi, j, l, f.r[ia:ib+1]) {
				return
			}
			sr.found = true
			if sr.any {
				return
			}
			sp := st.span(int(f.src[ta].start), int(f.src[tb].end))
			if vi != 0 && sr.uncovered(sp) < MinRun {
				// another form's run over a leak the text already shows
				// plainly, with fewer than MinRun bytes of its own: a
				// coincidence of its ends ("0123456789" is its own
				// reversed Atbash), not more of the secret
				return
			}
			lk := Leak{ID: x.id, Start: int(sp.start), End: int(sp.end), Chars: fb - fa + 1,
				Whole: j == 0 && l == len(v.k), Encoding: join(st.enc, v.name)}
			// Runs come in order of position: one that overlaps the last
			// leak of this secret widens it (a repeated secret stays one
			// leak per occurrence, not one per character).
			if n := len(sr.leaks); n > first && lk.Start <= sr.leaks[n-1].End && lk.End >= sr.leaks[n-1].Start {
				last := &sr.leaks[n-1]
				last.Start = min(last.Start, lk.Start)
				last.End = max(last.End, lk.End)
				last.Chars = max(last.Chars, lk.Chars)
				last.Whole = last.Whole || lk.Whole
				return
			}
			sr.leaks = append(sr.leaks, lk)
		})
		if x.partial && !sr.done() {
			sr.chain(x, f, st)
		}
	}
}

// trimRun drops from the ends of a run of v's skeleton at p in f (j in
// v, l long) a character that a word boundary parts from the rest: a
// separator between it and the next in the text, where the value has none
// and the run has none further in ("key is k_live_51Qx…" shows the run
// "k_live_…", not "s" of "is" with it). A run written with a separator
// between every character keeps its ends.
func trimRun(f *folded, ti []int32, v *variant, p, j, l int) (int, int, int) {
	// apart reports whether the text parts the run's characters i and i+1
	// while the value does not
	apart := func(i int) bool {
		return ti[p+i+1] > ti[p+i]+1 && v.ki[j+i+1] == v.ki[j+i]+1
	}
	for range 2 {
		if l > 2 && apart(0) && !apart(1) {
			p, j, l = p+1, j+1, l-1
		}
		if l > 2 && apart(l-2) && !apart(l-3) {
			l--
		}
	}
	return p, j, l
}

// piece is a run of a secret's skeleton in a text's: at p in the text, j
// in the secret, l long.
type piece struct{ p, j, l int32 }

// chain applies the partial rule to the folded text f: pieces of the
// secret x in order, each within maxSkip characters of the secret and
// pieceGap characters of text of the last, which recover at least x.need
// of its characters that are not public, are a leak.
func (sr *searcher) chain(x *secret, f *folded, st *stream) {
	ps := sr.ps[:0]
	x.pieces(f.k, func(p, j, l int) { ps = append(ps, piece{int32(p), int32(j), int32(l)}) })
	sr.ps = ps[:0]
	if len(ps) < 2 {
		return
	}
	// A bound on what a chain may recover, in one pass: pieces apart by
	// at most 2 in the text, or by 32 where both are 4 or longer, form a
	// cluster (secret order left aside), and pieces of 6 or more link
	// across clusters. No cluster with every long piece reaching need
	// leaves nothing to chain.
	maxLen, long6 := 0, 0
	cluster, best0 := 0, 0
	lastEnd, lastLong := int32(-1<<30), int32(-1<<30)
	for _, pc := range ps {
		c := x.counted(int(pc.j), int(pc.l))
		maxLen = max(maxLen, int(pc.l))
		if pc.l >= 6 {
			long6 += c
		}
		switch gap := pc.p - lastEnd; {
		case gap <= 2, pc.l >= 4 && pc.p-lastLong <= 32:
			cluster += c
		default:
			cluster = c
		}
		lastEnd = max(lastEnd, pc.p+pc.l)
		if pc.l >= 4 {
			lastLong = max(lastLong, pc.p+pc.l)
		}
		best0 = max(best0, cluster)
	}
	if best0+long6 < x.need {
		return
	}
	best := sr.best[:0]
	from := sr.from[:0]
	var long []int // pieces of 6 or more, which link across any distance
	n := len(x.k)
	for i, b := range ps {
		score, start := x.counted(int(b.j), int(b.l)), i
		link := func(k int) {
			a := ps[k]
			gt := b.p - (a.p + a.l)
			gs := b.j - (a.j + a.l)
			// b may start inside a, in the text or in the secret (a mask
			// character that equals the next one of the secret): it
			// goes on from where a ends
			bj, bl := b.j, b.l
			if d := max(0, -gt, -gs); d > 0 {
				bj, bl, gt, gs = bj+d, bl-d, gt+d, gs+d
				if bl < minPiece {
					return
				}
			}
			if gs > maxSkip || gs == 0 && gt == 0 || int(gt) > pieceGap(int(min(a.l, bl))) {
				return
			}
			if s := best[k] + x.counted(int(bj), int(bl)); s > score {
				score, start = s, from[k]
			}
		}
		// pieces that may link within pieceGap: those that end at most
		// 32 letters and digits before b (no piece is longer than maxLen)
		reach := int(b.p) - 32 - maxLen
		for k := i - 1; k >= 0 && int(ps[k].p) >= reach; k-- {
			link(k)
		}
		if b.l >= 6 {
			for _, k := range long {
				if int(ps[k].p) < reach {
					link(k)
				}
			}
			long = append(long, i)
		}
		best, from = append(best, score), append(from, start)
		if score < x.need || start == i {
			continue
		}
		sr.found = true
		if sr.any {
			break
		}
		a := ps[start]
		ta, tb := int(f.ki[a.p]), int(f.ki[b.p+b.l-1])
		sp := st.span(int(f.src[ta].start), int(f.src[tb].end))
		lk := Leak{ID: x.id, Start: int(sp.start), End: int(sp.end), Chars: score, Of: n, Pieces: true, Encoding: st.enc}
		if m := len(sr.leaks); m > 0 && sr.leaks[m-1].ID == x.id && sr.leaks[m-1].Pieces && lk.Start <= sr.leaks[m-1].End {
			last := &sr.leaks[m-1]
			last.Start, last.End, last.Chars = min(last.Start, lk.Start), max(last.End, lk.End), max(last.Chars, lk.Chars)
			continue
		}
		sr.leaks = append(sr.leaks, lk)
	}
	sr.best, sr.from = best[:0], from[:0]
}

// dropTags takes the tags of the Redactor's secrets out of f's skeleton:
// a text redacted once is not searched again in what it was given.
func (sr *searcher) dropTags(f *folded) {
	if len(sr.r.tags) == 0 || len(f.k) == 0 || !strings.Contains(sr.cur, "[redacted:") {
		return
	}
	r := f.r
	var tags [][2]int32
	for i := 0; i+10 < len(r); i++ {
		if r[i] != '[' || r[i+1] != 'r' || string(r[i:i+10]) != "[redacted:" {
			continue
		}
		if e := slices.Index(r[i:min(len(r), i+80)], ']'); e >= 0 && sr.r.tags[string(r[i:i+e+1])] {
			tags = append(tags, [2]int32{int32(i), int32(i + e + 1)})
			i += e
		}
	}
	if len(tags) == 0 {
		return
	}
	k, ki := f.k[:0], f.ki[:0]
	t := 0
	for j, i := range f.ki {
		for t < len(tags) && tags[t][1] <= i {
			t++
		}
		if t < len(tags) && tags[t][0] <= i {
			continue
		}
		k, ki = append(k, f.k[j]), append(ki, i)
	}
	f.k, f.ki = k, ki
}

// decode applies every decoding of mask that st triggers, each child
// scanned and decoded in turn while the chain is shorter than maxDepth.
func (sr *searcher) decode(st *stream, mask int) {
	if mask == 0 || st.depth >= maxDepth || sr.done() || len(st.b) < sr.minRun {
		return
	}
	next := decAll
	sv, b85 := survey(st.b, sr.minRun)
	if mask&decEscapes != 0 && sv&svEscape != 0 {
		for _, m := range []escMode{escC, escCSS, escQP} {
			if mayBeEscaped(st.b, m) {
				if runes, src, ok := decodeEscapes(st.b, m); ok {
					bd := newBuilder(st, len(st.b))
					for i, r := range runes {
						bd.addRune(r, int(src[i].start), int(src[i].end))
					}
					enc := "escaped"
					if m == escQP {
						enc = "quoted-printable"
					}
					sr.child(bd.stream(enc), next)
				}
			}
		}
	}
	if mask&decCodes != 0 && sv&svCodes != 0 {
		sr.codes(st, next)
	}
	if mask&decJoin != 0 && sv&svNewline != 0 {
		for _, c := range joinLines(st) {
			sr.child(c, next)
		}
	} else if mask&decJoin != 0 && sv&svBreakAtCode != 0 {
		if c := glueBreaks(st, sr.minRun); c != nil {
			sr.child(c, next)
		}
	}
	if mask&decUTF16 != 0 && sv&svNUL != 0 {
		sr.utf16(st, next)
	}
	if mask&decTokens != 0 && sv&svTokens != 0 {
		sr.tokens(st, next, false)
	}
	if mask&(decTokens|decHex) != 0 && sv&svHex != 0 {
		sr.hex(st, next)
	}
	if mask&decReverse != 0 && sv&(svReversed|svCodes) != 0 && st.depth+1 < maxDepth {
		// Reversed escapes and codes read forwards again; tokens are read
		// both ways by tokens, and the secret's reversed variant covers
		// reversed plain text.
		sr.decode(reverseStream(st), decEscapes|decCodes|decHex)
	}
	if mask&decUnshift != 0 && sv&svUnshift != 0 {
		sr.unshift(st)
	}
	if mask&decBases != 0 {
		if sv&svBase85 != 0 {
			sr.base85(st, b85, st.depth == 0 && mask&decJoin == 0, next)
		}
		if sv&svNewline != 0 && hasUULine(st.b) {
			sr.uuencode(st, next)
		}
		if sv&(svHex|svCodes) != 0 {
			sr.bits(st, next)
		}
	}
	if mask&decSpelled != 0 && mayBeSpelled(st.b) {
		sr.spelled(st, 0)
	}
	if mask&decShuffled != 0 && sv&svKeyLike != 0 {
		sr.shuffled(st)
	}
	if mask&decUnshift != 0 && sv&svEscape != 0 && st.depth+1 < maxDepth && brokenEscape(st.b) {
		sr.unshiftEscapes(st)
	}
}

// hasUULine reports whether a line of s may be uuencoded data.
func hasUULine(s string) bool {
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], '\n')
		if e < 0 {
			e = len(s) - i
		}
		line := strings.TrimSpace(s[i : i+e])
		if _, ok := uuLine(line); ok {
			return true
		}
		i += e + 1
	}
	return false
}

// plainWord reads the word at s[i]: lower-case ASCII letters, at most max
// of them, one at least not a hex digit, followed by a space. It returns
// the word's end, and how many hex letters start and end it.
func plainWord(s string, i, max int) (end, lead, trail int, ok bool) {
	j, plain := i, false
	for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
		if s[j] > 'f' {
			if !plain {
				lead = j - i
			}
			plain = true
			trail = 0
		} else {
			trail++
		}
		j++
	}
	if !plain || j-i > max || j == len(s) || s[j] != ' ' {
		return 0, 0, 0, false
	}
	return j, lead, trail, true
}

// What survey finds in a stream: the decodings worth trying.
const (
	svEscape      = 1 << iota // \ % & =
	svCodes                   // a run of numbers codes would read
	svNewline                 // a line break
	svNUL                     // NUL bytes, as many as a leaking run
	svTokens                  // a base64 or base32 run
	svHex                     // a hex run, or pairs of digits apart
	svUnshift                 // a token a letter shift may hide an encoding in
	svReversed                // an escape written backwards
	svBreakAtCode             // a line break where code or JSON would break
	svBase85                  // a token with two kinds of punctuation that base85 writes
	svKeyLike                 // a run of 16 letters and digits of mixed classes
)

// joinable reports whether a line break between the bytes a and b may cut
// a token: any two bytes but the ends of the lines of pretty-printed JSON
// or code (a line that ends with a comma or an opening bracket, or a next
// that starts with a quote or a bracket); a comma and a digit may still
// cut a list of codes.
func joinable(a, b byte) bool {
	return strings.IndexByte(",{[(", a) < 0 && strings.IndexByte("\"}]){[", b) < 0 || a == ',' && isDigit(b)
}

// byte classes for survey
const (
	cB64 = 1 << iota
	cHex
	cDigit
	cUpper
	cLower
	cSpace
	cEsc
	cHexSep
	cB32
	cKeySep // - _ . inside a key
	cMark   // punctuation that base85 writes and prose or JSON rarely does
)

var classes = func() (t [256]uint16) {
	for c := 0; c < 256; c++ {
		if b32[c] >= 0 {
			t[c] |= cB32
		}
	}
	for c := 0; c < 256; c++ {
		if b64[c] >= 0 {
			t[c] |= cB64
		}
		if hexDigit(byte(c)) >= 0 {
			t[c] |= cHex
		}
		if isDigit(byte(c)) {
			t[c] |= cDigit
		}
		if 'A' <= c && c <= 'Z' {
			t[c] |= cUpper
		}
		if 'a' <= c && c <= 'z' {
			t[c] |= cLower
		}
		if isSpace(byte(c)) {
			t[c] |= cSpace
		}
		if strings.IndexByte(`\%&=`, byte(c)) >= 0 {
			t[c] |= cEsc
		}
		if strings.IndexByte(hexSeparators, byte(c)) >= 0 {
			t[c] |= cHexSep
		}
		if c == '-' || c == '_' || c == '.' {
			t[c] |= cKeySep
		}
		if '!' <= c && c <= '~' && !isAlnumByte(byte(c)) && strings.IndexByte("\"{}[],:-_./", byte(c)) < 0 {
			t[c] |= cMark
		}
	}
	return t
}()

// survey reads s once and says which decodings may find something in it:
// ordinary prose triggers few or none, so the search of it costs about one
// scan. With svBase85 it also says where the tokens base85 reads lie: from
// the start of the first to the start of the last (base85 reads nothing
// else, and does not read the whole text again to find them).
func survey(s string, minRun int) (int, b85Range) { return surveyOf(s, minRun, true) }

// b85Range is the start of the first and of the last token of a text that
// may be base85 (base85Token).
type b85Range struct{ first, last int }

// surveyOf is survey, reading a plain lower-case word at once when fast
// is set (TestSurveyFastPath holds the two to the same answer).
func surveyOf(s string, minRun int, fast bool) (int, b85Range) {
	b85 := b85Range{first: -1, last: -1}
	// base85At records that the token starting at start may be base85
	base85At := func(start int) {
		if b85.first < 0 {
			b85.first = start
		}
		b85.last = start
	}
	min64, min32 := (minRun*4+2)/3, (minRun*8+4)/5
	// the longest plain word read at once: shorter than any run a
	// base32, base64 or hex decoding would take
	maxWord := min(min32, min64, 2*minRun) - 1
	var out int
	nul := 0
	// the current base64 run, base32 run, hex run, chain of hex pairs,
	// chain of numbers, bytes since the last digit, token
	b64n, b64up, b32n, hexn, pairs, nums, gap, tokn := 0, 0, 0, 0, 0, 0, 0, 0
	b64dig := 0
	// the last byte that was not whitespace, and whether a line break
	// came after it
	var prev byte
	sawNL := false
	// b32case is the case a letter may not have to go on the run
	var b64cls, tokcls, b32case uint16
	var letters uint32
	// the current run of letters and digits and its classes; the marks
	// (punctuation) of the current token
	an, andig := 0, 0
	var ancls uint16
	var marks uint64
	nmarks := 0
	// the token's segment since its last quote: a JSON document without
	// white space is one token, its strings segments of it, each read
	// as a token of its own (hexShiftable; base85Token, which reads the
	// whole token too, since a quote may be Ascii85)
	segn := 0
	var segmarks uint64
	segnmarks := 0
	segpunct := false // the segment holds punctuation, marks or not
	// tr reads plain tokens at once (tokenReader); skip is a token start
	// it gave back to the byte loop
	tr := newTokenReader(minRun)
	skip := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if fast && i != skip && (i == 0 || classes[s[i-1]]&cSpace != 0) && classes[c]&cSpace == 0 {
			tr.hexn, tr.pairs, tr.nums, tr.gap, tr.sawNL, tr.prev, tr.out, tr.b85 = hexn, pairs, nums, gap, sawNL, prev, out, b85
			next := tr.read(s, i)
			hexn, pairs, nums, gap, sawNL, prev, out, b85 = tr.hexn, tr.pairs, tr.nums, tr.gap, tr.sawNL, tr.prev, tr.out, tr.b85
			if next >= len(s) {
				break
			}
			skip = next
			i = next - 1
			continue
		}
		if fast && b64n == 0 && b32n == 0 && hexn == 0 && an == 0 && !sawNL && c >= 'a' && c <= 'z' {
			if j, lead, trail, ok := plainWord(s, i, maxWord); ok {
				// What the byte loop does with a word of lower-case letters
				// (one not a hex digit among them) that starts its runs
				// (after a '.', '-' or '_' a key-like run goes on: an > 0),
				// and the space after it: its runs end short of every
				// threshold but the chain of hex pairs, which its leading
				// hex letters continue and its trailing ones start; the
				// token it ends is judged at the space; a chain of numbers
				// counts its bytes as a gap.
				if lead >= 2 && lead%2 == 0 {
					if pairs += lead / 2; pairs >= minRun {
						out |= svHex
					}
				}
				pairs = 0
				if trail >= 2 && trail%2 == 0 {
					if pairs = trail / 2; pairs >= minRun {
						out |= svHex
					}
				}
				if nums > 0 {
					if gap += j - i + 1; gap > 8 {
						nums = 0
					}
				}
				tokcls |= cB64 | cB32 | cLower
				for k := i; k < j; k++ {
					if s[k] <= 'f' {
						tokcls |= cHex
					}
					letters |= 1 << (s[k] - 'a')
				}
				out |= hexShiftable(segn+j-i, tokcls, letters, minRun)
				if base85Token(tokn+j-i, nmarks, marks, 0, false) || base85Token(segn+j-i, segnmarks, segmarks, tokcls, segpunct) {
					out |= svBase85
					base85At(i - tokn)
				}
				tokn, tokcls, letters, marks, nmarks = 0, 0, 0, 0, 0
				segn, segmarks, segnmarks, segpunct = 0, 0, 0, false
				an, ancls, andig = 0, 0, 0
				prev = s[j-1]
				i = j // the space
				continue
			}
		}
		k := classes[c]
		if k&cB64 != 0 {
			b64n++
			b64cls |= k
			if k&cDigit != 0 {
				b64dig++
			}
			if k&cUpper != 0 {
				b64up++
			}
		} else if b64n > 0 {
			if b64n >= min64 && base64Classes(b64cls) {
				out |= svTokens
				if mayBeBase64(b64n, b64up, b64cls) {
					out |= svUnshift
				}
			}
			if b64n >= min32 && b32hexClasses(b64n, b64dig, b64cls) {
				out |= svTokens
			}
			b64n, b64up, b64cls, b64dig = 0, 0, 0, 0
		}
		if k&cB32 != 0 && k&b32case == 0 {
			b32n++
			b32case |= otherCase(k)
		} else {
			// the run ends, at a byte not base32 or a letter of the other
			// case (which starts the next run)
			if b32n >= min32 {
				out |= svTokens
			}
			b32n, b32case = 0, 0
			if k&cB32 != 0 {
				b32n = 1
				b32case = otherCase(k)
			}
		}
		if k&cHex != 0 {
			hexn++
		} else if hexn > 0 || pairs > 0 {
			if hexn >= 2*minRun {
				out |= svHex
			}
			switch {
			case hexn >= 2 && hexn%2 == 0:
				if pairs += hexn / 2; pairs >= minRun {
					out |= svHex
				}
				if k&cHexSep == 0 {
					pairs = 0
				}
			case hexn == 1 && (c == 'x' || c == 'X') && s[i-1] == '0':
				// a 0x prefix: the chain goes on
			case hexn == 0 && k&cHexSep != 0:
				// separators between units
			default:
				pairs = 0
			}
			hexn = 0
		}
		if numberChain(k&cDigit != 0, &nums, &gap, minRun) {
			out |= svCodes
		}
		if k&(cUpper|cLower|cDigit) != 0 {
			ancls |= k
			if k&cDigit != 0 {
				andig++
			}
			if an++; an >= 2*MinRun && out&svKeyLike == 0 && keyClasses(ancls, an, andig) {
				out |= svKeyLike
			}
		} else if k&cKeySep == 0 {
			an, ancls, andig = 0, 0, 0
			if k&cMark != 0 {
				marks |= 1 << (c & 63)
				nmarks++
				segmarks |= 1 << (c & 63)
				segnmarks++
			}
		}
		if k&cSpace == 0 {
			tokn++
			if c == '"' {
				// a segment ends
				out |= hexShiftable(segn, tokcls, letters, minRun)
				if base85Token(segn, segnmarks, segmarks, tokcls, segpunct) {
					out |= svBase85
					base85At(i + 1 - tokn) // tokn counts the quote
				}
				tokcls, letters = 0, 0
				segn, segmarks, segnmarks, segpunct = 0, 0, 0, false
			} else {
				segn++
				tokcls |= k
				segpunct = segpunct || k&(cUpper|cLower|cDigit) == 0
				if k&(cUpper|cLower) != 0 {
					letters |= 1 << ((c | 0x20) - 'a')
				}
			}
			if sawNL && joinable(prev, c) {
				out |= svNewline
			} else if sawNL {
				out |= svBreakAtCode
			}
			sawNL, prev = false, c
		} else {
			sawNL = sawNL || c == '\n'
			if tokn > 0 {
				out |= hexShiftable(segn, tokcls, letters, minRun)
				if base85Token(tokn, nmarks, marks, 0, false) || base85Token(segn, segnmarks, segmarks, tokcls, segpunct) {
					out |= svBase85
					base85At(i - tokn)
				}
				tokn, tokcls, letters, marks, nmarks = 0, 0, 0, 0, 0
				segn, segmarks, segnmarks, segpunct = 0, 0, 0, false
			}
		}
		if k&cEsc != 0 {
			out |= svEscape
			// an escape read backwards: "#&", two hex digits then % or =,
			// the letter or a digit of an escape then a backslash
			if i >= 2 {
				b1, b2 := s[i-1], s[i-2]
				switch c {
				case '&':
					if b1 == '#' {
						out |= svReversed
					}
				case '%', '=':
					if hexDigit(b1) >= 0 && hexDigit(b2) >= 0 {
						out |= svReversed
					}
				case '\\':
					if hexDigit(b1) >= 0 || strings.IndexByte("uUxX", b1) >= 0 {
						out |= svReversed
					}
				}
			}
		}
		if c == 0 {
			nul++
		}
	}
	if b64n >= min64 && base64Classes(b64cls) || b32n >= min32 || b64n >= min32 && b32hexClasses(b64n, b64dig, b64cls) {
		out |= svTokens
	}
	if b64n >= min64 && mayBeBase64(b64n, b64up, b64cls) {
		out |= svUnshift
	}
	if hexn >= 2*minRun || hexn >= 2 && hexn%2 == 0 && pairs+hexn/2 >= minRun {
		out |= svHex
	}
	out |= hexShiftable(segn, tokcls, letters, minRun)
	if base85Token(tokn, nmarks, marks, 0, false) || base85Token(segn, segnmarks, segmarks, tokcls, segpunct) {
		out |= svBase85
		base85At(len(s) - tokn)
	}
	if nul >= minRun {
		out |= svNUL
	}
	return out, b85
}

// tokenReader reads, for surveyOf, what the byte loop does with a run of
// plain tokens and the blanks between them, without its byte by byte
// bookkeeping: a token is plain when its segments (between quotes) are
// shorter than segMax and it holds no escape byte and no NUL. A segment
// that short holds no base32 run, hex run, hex under a shift or key-like
// run (a quote ends each); without a capital it holds no base64 run
// either (base64Classes and mayBeBase64 need one), and without a capital
// and with fewer than two marks it is not base85 on its own
// (mixedClasses needs a capital, two kinds of marks two marks). What is
// left is followed: the chains that go on across tokens (hex pairs,
// numbers), line breaks, and the token's marks (base85Token).
type tokenReader struct {
	minRun, min64, segMax int
	// the byte loop's state, read and given back
	hexn, pairs, nums, gap int
	sawNL                  bool
	prev                   byte
	out                    int
	b85                    b85Range
}

func newTokenReader(minRun int) tokenReader {
	min64, min32 := (minRun*4+2)/3, (minRun*8+4)/5
	return tokenReader{minRun: minRun, min64: min64, segMax: min(min32, 2*minRun, 2*MinRun)}
}

// plainSeg reports whether a segment of n bytes, with a capital or not
// and nm marks, is judged nothing at its end.
func (t *tokenReader) plainSeg(n int, upper bool, nm int) bool {
	return (n < t.min64 || !upper) && (n < 10 || nm < 2 && !upper)
}

// read reads the plain tokens of s from i, a token's start, and the
// blanks after each; it returns where the byte loop goes on: the start
// of a token that is not plain (with the state as it was there), or
// len(s).
func (t *tokenReader) read(s string, i int) int {
	hexn, pairs, nums, gap, minRun := t.hexn, t.pairs, t.nums, t.gap, t.minRun
	out := t.out
	for i < len(s) {
		start := i
		savedPairs, savedNums, savedGap := pairs, nums, gap
		j, seg, nm, segnm := i, 0, 0, 0
		var m uint64
		var segcls uint16
		plain := true
	token:
		for ; j < len(s); j++ {
			c := s[j]
			if c-'a' < 26 && hexn == 0 {
				// a run of lower-case letters at once: a hex run of its
				// leading hex letters ends at its first other letter, and
				// with it the chain of pairs (a letter is no separator);
				// its trailing hex letters start a run
				e, lead, trail, other := j, 0, 0, false
				for e < len(s) && s[e]-'a' < 26 {
					if s[e] > 'f' {
						if !other {
							lead, other = e-j, true
						}
						trail = 0
					} else {
						trail++
					}
					e++
				}
				if seg += e - j; seg >= t.segMax {
					plain = false
					break
				}
				if !other {
					hexn = e - j
				} else {
					if lead >= 2 && lead%2 == 0 && pairs+lead/2 >= minRun {
						out |= svHex
					}
					pairs, hexn = 0, trail
				}
				if nums > 0 {
					if gap += e - j; gap > 8 {
						nums = 0
					}
				}
				j = e - 1
				continue
			}
			k := classes[c]
			switch {
			case k&cSpace != 0:
				break token
			case k&cEsc != 0 || c == 0:
				plain = false
				break token
			case c == '"':
				if !t.plainSeg(seg, segcls&cUpper != 0, segnm) {
					plain = false
					break token
				}
				seg, segcls, segnm = 0, 0, 0
			default:
				if seg++; seg >= t.segMax {
					plain = false
					break token
				}
			}
			segcls |= k
			if k&cMark != 0 {
				m |= 1 << (c & 63)
				nm++
				segnm++
			}
			if k&cHex != 0 {
				hexn++
			} else if hexn > 0 || pairs > 0 {
				var full bool
				pairs, full = endHex(hexn, pairs, c, k, s[j-1], minRun)
				if full {
					out |= svHex
				}
				hexn = 0
			}
			if numberChain(k&cDigit != 0, &nums, &gap, minRun) {
				out |= svCodes
			}
		}
		if !plain || !t.plainSeg(seg, segcls&cUpper != 0, segnm) {
			t.hexn, t.pairs, t.nums, t.gap, t.out = 0, savedPairs, savedNums, savedGap, out
			return start
		}
		if t.sawNL && joinable(t.prev, s[start]) {
			out |= svNewline
		} else if t.sawNL {
			out |= svBreakAtCode
		}
		t.sawNL, t.prev = false, s[j-1]
		if base85Token(j-start, nm, m, 0, false) {
			out |= svBase85
			if t.b85.first < 0 {
				t.b85.first = start
			}
			t.b85.last = start
		}
		// the blanks: the hex run ends at the first, and each is a byte
		// of a chain of numbers' gap
		for i = j; i < len(s) && classes[s[i]]&cSpace != 0; i++ {
			if hexn > 0 || pairs > 0 {
				var full bool
				pairs, full = endHex(hexn, pairs, s[i], classes[s[i]], s[i-1], minRun)
				if full {
					out |= svHex
				}
				hexn = 0
			}
			if nums > 0 {
				if gap++; gap > 8 {
					nums = 0
				}
			}
			t.sawNL = t.sawNL || s[i] == '\n'
		}
	}
	t.hexn, t.pairs, t.nums, t.gap, t.out = hexn, pairs, nums, gap, out
	return i
}

// endHex is what the byte loop does to a chain of hex pairs when a hex
// run of hexn digits ends at the byte c of classes k (the byte before it
// prev): the chain's new length, and whether it reached minRun pairs.
func endHex(hexn, pairs int, c byte, k uint16, prev byte, minRun int) (int, bool) {
	switch {
	case hexn >= 2 && hexn%2 == 0:
		pairs += hexn / 2
		full := pairs >= minRun
		if k&cHexSep == 0 {
			pairs = 0
		}
		return pairs, full
	case hexn == 1 && (c == 'x' || c == 'X') && prev == '0':
		// a 0x prefix: the chain goes on
	case hexn == 0 && k&cHexSep != 0:
		// separators between units
	default:
		pairs = 0
	}
	return pairs, false
}

// base85Token reports whether a token of n bytes with nmarks bytes of
// the marks set, bytes of classes cls (0 when unknown) and punctuation
// (punct: marks or not) may be Ascii85 or base85: ten bytes or more
// (eight encoded), and two kinds of marks or more and a sixteenth of its
// bytes marks (base85 of text has a tenth to a fifth), or punctuation
// among letters of both cases and digits (base85 of capitals and digits,
// or of some keys, has few marks: AKIAFZZYMSRRKZ4YLA6L in Ascii85 holds a
// slash and nothing else).
func base85Token(n, nmarks int, marks uint64, cls uint16, punct bool) bool {
	if n < 10 {
		return false
	}
	return 16*nmarks >= n && bits.OnesCount64(marks) >= 2 || punct && mixedClasses(cls)
}

// mixedClasses reports whether cls holds letters of both cases and digits.
func mixedClasses(cls uint16) bool {
	return cls&cUpper != 0 && cls&cLower != 0 && cls&cDigit != 0
}

// otherCase is the class of letters of the other case than a letter of
// class k; 0 for a digit.
func otherCase(k uint16) uint16 {
	switch {
	case k&cUpper != 0:
		return cLower
	case k&cLower != 0:
		return cUpper
	}
	return 0
}

// hexShiftable says whether a token of n bytes, with byte classes cls and
// letters, may be hex under a letter shift: digits, the separators of hex,
// and letters within six of each other.
func hexShiftable(n int, cls uint16, letters uint32, minRun int) int {
	if n < 2*minRun || cls&cDigit == 0 || cls&(cUpper|cLower) == 0 || cls&^(cB64|cB32|cHex|cDigit|cUpper|cLower|cHexSep) != 0 || !inSixLetters(letters) {
		return 0
	}
	return svUnshift
}

// mayBeBase64 says whether a token of n bytes, upper of them upper-case
// letters, may be base64: letters of both cases, and digits or symbols, or
// a quarter of each case (CamelCase words have fewer capitals).
func mayBeBase64(n, upper int, cls uint16) bool {
	if cls&(cUpper|cLower) != cUpper|cLower {
		return false
	}
	if cls&(cDigit|cEsc) != 0 {
		return true
	}
	return 4*upper >= n && 4*upper <= 3*n
}

// inSixLetters reports whether every letter of the set lies in some six
// consecutive letters of the alphabet (cyclically): hex shifted.
func inSixLetters(set uint32) bool {
	const all = 1<<26 - 1
	for start := range 26 {
		if (set>>start|set<<(26-start))&all&^0x3f == 0 {
			return true
		}
	}
	return false
}

// joinLines joins the lines of st: every whitespace run that holds a line
// break dropped, and (when it differs) only the line breaks with the
// indentation the wrapper added, so that a space the text had at the break
// stays ("0163 01\n   53 0137" wrapped from space-separated codes). That
// indentation is the one most continued lines have; a line of the text
// around the wrapped block may have less, so the smallest is tried too.
func joinLines(st *stream) []*stream {
	s := st.b
	bd := newBuilder(st, len(s))
	// counts[n] is how many continued lines start with n blanks (the
	// last slot counts deeper ones)
	var counts [16]int
	for i := 0; i < len(s); {
		if !isSpace(s[i]) {
			bd.add(s[i], i, i+1)
			i++
			continue
		}
		j, nl := i, false
		for j < len(s) && isSpace(s[j]) {
			if s[j] == '\n' {
				nl = true
				k := j + 1
				for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
					k++
				}
				if k < len(s) && s[k] != '\n' && s[k] != '\r' {
					counts[min(k-j-1, len(counts)-1)]++
				}
			}
			j++
		}
		if !nl {
			for k := i; k < j; k++ {
				bd.add(s[k], k, k+1)
			}
		}
		i = j
	}
	out := []*stream{bd.stream("wrapped")}
	smallest, common := -1, -1
	for n, c := range counts {
		if c == 0 {
			continue
		}
		if smallest < 0 {
			smallest = n
		}
		if common < 0 || c > counts[common] {
			common = n
		}
	}
	if smallest < 0 {
		return out
	}
	for _, indent := range []int{common, smallest} {
		if kept := dropBreaks(st, indent); kept.b != out[len(out)-1].b && kept.b != out[0].b {
			out = append(out, kept)
		}
	}
	return out
}

// dropBreaks is st with each line break and up to indent blanks after it
// dropped.
func dropBreaks(st *stream, indent int) *stream {
	s := st.b
	kept := newBuilder(st, len(s))
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n':
			i++
		case s[i] == '\n':
			i++
			for n := 0; n < indent && i < len(s) && (s[i] == ' ' || s[i] == '\t'); n++ {
				i++
			}
		default:
			kept.add(s[i], i, i+1)
			i++
		}
	}
	return kept.stream("wrapped")
}

// glueBreaks is the cheap form of joinLines for a stream whose line breaks
// all fall where pretty-printed JSON or code breaks (after a comma or an
// opening bracket, before a quote or a closing one): a token wrapped
// across lines may still break there (a ROT47 token holds brackets and
// quotes like any other byte). Only the words that touch a break are
// joined: each chain of words linked by line breaks (a line that is one
// word goes on the chain) becomes one word of the stream, when it is long
// enough to hold a leaking run. Prose and JSON cost a few words per line,
// not the whole text again.
func glueBreaks(st *stream, minRun int) *stream {
	s := st.b
	var bd *builder
	// chain is the start of the current chain's first word; words is how
	// many words it has; end is where its last word ends
	chain, words, end := -1, 0, 0
	flush := func() {
		if words >= 2 && end-chain >= minRun {
			if bd == nil {
				bd = newBuilder(st, len(s)/4)
			} else {
				bd.add(' ', chain-1, chain)
			}
			for k := chain; k < end; k++ {
				if !isSpace(s[k]) {
					bd.add(s[k], k, k+1)
				}
			}
		}
		chain, words = -1, 0
	}
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			j, nl := i, false
			for j < len(s) && isSpace(s[j]) {
				nl = nl || s[j] == '\n'
				j++
			}
			if !nl && chain >= 0 {
				flush()
			}
			i = j
			continue
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		// whitespace without a line break ended the last chain
		if chain < 0 {
			chain = i
		}
		words++
		end = j
		i = j
	}
	flush()
	if bd == nil {
		return nil
	}
	return bd.stream("wrapped")
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// reverseStream is st backwards, character by character.
func reverseStream(st *stream) *stream {
	bd := newBuilder(st, len(st.b))
	s := st.b
	for i := len(s); i > 0; {
		r, w := utf8.DecodeLastRuneInString(s[:i])
		if r == utf8.RuneError {
			bd.add(s[i-1], i-1, i)
			i--
			continue
		}
		bd.addRune(r, i-w, i)
		i -= w
	}
	return bd.stream("reversed")
}

// plausible calls f for every stretch of b at least n bytes long that may
// be text: valid UTF-8 without control characters other than whitespace
// and NUL (UTF-16). Random bytes (a wrong alignment, a word read as
// base64) rarely hold eight such bytes in a row.
func plausible(b []byte, n int, f func(lo, hi int)) {
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' || c == 0 {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if r, w := utf8.DecodeRune(b[i:]); r != utf8.RuneError {
				i += w
				continue
			}
		}
		if i-start >= n {
			f(start, i)
		}
		i++
		start = i
	}
	if len(b)-start >= n {
		f(start, len(b))
	}
}

// byteSource maps decoded byte j to the [lo, hi) of the token (in stream
// offsets) that spells it.
type byteSource func(j int) (lo, hi int)

// emitDecoded makes child streams of the plausible stretches of decoded
// bytes, or of what they gunzip to.
func (sr *searcher) emitDecoded(st *stream, dec []byte, src byteSource, enc string, next int) {
	if len(dec) >= 6 {
		// a compressed stream, maybe after a few bytes that are not its
		// (a hex or base64 run that began in the word before)
		// A stream that ends cleanly is the one. Bytes that only look
		// like a header (text holds one now and then: "XG" of
		// AKIALUDBXGKN6QJIDCJT is a zlib header, and so is a pair of
		// bytes of a raw deflate stream by chance) decompress to a few
		// bytes and fail: what came out is read, and so are the raw
		// stream and the bytes themselves.
		raw := sr.rawOK
		sr.rawOK = false
		for h := 0; h < min(16, len(dec)-5); h++ {
			if plain, name, clean, ok := inflateClean(dec[h:], false); ok {
				sr.emitInflated(st, dec[h:], plain, func(d int) (int, int) { return src(d + h) }, name+"+"+enc, next)
				if clean {
					return
				}
				break
			}
		}
		if raw && !plausibleText(dec) {
			if plain, name, ok := inflate(dec, true); ok {
				sr.emitInflated(st, dec, plain, src, name+"+"+enc, next)
				return
			}
		}
	}
	var segs [][2]int
	plausible(dec, sr.minRun, func(a, b int) { segs = append(segs, [2]int{a, b}) })
	if len(segs) == 0 {
		return
	}
	dec = bytes.Clone(dec) // the scratch buffer is reused by the children
	for _, sg := range segs {
		bd := newBuilder(st, sg[1]-sg[0])
		for j := sg[0]; j < sg[1]; j++ {
			lo, hi := src(j)
			bd.add(dec[j], lo, hi)
		}
		sr.child(bd.stream(enc), next)
	}
}

// emitInflated makes a child stream of what dec decompressed to: every
// byte spelled by the whole token.
func (sr *searcher) emitInflated(st *stream, dec, plain []byte, src byteSource, enc string, next int) {
	lo0, hi0 := src(0)
	lo1, hi1 := src(len(dec) - 1)
	lo, hi := min(lo0, lo1), max(hi0, hi1)
	bd := newBuilder(st, len(plain))
	for _, c := range plain {
		bd.add(c, lo, hi)
	}
	sr.child(bd.stream(enc), next)
}

// plausibleText reports whether dec holds a stretch of plausible text of
// three quarters of its length: then it is text, not a compressed stream.
// (A third was too little: a short deflate stream, with its zero bytes
// and its empty last block, holds a third of plausible bytes in a row
// now and then, and was never inflated.)
func plausibleText(dec []byte) bool {
	found := false
	plausible(dec, max(8, len(dec)*3/4), func(int, int) { found = true })
	return found
}

// b64 is the value of each base64 character, both alphabets: -1 when the
// byte is not one.
var b64 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range len(std) {
		t[std[i]] = int8(i)
	}
	t['-'], t['_'] = 62, 63
	return t
}()

// b32 is the value of each base32 character (RFC 4648), either case.
var b32 = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c], t[c+'a'-'A'] = int8(c-'A'), int8(c-'A')
	}
	for c := '2'; c <= '7'; c++ {
		t[c] = int8(c - '2' + 26)
	}
	return t
}()

// tokens decodes the runs of st that may be base64, base32 or hex, read
// forwards and backwards, at every alignment.
func (sr *searcher) tokens(st *stream, next int, shifted bool) {
	s := st.b
	// base64 and base32 need about 4/3 and 8/5 characters per byte.
	min64, min32 := (sr.minRun*4+2)/3, (sr.minRun*8+4)/5
	for i := 0; i < len(s); {
		if b64[s[i]] < 0 {
			i++
			continue
		}
		j, same := i, 0
		var cls uint16
		for j < len(s) && b64[s[j]] >= 0 {
			if j > i && s[j] == s[j-1] {
				// A character repeated 24 times ends the run: no encoding
				// of text writes that (gzip's header has up to 12 A's), and
				// a document of one letter is not decoded at length.
				if same++; same >= maxSame {
					break
				}
			} else {
				same = 0
			}
			cls |= classes[s[j]]
			j++
		}
		if j-i >= min32 && !sr.covered(st.span(i, j)) {
			// base64 of text has letters of both cases, or capitals and
			// digits (base64Classes): a word, an identifier or a path is
			// not read as base64. base32 is written in one case.
			if base64Classes(cls) && j-i >= min64 {
				sr.base64(st, i, j, next)
			}
			if !shifted {
				sr.base32(st, i, j, min32, next)
				sr.base32hexRuns(st, i, j, min32, next)
				if base64Classes(cls) && j-i >= min58(sr.minRun) && all58(s[i:j]) {
					sr.base58(st, i, j, next)
				}
			}
		}
		i = j
		for i < len(s) && i > 0 && s[i] == s[i-1] {
			i++ // the rest of a repeated character
		}
	}
}

// b32hexClasses reports whether a run of n base64 characters, digits of
// them digits, with the byte classes cls, may be base32hex in lower case
// (digits and small letters: a fifth of digits or more, as base32hex of
// text has; an identifier with a number in it has fewer).
func b32hexClasses(n, digits int, cls uint16) bool {
	return cls&(cUpper|cLower|cDigit) == cLower|cDigit && 5*digits >= n
}

// min58 is how many base58 characters encode n bytes at least.
func min58(n int) int { return (n*138 + 99) / 100 }

// all58 reports whether every byte of s is a base58 character.
func all58(s string) bool {
	for i := 0; i < len(s); i++ {
		if b58[s[i]] < 0 {
			return false
		}
	}
	return true
}

// base64Classes reports whether a run of base64 characters with the byte
// classes cls may be base64 of text: letters of both cases (the first
// character of a group of four is A-Z or a-f for any byte below 0x80), or
// capitals and digits with no small letter, which is what base64 of
// upper-case text and digits often is ("WU03MURRV1RO" for "YM71DQWT").
func base64Classes(cls uint16) bool {
	return cls&(cUpper|cLower) == cUpper|cLower || cls&(cUpper|cDigit|cLower) == cUpper|cDigit
}

// maxSame is how many times a character may repeat in a row in a token
// read as base64, base32 or hex.
const maxSame = 24

// base64 decodes s[i:j] at its four alignments, forwards and backwards.
func (sr *searcher) base64(st *stream, i, j, next int) {
	s := st.b
	for _, rev := range []bool{false, true} {
		at := func(k int) int { // the k-th character of the run
			if rev {
				return j - 1 - k
			}
			return i + k
		}
		n := j - i
		for a := range 4 {
			if sr.done() || n-a < 2 {
				return
			}
			dec := sr.dec[:0]
			var acc uint32
			bits := 0
			for k := a; k < n; k++ {
				acc = acc<<6 | uint32(b64[s[at(k)]])
				bits += 6
				if bits >= 8 {
					bits -= 8
					dec = append(dec, byte(acc>>bits))
				}
			}
			enc := "base64"
			if rev {
				enc = "reversed base64"
			}
			sr.dec = dec[:0]
			sr.rawOK = a == 0 && !rev
			sr.emitDecoded(st, dec, func(d int) (int, int) {
				// byte d holds bits 8d..8d+8 of the run from a: characters
				// (8d)/6 to (8d+7)/6.
				lo, hi := at(a+8*d/6), at(a+(8*d+7)/6)
				if lo > hi {
					lo, hi = hi, lo
				}
				return lo, hi + 1
			}, enc, next)
		}
	}
}

// base32 decodes the base32 runs inside s[i:j] at their eight alignments,
// forwards and backwards.
func (sr *searcher) base32(st *stream, i, j, min32, next int) {
	s := st.b
	for i < j {
		if b32[s[i]] < 0 {
			i++
			continue
		}
		k, lower, upper := i, false, false
		for k < j && b32[s[k]] >= 0 {
			c := s[k]
			l, u := 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z'
			if l && upper || u && lower {
				break // base32 is written in one case
			}
			lower, upper = lower || l, upper || u
			k++
		}
		if k-i >= min32 {
			sr.base32Run(st, i, k, next)
		}
		i = k
	}
}

func (sr *searcher) base32Run(st *stream, i, j, next int) {
	sr.base32With(st, i, j, &b32, "base32", next)
}

// base32With decodes s[i:j] with the base32 alphabet table at its eight
// alignments, forwards and backwards.
func (sr *searcher) base32With(st *stream, i, j int, table *[256]int8, name string, next int) {
	s := st.b
	for _, rev := range []bool{false, true} {
		at := func(k int) int {
			if rev {
				return j - 1 - k
			}
			return i + k
		}
		n := j - i
		for a := range 8 {
			if sr.done() || n-a < 2 {
				return
			}
			dec := sr.dec[:0]
			var acc uint64
			bits := 0
			for k := a; k < n; k++ {
				acc = acc<<5 | uint64(table[s[at(k)]])
				bits += 5
				if bits >= 8 {
					bits -= 8
					dec = append(dec, byte(acc>>bits))
				}
			}
			enc := name
			if rev {
				enc = "reversed " + name
			}
			sr.dec = dec[:0]
			sr.rawOK = a == 0 && !rev
			sr.emitDecoded(st, dec, func(d int) (int, int) {
				lo, hi := at(a+8*d/5), at(a+(8*d+7)/5)
				if lo > hi {
					lo, hi = hi, lo
				}
				return lo, hi + 1
			}, enc, next)
		}
	}
}

// hex decodes runs of hex digits: one run of at least two characters per
// byte of a leak, at both alignments, or pairs of digits apart by a
// separator (":", " ", "-", ", 0x", …), forwards and backwards.
func (sr *searcher) hex(st *stream, next int) {
	s := st.b
	minDigits := 2 * sr.minRun
	for i := 0; i < len(s); {
		if hexDigit(s[i]) < 0 {
			i++
			continue
		}
		pos := sr.pos[:0] // offsets of the digits
		units := 0
		j := i
		for {
			k := j
			if k+2 < len(s) && s[k] == '0' && (s[k+1] == 'x' || s[k+1] == 'X') && hexDigit(s[k+2]) >= 0 {
				k += 2 // a 0x prefix
			}
			d, same := k, 0
			for d < len(s) && hexDigit(s[d]) >= 0 {
				if d > k && s[d] == s[d-1] {
					if same++; same >= maxSame {
						break
					}
				} else {
					same = 0
				}
				d++
			}
			if d == k {
				break
			}
			if units == 0 && d-k < 2 {
				j = d // a lone digit (a word's letter) starts nothing
				break
			}
			if units > 0 && (d-k)%2 == 1 {
				break // pairs end where a unit of odd length starts
			}
			for p := k; p < d; p++ {
				pos = append(pos, p)
			}
			units++
			j = d
			if (d-k)%2 == 1 {
				break // an odd run stands alone
			}
			// one or two separators, then the next digits
			sep := 0
			for sep < 3 && j+sep < len(s) && strings.IndexByte(hexSeparators, s[j+sep]) >= 0 {
				sep++
			}
			if sep == 0 || sep > 2 || j+sep >= len(s) || hexDigit(s[j+sep]) < 0 {
				break
			}
			j += sep
		}
		sr.pos = pos[:0]
		if len(pos) >= minDigits && !sr.covered(st.span(pos[0], pos[len(pos)-1]+1)) {
			sr.hexRun(st, slices.Clone(pos), units == 1, next)
		}
		i = max(j, i+1)
	}
}

// hexSeparators are the characters that may stand between the pairs of
// digits of a hex dump.
const hexSeparators = " :-,;._|/\\"

func (sr *searcher) hexRun(st *stream, pos []int, bothAlignments bool, next int) {
	s := st.b
	for _, rev := range []bool{false, true} {
		digit := func(k int) int {
			if rev {
				return pos[len(pos)-1-k]
			}
			return pos[k]
		}
		for a := range 2 {
			if sr.done() || a == 1 && !bothAlignments {
				break
			}
			dec := sr.dec[:0]
			for k := a; k+1 < len(pos); k += 2 {
				dec = append(dec, byte(hexDigit(s[digit(k)])<<4|hexDigit(s[digit(k+1)])))
			}
			enc := "hex"
			if rev {
				enc = "reversed hex"
			}
			sr.dec = dec[:0]
			sr.rawOK = a == 0 && !rev
			sr.emitDecoded(st, dec, func(d int) (int, int) {
				lo, hi := digit(a+2*d), digit(a+2*d+1)
				if lo > hi {
					lo, hi = hi, lo
				}
				return lo, hi + 1
			}, enc, next)
		}
	}
}

// utf16 decodes a stream with NUL bytes as UTF-16, little and big endian,
// at both byte alignments.
func (sr *searcher) utf16(st *stream, next int) {
	s := st.b
	if len(s) < 2*sr.minRun {
		return
	}
	for _, be := range []bool{false, true} {
		for a := range 2 {
			bd := newBuilder(st, len(s)/2)
			units := make([]uint16, 0, (len(s)-a)/2)
			for k := a; k+1 < len(s); k += 2 {
				if be {
					units = append(units, uint16(s[k])<<8|uint16(s[k+1]))
				} else {
					units = append(units, uint16(s[k+1])<<8|uint16(s[k]))
				}
			}
			for u := 0; u < len(units); u++ {
				lo := a + 2*u
				r := rune(units[u])
				if utf16.IsSurrogate(r) && u+1 < len(units) {
					if p := utf16.DecodeRune(r, rune(units[u+1])); p != utf8.RuneError {
						bd.addRune(p, lo, lo+4)
						u++
						continue
					}
				}
				bd.addRune(r, lo, lo+2)
			}
			sr.child(bd.stream("UTF-16"), next)
		}
	}
}

// codes reads runs of numbers as character codes, decimal and octal:
// "115 107 95", "[115,107,95]", "0163 0153", "chr(115)+chr(107)".
func (sr *searcher) codes(st *stream, next int) {
	s := st.b
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		nums := sr.nums[:0] // [start, end) of each number
		j := i
		for j < len(s) && isDigit(s[j]) {
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			if k-j > 7 {
				break
			}
			nums = append(nums, [2]int{j, k})
			// a separator of up to 8 bytes, not a digit, not a blank line
			sep := k
			for sep < len(s) && sep-k < 8 && !isDigit(s[sep]) {
				sep++
			}
			if sep == len(s) || !isDigit(s[sep]) || strings.Contains(s[k:sep], "\n\n") {
				j = k
				break
			}
			j = sep
		}
		sr.nums = nums[:0]
		if len(nums) >= sr.minRun {
			nums = slices.Clone(nums)
			for _, base := range []int{10, 8} {
				bd := newBuilder(st, len(nums))
				octal := 0
				for _, n := range nums {
					v := 0
					for p := n[0]; p < n[1]; p++ {
						d := int(s[p] - '0')
						if d >= base {
							v = utf8.MaxRune + 1 // not a number of this base
						}
						v = v*base + d
					}
					if v > utf8.MaxRune || v < 0 {
						v = utf8.RuneError
					} else {
						octal++
					}
					bd.addRune(rune(v), n[0], n[1])
				}
				if octal >= sr.minRun {
					sr.child(bd.stream("character codes"), next)
				}
			}
		}
		i = max(j, i+1)
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// hasCodes reports whether s holds a run of n numbers codes would read.
func hasCodes(s string, n int) bool {
	count := 0
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			gap := 0
			for i < len(s) && !isDigit(s[i]) {
				i++
				gap++
			}
			if gap > 8 {
				count = 0
			}
			continue
		}
		k := i
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k-i > 7 {
			count = 0
		} else if count++; count >= n {
			return true
		}
		i = k
	}
	return false
}

// unshiftEscapes undoes a letter shift laid over escapes: around escapes
// a shift broke (nextBrokenEscape), the text is shifted back by every
// amount and its escapes decoded. A shift that leaves every escape valid
// (CSS escapes whose letters are all a-c, shifted by 3) is not seen.
func (sr *searcher) unshiftEscapes(st *stream) {
	// Only around the broken escapes: a stretch from 64 bytes before the
	// first to 64 after the last, where they come within 64 bytes of each
	// other.
	s := st.b
	for lo := 0; lo < len(s); {
		at := nextBrokenEscape(s, lo)
		if at < 0 {
			return
		}
		start, end := max(0, at-64), at+3
		for {
			next := nextBrokenEscape(s, end)
			if next < 0 || next > end+64 {
				break
			}
			end = next + 3
		}
		end = min(len(s), end+64)
		for d := 1; d < 26 && !sr.done(); d++ {
			bd := newBuilder(st, end-start)
			sh := shiftLetters(s[start:end], 26-d)
			for k := 0; k < len(sh); k++ {
				bd.add(sh[k], start+k, start+k+1)
			}
			name := "ROT13"
			if d != 13 {
				name = "shifted letters"
			}
			sr.decode(bd.stream(name), decEscapes)
		}
		lo = end
	}
}

// letteredEscape reports whether s holds an escape with a letter a shift
// would change: a backslash before a letter (other than \n, \r, \t, which
// start words in JSON text) or before a digit and a letter, a percent
// sign before two letters or digits with a letter, an equals sign before
// two upper-case letters or digits with a letter, "&#" before a letter.
func brokenEscape(s string) bool { return nextBrokenEscape(s, 0) >= 0 }

// nextBrokenEscape returns the offset of the first broken escape in
// s[from:], -1 when there is none: what an escape becomes once a shift
// moved its letters past f or off its escape letter: \h0073 and \x005i
// (from \u0073), \7n (CSS \7a), %6O and =6O, &#k73 (from &#x73).
func nextBrokenEscape(s string, from int) int {
	past := func(c byte) bool { c |= 0x20; return 'g' <= c && c <= 'z' }
	letter := func(c byte) bool { c |= 0x20; return 'a' <= c && c <= 'z' }
	for i := from; i+2 < len(s); i++ {
		c, d := s[i+1], s[i+2]
		switch s[i] {
		case '\\':
			if past(c) && strings.IndexByte("nrtvuUxX", c) < 0 && isDigit(d) || isDigit(c) && past(d) {
				return i
			}
			// an escape letter before four characters, one past f
			if past(c) && strings.IndexByte("nrt", c) < 0 && i+5 < len(s) {
				for _, e := range []byte(s[i+2 : i+6]) {
					if past(e) {
						return i
					}
				}
			}
		case '%', '=':
			if hexDigit(c) >= 0 && past(d) || past(c) && hexDigit(d) >= 0 {
				return i
			}
		case '&':
			if c == '#' && letter(d) && d|0x20 != 'x' {
				return i
			}
		}
	}
	return -1
}

// unshift undoes a letter shift laid over a token encoding: each token (a
// run without whitespace) that may be base64 (letters of both cases) or
// hex (digits, and letters within six of each other) is shifted back by
// every amount that may bring it back and decoded. Plain text shifted is
// the secret's shifted variant, found without this.
func (sr *searcher) unshift(st *stream) {
	s := st.b
	if st.depth+1 >= maxDepth {
		return
	}
	min64 := (sr.minRun*4 + 2) / 3
	try := func(i, j int, b64, hex bool, hexes uint32) {
		if sr.covered(st.span(i, j)) {
			return
		}
		for d := 1; d < 26 && !sr.done(); d++ {
			tryHex := hex && hexes&(1<<d) != 0
			if !b64 && !tryHex {
				continue
			}
			bd := newBuilder(st, j-i)
			sh := shiftLetters(s[i:j], 26-d)
			for k := 0; k < len(sh); k++ {
				bd.add(sh[k], i+k, i+k+1)
			}
			name := "ROT13"
			if d != 13 {
				name = "shifted letters"
			}
			c := bd.stream(name)
			if b64 {
				sr.tokens(c, decAll, true)
			}
			if tryHex {
				sr.hex(c, decAll)
			}
		}
	}
	// base64: runs of its alphabet that mayBeBase64
	for i := 0; i < len(s); {
		if b64[s[i]] < 0 {
			i++
			continue
		}
		j, up := i, 0
		var cls uint16
		for j < len(s) && b64[s[j]] >= 0 {
			k := classes[s[j]]
			cls |= k
			if k&cUpper != 0 {
				up++
			}
			j++
		}
		if j-i >= min64 && mayBeBase64(j-i, up, cls) {
			try(i, j, true, false, 0)
		}
		i = j
	}
	// hex: tokens (runs without whitespace or quotes: a JSON document
	// without white space is one run, its strings tokens of it) of
	// digits, separators and letters within six of each other
	for i := 0; i < len(s); {
		if isSpace(s[i]) || s[i] == '"' {
			i++
			continue
		}
		j := i
		var cls uint16
		for j < len(s) && !isSpace(s[j]) && s[j] != '"' {
			cls |= classes[s[j]]
			j++
		}
		if j-i >= 2*sr.minRun && cls&cDigit != 0 && cls&(cUpper|cLower) != 0 {
			if hexes := hexShifts(s[i:j]); hexes != 0 {
				try(i, j, false, true, hexes)
			}
		}
		i = j
	}
}

// hexShifts returns the shifts d (bit d, 1 to 25) that bring every letter
// of a token into a-f; 0 when the token holds more than letters and digits
// and the separators of hex.
func hexShifts(tok string) uint32 {
	var seen uint32
	for i := 0; i < len(tok); i++ {
		c := tok[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
			seen |= 1 << (c - 'a')
		case isDigit(tok[i]) || strings.IndexByte(hexSeparators, tok[i]) >= 0:
		default:
			return 0
		}
	}
	var out uint32
	for d := 1; d < 26; d++ {
		// shifted back by d, every letter must land in a-f
		ok := true
		for l := range 26 {
			if seen&(1<<l) != 0 && (l-d+26)%26 > 5 {
				ok = false
				break
			}
		}
		if ok {
			out |= 1 << d
		}
	}
	return out
}

// numberChain steps the chain of numbers the survey follows by one byte,
// a digit or not: a digit after a gap (or the first) adds a number, a gap
// of more than eight bytes ends the chain. It reports whether the chain
// holds minRun numbers, a code written digit by digit.
func numberChain(digit bool, nums, gap *int, minRun int) bool {
	full := false
	if digit {
		if *gap > 0 || *nums == 0 {
			*nums++
			full = *nums >= minRun
		}
		*gap = 0
	} else if *nums > 0 {
		if *gap++; *gap > 8 {
			*nums = 0
		}
	}
	return full
}
