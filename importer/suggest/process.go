package suggest

import (
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// A rule with no marker is an imperative that constrains how the work is
// done rather than naming the work: "Keep at least three replicas
// running", "Please finish the interaction after you finish coding",
// "Leave the legacy endpoint untouched", "Ask me before dropping a table".
// Its verb is one of a few process verbs, and the verb's class says what
// else the sentence needs to be a rule:
//
//	keep, preserve, retain, maintain, stay, stick, limit, restrict
//	    an object that is not a continuation or a courtesy ("keep going",
//	    "keep me posted", "keep in mind");
//	finish, stop, end, wait, ask, check
//	    a condition or a time (after, before, when, once, until, unless,
//	    if, as soon as): the rule is the order, not the step;
//	leave
//	    a state it leaves the object in (untouched, alone, as is, …).
//
// Task imperatives ("Add a CSV export", "Fix the parser") are not rules:
// the goal holds them.

// processRE finds a process verb opening a folded clause.
var processRE = lazyre.New(`^(?:(?:please|and|also|then|but|so),? )?(keep|preserve|retain|maintain|stay|stick|limit|restrict|finish|stop|end|wait|ask|check|leave)\b`)

var (
	// notKept follows "keep" in a continuation or a courtesy.
	notKept = map[string]bool{"going": true, "trying": true, "working": true, "on": true, "up": true, "looking": true,
		"digging": true, "me": true, "us": true, "in": true, "track": true, "reading": true}
	// whenRE is a condition or a time that makes an order a rule.
	whenRE = lazyre.New(`\b(after|before|when|once|until|unless|if|as soon as|whenever)\b`)
	// leftAsRE is the state "leave" keeps something in.
	leftAsRE = lazyre.New(`\b(untouched|alone|as is|as-is|unchanged|intact|in place|disabled|enabled|as they are|as it is)\b`)
)

// processPattern returns the pattern of a rule a folded clause states
// with a process verb and no marker, or "".
func processPattern(clause string) string {
	m := processRE.FindStringSubmatchIndex(clause)
	if m == nil {
		return ""
	}
	verb := clause[m[2]:m[3]]
	rest := strings.Fields(clause[m[3]:])
	if len(rest) < 2 {
		return "" // "keep going", "stop."
	}
	switch verb {
	case "finish", "stop", "end", "wait", "ask", "check":
		if !whenRE.MatchString(clause[m[3]:]) {
			return ""
		}
	case "leave":
		if !leftAsRE.MatchString(clause[m[3]:]) {
			return ""
		}
	default:
		if notKept[trimWord(rest[0])] || trimWord(rest[0]) == "at" && trimWord(rest[1]) == "it" {
			return "" // "keep going", "keep at it"
		}
	}
	return phrase(append([]string{verb}, rest...), 6)
}
