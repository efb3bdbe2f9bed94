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
// Text is read for what it means, not for its bytes: a secret spelled with
// escapes (JSON and JavaScript \u0073, \uD83D\uDE00, Python and Go \x73,
// URL %73, HTML &#115;) is found, and so is the whole secret written in
// base64 (standard or URL alphabet, at any alignment) or hex. A leak is
// replaced by "[redacted:ID]", covering the bytes that spell it; JSON is
// decoded string by string and re-encoded, so redacted JSON stays valid.
//
// Keys registers the environment variables that hold API keys (the
// defaults, every endpoint's api_key_env, every provider's) and builds the
// Redactor of their values.
package redact

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
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
	s       []rune                // folded value
	run     int                   // shortest leaking run: min(MinRun, len(s))
	grams   map[uint64][]int32    // hash of each run-long gram → offsets
	bits    [gramBits / 64]uint64 // filter of the gram hashes
	pow     uint64                // hashBase^(run-1)
	// public[k] is the length of the longest run starting at s[k] that
	// occurs in the public text: a run from k is a leak only when longer.
	public  []int32
	needles []needle
}

// needle is an encoded form of a whole secret, found literally.
type needle struct {
	text     string
	fold     bool // ASCII case does not matter (hex)
	encoding string
}

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
	x := &secret{id: sc.ID, tag: Tag(sc.ID), s: s, run: min(MinRun, len(s)), grams: map[uint64][]int32{}}
	x.pow = 1
	for range x.run - 1 {
		x.pow *= hashBase
	}
	for k := 0; k+x.run <= len(s); k++ {
		h := hashRunes(s[k : k+x.run])
		x.grams[h] = append(x.grams[h], int32(k))
		x.bits[h>>58&(gramBits/64-1)] |= 1 << (h & 63)
	}
	x.public = make([]int32, len(s))
	for _, p := range pub {
		x.markPublic(p.r)
	}
	b := []byte(sc.Value)
	for _, enc := range []struct {
		name string
		e    *base64.Encoding
	}{{"base64", base64.RawStdEncoding}, {"base64", base64.RawURLEncoding}} {
		for off := range 3 {
			if k := (len(b) - off) / 3 * 3; k >= 6 {
				n := enc.e.EncodeToString(b[off : off+k])
				if !slices.ContainsFunc(x.needles, func(o needle) bool { return o.text == n }) {
					x.needles = append(x.needles, needle{text: n, encoding: enc.name})
				}
			}
		}
	}
	if len(b) >= 4 {
		x.needles = append(x.needles, needle{text: hex.EncodeToString(b), fold: true, encoding: "hex"})
	}
	return x
}

