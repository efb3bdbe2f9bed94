// Package redact is the one place where compact-eval hides secrets: the
// secret invariants of a scenario and the API keys the harness knows. Every
// writer (journal, result, reports, console, GitHub outputs, the response
// cache) goes through a Redactor, so a secret is hidden the same way
// everywhere and a check that fails on a leak and the redaction of that leak
// agree on what a leak is.
//
// # What counts as a leak
//
// A leak is what lets a reader recover a secret, whatever the writing.
// Both sides are read as a skeleton (fold.go): folded (case, accents,
// compatibility forms, confusable letters and digits of other scripts,
// invisible characters and terminal escapes do not matter) and reduced to
// their letters and digits, so that grouping and separators do not either.
// A leak is a run of MinRun (8) letters and digits of the secret in a row,
// or a shorter run of at least MinSkel that spans MinRun characters of it
// written as the value writes them; or, for a secret of MinPartial letters
// and digits or more, pieces of it in order with small gaps that recover
// half of what is not public (a masked, chunked, interleaved copy). A run
// or piece that is public, because it occurs in the session outside the
// secret itself (a masked form such as sk_live_****7Hq2 that a tool
// printed), and the prefix that names a key's kind, are no leak.
//
// Text is read for what it means, not for its bytes: the search is a
// normalising one (decode.go). It reads the text as it is and under a
// family of decodings, alone and in pairs: escapes, character codes, line
// joins, base64, base32 and base32hex at every alignment, base58, Ascii85
// and base85, uuencode, bits, hex with or without separators, gzip, zlib,
// raw deflate and bzip2 inside them (bases.go), UTF-16, reversal, a letter
// shift laid over an encoding, spelled-out forms (spelled.go: the NATO
// alphabet and its kin, letter names, Morse) and shuffles (shuffle.go:
// pairs swapped, interleaved filler). In each it looks for the secret and
// for its variants: reversed, letters shifted (ROT13 and the other 24
// shifts), ROT5, ROT18, Atbash, ROT47. A leak is replaced by
// "[redacted:ID]", covering the bytes that spell it; JSON is decoded string
// by string and re-encoded, so redacted JSON stays valid. A text built to
// multiply the decodings past a budget (16 times its length, plus 1 MiB)
// is hidden whole rather than searched partly.
//
// Keys registers the environment variables that hold API keys (the
// defaults, every endpoint's api_key_env, every provider's) and builds the
// Redactor of their values.
package redact

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// MinRun is the length, in folded characters of the secret, of the
// shortest run of it that counts as a leak (the whole secret when it is
// shorter).
const MinRun = 8

// MinSkel is how many letters and digits a leaking run holds at least (all
// of them when the secret has fewer). A run of MinRun letters and digits
// leaks whatever separates them; a shorter one leaks when it spans MinRun
// characters of the value written as the value writes them, separators
// included ("sk_live_5" is 9 characters of "sk_live_51Qx…"), but
// separators alone are no leak.
const MinSkel = 6

// MinPartial is the length, in letters and digits, of the shortest secret
// the partial rule applies to. For a shorter one, half of it is fewer than
// MinRun characters, and the run rule already fails on 8 of them in a row.
const MinPartial = 16

// Pieces of the partial rule: a piece is a run of at least minPiece
// letters and digits of the secret; a chain of pieces goes on to the next
// when the secret skips at most maxSkip characters between them and the
// text at most pieceGap(shorter piece) letters and digits.
const (
	minPiece = 2
	maxSkip  = 3
)

// pieceGap is how many letters and digits of text may stand between two
// pieces of a chain, the shorter of them l long: a mask or a filler
// character or two between short pieces, a few words between pieces of 4
// or 5, anything within the text searched between pieces of 6 or more.
func pieceGap(l int) int {
	switch {
	case l <= 3:
		return 2
	case l <= 5:
		return 32
	}
	return 1 << 30
}

// Tag is what a leak of the secret with this id is replaced by:
// "[redacted:ID]".
func Tag(id string) string { return "[redacted:" + id + "]" }

// Secret is a value to hide and the id it is shown as.
type Secret struct {
	ID    string
	Value string
}

// Redactor finds and hides secrets. A nil *Redactor hides nothing. It is
// safe for concurrent use.
type Redactor struct {
	secrets []*secret
	// tags are the folded tags of the secrets: a tag in a text is not read
	// as text (redacting twice changes nothing).
	tags map[string]bool
}

