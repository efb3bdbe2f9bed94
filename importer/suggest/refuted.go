package suggest

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

var (
	// claimRE marks an assistant statement that is a guess or a diagnosis.
	claimRE = lazyre.New(`(?i)\b(i think|i suspect|i believe|probably|likely|my guess|it(?:'s| is) (?:a|an|the)|the (?:cause|problem|issue|culprit|bug) is|seems|must be|creo que|probablemente|sospecho|parece que|seguramente|el problema es)\b`)
	// denyRE marks a user turn that denies something.
	denyRE = lazyre.New(`(?i)(?:^(?:no|nope|wrong|incorrect)\b[,.!]?|\b(?:is not|isn't|was not|wasn't|are not|aren't|not a|not the|not an|that's not|it's not|no es|no esta|no son|no fue|no era)\b)`)
	// stopWords are left out when comparing a claim with a denial.
	stopWords = map[string]bool{
		"this": true, "that": true, "with": true, "from": true, "have": true, "will": true, "into": true, "then": true,
		"there": true, "their": true, "they": true, "what": true, "when": true, "which": true, "because": true, "after": true,
		"before": true, "should": true, "would": true, "could": true, "think": true, "probably": true, "likely": true,
		"suspect": true, "seems": true, "first": true, "check": true, "checking": true, "look": true, "let's": true,
		"esta": true, "este": true, "creo": true, "para": true, "pero": true, "porque": true, "como": true, "problema": true,
		"also": true, "just": true, "only": true, "every": true, "still": true, "instead": true, "again": true, "it's": true,
	}
)

// claim remembers an assistant statement that states a guess.
func (s *Scanner) claim(idx int, text string) {
	for _, sent := range SplitSentences(text) {
		if !claimRE.MatchString(sent) || ruleOutRE.MatchString(sent) {
			continue
		}
		words := contentWords(sent)
		if len(words) == 0 {
			continue
		}
		s.claims = append(s.claims, claim{idx: idx, text: sent, words: words})
		if len(s.claims) > maxClaims {
			s.claims = s.claims[1:]
		}
	}
}

func contentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(textmatch.Fold(s)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '\'')
	}) {
		if len(w) >= 4 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// refutes records a user turn that denies an earlier assistant claim (a
// denial that shares the claim's key words) and returns the denying
// sentence, or "".
func (s *Scanner) refutes(idx int, text string) string {
	if len(s.refuted) >= maxRefuted || len(s.claims) == 0 {
		return ""
	}
	for _, sent := range SplitSentences(text) {
		if !denyRE.MatchString(sent) {
			continue
		}
		denied := map[string]bool{}
		for _, w := range contentWords(sent) {
			denied[w] = true
		}
		for i := len(s.claims) - 1; i >= 0; i-- {
			c := s.claims[i]
			pattern := linkPattern(c, denied)
			if pattern == "" {
				continue
			}
			if s.seen["h:"+pattern] {
				return sent
			}
			s.seen["h:"+pattern] = true
			s.refuted = append(s.refuted, Refuted{ClaimIdx: c.idx, ByIdx: idx, Claim: c.text, By: sent, Pattern: pattern, SelfIdx: -1})
			s.claims = append(s.claims[:i], s.claims[i+1:]...)
			return sent
		}
	}
	return ""
}

// runPattern joins consecutive content words of a claim into a pattern:
// each gap admits up to 12 characters, or as many as the claim itself puts
// between the two words (the short and stop words contentWords skips, the
// quotes and punctuation around them), so that the pattern always matches
// the claim it was drawn from.
func runPattern(lower string, run []string) string {
	var b strings.Builder
	at := 0
	for k, w := range run {
		i := wordIndex(lower, w, at)
		if k > 0 {
			gap := 12
			if i >= 0 && i-at > gap {
				gap = i - at
			}
			fmt.Fprintf(&b, ".{0,%d}", gap)
		}
		b.WriteString(regexp.QuoteMeta(w))
		if i >= 0 {
			at = i + len(w)
		}
	}
	return b.String()
}

// wordIndex is the index of w in s at or after from, as a whole word; -1
// when it is not there.
func wordIndex(s, w string, from int) int {
	for from <= len(s) {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return i
		}
		from = i + 1
	}
	return -1
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '\''
}

// linkPattern returns the pattern of the claim that words (a denial's
// content words) repeat: the longest run of the claim's content words they
// hold, cut to two words since a summary paraphrases; "" when they hold
// none, or one short word only (too weak a link).
func linkPattern(c claim, words map[string]bool) string {
	bestAt, bestLen := -1, 0
	for k := 0; k < len(c.words); k++ {
		n := 0
		for k+n < len(c.words) && words[c.words[k+n]] {
			n++
		}
		if n > bestLen {
			bestAt, bestLen = k, n
		}
	}
	if bestLen == 0 || (bestLen == 1 && len(c.words[bestAt]) < 6) {
		return ""
	}
	return runPattern(strings.ToLower(textmatch.Fold(c.text)), c.words[bestAt:bestAt+min(bestLen, 2)])
}

// ruleOutRE marks an assistant sentence that rules an idea out: "the cache
// is not the cause", "that rules out DNS", "so it isn't the proxy".
var ruleOutRE = lazyre.New(`(?i)\b(?:(?:is|was|are|were)(?: not|n't)(?: the| a)? (?:cause|culprit|problem|issue|reason|source|bug|root cause)|rul(?:e|es|ed|ing) out|ruled it out|not (?:the )?(?:cause|culprit|root cause)|that'?s not it|(?:does not|doesn't|did not|didn't) explain|can(?:not|'t) be (?:the )?(?:cause|culprit|problem|issue)|(?:is|was)(?: not|n't) (?:related|responsible|involved)|so it(?:'s| is)(?: not|n't)|(?:my|the|that) (?:hypothesis|guess|theory|assumption) (?:was|is) wrong|turns out (?:it(?:'s| is|was)(?: not|n't)|not)|not caused by|no es (?:la causa|el problema)|descart(?:o|ado|amos|ada))\b`)

// selfRefutes records an assistant claim that a later assistant turn rules
// out on the evidence of a tool's output: the idea the agent itself
// refuted. The refuting event is the latest tool result after the claim.
func (s *Scanner) selfRefutes(idx int, text string) {
	if len(s.refuted) >= maxRefuted || len(s.claims) == 0 {
		return
	}
	for _, sent := range SplitSentences(text) {
		if !ruleOutRE.MatchString(sent) {
			continue
		}
		words := map[string]bool{}
		for _, w := range contentWords(sent) {
			words[w] = true
		}
		for i := len(s.claims) - 1; i >= 0; i-- {
			c := s.claims[i]
			if c.idx >= idx || s.lastResult <= c.idx {
				continue // no tool output between the claim and this turn
			}
			pattern := linkPattern(c, words)
			if pattern == "" {
				continue
			}
			s.claims = append(s.claims[:i], s.claims[i+1:]...)
			if s.seen["h:"+pattern] {
				return
			}
			s.seen["h:"+pattern] = true
			s.refuted = append(s.refuted, Refuted{ClaimIdx: c.idx, ByIdx: s.lastResult, Claim: c.text, By: sent, Pattern: pattern, SelfIdx: idx})
			return
		}
	}
}
