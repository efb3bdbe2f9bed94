package meaning

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed words.tsv
var wordsTSV string

// Class is what a phrase of the word table says (words.tsv).
type Class string

// The classes of words.tsv.
const (
	Negation   Class = "negation"
	Cancel     Class = "cancel"
	Holds      Class = "holds"
	Permit     Class = "permit"
	Forbid     Class = "forbid"
	Reluctance Class = "reluctance"
	Oblige     Class = "oblige"
	Suggest    Class = "suggest"
	Retract    Class = "retract"
	Open       Class = "open"
	Confirmed  Class = "confirmed"
	Done       Class = "done"
	NotDone    Class = "notdone"
	Stale      Class = "stale"
	Current    Class = "current"
	Old        Class = "old"
	Revert     Class = "revert"

	Condition      Class = "condition"
	Exception      Class = "exception"
	Quantifier     Class = "quantifier"
	Attribution    Class = "attribution"
	Time           Class = "time"
	Past           Class = "past"
	Presupposition Class = "presupposition"
	Hedge          Class = "hedge"
	Concession     Class = "concession"
	Counterfactual Class = "counterfactual"
	Comparison     Class = "comparison"
	Approx         Class = "approx"
	Delegate       Class = "delegate"
	// Distance: the clause reports words it does not stand behind.
	Distance Class = "distance"
	// RuleNoun: a noun that names a rule (ban, freeze, regla).
	RuleNoun Class = "rulenoun"
	// Restrict: a word that narrows what a rule allows to one thing (only).
	Restrict Class = "restrict"
	// Limit: a phrase that limits the work to what a rule allows.
	Limit Class = "limit"
	// Cause: a word that says something caused something else.
	Cause Class = "cause"
	// Belief: a frame of what was once thought ("initially we thought").
	Belief Class = "belief"
	// Started: an operation begun, which says nothing of its end.
	Started Class = "started"
	// Verify: a step that checks, waits for or retries what is not known
	// to be done ("check", "wait for", "rerun").
	Verify Class = "verify"
	// Question is no row of the table: a clause that ends in "?".
	Question Class = "question"
)

// Entry is one row of words.tsv.
type Entry struct {
	Lang, Sense, Phrase, Example string
	Class                        Class
	// Line is the row's line in words.tsv.
	Line int
}

// phrase is one alternative of an entry, as tokens.
type phrase struct {
	words []string
	class Class
	sense string
}

type lexicon struct {
	entries []Entry
	// byFirst indexes the phrases by their first word.
	byFirst map[string][]phrase
}

// Entries returns the rows of the word table, in order.
func Entries() []Entry { return append([]Entry(nil), lex().entries...) }

var lex = sync.OnceValue(func() *lexicon {
	l, err := parseLexicon(wordsTSV)
	if err != nil {
		panic("internal/meaning: words.tsv: " + err.Error()) // a test reads the table
	}
	return l
})

func parseLexicon(tsv string) (*lexicon, error) {
	l := &lexicon{byFirst: map[string][]phrase{}}
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("line %d: %d fields, want 5", n+1, len(f))
		}
		e := Entry{Lang: f[0], Class: Class(f[1]), Sense: f[2], Phrase: f[3], Example: f[4], Line: n + 1}
		alts, err := Expand(e.Phrase)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		seen := map[string]bool{}
		for _, a := range alts {
			if seen[a] {
				continue
			}
			seen[a] = true
			p := phrase{class: e.Class, sense: e.Sense}
			for _, t := range tokenize(a) {
				p.words = append(p.words, t.W)
			}
			if len(p.words) > 0 {
				l.byFirst[p.words[0]] = append(l.byFirst[p.words[0]], p)
			}
		}
		l.entries = append(l.entries, e)
	}
	return l, nil
}

// Expand returns every alternative of a phrase of the table: items are
// words or [a|b c] groups, a group followed by ? may be left out.
func Expand(p string) ([]string, error) {
	out := []string{""}
	for p = strings.TrimSpace(p); p != ""; p = strings.TrimSpace(p) {
		var alts []string
		if p[0] == '[' {
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", p)
			}
			alts = strings.Split(p[1:end], "|")
			p = p[end+1:]
			if strings.HasPrefix(p, "?") {
				alts = append(alts, "")
				p = p[1:]
			}
		} else {
			w, rest, _ := strings.Cut(p, " ")
			alts, p = []string{w}, rest
		}
		var next []string
		for _, o := range out {
			for _, a := range alts {
				next = append(next, strings.TrimSpace(o+" "+strings.TrimSpace(a)))
			}
		}
		out = next
	}
	return out, nil
}
