package meaning

import (
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

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// tokenize cuts s into tokens: words (letters and digits, held together
// by joiners between two of them) and single marks; spaces are dropped,
// a newline is kept as the mark "\n".
func tokenize(s string) []Token {
	out := make([]Token, 0, len(s)/5+1)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
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

// EachWord calls f with each word of s, in order, as tokenize's word
// tokens hold it (Token.W), without building the tokens: a caller that
// only needs a text's words (an index of them) skips the rest of New.
func EachWord(s string, f func(w string)) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !wordRune(r) {
			i += n
			continue
		}
		j := wordEnd(s, i)
		f(lowerWord(s[i:j]))
		i = j
	}
}

// wordEnd is the end of the word that starts at i: letters and digits,
// and runs of joiners with a letter or digit on both sides (config/*.yaml).
func wordEnd(s string, i int) int {
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if wordRune(r) {
			j += n
			continue
		}
		k := j
		for k < len(s) {
			r, n := utf8.DecodeRuneInString(s[k:])
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
