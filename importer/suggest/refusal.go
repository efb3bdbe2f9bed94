package suggest

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// refusalRE is the speaker's own refusal of an action, in folded text: "i
// don't want to fly before 11 am", "we do not want you to touch the
// schema", at the clause's start or after a conjunction ("… works for me
// as I don't want to …"). The user states a rule about the work in the
// first person.
var refusalRE = lazyre.New(`(?:^|(?:^|\s)(?:but|and|also|so|because|as|since),?\s)(?:i|we) (?:really )?(?:do not|don't|dont|never) want (?:you |the agent |anyone )?to (\S+)`)

// notRefused are verbs after "I don't want to" that are a courtesy or a
// state, not an action the work must avoid: "I don't want to bother you",
// "I don't want to be rude".
var notRefused = map[string]bool{
	"be": true, "bother": true, "interrupt": true, "impose": true, "sound": true, "seem": true, "waste": true,
	"rush": true, "pressure": true, "overwhelm": true, "confuse": true, "repeat": true, "keep": true, "say": true,
	"get": true, "go": true, "have": true, "make": true, "know": true, "think": true, "lose": true,
}

// refusalPattern is the pattern of a first-person refusal ("I don't want
// to fly before 11 AM EST"): the refused action with up to three words of
// its object, after any form of "not want to", so that a summary's "the
// user does not want to fly before 11 AM" keeps it. "" for any other
// clause, and for a courtesy or a state ("I don't want to bother you").
func refusalPattern(clause string) string {
	m := refusalRE.FindStringSubmatchIndex(clause)
	if m == nil {
		return ""
	}
	verb := trimWord(clause[m[2]:m[3]])
	rest := strings.Fields(clause[m[2]:])
	if notRefused[verb] || len(rest) < 2 {
		return ""
	}
	words := phrase(rest, 4)
	if words == "" {
		return ""
	}
	return `(?:do not|don't|does not|doesn't|did not|didn't|not|never) wants? (?:\w+ )?to ` + words
}
