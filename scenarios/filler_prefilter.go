package scenarios

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Filler expansion tries every candidate text against every pattern of the
// scenario, and most patterns cannot match most texts: a case-insensitive
// pattern has no literal prefix, so the regexp engine walks the whole text
// for each pattern. A prefilter is derived from each pattern's syntax: a
// list of strings of which any match must contain at least one, in lower
// case. A text that contains none of them cannot match, and the regexp is
// not run; otherwise it is. The verdict is therefore always the regexp's
// own, only faster.
//
// The strings are exact only for ASCII text: the avoider uses the
// prefilter only when the text is ASCII (then so is its folded form),
// where lower-casing is byte-wise and case folding cannot reach outside
// ASCII (the Kelvin sign and the long s never occur in the text).

// prefilter is a pattern with the strings one of which each of its matches
// contains. They are derived on the pattern's first use in filler
// expansion (so a scenario with no filler pays nothing) and remembered per
// pattern. has false means no such list is known: always run the regexp.
type prefilter struct {
	re       *regexp.Regexp
	analyzed bool
	has      bool
	need     []string // lower case, ASCII, non-empty
}

func newPrefilter(re *regexp.Regexp) prefilter {
	pf := prefilter{re: re}
	pf.analyze()
	return pf
}

// analyze sets has and need from the pattern's syntax (textmatch.Need).
func (pf *prefilter) analyze() {
	pf.analyzed = true
	pf.need, pf.has = textmatch.Need(pf.re)
}

// anyMatch reports whether any of pfs matches t once folded
// (textmatch.Fold). ASCII text is first folded and lower-cased by
// foldLowerASCII for the prefilters, and only folded for the regexps when a
// prefilter lets one through.
func anyMatch(pfs []prefilter, t string) bool {
	if !pfIsASCII(t) {
		folded := textmatch.Fold(t)
		for i := range pfs {
			if pfs[i].re.MatchString(folded) {
				return true
			}
		}
		return false
	}
	lower := foldLowerASCII(t)
	folded, done := "", false
	for i := range pfs {
		pf := &pfs[i]
		if !pf.analyzed {
			pf.analyze()
		}
		if pf.has && !pfContainsAny(lower, pf.need) {
			continue
		}
		if !done {
			folded, done = textmatch.Fold(t), true
		}
		if pf.re.MatchString(folded) {
			return true
		}
	}
	return false
}

// foldLowerASCII is strings.ToLower(textmatch.Fold(s)) for ASCII s, in one
// pass: whitespace runs become one space, the ends are trimmed, upper case
// letters become lower case.
func foldLowerASCII(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\t', '\n', '\v', '\f', '\r', ' ':
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

func pfContainsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// pfIsASCII reports whether s is all ASCII bytes.
func pfIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