// markPublic records the runs of the secret found in one public text,
// outside the secret's own occurrences. An occurrence may be broken by
// whitespace (a tool that wrapped a long key across lines printed the key,
// not a public part of it).
func (x *secret) markPublic(t []rune) {
	start := 0
	for _, occ := range x.occurrences(t) {
		x.scan(t[start:occ[0]], func(p, k, l int) {
			x.public[k] = max(x.public[k], int32(l))
		})
		start = occ[1]
	}
	x.scan(t[start:], func(p, k, l int) {
		x.public[k] = max(x.public[k], int32(l))
	})
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
// characters matches the secret at offset k, with the run's length l.
func (x *secret) scan(t []rune, f func(p, k, l int)) {
	if len(t) < x.run {
		return
	}
	prevK, prevL := -2, 0 // the longest run found at p-1
	h := hashRunes(t[:x.run])
	for p := 0; ; p++ {
		// A run of length L at p-1 from offset k is a run of length L-1 at
		// p from offset k+1: start comparing there.
		hintK, hintL := prevK+1, prevL-1
		prevK, prevL = -2, 0
		if x.bits[h>>58&(gramBits/64-1)]&(1<<(h&63)) != 0 {
			for _, k32 := range x.grams[h] {
				k, l := int(k32), 0
				if k == hintK && hintL > 0 {
					l = hintL
				}
				for p+l < len(t) && k+l < len(x.s) && t[p+l] == x.s[k+l] {
					l++
				}
				if l < x.run {
					continue
				}
				f(p, k, l)
				if l > prevL {
					prevK, prevL = k, l
				}
			}
		}
		if p+x.run >= len(t) {
			return
		}
		h = (h-uint64(t[p])*x.pow)*hashBase + uint64(t[p+x.run])
	}
}

// gramBits is the size of a secret's filter of gram hashes, in bits.
const gramBits = 1 << 14

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
	// Encoding is "" for text read as it is, "escaped" when escapes spell it
	// (JSON, URL, HTML, \x), "base64" or "hex".
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
	}
	return what + ", " + l.Encoding + "-encoded"
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
// merged (the first secret in the Redactor's order names them).
func (r *Redactor) Find(s string) []Leak {
	if r == nil || s == "" {
		return nil
	}
	var leaks []Leak
	add := func(f *folded, encoding string) {
		for _, x := range r.secrets {
			first := len(leaks)
			x.scan(f.r, func(p, k, l int) {
				if int32(l) <= x.public[k] {
					return
				}
				lk := Leak{ID: x.id, Start: int(f.src[p].start), End: int(f.src[p+l-1].end),
					Chars: l, Whole: k == 0 && l == len(x.s), Encoding: encoding}
				// Runs come in order of position: one that overlaps the last
				// leak of this secret widens it (a repeated secret stays one
				// leak per occurrence, not one per character).
				if n := len(leaks); n > first && lk.Start <= leaks[n-1].End {
					last := &leaks[n-1]
					last.End = max(last.End, lk.End)
					last.Chars = max(last.Chars, lk.Chars)
					last.Whole = last.Whole || lk.Whole
					return
				}
				leaks = append(leaks, lk)
			})
		}
	}
	f := getFolded()
	defer putFolded(f)
	f.foldString(s)
	add(f, "")
	if mayBeEscaped(s) {
		if runes, src, ok := decodeEscapes(s); ok {
			f.r, f.src = f.r[:0], f.src[:0]
			for i, c := range runes {
				f.add(c, src[i])
			}
			add(f, "escaped")
		}
	}
	for _, x := range r.secrets {
		for _, n := range x.needles {
			for _, at := range indexAll(s, n.text, n.fold) {
				leaks = append(leaks, Leak{ID: x.id, Start: at, End: at + len(n.text), Chars: len(x.s), Whole: true, Encoding: n.encoding})
			}
		}
	}
	return merge(leaks)
}

// plainLeak reports whether b, read as plain text (no escapes decoded),
// holds a run of a secret that is not public or a whole encoded secret:
// whether Find's first and last passes would find anything.
func (r *Redactor) plainLeak(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	// b is only read, and nothing read from s outlives the call: no copy.
	s := unsafe.String(&b[0], len(b))
	f := getFolded()
	defer putFolded(f)
	f.foldRunes(s)
	for _, x := range r.secrets {
		found := false
		x.scan(f.r, func(p, k, l int) {
			if int32(l) > x.public[k] {
				found = true
			}
		})
		if found {
			return true
		}
		for _, n := range x.needles {
			if len(indexAll(s, n.text, n.fold)) > 0 {
				return true
			}
		}
	}
	return false
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

// indexAll returns the offsets of every occurrence of n in s (ASCII case
// ignored when fold is set).
func indexAll(s, n string, fold bool) []int {
	if len(n) == 0 || len(s) < len(n) {
		return nil
	}
	var out []int
	for i := 0; i+len(n) <= len(s); {
		var j int
		if fold {
			j = indexFoldASCII(s[i:], n)
		} else {
			j = strings.Index(s[i:], n)
		}
		if j < 0 {
			break
		}
		out = append(out, i+j)
		i += j + len(n)
	}
	return out
}

// indexFoldASCII is strings.Index ignoring ASCII case; n is lower case.
func indexFoldASCII(s, n string) int {
	first := n[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+len(n) <= len(s); i++ {
		if c := s[i]; c != first && c != upper {
			// Jump to the next byte that may start n.
			j := strings.IndexByte(s[i:], first)
			if upper != first {
				if k := strings.IndexByte(s[i:], upper); k >= 0 && (j < 0 || k < j) {
					j = k
				}
			}
			if j < 0 {
				return -1
			}
			i += j
			if i+len(n) > len(s) {
				return -1
			}
		}
		j := 1
		for j < len(n) && lowerASCII(s[i+j]) == n[j] {
			j++
		}
		if j == len(n) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Contains reports whether s leaks a secret.
func (r *Redactor) Contains(s string) bool { return len(r.Find(s)) > 0 }

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
