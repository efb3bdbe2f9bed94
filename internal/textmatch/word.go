package textmatch

import "strings"

// ContainsWord reports whether w occurs in s as a whole word: with no
// ASCII letter, digit, '_' or non-ASCII byte right before or after it.
// Both are expected folded and lower-cased (an upper-case ASCII letter
// next to w does not end it).
func ContainsWord(s, w string) bool {
	for off := 0; w != "" && off <= len(s); {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		a, b := off+i, off+i+len(w)
		if (a == 0 || !wordByte(s[a-1])) && (b == len(s) || !wordByte(s[b])) {
			return true
		}
		off = a + 1
	}
	return false
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}
