package suggest

import (
	"regexp"
	"strings"
	"unicode"
)

// gapRE is a separator this package writes between the words of a
// pattern: a space, \W+, or a bounded gap .{0,N}.
// syntaxRE finds an unescaped class, group or alternation.
var syntaxRE = regexp.MustCompile(`(?:^|[^\\])[\[(|]`)

var gapRE = regexp.MustCompile(`\\W\+|\.\{0,\d+\}| `)

// RepairPatterns returns the patterns to try, in order, when no summary can
// pass pattern (a pattern this package made: words joined by spaces, \W+ or
// .{0,N}). Each keeps the pattern's words: joined by \W+ (any quoting or
// punctuation between them), cut before the first word that holds a digit
// (a quantity a faithful summary respells: "30 seconds" as "30 s"), and
// with wide gaps (words a summary puts between them). None equals pattern.
func RepairPatterns(pattern string) []string {
	if syntaxRE.MatchString(pattern) {
		return nil // a fixed pattern (read[- ]?only), not words
	}
	words := gapRE.Split(pattern, -1)
	if len(words) < 2 {
		return nil
	}
	var out []string
	add := func(p string) {
		if p != pattern && p != "" {
			for _, q := range out {
				if q == p {
					return
				}
			}
			out = append(out, p)
		}
	}
	add(strings.Join(words, `\W+`))
	for i, w := range words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			if i >= 2 {
				add(strings.Join(words[:i], `\W+`))
			}
			break
		}
	}
	add(strings.Join(words, `.{0,60}`))
	return out
}
