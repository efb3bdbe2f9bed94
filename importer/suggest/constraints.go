package suggest

import (
	"regexp"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

var (
	// fenceRE matches a fenced block.
	fenceRE = lazyre.New("(?s)```.*?```")
	// readOnlyRE finds a read-only rule in folded lower-case text.
	readOnlyRE = lazyre.New(`\bread[- ]?only\b|\bsolo lectura\b`)
	// leadRE is a clause that opens with an imperative marker.
	leadRE = lazyre.New(`^(?:(?:please|and|also|then|but|y|pero|ademas|por favor),? )?(do not|don't|dont|never|always|only|make sure|ensure|nunca|jamas|siempre|solo|solamente|unicamente|no)\b`)
	// strongLeadRE is a marker that opens a rule even after "and".
	strongLeadRE = lazyre.New(`^(?:do not|don't|dont|never|always|nunca|jamas|siempre)\b`)
	// onlyRE is "only" restricting an instruction: "use the key only for
	// staging".
	onlyRE = lazyre.New(`\b(only|solo|solamente|unicamente)\s+(for|in|on|from|under|with|to|within|inside|para|en|con|desde|dentro)\b`)
	// modalRE is a modal that makes a clause a rule wherever it stands.
	modalRE = lazyre.New(`\b(must not|mustn't|must|shall not|shall|should never|is not allowed|are not allowed|is forbidden|are forbidden|is off limits|are off limits|is off-limits|are off-limits|no debe|no debes|debe|debes|esta prohibido|tiene que|hay que)\b`)
	// notVerb are words after "only" or a Spanish "no" that show a
	// description, not an instruction ("only has", "no esta").
	notVerb = map[string]bool{
		"the": true, "a": true, "an": true, "this": true, "these": true, "that": true, "those": true, "one": true,
		"has": true, "have": true, "is": true, "are": true, "was": true, "were": true, "had": true, "if": true,
		"when": true, "for": true, "in": true, "on": true, "at": true, "to": true, "after": true, "some": true,
		"esta": true, "estan": true, "es": true, "son": true, "era": true, "hay": true, "tiene": true, "el": true,
		"la": true, "los": true, "las": true, "un": true, "una": true, "lo": true, "se": true, "me": true, "funciona": true,
	}
	// stopTail are words a pattern does not end with.
	stopTail = map[string]bool{
		"the": true, "a": true, "an": true, "to": true, "of": true, "in": true, "on": true, "at": true, "for": true,
		"and": true, "or": true, "with": true, "after": true, "before": true, "under": true, "over": true, "than": true,
		"el": true, "la": true, "los": true, "las": true, "de": true, "del": true, "en": true, "y": true, "o": true,
		"un": true, "una": true, "que": true, "ni": true, "nor": true, "con": true, "por": true, "para": true, "this": true, "that": true,
		"these": true, "those": true, "este": true, "esta": true, "es": true, "is": true, "are": true,
	}
)

// pastParticiples are irregular participles after "must have" that make it
// a guess about the past.
var pastParticiples = map[string]bool{"been": true, "left": true, "done": true, "gone": true, "lost": true, "forgot": true,
	"forgotten": true, "put": true, "set": true, "run": true, "made": true, "sent": true, "got": true, "gotten": true, "read": true}

// epistemic reports "must have" before a participle: a guess about what
// happened ("it must have been the cache", "I must have left it"), not an
// obligation ("the service must have two replicas").
func epistemic(modal, after []string) bool {
	if len(modal) != 1 || modal[0] != "must" || len(after) < 2 || after[0] != "have" {
		return false
	}
	w := trimWord(after[1])
	return pastParticiples[w] || strings.HasSuffix(w, "ed") && len(w) > 4
}

// listMarkerRE is a list item's marker at the start of a line: "- ",
// "* ", "• ", "1. ", "2) ".
var listMarkerRE = lazyre.New(`^(?:[-*•+]|\d{1,2}[.)])\s+`)

// rules finds imperative rules in user and system text, in either polarity
// ("never X", "always Y", "X must remain Z", "only use W", Spanish too).
func (s *Scanner) rules(idx int, text string, user bool) {
	if strings.Contains(text, "```") {
		// a fenced block is pasted material (a configuration, a log, code):
		// its "should not" and "never" are not the user's rules
		text = fenceRE.ReplaceAllString(text, "\n")
	}
	for _, sent := range SplitSentences(text) {
		if strings.HasSuffix(sent, "?") || looksLikeOutput(sent) {
			continue
		}
		// a list item's marker is not the rule's first word: "- Never
		// push to main." in a project file is "Never push to main."
		sent = listMarkerRE.ReplaceAllString(sent, "")
		folded := strings.ToLower(textmatch.Fold(sent))
		for _, clause := range splitClauses(folded) {
			pattern := rulePattern(clause)
			if pattern == "" || s.seen["c:"+pattern] {
				continue
			}
			s.seen["c:"+pattern] = true
			s.addConstraint(Constraint{Idx: idx, Sentence: sent, Pattern: pattern}, user)
		}
	}
}

// addConstraint keeps c unless the cap is reached. A rule from a user turn
// (or a task's scope) that meets the cap takes the place of the last rule
// from a system turn, which is pushed out instead: the user's rules are
// the ones a summary must keep.
func (s *Scanner) addConstraint(c Constraint, user bool) {
	if len(s.constraints) < maxConstraints {
		s.constraints = append(s.constraints, c)
		s.userRule = append(s.userRule, user)
		return
	}
	if user {
		for i := len(s.constraints) - 1; i >= 0; i-- {
			if !s.userRule[i] {
				s.pushOut("constraint", s.constraints[i].Pattern)
				s.constraints = append(s.constraints[:i], s.constraints[i+1:]...)
				s.userRule = append(s.userRule[:i], s.userRule[i+1:]...)
				s.constraints = append(s.constraints, c)
				s.userRule = append(s.userRule, true)
				return
			}
		}
	}
	s.pushOut("constraint", c.Pattern)
}

// looksLikeOutput reports a sentence that is a program's output pasted or
// echoed, not an instruction.
func looksLikeOutput(sent string) bool {
	l := strings.ToLower(sent)
	for _, m := range []string{"no such file", "command not found", "permission denied", "not found:", "traceback (most recent", "exit code", "exit status"} {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// splitClauses splits folded text at ";" and ":" (not inside backticks),
// and at ", " before a new imperative.
func splitClauses(s string) []string {
	var out []string
	start, tick := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			tick = !tick
		case !tick && (c == ';' || c == ':' && (i+1 == len(s) || s[i+1] == ' ')):
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		case !tick && c == ',' && i+1 < len(s) && leadRE.MatchString(strings.TrimSpace(s[i+1:])):
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		case !tick && c == ' ':
			// "rename a to b and never touch vendor/": a rule after a
			// conjunction starts a clause of its own.
			for _, conj := range []string{" and ", " but ", " y ", " pero ", " or "} {
				if strings.HasPrefix(s[i:], conj) && strongLeadRE.MatchString(s[i+len(conj):]) {
					out = append(out, strings.TrimSpace(s[start:i]))
					start = i + len(conj)
					i += len(conj) - 1
					break
				}
			}
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	return out
}

// rulePattern returns the pattern of the rule a folded clause states, or "".
func rulePattern(clause string) string {
	if readOnlyRE.MatchString(clause) {
		if strings.Contains(readOnlyRE.FindString(clause), "lectura") {
			return `solo lectura`
		}
		return `read[- ]?only`
	}
	if m := leadRE.FindStringSubmatchIndex(clause); m != nil {
		marker := clause[m[2]:m[3]]
		rest := strings.Fields(clause[m[3]:])
		if len(rest) == 0 || strings.HasPrefix(clause[m[3]:], ",") {
			return "" // a bare "no", "never", or "No, …" as an answer
		}
		if (marker == "only" || marker == "solo" || marker == "no") && notVerb[trimWord(rest[0])] {
			return "" // "only the tests fail", "no esta lleno": a description
		}
		if marker == "no" && len(rest) < 2 {
			return ""
		}
		return phrase(append(strings.Fields(marker), rest...), len(strings.Fields(marker))+4)
	}
	if loc := onlyRE.FindStringIndex(clause); loc != nil && directive(clause) {
		return phrase(strings.Fields(clause[loc[0]:]), 4)
	}
	if loc := modalRE.FindStringIndex(clause); loc != nil {
		if quantityRE.MatchString(clause) {
			return "" // "must time out after 30 s": the quantity says it better
		}
		before := strings.Fields(clause[:loc[0]])
		if len(before) > 2 {
			before = before[len(before)-2:]
		}
		for len(before) > 0 && stopTail[trimWord(before[0])] {
			before = before[1:] // "the write endpoints" -> "write endpoints"
		}
		modal := strings.Fields(clause[loc[0]:loc[1]])
		after := strings.Fields(clause[loc[1]:])
		if epistemic(modal, after) {
			return "" // "I must have left it somewhere": a guess, no rule
		}
		if len(before) == 0 && len(after) == 0 {
			return ""
		}
		all := append(append(before, modal...), after...)
		return phrase(all, len(before)+len(modal)+3)
	}
	if quantityRE.MatchString(clause) {
		return ""
	}
	if p := obligationPattern(clause); p != "" {
		return p
	}
	if p := refusalPattern(clause); p != "" {
		return p
	}
	return processPattern(clause)
}

// clauseOpeners start a clause of their own after a comma: what follows
// them is no part of the rule's phrase before the comma.
var clauseOpeners = map[string]bool{"not": true, "but": true, "unless": true, "except": true, "even": true, "and": true, "or": true,
	"so": true, "which": true, "while": true, "pero": true, "sino": true, "aunque": true, "salvo": true, "ni": true, "y": true, "o": true}

// Characters that open or close a word without being part of it: quotes,
// backticks, brackets and sentence punctuation.
const (
	openPunct  = "`\"'“‘([{*"
	closePunct = "`\"'”’)]}*,;:!?."
)

func trimWord(w string) string { return strings.Trim(w, openPunct+closePunct) }

// phrase turns up to n words of a folded clause (consecutive, split at
// single spaces) into a pattern, dropping trailing stop words. Each word
// keeps its inner punctuation (db.yaml, run("x"), don't) and loses the
// quotes, backticks, brackets and punctuation around it; two words the
// clause joins with a bare space are joined with a space, two it joins with
// anything more (`TodoWrite, TaskCreate`, "set `key`") with \W+, so the
// pattern matches its own source and a summary that quotes or punctuates
// the words otherwise.
func phrase(words []string, n int) string {
	if len(words) > n {
		words = words[:n]
	}
	type word struct{ lead, core, tail string }
	var ws []word
	for i, w := range words {
		core := strings.TrimLeft(w, openPunct)
		lead := w[:len(w)-len(core)]
		trimmed := strings.TrimRight(core, closePunct)
		ws = append(ws, word{lead, trimmed, core[len(trimmed):]})
		// a comma before a word that opens another clause ends the rule:
		// "never disable signature verification, not even in tests"
		if strings.ContainsAny(core[len(trimmed):], ",;") && i+1 < len(words) && clauseOpeners[strings.ToLower(trimWord(words[i+1]))] {
			break
		}
	}
	for len(ws) > 1 && (stopTail[ws[len(ws)-1].core] || ws[len(ws)-1].core == "") {
		ws = ws[:len(ws)-1]
	}
	var b strings.Builder
	cores, plain := 0, true
	for _, w := range ws {
		if w.core == "" {
			plain = false // a dash or a lone quote between words
			continue
		}
		if cores > 0 {
			if plain && w.lead == "" {
				b.WriteString(" ")
			} else {
				b.WriteString(`\W+`)
			}
		}
		b.WriteString(regexp.QuoteMeta(w.core))
		cores++
		plain = w.tail == ""
	}
	if cores < 2 {
		return ""
	}
	return b.String()
}

// SplitSentences splits text at sentence ends (". ", "! ", "? ", "; ") and
// line breaks; a dot inside a word (a file name, a version) does not end a
// sentence.
func SplitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'))
		if !end {
			continue
		}
		if t := strings.TrimSpace(text[start : i+1]); len(t) > 1 {
			out = append(out, t)
		}
		start = i + 1
	}
	if t := strings.TrimSpace(text[start:]); len(t) > 1 {
		out = append(out, t)
	}
	return out
}