type secret struct {
	id, tag string
	s       []rune // folded value
	k       []rune // its skeleton: the letters and digits of s
	// raw is set for a value with fewer than 4 letters and digits: it is
	// matched as folded, separators included (k is s). twin is the raw form
	// of a value that is also matched by its skeleton, when some MinRun
	// characters of it hold fewer than MinSkel letters and digits
	// ("k>>?~v>?"): runs of those are found as written.
	raw  bool
	twin *secret
	run  int // characters of the value a leaking run spans: min(MinRun, len(s))
	skel int // letters and digits a leaking run holds: min(MinSkel, len(k))
	// vars are the forms of the value searched for as runs: the value,
	// reversed, its letters shifted (ROT13 and the 24 other shifts), its
	// digits shifted by 5 (ROT5, and with ROT13, ROT18), Atbash, ROT47, and
	// each of those reversed. vars[0] is the value itself.
	vars  []variant
	grams map[uint64][]gramRef // hash of each gram-long run of every variant's skeleton
	bits  []uint64             // filter of the gram hashes
	pow   uint64               // hashBase^(gram-1)
	// pub are the runs of the value that occur in the public text, outside
	// the secret's own occurrences.
	pub []publicRun
	// The partial rule (len(k) >= MinPartial): need is how many letters
	// and digits a chain of pieces must recover, half of those that are
	// not public (and at least MinSkel); pubChar[j] is set when
	// k[j] is public, part of a piece of 4 or more in the public text;
	// pubSum[j] counts the public characters of k[:j].
	partial bool
	need    int
	pubChar []bool
	pubSum  []int32
	bg      *bigrams
}

// variant is one form of a secret's folded value: the runes searched for,
// and how they map back to the value.
type variant struct {
	name string  // "" for the value itself, else "reversed", "ROT13", ...
	s    []rune  // folded
	k    []rune  // skeleton: the letters and digits of s
	ki   []int32 // ki[j] is the index in s of k[j]
	rev  bool    // s is the value reversed: s[i] is value[len-1-i]
}

// publicRun is a run of the secret that a public text shows.
type publicRun struct {
	j, l int32 // where it starts in the value's skeleton, and its length
	// inner is the public text from the run's first character to its last
	// (folded, separators as written there); rel[i] is where the run's
	// i-th letter or digit is in inner.
	inner []rune
	rel   []int32
	// fa, fb are the first and last folded characters of the value it
	// covers.
	fa, fb int32
}

// gramRef is where a gram occurs: variant v at offset k.
type gramRef struct{ v, k int32 }

// New returns a Redactor of secrets. public are the texts in which a run of
// a secret is public (the session a secret appears in): a run that occurs
// in them, outside the secret's own occurrences, is not a leak. Secrets
// with an empty value are ignored; with none left, New returns nil.
func New(secrets []Secret, public ...string) *Redactor {
	var out []*secret
	var pub []*folded
	for _, sc := range secrets {
		s := foldValue(sc.Value)
		if len(s) == 0 {
			continue
		}
		if pub == nil && len(public) > 0 {
			for _, p := range public {
				if p != "" {
					f := foldString(p)
					pub = append(pub, &f)
				}
			}
		}
		out = append(out, newSecret(sc, s, pub, false))
	}
	if len(out) == 0 {
		return nil
	}
	return newRedactor(out)
}

func newRedactor(out []*secret) *Redactor {
	// Longer secrets first: where two overlap, the longer one names the leak.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].s) > len(out[j].s) })
	r := &Redactor{secrets: out, tags: map[string]bool{}}
	for _, x := range out {
		r.tags[string(foldValue(x.tag))] = true
	}
	return r
}

