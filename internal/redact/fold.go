package redact

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// span is a byte range [start, end) of the text being redacted.
type span struct{ start, end int32 }

// folded is text folded for matching: each rune lower-cased, compatibility
// forms decomposed (ｓ → s, ﬁ → fi), accents dropped (ñ → n), confusable
// letters and digits folded to the ASCII ones they imitate (Cyrillic а → a,
// confusables.tsv), invisible format and control characters and terminal
// escape sequences (ESC [ 0 m) dropped, and every whitespace run one space.
// src[i] is where folded rune i came from in the original text, so a match
// in folded text maps back to the bytes to replace.
//
// k is the skeleton of the text: its letters and digits alone, what a
// secret is compared with whatever separates its characters (spaces,
// dashes, one character per separator); ki[j] is the index in r of k[j].
type folded struct {
	r   []rune
	src []span
	// runesOnly is set by foldRunes: src is left empty.
	runesOnly bool
	k         []rune
	ki        []int32
	// same counts the marks repeated in a row at the end of r; masked is
	// set once three of one mark came in a row.
	same   int
	masked bool
}

// add folds one rune of the original text found at sp.
func (f *folded) add(r rune, sp span) {
	switch {
	case r < utf8.RuneSelf:
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			f.space(sp)
		case r < 0x20 || r == 0x7f:
			// control: dropped
		case 'A' <= r && r <= 'Z':
			f.emit(r+'a'-'A', sp)
		default:
			f.emit(r, sp)
		}
		return
	case unicode.IsSpace(r):
		f.space(sp)
		return
	case unicode.Is(unicode.Cf, r) || unicode.IsControl(r) || unicode.Is(unicode.Mn, r):
		// zero-width and bidi controls, soft hyphens, lone accents: dropped
		return
	}
	if c, ok := confusables[r]; ok {
		f.emit(rune(lowerASCII(c)), sp)
		return
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	d := norm.NFKD.Properties(buf[:n]).Decomposition()
	if d == nil {
		f.emit(unicode.ToLower(r), sp)
		return
	}
	for len(d) > 0 {
		x, w := utf8.DecodeRune(d)
		d = d[w:]
		if c, ok := confusables[x]; ok {
			f.emit(rune(lowerASCII(c)), sp)
			continue
		}
		switch {
		case unicode.Is(unicode.Mn, x):
		case unicode.IsSpace(x):
			f.space(sp)
		default:
			f.emit(unicode.ToLower(x), sp)
		}
	}
}

func (f *folded) emit(r rune, sp span) {
	f.r = append(f.r, r)
	if !f.runesOnly {
		f.src = append(f.src, sp)
	}
	f.skelAdd(r)
}

// skelAdd adds the rune just folded to the skeleton when it is a letter or
// a digit, and notes a mask (three of the same mark in a row), after which
// skeleton builds the skeleton again with its breaks.
func (f *folded) skelAdd(r rune) {
	if r < utf8.RuneSelf && asciiAlnum[r] || r >= utf8.RuneSelf && isAlnum(r) {
		f.k = append(f.k, r)
		f.ki = append(f.ki, int32(len(f.r)-1))
		f.same = 0
		return
	}
	if n := len(f.r); n >= 2 && f.r[n-2] == r && r != ' ' {
		if f.same++; f.same >= 2 {
			f.masked = true
		}
	} else {
		f.same = 0
	}
}

// space adds one space for a whitespace run: a rune that follows a space
// widens that space's source instead.
func (f *folded) space(sp span) {
	if n := len(f.r); n > 0 && f.r[n-1] == ' ' {
		if !f.runesOnly {
			f.src[n-1].end = sp.end
		}
		return
	}
	f.emit(' ', sp)
}

// foldString folds s; spans are byte offsets into s.
func foldString(s string) folded {
	var f folded
	f.foldString(s)
	return f
}

