// Package tokcount counts o200k_base tokens fast, for the compression check
// that runs on every summary of every run.
//
// tiktoken's count of a text is the sum of the counts of its pre-tokenizer
// pieces (the split regex of the encoding), because byte-pair merges never
// cross a piece boundary. The tokenizer library finds pieces with a
// backtracking regex engine, which costs most of the time. This package
// splits the text with a hand-written matcher equivalent to the o200k_base
// split pattern
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// and counts each piece with the library, remembering the count of each
// distinct piece (words, JSON punctuation and 1-3 digit groups repeat from
// one summary to the next). The memory is bounded: past MaxPieces distinct
// pieces it is cleared. Other encodings, and text that is not valid UTF-8,
// are counted by the library directly. Tests check the counts against the
// library on real and fuzzed text.
package tokcount

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/tokens"
)

// MaxPieces bounds the memory of piece counts per encoding.
const MaxPieces = 1 << 18

type memo struct {
	mu sync.RWMutex
	m  map[string]int
}

var memos sync.Map // encoding name -> *memo

// Count returns the number of tokens of s in c's encoding: the same number
// as c.Count(s).
func Count(c *tokens.Counter, s string) int {
	if c.Name() != "o200k_base" || !utf8.ValidString(s) {
		return c.Count(s)
	}
	mi, _ := memos.LoadOrStore(c.Name(), &memo{m: map[string]int{}})
	m := mi.(*memo)
	n := 0
	var miss []string
	m.mu.RLock()
	for i := 0; i < len(s); {
		j, skip := next(s, i)
		p := s[i:j]
		i = j
		if skip {
			continue
		}
		if k, ok := m.m[p]; ok {
			n += k
		} else {
			miss = append(miss, p)
		}
	}
	m.mu.RUnlock()
	if len(miss) == 0 {
		return n
	}
	counts := make([]int, len(miss))
	for i, p := range miss {
		counts[i] = c.Count(p)
		n += counts[i]
	}
	m.mu.Lock()
	if len(m.m)+len(miss) > MaxPieces {
		m.m = map[string]int{}
	}
	for i, p := range miss {
		m.m[p] = counts[i]
	}
	m.mu.Unlock()
	return n
}

// Pieces splits s as the o200k_base pre-tokenizer does (for tests); runes
// the pattern does not match (see next) are pieces of their own here.
func Pieces(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j, _ := next(s, i)
		out = append(out, s[i:j])
		i = j
	}
	return out
}

