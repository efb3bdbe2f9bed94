// Package redact is the one place where compact-eval hides secrets: the
// secret invariants of a scenario and the API keys the harness knows. Every
// writer (journal, result, reports, console, GitHub outputs, the response
// cache) goes through a Redactor, so a secret is hidden the same way
// everywhere and a check that fails on a leak and the redaction of that leak
// agree on what a leak is.
//
// # What counts as a leak
//
// A leak is any run of MinRun (8) or more consecutive characters of a
// secret (the whole secret when it is shorter), compared after folding:
// case, accents, compatibility forms (ｓ, ﬁ), invisible format characters
// and whitespace runs do not matter. A run that is public, because it occurs
// in the session outside the secret itself (a masked form such as
// sk_live_****7Hq2 that a tool printed), is not a leak.
//
// Text is read for what it means, not for its bytes: the search is a
// normalising one (decode.go). It reads the text as it is and under a
// family of decodings, alone and in pairs: escapes (JSON, JavaScript,
// Python, C octal, URL, HTML numeric with or without semicolons, CSS,
// quoted-printable), character codes (decimal and octal), line joins,
// base64 and base32 at every alignment, hex with or without separators,
// gzip inside base64, UTF-16, reversal, and a letter shift laid over an
// encoding. In each it looks for the secret and for its variants: the
// value reversed, its letters shifted (ROT13 and the other 24 shifts),
// ROT47. A leak is replaced by "[redacted:ID]", covering the bytes that
// spell it; JSON is decoded string by string and re-encoded, so redacted
// JSON stays valid. A text built to multiply the decodings past a budget
// (16 times its length, plus 1 MiB) is hidden whole rather than searched
// partly.
//
// Keys registers the environment variables that hold API keys (the
// defaults, every endpoint's api_key_env, every provider's) and builds the
// Redactor of their values.
package redact

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// MinRun is the length, in folded characters, of the shortest run of a
// secret that counts as a leak.
const MinRun = 8

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
}

type secret struct {
	id, tag string
	s       []rune // folded value
	run     int    // shortest leaking run: min(MinRun, len(s))
	// vars are the forms of the value searched for as runs: the value,
	// reversed, its letters shifted (ROT13 and the 24 other shifts), ROT47,
	// and each of those reversed. vars[0] is the value itself.
	vars  []variant
	grams map[uint64][]gramRef // hash of each run-long gram of every variant
	bits  []uint64             // filter of the gram hashes
	pow   uint64               // hashBase^(run-1)
	// public[k] is the length of the longest run starting at s[k] that
	// occurs in the public text: a run from k is a leak only when longer.
	public []int32
}

// variant is one form of a secret's folded value: the runes searched for,
// and how they map back to the value.
type variant struct {
	name string // "" for the value itself, else "reversed", "ROT13", ...
	s    []rune
	rev  bool // s is the value reversed: s[k] is value[len-1-k]
}

// gramRef is where a gram occurs: variant v at offset k.
type gramRef struct{ v, k int32 }

// New returns a Redactor of secrets. public are the texts in which a run of
// a secret is public (the session a secret appears in): a run that occurs
// in them, outside the secret's own occurrences, is not a leak. Secrets
// with an empty value are ignored; with none left, New returns nil.
func New(secrets []Secret, public ...string) *Redactor {
	var out []*secret
	var pub []folded
	for _, sc := range secrets {
		s := foldValue(sc.Value)
		if len(s) == 0 {
			continue
		}
		if pub == nil && len(public) > 0 {
			for _, p := range public {
				if p != "" {
					pub = append(pub, foldString(p))
				}
			}
		}
		out = append(out, newSecret(sc, s, pub))
	}
	if len(out) == 0 {
		return nil
	}
	// Longer secrets first: where two overlap, the longer one names the leak.
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].s) > len(out[j].s) })
	return &Redactor{secrets: out}
}

func newSecret(sc Secret, s []rune, pub []folded) *secret {
	x := &secret{id: sc.ID, tag: Tag(sc.ID), s: s, run: min(MinRun, len(s)), grams: map[uint64][]gramRef{}}
	x.pow = 1
	for range x.run - 1 {
		x.pow *= hashBase
	}
	x.vars = variants(sc.Value, s)
	words := 1
	for words*64 < 32*len(x.vars)*len(s) && words < 1<<12 {
		words *= 2
	}
	x.bits = make([]uint64, words)
	for v, vr := range x.vars {
		for k := 0; k+x.run <= len(vr.s); k++ {
			h := hashRunes(vr.s[k : k+x.run])
			x.grams[h] = append(x.grams[h], gramRef{int32(v), int32(k)})
			w, b := x.filter(h)
			x.bits[w] |= b
		}
	}
	x.public = make([]int32, len(s))
	for _, p := range pub {
		x.markPublic(p.r)
	}
	return x
}

