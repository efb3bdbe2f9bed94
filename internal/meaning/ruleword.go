package meaning

import (
	"strings"
	"sync"
)

// ruleWordClasses are the classes of words.tsv whose one-word phrases bear
// on a rule by themselves: a negation, a prohibition, a permission, an
// obligation, a cancellation or a retraction.
var ruleWordClasses = []Class{Negation, Forbid, Permit, Oblige, Cancel, Retract}

// ruleWords maps each one-word phrase of ruleWordClasses to its class (the
// first class of the table that holds it).
var ruleWords = sync.OnceValue(func() map[string]Class {
	out := map[string]Class{}
	for _, e := range Entries() {
		keep := false
		for _, c := range ruleWordClasses {
			keep = keep || e.Class == c
		}
		if !keep {
			continue
		}
		alts, err := Expand(e.Phrase)
		if err != nil {
			continue // TestEveryWordRow reports it
		}
		for _, a := range alts {
			if ws := Words(a); len(ws) == 1 && ws[0] == a && out[a] == "" {
				out[a] = e.Class
			}
		}
	}
	return out
})

// RuleWord says whether word (any case, accents folded by the caller) is
// by itself a phrase of words.tsv that the reader weighs against a rule (a
// negation, a prohibition, a permission, an obligation, a cancellation or
// a retraction), and of which class. A constraint pattern that starts or
// ends on one holds the very word the reader reads the rule by.
func RuleWord(word string) (Class, bool) {
	c, ok := ruleWords()[strings.ToLower(word)]
	return c, ok
}