func at(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// character classes of the pattern.
func isUpperish(r rune) bool { // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	if r < 128 {
		return r >= 'A' && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLowerish(r rune) bool { // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	if r < 128 {
		return r >= 'a' && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

func isLetter(r rune) bool {
	if r < 128 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool {
	if r < 128 {
		return r >= '0' && r <= '9'
	}
	return unicode.In(r, unicode.N)
}

func isSpace(r rune) bool {
	if r < 128 {
		return r == ' ' || r >= '\t' && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// isPrefix: [^\r\n\p{L}\p{N}]. Like the library's compiled pattern, it
// leaves out DEL (0x7f), so a DEL is matched by no alternative and the
// library skips it without a token.
func isPrefix(r rune) bool {
	return r >= 0 && r != 0x7f && r != '\r' && r != '\n' && !isLetter(r) && !isNumber(r)
}

// isPunct: [^\s\p{L}\p{N}], DEL left out as in isPrefix.
func isPunct(r rune) bool { return r >= 0 && r != 0x7f && !isSpace(r) && !isLetter(r) && !isNumber(r) }

// next returns the end of the piece starting at i; skip is set for a rune
// no alternative matches, which the library skips without a token.
func next(s string, i int) (end int, skip bool) {
	// ASCII fast path for the two letter alternatives: an optional prefix
	// (space or punctuation) and a run of ASCII letters.
	if c := s[i]; c < utf8.RuneSelf {
		st := i
		if !isASCIILetter(c) && c != '\r' && c != '\n' && c != 0x7f && !(c >= '0' && c <= '9') && i+1 < len(s) && isASCIILetter(s[i+1]) {
			st = i + 1
		}
		if isASCIILetter(s[st]) {
			if j, ok := asciiWord(s, st); ok {
				return j, false
			}
		}
	}
	if j, ok := letters(s, i, true); ok {
		return j, false
	}
	if j, ok := letters(s, i, false); ok {
		return j, false
	}
	// \p{N}{1,3}
	if r, n := at(s, i); isNumber(r) {
		j := i + n
		for k := 1; k < 3; k++ {
			r, n := at(s, j)
			if !isNumber(r) {
				break
			}
			j += n
		}
		return j, false
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
	for _, sp := range []bool{true, false} {
		j := i
		if sp {
			if r, _ := at(s, j); r != ' ' {
				continue
			}
			j++
		}
		r, n := at(s, j)
		if !isPunct(r) {
			continue
		}
		for isPunct(r) {
			j += n
			r, n = at(s, j)
		}
		for r == '\r' || r == '\n' || r == '/' {
			j += n
			r, n = at(s, j)
		}
		return j, false
	}
	// whitespace: \s*[\r\n]+ | \s+(?!\S) | \s+
	j, lastNL := i, -1
	for {
		r, n := at(s, j)
		if !isSpace(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = j + n
		}
		j += n
	}
	if j == i {
		// a rune no alternative matches (DEL): skipped.
		_, n := at(s, i)
		return i + max(n, 1), true
	}
	if lastNL > 0 {
		return lastNL, false
	}
	if j == len(s) {
		return j, false
	}
	// \s+(?!\S): all but the last whitespace rune, if that leaves one.
	_, lastSize := utf8.DecodeLastRuneInString(s[i:j])
	if j-lastSize > i {
		return j - lastSize, false
	}
	return j, false
}

// letters tries the first (lower=true) or second (lower=false) alternative
// of the pattern at i, with the backtracking of a regex engine.
func letters(s string, i int, lower bool) (int, bool) {
	r0, n0 := at(s, i)
	starts := [2]int{i, -1}
	if isPrefix(r0) {
		starts = [2]int{i + n0, i}
	}
	for _, st := range starts {
		if st < 0 {
			continue
		}
		// the maximal upper-ish run, remembering the last rune in it that is
		// also lower-ish (Lm, Lo, M are in both classes).
		j, lastBoth, lastBothEnd := st, -1, -1
		for {
			r, n := at(s, j)
			if !isUpperish(r) {
				break
			}
			if isLowerish(r) {
				lastBoth, lastBothEnd = j, j+n
			}
			j += n
		}
		if !lower {
			if j == st {
				continue
			}
			// [\p{Ll}\p{Lm}\p{Lo}\p{M}]* after the maximal run
			for {
				r, n := at(s, j)
				if !isLowerish(r) {
					break
				}
				j += n
			}
			return contraction(s, j), true
		}
		// U* greedy, then L+: the rune after the run if it is lower-ish,
		// and then every lower-ish rune after it.
		if r, n := at(s, j); isLowerish(r) {
			q := j + n
			for {
				r, n := at(s, q)
				if !isLowerish(r) {
					break
				}
				q += n
			}
			return contraction(s, q), true
		}
		// otherwise U* gives back runes until L+ can start on one: the last
		// rune of the run that is also lower-ish; L+ stops right after it,
		// since no later rune of the run is lower-ish.
		_ = lastBoth
		if lastBothEnd > 0 {
			return contraction(s, lastBothEnd), true
		}
	}
	return 0, false
}

// contraction extends j over (?i:'s|'t|'re|'ve|'m|'ll|'d).
func contraction(s string, j int) int {
	if j >= len(s) || s[j] != '\'' {
		return j
	}
	rest := s[j+1:]
	lower := func(k int) byte {
		if k >= len(rest) {
			return 0
		}
		c := rest[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		return c
	}
	switch c := lower(0); c {
	case 's', 't', 'm', 'd':
		return j + 2
	case 'r', 'v':
		if lower(1) == 'e' {
			return j + 3
		}
	case 'l':
		if lower(1) == 'l' {
			return j + 3
		}
	}
	if len(rest) >= 2 && rest[:2] == "ſ" {
		return j + 1 + 2
	}
	return j
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// asciiWord matches [A-Z]*[a-z]+ or [A-Z]+[a-z]* at st (then a contraction)
// when the word and the byte after it are ASCII; ok is false when a
// non-ASCII rune could change the match, and the general path decides.
func asciiWord(s string, st int) (int, bool) {
	j := st
	for j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
		j++
	}
	for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
		j++
	}
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return 0, false
	}
	return contraction(s, j), true
}
