package suggest

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// A requirement stated with "should", "needs to", "has to", "is required
// to" or "ought to" ("The list should persist in localStorage", "the
// export needs to keep the header row") is a rule when it is about what
// the task makes: the words after the modal say what the thing must be or
// do. The same modal also states an expectation about an outcome, which is
// no rule: a verdict on a change ("this should work", "that should fix
// it", "it should be fine"), what someone will perceive ("you should see a
// prompt"), a hedge ("I think it should", "it should probably"), a
// counterfactual ("it should have failed"), the subjunctive of a condition
// ("if it should fail", "should you need"), the speaker's own errand ("I
// need to leave at five"), and anything the modal says "now" or "already"
// of. The classes are decided from the words around the modal, never from
// the rule's topic.

// obligationRE finds an obligation modal that modalRE does not hold.
var obligationRE = lazyre.New(`\b(should not|shouldn't|should|ought not to|ought to|needs to|need to|has to|have to|is required to|are required to)\b`)

// obligationAny is what a summary may write for a positive obligation,
// negativeAny for a negated one: the rule holds whichever modal restates it.
const (
	obligationAny = `(?:should|must|shall|needs? to|has to|have to|is required to|are required to|ought to)`
	negativeAny   = `(?:should not|shouldn't|must not|mustn't|shall not|may not|cannot|can't|ought not to)`
)

var (
	// hedges before the modal make it a guess ("I think it should").
	hedges = map[string]bool{"think": true, "guess": true, "probably": true, "maybe": true, "perhaps": true, "hopefully": true,
		"believe": true, "suppose": true, "likely": true, "assume": true, "reckon": true, "hope": true, "expect": true, "presumably": true}
	// conditions whose own verb the modal is ("if it should fail").
	conditions = map[string]bool{"if": true, "unless": true, "case": true, "whether": true, "lest": true}
	// pronouns: a subject that names no part of the task.
	pronouns = map[string]bool{"it": true, "this": true, "that": true, "these": true, "those": true, "which": true, "everything": true,
		"things": true, "all": true, "they": true, "there": true}
	// people: a subject that perceives ("you should see").
	people = map[string]bool{"you": true, "we": true, "i": true, "they": true, "one": true, "users": true}
	// verdicts are verbs whose subject is a change, judged by its
	// outcome ("that should fix it").
	verdicts = map[string]bool{"fix": true, "solve": true, "resolve": true, "help": true, "suffice": true, "address": true}
	// outcomes are verbs that state a requirement of a thing named by a
	// noun ("all tests should pass") but a verdict of a pronoun ("it
	// should work").
	outcomes = map[string]bool{"work": true, "pass": true, "succeed": true, "compile": true, "build": true, "run": true, "go": true}
	// perceptions are verbs of someone who will notice the outcome.
	perceptions = map[string]bool{"see": true, "notice": true, "get": true, "receive": true, "find": true, "hear": true, "observe": true,
		"expect": true, "look": true}
	// evaluations after "be" judge rather than require ("be fine").
	evaluations = map[string]bool{"fine": true, "ok": true, "okay": true, "good": true, "enough": true, "sufficient": true, "easy": true,
		"simple": true, "straightforward": true, "possible": true, "trivial": true, "doable": true, "feasible": true, "better": true,
		"it": true, "all": true, "there": true, "done": true, "ready": true, "the": true, "alright": true, "right": true, "correct": true, "faster": true}
	// negations before the modal take the obligation away ("don't have
	// to").
	negations = map[string]bool{"not": true, "don't": true, "dont": true, "doesn't": true, "doesnt": true, "didn't": true,
		"never": true, "no": true, "isn't": true, "aren't": true, "won't": true}
	// discourse words after "it should be" frame a remark ("it should be
	// noted that").
	discourse = map[string]bool{"noted": true, "mentioned": true, "said": true, "stressed": true, "emphasized": true,
		"emphasised": true, "pointed": true, "clear": true, "obvious": true}
	// softeners between the modal and its verb that change nothing.
	softeners = map[string]bool{"also": true, "still": true, "really": true, "definitely": true, "always": true, "just": true,
		"only": true, "both": true, "each": true, "all": true, "ideally": true}
	// firstPerson opens a clause the speaker is the subject of.
	firstPerson = map[string]bool{"i": true, "i'm": true, "im": true, "i've": true, "i'd": true, "i'll": true}
	// timing words that make the clause an expectation of a change just
	// made ("it should work now").
	timing = map[string]bool{"now": true, "already": true, "again": true, "then": true, "soon": true, "eventually": true, "afterwards": true}
)