// foldString folds s into f, reusing f's memory.
func (f *folded) foldString(s string) {
	f.r, f.src, f.runesOnly = f.r[:0], f.src[:0], false
	f.k, f.ki, f.same, f.masked = f.k[:0], f.ki[:0], 0, false
	if cap(f.r) < len(s) {
		f.r = make([]rune, 0, len(s))
		f.src = make([]span, 0, len(s))
		f.k = make([]rune, 0, len(s))
		f.ki = make([]int32, 0, len(s))
	}
	for i := 0; i < len(s); {
		// ASCII letters, digits and punctuation (nearly every byte of a
		// summary) fold to themselves or their lower case: append them
		// without going through add.
		if c := s[i]; c < utf8.RuneSelf && c > ' ' && c != 0x7f {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			f.r = append(f.r, rune(c))
			f.src = append(f.src, span{int32(i), int32(i + 1)})
			if asciiAlnum[c] {
				f.k = append(f.k, rune(c))
				f.ki = append(f.ki, int32(len(f.r)-1))
				f.same = 0
			} else {
				f.skelAdd(rune(c))
			}
			i++
			continue
		}
		if s[i] == 0x1b {
			i += escapeSequence(s[i:])
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		f.add(r, span{int32(i), int32(i + w)})
		i += w
	}
	if f.masked {
		f.skeleton()
	}
}

// foldRunes folds s into f.r as foldString does, reusing f's memory, but
// leaves f.src empty: for a caller that only asks whether a secret is
// there, not where (a third of foldString's work is the sources).
func (f *folded) foldRunes(s string) {
	f.r, f.src, f.runesOnly = f.r[:0], f.src[:0], true
	f.k, f.ki, f.same, f.masked = f.k[:0], f.ki[:0], 0, false
	if cap(f.r) < len(s) {
		f.r = make([]rune, 0, len(s))
		f.k = make([]rune, 0, len(s))
		f.ki = make([]int32, 0, len(s))
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && c > ' ' && c != 0x7f {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			f.r = append(f.r, rune(c))
			if asciiAlnum[c] {
				f.k = append(f.k, rune(c))
				f.ki = append(f.ki, int32(len(f.r)-1))
				f.same = 0
			} else {
				f.skelAdd(rune(c))
			}
			i++
			continue
		}
		if s[i] == 0x1b {
			i += escapeSequence(s[i:])
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		f.add(r, span{int32(i), int32(i + w)})
		i += w
	}
	if f.masked {
		f.skeleton()
	}
}

// skeleton fills f.k and f.ki from f.r. A mask between words of letters
// and digits (sk_live_****7Hq2, sk_…_4f2a: an ellipsis, or three or more
// of the same mark) stands for characters left out, not for a separator:
// it puts a break (skelBreak) in the skeleton, which no run crosses. Between
// single characters ("Q...x...7") it is a separator like any other.
func (f *folded) skeleton() {
	f.k, f.ki = f.k[:0], f.ki[:0]
	if cap(f.k) < len(f.r) {
		f.k = make([]rune, 0, len(f.r))
		f.ki = make([]int32, 0, len(f.r))
	}
	r := f.r
	last := -1 // the last letter or digit
	for i, c := range r {
		if c < utf8.RuneSelf && !asciiAlnum[c] || c >= utf8.RuneSelf && !isAlnum(c) {
			continue
		}
		if last >= 0 && i-last > 2 && last > 0 && isAlnum(r[last-1]) && i+1 < len(r) && isAlnum(r[i+1]) && isMask(r[last+1:i]) {
			f.k = append(f.k, skelBreak)
			f.ki = append(f.ki, int32(last+1))
		}
		f.k = append(f.k, c)
		f.ki = append(f.ki, int32(i))
		last = i
	}
}

// skelBreak marks a mask in a skeleton.
const skelBreak = rune(0)

// isMask reports whether the separators seps hold a run of three or more
// of the same mark.
func isMask(seps []rune) bool {
	same := 0
	for i, c := range seps {
		switch {
		case c == ' ':
			same = 0
		case i > 0 && c == seps[i-1]:
			if same++; same >= 2 {
				return true
			}
		default:
			same = 0
		}
	}
	return false
}

// asciiAlnum marks the ASCII letters and digits.
var asciiAlnum = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// isAlnum reports whether the folded rune r is a letter or a digit: what a
// skeleton keeps.
func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// escapeSequence returns the length of the terminal escape sequence at
// the start of s (s[0] is ESC): a CSI sequence (ESC [ parameters final),
// an OSC string (ESC ] … BEL or ESC \), or ESC and one character.
func escapeSequence(s string) int {
	if len(s) < 2 {
		return 1
	}
	switch s[1] {
	case '[':
		i := 2
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f { // parameters, intermediates
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++
		}
		return i
	case ']':
		for i := 2; i < len(s) && i < 512; i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return 2
	}
	if s[1] >= 0x20 && s[1] < 0x7f {
		return 2
	}
	return 1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

//go:embed confusables.tsv
var confusablesTSV string

// confusables maps each confusable letter or digit (confusables.tsv) to
// the ASCII one it imitates.
var confusables = func() map[rune]byte {
	m := map[rune]byte{}
	for _, row := range tsvRows(confusablesTSV) {
		cp, err := strconv.ParseUint(strings.TrimPrefix(row[0], "U+"), 16, 32)
		if err != nil || len(row) < 3 || len(row[2]) != 1 {
			panic("confusables.tsv: bad row " + strings.Join(row, "\t"))
		}
		m[rune(cp)] = row[2][0]
	}
	return m
}()

// tsvRows splits a data file into rows of tab-separated fields, leaving
// out blank lines and # comments.
func tsvRows(data string) [][]string {
	var out [][]string
	for _, line := range strings.Split(data, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, strings.Split(line, "\t"))
	}
	return out
}

// folds are buffers for folding, reused across calls.
var folds = sync.Pool{New: func() any { return new(folded) }}

// maxPooled is the largest buffer kept for reuse, in runes.
const maxPooled = 1 << 16

func getFolded() *folded { return folds.Get().(*folded) }

func putFolded(f *folded) {
	if cap(f.r) <= maxPooled {
		folds.Put(f)
	}
}

// foldValue folds a secret's value, without the sources.
func foldValue(s string) []rune { return foldString(s).r }

// Skeleton returns s as the finder compares it with a secret: folded (case,
// accents, compatibility forms, confusable letters and digits of other
// scripts, invisible characters and terminal escapes) and reduced to its
// letters and digits, masks included. It is what a test searches written
// bytes with: no run of MinRun characters of a secret's skeleton may be in
// the skeleton of anything written.
func Skeleton(s string) string {
	f := foldString(s)
	var b strings.Builder
	for _, r := range f.k {
		if r != skelBreak {
			b.WriteRune(r)
		}
	}
	return b.String()
}
