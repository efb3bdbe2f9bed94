package meaning

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token is a word, a value or a mark of a text.
type Token struct {
	// A and B are the token's byte offsets in the text.
	A, B int
	// W is the token lower-cased (a typographic apostrophe as ').
	W string
	// Word is set for a run of letters and digits (with the joiners of
	// joiner inside it: read-only, prod-eu-1, config/db.yaml, 18:00).
	Word bool
	// Value is set for a word that holds a digit or a joiner other than an
	// apostrophe or a hyphen between letters: a path, an id, a number.
	Value bool
}

// joiner reports whether r joins the characters on its sides into one
// token when both are letters or digits.
func joiner(r rune) bool {
	switch r {
	case '-', '_', '.', '/', ':', '@', '\'', '’', '+', '#', '=', '*', '~':
		return true
	}
	return false
}

func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// asciiWord is wordRune of each ASCII character, looked up rather than
// asked of the unicode tables at every byte.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return t
}()

// runeAt decodes the character at s[i], an ASCII byte without the decoder.
func runeAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// tokenize cuts s into tokens: words (letters and digits, held together
// by joiners between two of them) and single marks; spaces are dropped,
// a newline is kept as the mark "\n".
func tokenize(s string) []Token {
	out := make([]Token, 0, len(s)/5+1)
	for i := 0; i < len(s); {
		r, n := runeAt(s, i)
		switch {
		case r == '\n':
			out = append(out, Token{A: i, B: i + 1, W: "\n"})
			i += n
		case unicode.IsSpace(r):
			i += n
		case wordRune(r):
			j := wordEnd(s, i)
			out = append(out, wordToken(s, i, j))
			i = j
		default:
			out = append(out, Token{A: i, B: i + n, W: s[i : i+n]})
			i += n
		}
	}
	return out
}

// WordSeq yields each word of s, in order, as tokenize's word tokens hold
// it (Token.W), without building the tokens: a caller that only looks for
// a text's words skips the rest of New.
func WordSeq(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 0; i < len(s); {
			r, n := runeAt(s, i)
			if !wordRune(r) {
				i += n
				continue
			}
			j := wordEnd(s, i)
			if !yield(lowerWord(s[i:j])) {
				return
			}
			i = j
		}
	}
}

// wordEnd is the end of the word that starts at i: letters and digits,
// and runs of joiners with a letter or digit on both sides (config/*.yaml).
func wordEnd(s string, i int) int {
	j := i
	for j < len(s) {
		r, n := runeAt(s, j)
		if wordRune(r) {
			j += n
			continue
		}
		k := j
		for k < len(s) {
			r, n := runeAt(s, k)
			if !joiner(r) {
				break
			}
			k += n
		}
		if k == j || k >= len(s) {
			break
		}
		if next, _ := utf8.DecodeRuneInString(s[k:]); !wordRune(next) {
			break
		}
		j = k
	}
	return j
}

func wordToken(s string, a, b int) Token {
	w := lowerWord(s[a:b])
	return Token{A: a, B: b, W: w, Word: true, Value: isValue(w)}
}

// lowerWord is a word as a token holds it: lower-cased, a typographic
// apostrophe as '.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return lowerWordSlow(w)
		}
	}
	return w // lower-case ASCII: as it is
}

func lowerWordSlow(w string) string {
	w = strings.ToLower(w)
	if strings.ContainsRune(w, '’') {
		w = strings.ReplaceAll(w, "’", "'")
	}
	return w
}

// isValue reports whether a word is a value rather than a word of prose:
// it holds a digit, or a joiner that prose words do not (/ . _ : @ # + =).
func isValue(w string) bool {
	for _, r := range w {
		if unicode.IsDigit(r) {
			return true
		}
		switch r {
		case '/', '.', '_', ':', '@', '#', '+', '=', '*':
			return true
		}
	}
	return false
}
