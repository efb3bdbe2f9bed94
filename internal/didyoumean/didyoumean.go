// Package didyoumean finds the name a user most likely meant when they
// typed one that does not exist: a subcommand, a flag, a check type, a
// config key. One helper, so that every "unknown X" message suggests by the
// same rule.
package didyoumean

import (
	"strings"
	"unicode/utf8"
)

// Distance is the optimal string alignment distance of a and b, by rune:
// the fewest insertions, deletions, substitutions and swaps of two
// neighbouring runes that turn a into b ("rnu" → "run" is 1, a swap).
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// three rows: i-2, i-1, i
	pp := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				v = min(v, pp[j-2]+1)
			}
			cur[j] = v
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(rb)]
}

// Limit is the largest distance at which a candidate is still suggested
// for a word of n runes: 0 up to 2 runes (only a difference of case), 1
// up to 4, 2 up to 8, then 3. Further than that a suggestion is more often
// wrong than right.
func Limit(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// Closest returns the candidate nearest to word (ignoring case) within
// Limit, the first of the candidates on a tie, and "" when none is near
// enough or word is one of them.
func Closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	limit := Limit(utf8.RuneCountInString(w))
	best, bestD := "", limit+1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w {
			if c == word {
				return ""
			}
			return c // only the case differs
		}
		// a cheap bound first: the length difference
		if d := utf8.RuneCountInString(lc) - utf8.RuneCountInString(w); d > limit || -d > limit {
			continue
		}
		if d := Distance(w, lc); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Suffix is " (did you mean QUOTED?)" for the candidate Closest finds, with
// quote formatting it (such as strconv.Quote, or a flag's "--" prefix), or
// "" when there is none: for the end of an "unknown X" message.
func Suffix(word string, candidates []string, quote func(string) string) string {
	c := Closest(word, candidates)
	if c == "" {
		return ""
	}
	return " (did you mean " + quote(c) + "?)"
}
