package redact

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// span is a byte range [start, end) of the text being redacted.
type span struct{ start, end int32 }

// folded is text folded for matching: each rune lower-cased, compatibility
// forms decomposed (ｓ → s, ﬁ → fi), accents dropped (ñ → n), invisible
// format and control characters dropped, and every whitespace run one
// space. src[i] is where folded rune i came from in the original text, so a
// match in folded text maps back to the bytes to replace.
type folded struct {
	r   []rune
	src []span
	// runesOnly is set by foldRunes: src is left empty.
	runesOnly bool
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
	if cap(f.r) < len(s) {
		f.r = make([]rune, 0, len(s))
		f.src = make([]span, 0, len(s))
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
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		f.add(r, span{int32(i), int32(i + w)})
		i += w
	}
}

// foldRunes folds s into f.r as foldString does, reusing f's memory, but
// leaves f.src empty: for a caller that only asks whether a secret is
// there, not where (a third of foldString's work is the sources).
func (f *folded) foldRunes(s string) {
	f.r, f.src, f.runesOnly = f.r[:0], f.src[:0], true
	if cap(f.r) < len(s) {
		f.r = make([]rune, 0, len(s))
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && c > ' ' && c != 0x7f {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			f.r = append(f.r, rune(c))
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		f.add(r, span{int32(i), int32(i + w)})
		i += w
	}
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
