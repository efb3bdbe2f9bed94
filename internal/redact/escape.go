package redact

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// mayBeEscaped reports whether s holds something decodeEscapes would decode.
func mayBeEscaped(s string) bool {
	return strings.IndexByte(s, '\\') >= 0 || strings.IndexByte(s, '%') >= 0 || strings.IndexByte(s, '&') >= 0
}

// decodeEscapes reads s as text that may spell characters as escapes and
// returns the characters it means, each with the bytes of s that spell it:
// backslash escapes of JSON, JavaScript, Python and Go (\u0073, \uD83D\uDE00,
// \u{73}, \U00000073, \x73, \n, \", \\, …), URL percent-encoding (%73, and
// UTF-8 bytes %C3%B1), and HTML character references (&#115; &#x73; &amp;
// &lt; &gt; &quot; &apos;). Bytes given by \x or % escapes are joined into
// UTF-8 characters. Anything else stands for itself. ok is false when s
// holds no escape at all.
func decodeEscapes(s string) (runes []rune, src []span, ok bool) {
	var pend []byte // bytes from \x and % escapes, not yet a character
	var pendSrc []span
	flush := func() {
		for len(pend) > 0 {
			r, w := utf8.DecodeRune(pend)
			runes = append(runes, r)
			src = append(src, span{pendSrc[0].start, pendSrc[w-1].end})
			pend, pendSrc = pend[w:], pendSrc[w:]
		}
		pend, pendSrc = pend[:0], pendSrc[:0]
	}
	put := func(r rune, sp span) {
		flush()
		runes = append(runes, r)
		src = append(src, sp)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if r, n, isByte := backslash(s[i:]); n > 0 {
				ok = true
				if isByte {
					pend = append(pend, byte(r))
					pendSrc = append(pendSrc, span{int32(i), int32(i + n)})
				} else {
					put(r, span{int32(i), int32(i + n)})
				}
				i += n
				continue
			}
		}
		if c == '%' && i+2 < len(s) {
			if b, good := hexByte(s[i+1], s[i+2]); good {
				ok = true
				pend = append(pend, b)
				pendSrc = append(pendSrc, span{int32(i), int32(i + 3)})
				i += 3
				continue
			}
		}
		if c == '&' {
			if r, n := entity(s[i:]); n > 0 {
				ok = true
				put(r, span{int32(i), int32(i + n)})
				i += n
				continue
			}
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		put(r, span{int32(i), int32(i + w)})
		i += w
	}
	flush()
	return runes, src, ok
}

// backslash decodes the escape at the start of s (s[0] is '\\'): the
// character, the bytes it takes, and whether it is a raw byte (\xHH) that
// may be part of a UTF-8 sequence. n is 0 when s does not start with an
// escape.
func backslash(s string) (r rune, n int, isByte bool) {
	switch s[1] {
	case 'u':
		if len(s) > 2 && s[2] == '{' {
			end := strings.IndexByte(s[:min(len(s), 12)], '}')
			if end < 4 {
				return 0, 0, false
			}
			v, good := hexValue(s[3:end])
			if !good || v > utf8.MaxRune {
				return 0, 0, false
			}
			return rune(v), end + 1, false
		}
		if len(s) < 6 {
			return 0, 0, false
		}
		v, good := hexValue(s[2:6])
		if !good {
			return 0, 0, false
		}
		r = rune(v)
		if utf16.IsSurrogate(r) && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, good := hexValue(s[8:12]); good {
				if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
					return pair, 12, false
				}
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		return r, 6, false
	case 'U':
		if len(s) < 10 {
			return 0, 0, false
		}
		v, good := hexValue(s[2:10])
		if !good || v > utf8.MaxRune {
			return 0, 0, false
		}
		return rune(v), 10, false
	case 'x':
		if len(s) < 4 {
			return 0, 0, false
		}
		b, good := hexByte(s[2], s[3])
		if !good {
			return 0, 0, false
		}
		return rune(b), 4, true
	}
	if i := strings.IndexByte(simpleEscapes, s[1]); i >= 0 {
		return rune(simpleValues[i]), 2, false
	}
	return 0, 0, false
}

const (
	simpleEscapes = `nrtbfv0"'\/` + "`"
	simpleValues  = "\n\r\t\b\f\v\x00\"'\\/`"
)

// entity decodes the HTML character reference at the start of s.
func entity(s string) (rune, int) {
	for _, e := range namedEntities {
		if strings.HasPrefix(s, e.name) {
			return e.r, len(e.name)
		}
	}
	if len(s) < 4 || s[1] != '#' {
		return 0, 0
	}
	end := strings.IndexByte(s[:min(len(s), 12)], ';')
	if end < 3 {
		return 0, 0
	}
	digits, base := s[2:end], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		d := hexDigit(digits[i])
		if d < 0 || d >= base {
			return 0, 0
		}
		v = v*int64(base) + int64(d)
	}
	if len(digits) == 0 || v > utf8.MaxRune {
		return 0, 0
	}
	return rune(v), end + 1
}

var namedEntities = []struct {
	name string
	r    rune
}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}}

func hexValue(s string) (int64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		d := hexDigit(s[i])
		if d < 0 {
			return 0, false
		}
		v = v<<4 | int64(d)
	}
	return v, true
}

func hexByte(a, b byte) (byte, bool) {
	x, y := hexDigit(a), hexDigit(b)
	if x < 0 || y < 0 {
		return 0, false
	}
	return byte(x<<4 | y), true
}

func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