func newSecret(sc Secret, s []rune, pub []*folded, raw bool) *secret {
	x := &secret{id: sc.ID, tag: Tag(sc.ID), s: s, run: min(MinRun, len(s)), grams: map[uint64][]gramRef{}}
	x.vars = variants(sc.Value, s)
	x.k = x.vars[0].k
	if raw || len(x.k) < 4 {
		// Too few letters and digits to be told apart by them: the value
		// is matched as it is folded, separators included.
		x.raw = true
		for i := range x.vars {
			v := &x.vars[i]
			v.k, v.ki = v.s, make([]int32, len(v.s))
			for j := range v.ki {
				v.ki[j] = int32(j)
			}
		}
		x.k = s
		x.skel = x.run
	} else {
		x.skel = min(MinSkel, len(x.k))
		if sparseWindow(s) {
			x.twin = newSecret(sc, s, pub, true)
		}
	}
	g := x.skel
	x.pow = 1
	for range g - 1 {
		x.pow *= hashBase
	}
	words := 1
	for words*64 < 32*len(x.vars)*len(x.k) && words < 1<<12 {
		words *= 2
	}
	x.bits = make([]uint64, words)
	for v, vr := range x.vars {
		for k := 0; k+g <= len(vr.k); k++ {
			h := hashRunes(vr.k[k : k+g])
			x.grams[h] = append(x.grams[h], gramRef{int32(v), int32(k)})
			w, b := x.filter(h)
			x.bits[w] |= b
		}
	}
	if !x.raw && len(x.k) >= MinPartial && len(x.k) <= maxPartial {
		x.partial = true
		x.bg = newBigrams(x.k)
		x.pubChar = make([]bool, len(x.k))
	}
	seen := map[string]bool{}
	for _, p := range pub {
		x.markPublic(p, seen)
	}
	if p := keyPrefix(sc.Value); p != "" {
		// the kind of key, not the key
		f := foldString(p)
		x.markPublic(&f, seen)
	}
	if x.partial {
		x.pubSum = make([]int32, len(x.k)+1)
		for j, p := range x.pubChar {
			x.pubSum[j+1] = x.pubSum[j]
			if p {
				x.pubSum[j+1]++
			}
		}
		// half of what is not public already, and no fewer than MinSkel
		x.need = max((len(x.k)-int(x.pubSum[len(x.k)])+1)/2, MinSkel)
	}
	return x
}

// sparseWindow reports whether some MinRun characters of the folded value
// s in a row hold fewer than MinSkel letters and digits.
func sparseWindow(s []rune) bool {
	if len(s) < MinRun {
		return false
	}
	n := 0
	for i, r := range s {
		if isAlnum(r) {
			n++
		}
		if i >= MinRun && isAlnum(s[i-MinRun]) {
			n--
		}
		if i >= MinRun-1 && n < MinSkel {
			return true
		}
	}
	return false
}

// maxPartial is the longest skeleton the partial rule is kept for (its
// index holds 16-bit offsets).
const maxPartial = 1 << 14

// text returns the runes of f a secret is compared with (its skeleton, or
// the folded text for a raw secret) and where each is in f.r (nil: the
// same index).
func (x *secret) text(f *folded) ([]rune, []int32) {
	if x.raw {
		return f.r, nil
	}
	return f.k, f.ki
}

func at(ti []int32, p int) int {
	if ti == nil {
		return p
	}
	return int(ti[p])
}

// filter returns the word and bit of the gram filter for hash h.
func (x *secret) filter(h uint64) (int, uint64) {
	m := h * 0x9e3779b97f4a7c15
	return int(m>>40) & (len(x.bits) - 1), 1 << (m >> 58)
}

// markPublic records the runs of the secret found in one public text,
// outside the secret's own occurrences (whatever separates their
// characters: a tool that wrapped a long key across lines printed the key,
// not a public part of it), and, for the partial rule, its characters in
// pieces of 4 or more there. seen holds the runs already recorded.
func (x *secret) markPublic(pf *folded, seen map[string]bool) {
	t, ti := x.text(pf)
	v0 := &x.vars[0]
	type run struct{ p, j, l int }
	var runs []run
	var occ [][2]int
	x.scan(t, func(p, j, l, vi int) {
		if vi != 0 || p > 0 && j > 0 && t[p-1] == v0.k[j-1] {
			return // another form, or not where the run starts
		}
		if j == 0 && l == len(v0.k) {
			occ = append(occ, [2]int{p, p + l})
			return
		}
		runs = append(runs, run{p, j, l})
	})
	inOcc := func(p, l int) bool {
		for _, o := range occ {
			if p < o[1] && p+l > o[0] {
				return true
			}
		}
		return false
	}
	for _, r := range runs {
		if inOcc(r.p, r.l) {
			continue
		}
		a, b := at(ti, r.p), at(ti, r.p+r.l-1)
		key := strconv.Itoa(r.j) + "\x00" + string(pf.r[a:b+1])
		if seen[key] {
			continue
		}
		seen[key] = true
		pr := publicRun{j: int32(r.j), l: int32(r.l), inner: slices.Clone(pf.r[a : b+1]), rel: make([]int32, r.l),
			fa: v0.ki[r.j], fb: v0.ki[r.j+r.l-1]}
		for i := range r.l {
			pr.rel[i] = int32(at(ti, r.p+i) - a)
		}
		x.pub = append(x.pub, pr)
	}
	if x.partial {
		x.pieces(t, func(p, j, l int) {
			if l >= 4 && !inOcc(p, l) {
				for i := j; i < j+l; i++ {
					x.pubChar[i] = true
				}
			}
		})
	}
}