// filter returns the word and bit of the gram filter for hash h.
func (x *secret) filter(h uint64) (int, uint64) {
	m := h * 0x9e3779b97f4a7c15
	return int(m>>40) & (len(x.bits) - 1), 1 << (m >> 58)
}

// markPublic records the runs of the secret found in one public text,
// outside the secret's own occurrences. An occurrence may be broken by
// whitespace (a tool that wrapped a long key across lines printed the key,
// not a public part of it).
func (x *secret) markPublic(t []rune) {
	start := 0
	mark := func(p, k, l int, v *variant) {
		if v.name == "" {
			x.public[k] = max(x.public[k], int32(l))
		}
	}
	for _, occ := range x.occurrences(t) {
		x.scan(t[start:occ[0]], mark)
		start = occ[1]
	}
	x.scan(t[start:], mark)
}

// occurrences returns the [start, end) rune ranges of t that spell the
// whole secret, whitespace between its characters ignored.
func (x *secret) occurrences(t []rune) [][2]int {
	var s []rune
	for _, r := range x.s {
		if r != ' ' {
			s = append(s, r)
		}
	}
	if len(s) == 0 {
		return nil
	}
	var out [][2]int
	for i := 0; i < len(t); i++ {
		if t[i] != s[0] {
			continue
		}
		j, k := i, 0
		for j < len(t) && k < len(s) {
			switch {
			case t[j] == s[k]:
				k++
			case t[j] != ' ' || j == i:
				j = len(t) // mismatch
				continue
			}
			j++
		}
		if k == len(s) {
			out = append(out, [2]int{i, j})
			i = j - 1
		}
	}
	return out
}

// scan calls f for every position p of t where a run of at least x.run
// characters matches a variant of the secret, with the run's offset k in
// the secret's value (for a reversed variant, where the run ends up once
// turned around) and its length l.
func (x *secret) scan(t []rune, f func(p, k, l int, v *variant)) {
	if len(t) < x.run {
		return
	}
	prevV, prevK, prevL := int32(-1), int32(-2), 0 // the longest run found at p-1
	h := hashRunes(t[:x.run])
	for p := 0; ; p++ {
		// A run of length L at p-1 from offset k is a run of length L-1 at
		// p from offset k+1: start comparing there.
		hintV, hintK, hintL := prevV, prevK+1, prevL-1
		prevV, prevK, prevL = -1, -2, 0
		if w, b := x.filter(h); x.bits[w]&b != 0 {
			for _, g := range x.grams[h] {
				vr := &x.vars[g.v]
				k, l := int(g.k), 0
				if g.v == hintV && g.k == hintK && hintL > 0 {
					l = hintL
				}
				for p+l < len(t) && k+l < len(vr.s) && t[p+l] == vr.s[k+l] {
					l++
				}
				if l < x.run {
					continue
				}
				at := k
				if vr.rev {
					at = len(vr.s) - k - l
				}
				f(p, at, l, vr)
				if l > prevL {
					prevV, prevK, prevL = g.v, g.k, l
				}
			}
		}
		if p+x.run >= len(t) {
			return
		}
		h = (h-uint64(t[p])*x.pow)*hashBase + uint64(t[p+x.run])
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
	// Encoding is "" for text read as it is, else the decodings that
	// reveal it, outermost first: "escaped" when escapes spell it (JSON,
	// URL, HTML, CSS, \x), "base64", "hex", "base64 of ROT13", ...
	Encoding string
}

// Describe says what the leak is, calling the secret name: "the secret",
// "12 characters of the secret", "the secret, base64-encoded", ...
func (l Leak) Describe(name string) string {
	what := name
	if !l.Whole {
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
		leaks: sr.leaks[:0], dec: sr.dec[:0], pos: sr.pos[:0], nums: sr.nums[:0], cover: sr.cover[:0]}
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
	*sr = searcher{leaks: sr.leaks[:0], dec: sr.dec[:0], pos: sr.pos[:0], nums: sr.nums[:0], cover: sr.cover[:0]}
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
		if l.ID == last.ID {
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
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].s) > len(out[j].s) })
	return &Redactor{secrets: out}
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
