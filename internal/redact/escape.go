package redact

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// escMode is a family of escapes decodeEscapes reads. Families that read
// the same bytes differently (\62 is "b" in CSS, "2" after a NUL in C;
// =20 is a space in quoted-printable, text after an equals sign elsewhere)
// are separate decodings of the same text.
type escMode int

const (
	// escC: backslash escapes of JSON, JavaScript, Python, C and Go, URL
	// percent-encoding and HTML character references.
	escC escMode = iota
	// escCSS: CSS escapes (\73 and \000073, a space after them taken),
	// URL percent-encoding and HTML character references.
	escCSS
	// escQP: quoted-printable (=73, and =\n soft line breaks dropped).
	escQP
)

// mayBeEscaped reports whether s holds something decodeEscapes would
// decode in mode m.
func mayBeEscaped(s string, m escMode) bool {
	switch m {
	case escCSS:
		for i := strings.IndexByte(s, '\\'); i >= 0 && i+1 < len(s); {
			if hexDigit(s[i+1]) >= 0 {
				return true
			}
			j := strings.IndexByte(s[i+1:], '\\')
			if j < 0 {
				return false
			}
			i += 1 + j
		}
		return false
	case escQP:
		for i := strings.IndexByte(s, '='); i >= 0 && i+1 < len(s); {
			if s[i+1] == '\n' || s[i+1] == '\r' || i+2 < len(s) && hexDigit(s[i+1]) >= 0 && hexDigit(s[i+2]) >= 0 {
				return true
			}
			j := strings.IndexByte(s[i+1:], '=')
			if j < 0 {
				return false
			}
			i += 1 + j
		}
		return false
	}
	for i := 0; i+1 < len(s); i++ {
		switch s[i] {
		case '\\':
			if c := s[i+1]; strings.IndexByte(simpleEscapes, c) >= 0 || strings.IndexByte("uUxX01234567", c) >= 0 {
				return true
			}
		case '%':
			if i+2 < len(s) && hexDigit(s[i+1]) >= 0 && hexDigit(s[i+2]) >= 0 {
				return true
			}
		case '&':
			if r, n := entity(s[i:]); n > 0 && r >= 0 {
				return true
			}
		}
	}
	return false
}

// decodeEscapes reads s as text that may spell characters as escapes of
// mode m and returns the characters it means, each with the bytes of s
// that spell it. In mode escC: backslash escapes of JSON, JavaScript,
// Python, C and Go (\u0073, \uD83D\uDE00, \u{73}, \U00000073, \x73, \163,
// \n, \", \\, …; \U and \X with the digits of \u and \x, as an upper-cased
// text writes them), URL percent-encoding (%73, and UTF-8 bytes %C3%B1),
// and HTML character references (&#115; &#x73; with or without the
// semicolon, &amp; &lt; &gt; &quot; &apos;). Mode escCSS reads CSS escapes
// instead of backslash ones; mode escQP reads quoted-printable only. Bytes
// given by \x, octal, % and = escapes are joined into UTF-8 characters.
// Anything else stands for itself. ok is false when s holds no escape.
func decodeEscapes(s string, m escMode) (runes []rune, src []span, ok bool) {
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
		if m == escQP {
			if c == '=' && i+1 < len(s) {
				if b, good := byte(0), false; i+2 < len(s) {
					if b, good = hexByte(s[i+1], s[i+2]); good {
						ok = true
						pend = append(pend, b)
						pendSrc = append(pendSrc, span{int32(i), int32(i + 3)})
						i += 3
						continue
					}
				}
				if n := softBreak(s[i+1:]); n > 0 {
					ok = true
					i += 1 + n
					continue
				}
			}
			r, w := utf8.DecodeRuneInString(s[i:])
			put(r, span{int32(i), int32(i + w)})
			i += w
			continue
		}
		if c == '\\' && i+1 < len(s) {
			var r rune
			var n int
			var isByte bool
			if m == escCSS {
				r, n = cssEscape(s[i:])
			} else {
				r, n, isByte = backslash(s[i:])
			}
			if n > 0 {
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

// softBreak returns the length of the line break at the start of s (a
// quoted-printable soft break once its '=' is read), 0 when there is none.
func softBreak(s string) int {
	switch {
	case strings.HasPrefix(s, "\r\n"):
		return 2
	case strings.HasPrefix(s, "\n"):
		return 1
	}
	return 0
}

// cssEscape decodes the CSS escape at the start of s (s[0] is '\\'): one
// to six hex digits and one whitespace character after them, or any other
// character standing for itself.
func cssEscape(s string) (rune, int) {
	n := 1
	var v int64
	for n < len(s) && n < 7 && hexDigit(s[n]) >= 0 {
		v = v<<4 | int64(hexDigit(s[n]))
		n++
	}
	if n == 1 {
		if s[1] == '\n' || s[1] == '\r' {
			return 0, 0
		}
		r, w := utf8.DecodeRuneInString(s[1:])
		return r, 1 + w
	}
	if n < len(s) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n') {
		n++
	}
	if v > utf8.MaxRune {
		v = utf8.RuneError
	}
	return rune(v), n
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
		if len(s) >= 10 {
			if v, good := hexValue(s[2:10]); good && v <= utf8.MaxRune {
				return rune(v), 10, false
			}
		}
		if len(s) >= 6 {
			// \u0073 upper-cased.
			if v, good := hexValue(s[2:6]); good {
				return rune(v), 6, false
			}
		}
		return 0, 0, false
	case 'x', 'X':
		if len(s) < 4 {
			return 0, 0, false
		}
		b, good := hexByte(s[2], s[3])
		if !good {
			return 0, 0, false
		}
		return rune(b), 4, true
	}
	if '0' <= s[1] && s[1] <= '7' {
		// Octal: \163, up to three digits.
		n, v := 1, 0
		for n < len(s) && n < 4 && '0' <= s[n] && s[n] <= '7' {
			v = v<<3 | int(s[n]-'0')
			n++
		}
		if v > 0xff {
			return rune(v), n, false
		}
		return rune(v), n, true
	}
	if i := strings.IndexByte(simpleEscapes, s[1]); i >= 0 {
		return rune(simpleValues[i]), 2, false
	}
	return 0, 0, false
}

const (
	simpleEscapes = `nrtbfv"'\/` + "`"
	simpleValues  = "\n\r\t\b\f\v\"'\\/`"
)

// entity decodes the HTML character reference at the start of s.
func entity(s string) (rune, int) {
	for _, e := range namedEntities {
		if strings.HasPrefix(s, e.name) {
			return e.r, len(e.name)
		}
	}
	if len(s) < 3 || s[1] != '#' {
		return 0, 0
	}
	i, base := 2, 10
	if s[i] == 'x' || s[i] == 'X' {
		i, base = 3, 16
	}
	start := i
	var v int64
	for i < len(s) && i-start < 8 {
		d := hexDigit(s[i])
		if d < 0 || d >= base {
			break
		}
		v = v*int64(base) + int64(d)
		i++
	}
	if i == start || v > utf8.MaxRune {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	return rune(v), i
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