// obligationPattern returns the pattern of a requirement a folded clause
// states with an obligation modal, or "" when the modal states an
// expectation instead (see above).
func obligationPattern(clause string) string {
	loc := obligationRE.FindStringSubmatchIndex(clause)
	if loc == nil {
		return ""
	}
	modal := clause[loc[2]:loc[3]]
	negated := strings.Contains(modal, "not") || strings.Contains(modal, "n't")
	before := strings.Fields(clause[:loc[0]])
	after := strings.Fields(clause[loc[1]:])
	// the words since the last comma are the modal's own clause
	own := before
	for i := len(before) - 1; i >= 0; i-- {
		if strings.HasSuffix(before[i], ",") {
			own = before[i+1:]
			break
		}
	}
	for _, w := range before {
		if hedges[trimWord(w)] {
			return ""
		}
	}
	for _, w := range own {
		if conditions[trimWord(w)] {
			return "" // "if it should fail": the condition's own verb
		}
	}
	subject := ""
	if len(own) > 0 {
		subject = trimWord(own[len(own)-1])
	}
	if negations[subject] && !negated {
		// "you don't have to touch the docs": no obligation but a scope
		// rule, kept in its own words (no other modal says the same)
		words := append(append(own[max(0, len(own)-2):len(own):len(own)], strings.Fields(modal)...), after...)
		return phrase(words, min(len(own), 2)+len(strings.Fields(modal))+3)
	}
	if subject == "" && len(after) > 0 && (pronouns[trimWord(after[0])] || people[trimWord(after[0])]) {
		return "" // "should you need it": an inverted condition
	}
	if subject == "i" && !negated {
		return "" // the speaker's own errand
	}
	if len(own) > 1 && (subject == "and" || subject == "but" || subject == "so") && firstPerson[trimWord(own[0])] && !negated {
		return "" // "I'm short of money and need to downgrade": the errand again, its subject elided
	}
	// the verb: past softeners; a "not" after the modal negates it
	i := 0
	for i < len(after) && (softeners[trimWord(after[i])] || trimWord(after[i]) == "not") {
		if trimWord(after[i]) == "not" {
			negated = true
		}
		i++
	}
	if i == len(after) {
		return ""
	}
	verb := trimWord(after[i])
	rest := after[i+1:]
	for _, w := range after[:min(len(after), i+4)] {
		if hedges[trimWord(w)] || timing[trimWord(w)] {
			return "" // "it should probably", "it should work now"
		}
	}
	switch {
	case verb == "have" && len(rest) > 0 && (trimWord(rest[0]) == "been" || strings.HasSuffix(trimWord(rest[0]), "ed") || strings.HasSuffix(trimWord(rest[0]), "en")):
		return "" // a counterfactual: "it should have failed"
	case verdicts[verb]:
		return ""
	case verb == "do" && len(rest) > 0 && (pronouns[trimWord(rest[0])] || trimWord(rest[0]) == "the"):
		return "" // "that should do it", "should do the trick"
	case outcomes[verb] && (pronouns[subject] || subject == ""):
		return "" // "it should work": a verdict, not a requirement
	case perceptions[verb] && people[subject]:
		return "" // "you should see a prompt"
	case verb == "be" && len(rest) > 0 && evaluations[trimWord(rest[0])] && (pronouns[subject] || trimWord(rest[0]) != "the"):
		return "" // "it should be fine", "that should be it"
	case verb == "be" && len(rest) > 0 && pronouns[subject] && (strings.HasSuffix(trimWord(rest[0]), "ing") || discourse[trimWord(rest[0])]):
		return "" // "it should be working", "it should be noted that"
	}
	for len(own) > 2 {
		own = own[1:]
	}
	for len(own) > 0 && (stopTail[trimWord(own[0])] || pronouns[trimWord(own[0])]) {
		own = own[1:]
	}
	if len(own) == 0 {
		// no subject left: the words after the modal must name the rule
		// ("be a client-only app"), not one adjective ("it has to be
		// quick" would match any "must be quick")
		content := 0
		for _, w := range after[i:min(len(after), i+4)] {
			if w := trimWord(w); w != "be" && !stopTail[w] {
				content++
			}
		}
		if content < 2 {
			return ""
		}
	}
	// the modal and three words after it, four when no subject is left
	// ("this should be a client-only app")
	n := len(own) + 4
	if len(own) == 0 {
		n++
	}
	p := phrase(append(append(append([]string(nil), own...), "\x00"), after[i:]...), n)
	if p == "" {
		return ""
	}
	alt := obligationAny
	if negated {
		alt = negativeAny
	}
	return strings.Replace(p, "\x00", alt, 1)
}
