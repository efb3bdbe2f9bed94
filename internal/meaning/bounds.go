package meaning

import "sync"

// A bound turned over: a figure a pattern reads as a bound of one side
// ("(max|up to|ceiling).{0,40}\b24\b": at most 24) matched in words of the
// other side ("can grow to at least 24 replicas", "como mínimo hasta 24").
// The match is the pattern's, its meaning the opposite: a ceiling read as
// a floor. Only the sides of words.tsv's comparison rows count (upper: at
// most, up to, max, hasta; lower: at least, min, como mínimo), and only
// when the pattern's words name one side and none of the other.

// boundSides returns the sides ("upper", "lower") that a comparison row of
// words.tsv names with words all among the patterns' own.
func boundSides(own map[string]bool) map[string]bool {
	sides := map[string]bool{}
	for _, p := range comparisonPhrases() {
		if p.sense != "upper" && p.sense != "lower" || sides[p.sense] {
			continue
		}
		all := true
		for _, w := range p.words {
			all = all && own[w]
		}
		if all {
			sides[p.sense] = true
		}
	}
	return sides
}

// boundTurned reports, for the matches ms of clause ci, a comparison of
// the side the subject's patterns do not name inside a match or right
// before it, in words that are not the patterns' own.
func (t *Text) boundTurned(ci int, ms []Mention, s *Subject) (string, bool) {
	if len(s.bounds) != 1 {
		return "", false
	}
	for _, h := range t.hitsOf(ci, Comparison) {
		if h.Sense != "upper" && h.Sense != "lower" || s.bounds[h.Sense] {
			continue
		}
		for _, m := range ms {
			// inside the match, or right before it ("como mínimo hasta 24")
			if (h.T0 >= m.T0 || h.T1 == m.T0) && h.T1 <= m.T1 && !t.ownWords(h, s) {
				side := "an upper bound"
				if s.bounds["lower"] {
					side = "a lower bound"
				}
				return "the bound turned over: " + quote(t.words(h.T0, h.T1)) + " where it reads " + side, true
			}
		}
	}
	return "", false
}

// ownWords reports whether every word of hit h is a literal word of s's
// patterns.
func (t *Text) ownWords(h Hit, s *Subject) bool {
	for k := h.T0; k < h.T1; k++ {
		if !s.lits[t.toks[k].W] {
			return false
		}
	}
	return true
}

// comparisonPhrases are the phrases of words.tsv's comparison rows.
var comparisonPhrases = sync.OnceValue(func() []phrase {
	var out []phrase
	for _, ps := range lex().byFirst {
		for _, p := range ps {
			if p.class == Comparison {
				out = append(out, p)
			}
		}
	}
	return out
})