// isPublic reports whether the run of variant vi from skeleton offset j,
// l long, which the text writes as inner (its first character to its
// last, folded), is public: a public text shows the same run written the
// same way. A run in another form (reversed, shifted) is public when the
// public text shows those characters of the value at all.
func (x *secret) isPublic(vi int, j, l int, inner []rune) bool {
	if len(x.pub) == 0 {
		return false
	}
	v := &x.vars[vi]
	if vi == 0 {
		for i := range x.pub {
			pr := &x.pub[i]
			if int(pr.j) <= j && j+l <= int(pr.j+pr.l) {
				a, b := pr.rel[j-int(pr.j)], pr.rel[j-int(pr.j)+l-1]
				if slices.Equal(pr.inner[a:b+1], inner) {
					return true
				}
			}
		}
		return false
	}
	fa, fb := v.ki[j], v.ki[j+l-1]
	if v.rev {
		n := int32(len(v.s))
		fa, fb = n-1-fb, n-1-fa
	}
	for i := range x.pub {
		if x.pub[i].fa <= fa && fb <= x.pub[i].fb {
			return true
		}
	}
	return false
}

// scan calls f for every position p of t where a run of at least as many
// characters as the gram (x.skel) matches the skeleton of a variant of
// the secret: the variant vi, the run's offset j in its skeleton, and its
// length l, the longest from p.
func (x *secret) scan(t []rune, f func(p, j, l, vi int)) {
	g := x.skel
	if len(t) < g || g == 0 {
		return
	}
	prevV, prevK, prevL := int32(-1), int32(-2), 0 // the longest run found at p-1
	h := hashRunes(t[:g])
	for p := 0; ; p++ {
		// A run of length L at p-1 from offset k is a run of length L-1 at
		// p from offset k+1: start comparing there.
		hintV, hintK, hintL := prevV, prevK+1, prevL-1
		prevV, prevK, prevL = -1, -2, 0
		if w, b := x.filter(h); x.bits[w]&b != 0 {
			for _, gr := range x.grams[h] {
				vr := &x.vars[gr.v]
				k, l := int(gr.k), 0
				if gr.v == hintV && gr.k == hintK && hintL > 0 {
					l = hintL
				}
				for p+l < len(t) && k+l < len(vr.k) && t[p+l] == vr.k[k+l] {
					l++
				}
				if l < g {
					continue
				}
				f(p, k, l, int(gr.v))
				if l > prevL {
					prevV, prevK, prevL = gr.v, gr.k, l
				}
			}
		}
		if p+g >= len(t) {
			return
		}
		h = (h-uint64(t[p])*x.pow)*hashBase + uint64(t[p+g])
	}
}

const hashBase = 1000003

// hashRunes is the polynomial hash of rs that scan rolls along a text.
func hashRunes(rs []rune) uint64 {
	var h uint64
	for _, r := range rs {
		h = h*hashBase + uint64(r)
	}
	return h
}

// bigrams indexes the pairs of letters and digits of a secret's skeleton:
// where a piece may start.
type bigrams struct {
	bits [(bgBuckets + 63) / 64]uint64
	head [bgBuckets]int16
	next []int16
}

const bgBuckets = 37 * 37

func bgClass(r rune) int {
	switch {
	case 'a' <= r && r <= 'z':
		return int(r - 'a')
	case '0' <= r && r <= '9':
		return 26 + int(r-'0')
	}
	return 36
}

func newBigrams(k []rune) *bigrams {
	bg := &bigrams{next: make([]int16, len(k))}
	for i := range bg.head {
		bg.head[i] = -1
	}
	for j := len(k) - 2; j >= 0; j-- {
		b := bgClass(k[j])*37 + bgClass(k[j+1])
		bg.next[j] = bg.head[b]
		bg.head[b] = int16(j)
		bg.bits[b>>6] |= 1 << (b & 63)
	}
	return bg
}

