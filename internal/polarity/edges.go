package polarity

import (
	"slices"
	"strings"
	"sync"
)

// ruleCueWords maps each word that is by itself a whole cue or class entry
// bearing on a rule to what the reader takes it for: the cues of the kinds
// in Contradiction (cues.tsv), and the deontic and negation entries of
// classes.tsv. The change class is left out: its one-word entries (lift,
// release, clear, change) and its rule nouns (freeze, ban) name the subject
// of a rule as often as they end it, and a pattern may hold them.
var ruleCueWords = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, c := range Cues() {
		if !slices.Contains(Contradiction, c.Kind) {
			continue
		}
		alts, err := expand(c.Phrase)
		if err != nil {
			continue
		}
		for _, a := range alts {
			if !strings.Contains(a, " ") && out[a] == "" {
				out[a] = "a " + string(c.Kind) + " cue"
			}
		}
	}
	for _, e := range Entries() {
		switch {
		case e.Class == Deontic, e.Class == NegationClass:
		default:
			continue
		}
		alts, err := expand(e.Phrase)
		if err != nil {
			continue
		}
		for _, a := range alts {
			if !strings.Contains(a, " ") && out[a] == "" {
				out[a] = "a " + string(e.Class) + " word (" + string(e.Sense) + ")"
			}
		}
	}
	return out
})

// RuleCue says whether word (any case, accents folded by the caller) is by
// itself a cue the reader applies to a rule (a negation, a cancellation, a
// permission, a retraction or a mistake, or a deontic or negation word of
// the class table), and what it is taken for ("a negation
// cue"). A constraint pattern that starts or ends on one holds the very
// word the reader judges the match by.
func RuleCue(word string) (string, bool) {
	what, ok := ruleCueWords()[strings.ToLower(word)]
	return what, ok
}

// ruleNouns are the one-word rule nouns of classes.tsv (change, rule:
// freeze, ban, restriction; congelacion, veto).
var ruleNouns = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, e := range Entries() {
		if e.Class != Change || e.Sense != RuleNoun {
			continue
		}
		alts, err := expand(e.Phrase)
		if err != nil {
			continue
		}
		for _, a := range alts {
			if !strings.Contains(a, " ") {
				out[a] = true
			}
		}
	}
	return out
})

// IsRuleNoun reports whether word (lower-cased, accents folded) is a noun
// the class table takes for the name of a rule ("freeze", "ban",
// "restriction").
func IsRuleNoun(word string) bool { return ruleNouns()[word] }
