package importer

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// unquoteJSON decodes a JSON string literal (quotes included) in one pass.
// It reports false when raw is not a well-formed string literal; the caller
// then falls back to encoding/json. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func unquoteJSON(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	simple := true
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			simple = false
			break
		}
	}
	if simple {
		if utf8.Valid(body) {
			return string(body), true
		}
		return fixUTF8(string(body)), true
	}
	var sb strings.Builder
	sb.Grow(len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '"' || c < 0x20:
			return "", false
		case c != '\\':
			j := i + 1
			for j < len(body) && body[j] != '\\' && body[j] != '"' && body[j] >= 0x20 {
				j++
			}
			sb.Write(body[i:j])
			i = j
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		switch body[i+1] {
		case '"', '\\', '/':
			sb.WriteByte(body[i+1])
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := hex4(body[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if r2, ok := hex4(body[i+2:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							i += 6
							sb.WriteRune(d)
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			sb.WriteRune(r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	s := sb.String()
	if !utf8.ValidString(s) {
		s = fixUTF8(s)
	}
	return s, true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// stringEnd returns the index just past the JSON string literal that starts
// at s[0] == '"', or -1.
func stringEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// fixUTF8 replaces each byte of an invalid UTF-8 sequence by U+FFFD, as
// encoding/json does.
func fixUTF8(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}