// pieces calls f for every piece of the secret in t: a run of at least
// minPiece letters and digits of its skeleton, as long as it goes (p in
// t, j in the skeleton, length l).
func (x *secret) pieces(t []rune, f func(p, j, l int)) {
	k, bg := x.k, x.bg
	if len(t) < 2 {
		return
	}
	next := bgClass(t[0])
	for p := 0; p+1 < len(t); p++ {
		cur := next
		next = bgClass(t[p+1])
		b := cur*37 + next
		if bg.bits[b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		for j := int(bg.head[b]); j >= 0; j = int(bg.next[j]) {
			if k[j] != t[p] || k[j+1] != t[p+1] || p > 0 && j > 0 && t[p-1] == k[j-1] {
				continue
			}
			l := 2
			for p+l < len(t) && j+l < len(k) && t[p+l] == k[j+l] {
				l++
			}
			f(p, j, l)
		}
	}
}

// counted is how many of the skeleton characters k[j:j+l] are not public.
func (x *secret) counted(j, l int) int { return l - int(x.pubSum[j+l]-x.pubSum[j]) }

// Leak is one place where text holds a secret.
type Leak struct {
	// ID is the secret's id.
	ID string
	// Start and End are the byte offsets, in the text searched, of what
	// spells the leak (escapes included).
	Start, End int
	// Chars is the length, in folded characters, of the longest run of the
	// secret found there (the secret's length for an encoded whole secret).
	Chars int
	// Whole is set when the whole secret is there.
	Whole bool
	// Pieces is set for a leak by the partial rule: Chars of the secret's
	// Of letters and digits, in pieces (masked, chunked, interleaved).
	Pieces bool
	Of     int
	// Encoding is "" for text read as it is, else the decodings that
	// reveal it, outermost first: "escaped" when escapes spell it (JSON,
	// URL, HTML, CSS, \x), "base64", "hex", "base64 of ROT13", ...
	Encoding string
}

// Describe says what the leak is, calling the secret name: "the secret",
// "12 characters of the secret", "the secret, base64-encoded", ...
func (l Leak) Describe(name string) string {
	what := name
	switch {
	case l.Pieces:
		what = itoa(l.Chars) + " of the " + itoa(l.Of) + " letters and digits of " + name + ", in pieces"
	case !l.Whole:
		what = itoa(l.Chars) + " characters of " + name
	}
	switch l.Encoding {
	case "":
		return what
	case "escaped":
		return what + ", spelled with escapes"
	case "base64", "base32", "hex":
		return what + ", " + l.Encoding + "-encoded"
	case "too costly to search":
		return "text built to multiply its decodings, hidden whole as if it held " + name
	}
	return what + ", written as " + l.Encoding
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Find returns the leaks in s, ordered by position; overlapping leaks are
// merged (the first secret in the Redactor's order names them). s is
// searched as it is and under every decoding of the normalising search
// (decode.go), alone and in pairs.
func (r *Redactor) Find(s string) []Leak { return r.find(s, decAll) }

// find is Find with the decodings of mask applied to s itself (those of
// what they decode are all applied).
func (r *Redactor) find(s string, mask int) []Leak {
	if r == nil || s == "" {
		return nil
	}
	sr := r.newSearcher(false)
	defer sr.put()
	sr.search(s, mask)
	if sr.exhausted {
		return []Leak{{ID: r.secrets[0].id, Start: 0, End: len(s), Encoding: "too costly to search"}}
	}
	leaks := sr.leaks
	sr.leaks = nil // the caller's now
	return merge(leaks)
}

// anyLeak reports whether find(s, mask) would find anything, stopping at the
// first leak and recording no positions.
func (r *Redactor) anyLeak(s string, mask int) bool {
	if r == nil || s == "" {
		return false
	}
	sr := r.newSearcher(true)
	defer sr.put()
	sr.search(s, mask)
	return sr.found || sr.exhausted
}

// searchers are reused: a summary's checks search dozens of short texts.
var searchers = sync.Pool{New: func() any { return new(searcher) }}

func (r *Redactor) newSearcher(any bool) *searcher {
	sr := searchers.Get().(*searcher)
	// the scratch buffers keep their capacity; everything else starts anew
	*sr = searcher{r: r, any: any, f: getFolded(), minRun: MinRun,
		leaks: sr.leaks[:0], dec: sr.dec[:0], pos: sr.pos[:0], nums: sr.nums[:0], cover: sr.cover[:0],
		ps: sr.ps[:0], best: sr.best[:0], from: sr.from[:0]}
	for _, x := range r.secrets {
		sr.minRun = min(sr.minRun, x.run)
	}
	return sr
}

// put returns sr and its folded text to their pools, holding nothing of
// the searched text or the Redactor.
func (sr *searcher) put() {
	putFolded(sr.f)
	if cap(sr.dec) > maxPooled || cap(sr.leaks) > 1024 {
		return
	}
	clear(sr.leaks[:cap(sr.leaks)])
	clear(sr.cover[:cap(sr.cover)])
	*sr = searcher{leaks: sr.leaks[:0], dec: sr.dec[:0], pos: sr.pos[:0], nums: sr.nums[:0], cover: sr.cover[:0],
		ps: sr.ps[:0], best: sr.best[:0], from: sr.from[:0]}
	searchers.Put(sr)
}

func (sr *searcher) search(s string, mask int) {
	sr.budget = budgetFor(len(s))
	sr.root = stream{b: s}
	root := &sr.root
	sr.scan(root)
	if len(sr.leaks) > 0 {
		sr.cover = merge(slices.Clone(sr.leaks))
	}
	sr.decode(root, mask)
}

// plainLeak reports whether the valid JSON document b, read as text,
// leaks: anyLeak of its bytes, without line joins (see decValidJSON).
func (r *Redactor) plainLeak(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	// b is only read, and nothing read from s outlives the call: no copy.
	return r.anyLeak(unsafe.String(&b[0], len(b)), decValidJSON)
}

// merge sorts leaks and joins those that overlap or touch.
func merge(leaks []Leak) []Leak {
	if len(leaks) < 2 {
		return leaks
	}
	slices.SortStableFunc(leaks, func(a, b Leak) int { return a.Start - b.Start })
	out := leaks[:1]
	for _, l := range leaks[1:] {
		last := &out[len(out)-1]
		if l.Start > last.End {
			out = append(out, l)
			continue
		}
		last.End = max(last.End, l.End)
		if l.ID == last.ID && last.Pieces && !l.Pieces {
			// a run names the leak better than the pieces around it
			last.Pieces, last.Of, last.Chars, last.Whole = false, 0, l.Chars, l.Whole
		} else if l.ID == last.ID && !l.Pieces {
			last.Whole = last.Whole || l.Whole
			last.Chars = max(last.Chars, l.Chars)
			if last.Encoding == "" {
				last.Encoding = l.Encoding
			}
		}
	}
	return out
}

// Contains reports whether s leaks a secret.
func (r *Redactor) Contains(s string) bool { return r.anyLeak(s, decAll) }

// String returns s with every leak replaced by the tag of its secret.
func (r *Redactor) String(s string) string {
	leaks := r.Find(s)
	if len(leaks) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, l := range leaks {
		b.WriteString(s[at:l.Start])
		b.WriteString(r.tag(l.ID))
		at = l.End
	}
	b.WriteString(s[at:])
	return b.String()
}

func (r *Redactor) tag(id string) string {
	for _, x := range r.secrets {
		if x.id == id {
			return x.tag
		}
	}
	return Tag(id)
}

// Strings redacts every element of ss in place.
func (r *Redactor) Strings(ss []string) {
	if r == nil {
		return
	}
	for i := range ss {
		ss[i] = r.String(ss[i])
	}
}

// Map redacts every value of m in place.
func (r *Redactor) Map(m map[string]string) {
	if r == nil {
		return
	}
	for k, v := range m {
		m[k] = r.String(v)
	}
}

// Join returns a Redactor that hides the secrets of every non-nil r (nil
// when there are none).
func Join(rs ...*Redactor) *Redactor {
	var out []*secret
	for _, r := range rs {
		if r != nil {
			out = append(out, r.secrets...)
		}
	}
	switch {
	case len(out) == 0:
		return nil
	case len(out) == 1 || len(rs) == 1:
		for _, r := range rs {
			if r != nil {
				return r
			}
		}
	}
	return newRedactor(out)
}

// IDs lists the ids of the secrets hidden.
func (r *Redactor) IDs() []string {
	if r == nil {
		return nil
	}
	var ids []string
	for _, x := range r.secrets {
		if !slices.Contains(ids, x.id) {
			ids = append(ids, x.id)
		}
	}
	return ids
}

type ctxKey struct{}

// NewContext returns ctx carrying r: code far from the writers (the
// response cache) reads it with FromContext to keep secrets out of what it
// stores.
func NewContext(ctx context.Context, r *Redactor) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, r)
}

// FromContext returns the Redactor ctx carries, nil when none.
func FromContext(ctx context.Context) *Redactor {
	r, _ := ctx.Value(ctxKey{}).(*Redactor)
	return r
}
