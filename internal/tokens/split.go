package tokens

import (
	"unicode"
	"unicode/utf8"
)

// splitO200k calls yield with each pre-token of s, exactly as the o200k_base
// split pattern of tiktoken cuts it:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// with the backtracking semantics of a regexp engine (leftmost alternative
// first, greedy quantifiers giving back one character at a time). s must be
// valid UTF-8. A test compares it with the regexp on many texts.
func splitO200k(s string, yield func(piece string)) {
	for i := 0; i < len(s); {
		n := matchO200k(s, i)
		if n <= 0 {
			// No alternative matches (only U+007F, see isPrefix): the
			// codec skips the character, so it counts no token.
			_, n = utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		yield(s[i : i+n])
		i += n
	}
}

// The class tests answer ASCII from a table: almost every rune of a
// transcript is ASCII, and unicode.In dominated the cost.
const (
	asciiUpper = 1 << iota
	asciiLower
	asciiDigit
	asciiSpace
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		switch {
		case 'A' <= r && r <= 'Z':
			t[r] = asciiUpper
		case 'a' <= r && r <= 'z':
			t[r] = asciiLower
		case '0' <= r && r <= '9':
			t[r] = asciiDigit
		case unicode.IsSpace(r):
			t[r] = asciiSpace
		}
	}
	return t
}()

func isUpperClass(r rune) bool { // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	if r >= 0 && r < utf8.RuneSelf {
		return asciiClass[r] == asciiUpper
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLowerClass(r rune) bool { // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	if r >= 0 && r < utf8.RuneSelf {
		return asciiClass[r] == asciiLower
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

func isLetter(r rune) bool { // \p{L}
	if r >= 0 && r < utf8.RuneSelf {
		return asciiClass[r]&(asciiUpper|asciiLower) != 0
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool { // \p{N}
	if r >= 0 && r < utf8.RuneSelf {
		return asciiClass[r] == asciiDigit
	}
	return unicode.Is(unicode.N, r)
}

func isSpace(r rune) bool { // \s
	if r >= 0 && r < utf8.RuneSelf {
		return asciiClass[r] == asciiSpace
	}
	return unicode.IsSpace(r)
}

// isPrefix is [^\r\n\p{L}\p{N}] and isPunct [^\s\p{L}\p{N}], as the codec's
// compiled pattern has them: neither holds U+007F (DEL), which therefore
// matches no alternative at all and is skipped (a test pins this down).
func isPrefix(r rune) bool {
	return r != '\r' && r != '\n' && r != 0x7f && !isLetter(r) && !isNumber(r)
}

func isPunct(r rune) bool { return r != 0x7f && !isSpace(r) && !isLetter(r) && !isNumber(r) }

func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// contraction returns the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or 0.
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return 0
	}
	lower := func(j int) byte {
		if j >= len(s) {
			return 0
		}
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return c
	}
	switch a := lower(i + 1); a {
	case 's', 't', 'm', 'd':
		return 2
	case 'r':
		if lower(i+2) == 'e' {
			return 3
		}
	case 'v':
		if lower(i+2) == 'e' {
			return 3
		}
	case 'l':
		if lower(i+2) == 'l' {
			return 3
		}
	}
	return 0
}

// matchO200k returns the length of the pre-token starting at i.
func matchO200k(s string, i int) int {
	if n := asciiWord(s, i); n > 0 {
		return n
	}
	r, w := runeAt(s, i)
	// Alternatives 1 and 2: an optional prefix, then letters. Both need a
	// letter or mark at i or i+w; neither an ASCII byte other than a letter
	// is one, so when s[i] and the byte after it are such bytes (JSON's
	// punctuation, digits, spaces) they cannot match.
	if !asciiNonLetter(s, i) || !asciiNonLetter(s, i+1) {
		starts := make([]int, 0, 2)
		if isPrefix(r) {
			starts = append(starts, i+w)
		}
		starts = append(starts, i)
		for _, j := range starts { // alternative 1
			if n := alt1(s, j); n >= 0 {
				return n - i
			}
		}
		for _, j := range starts { // alternative 2
			if n := alt2(s, j); n >= 0 {
				return n - i
			}
		}
	}
	// Alternative 3: one to three numbers.
	if isNumber(r) {
		j := i
		for k := 0; k < 3; k++ {
			c, cw := runeAt(s, j)
			if cw == 0 || !isNumber(c) {
				break
			}
			j += cw
		}
		return j - i
	}
	// Alternative 4: an optional space, punctuation, then \r \n or /.
	{
		j := i
		if r == ' ' {
			j++
		}
		k := j
		for {
			c, cw := runeAt(s, k)
			if cw == 0 || !isPunct(c) {
				break
			}
			k += cw
		}
		if k > j {
			for k < len(s) && (s[k] == '\r' || s[k] == '\n' || s[k] == '/') {
				k++
			}
			return k - i
		}
	}
	// Whitespace: the run [i, end).
	end := i
	firstNL := -1
	for {
		c, cw := runeAt(s, end)
		if cw == 0 || !isSpace(c) {
			break
		}
		if firstNL < 0 && (c == '\r' || c == '\n') {
			firstNL = end
		}
		end += cw
	}
	if end == i {
		return 0 // no alternative matches (U+007F)
	}
	// Alternative 5: \s*[\r\n]+. The codec's compiled pattern takes the
	// whitespace up to the first \r or \n, then every \r and \n that
	// follow (as a lazy \s* would; the test pins this down).
	if firstNL >= 0 {
		k := firstNL
		for k < len(s) && (s[k] == '\r' || s[k] == '\n') {
			k++
		}
		return k - i
	}
	// Alternative 6: \s+(?!\S): the whole run at the end of the text, else
	// all but its last character.
	if end == len(s) {
		return end - i
	}
	_, lw := utf8.DecodeLastRuneInString(s[:end])
	if end-lw > i {
		return end - lw - i
	}
	// Alternative 7: \s+.
	return end - i
}

// asciiNonLetter reports whether s[i] is an ASCII byte other than a letter,
// or i is the end of s.
func asciiNonLetter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	c := s[i]
	return c < utf8.RuneSelf && asciiClass[c]&(asciiUpper|asciiLower) == 0
}

// asciiWord is alternatives 1 and 2 for the commonest pre-token, an ASCII
// word with an optional ASCII prefix (" the", "\"Goal", " API"): the
// length matched, or 0 when the text there is not that plain (no letter,
// or a non-ASCII byte where the classes would need unicode) and the
// general code must decide.
//
// In ASCII the classes are [A-Z] (upper) and [a-z] (lower), disjoint, so
// with U the [A-Z] run and L the [a-z] run after it: alternative 1 matches
// prefix+U+L when L is not empty (from the prefix on, as it is tried
// first; from the letter itself it would match the same run without it,
// and a prefix is never a letter); otherwise alternative 1 fails from both
// starts, and alternative 2 matches prefix+U when U is not empty. A
// contraction may follow either.
func asciiWord(s string, i int) int {
	j := i
	if c := s[i]; c >= utf8.RuneSelf {
		return 0
	} else if asciiClass[c]&(asciiUpper|asciiLower) == 0 {
		if !isPrefix(rune(c)) || i+1 >= len(s) {
			return 0
		}
		j++
	}
	k := j
	for k < len(s) && asciiClass[s[k]&0x7f] == asciiUpper && s[k] < utf8.RuneSelf {
		k++
	}
	u := k
	for k < len(s) && asciiClass[s[k]&0x7f] == asciiLower && s[k] < utf8.RuneSelf {
		k++
	}
	if k == j || k < len(s) && s[k] >= utf8.RuneSelf {
		return 0 // no letter, or a letter class unicode must decide
	}
	if k == u && u < len(s) && s[u] >= utf8.RuneSelf {
		return 0
	}
	return k + contraction(s, k) - i
}

// alt1 matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ and an
// optional contraction at j, returning the end or -1.
func alt1(s string, j int) int {
	// The maximal upper-class run, remembering where each rune starts so
	// the star can give back one rune at a time.
	var ends []int
	k := j
	ends = append(ends, k)
	for {
		c, cw := runeAt(s, k)
		if cw == 0 || !isUpperClass(c) {
			break
		}
		k += cw
		ends = append(ends, k)
	}
	for x := len(ends) - 1; x >= 0; x-- {
		e := ends[x]
		c, cw := runeAt(s, e)
		if cw == 0 || !isLowerClass(c) {
			continue
		}
		e += cw
		for {
			c, cw := runeAt(s, e)
			if cw == 0 || !isLowerClass(c) {
				break
			}
			e += cw
		}
		return e + contraction(s, e)
	}
	return -1
}

// alt2 matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]* and an
// optional contraction at j, returning the end or -1.
func alt2(s string, j int) int {
	e := j
	for {
		c, cw := runeAt(s, e)
		if cw == 0 || !isUpperClass(c) {
			break
		}
		e += cw
	}
	if e == j {
		return -1
	}
	for {
		c, cw := runeAt(s, e)
		if cw == 0 || !isLowerClass(c) {
			break
		}
		e += cw
	}
	return e + contraction(s, e)
}
