package meaning

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

//go:embed concepts.tsv
var conceptsTSV string

// concept is one concept of concepts.tsv: its phrases by part, in every
// language.
type concept struct {
	name                      string
	states, opposites, action [][]string
}

// ConceptRow is one row of concepts.tsv.
type ConceptRow struct {
	Concept, Lang, Part, Phrase string
	Line                        int
}

type conceptTable struct {
	rows     []ConceptRow
	concepts map[string]*concept
	// byAction maps an action word to the concepts it is a word of.
	byAction map[string][]string
}

// Concepts returns the rows of the concept table, in order.
func Concepts() []ConceptRow { return append([]ConceptRow(nil), conceptsOf().rows...) }

var conceptsOf = sync.OnceValue(func() *conceptTable {
	t, err := parseConcepts(conceptsTSV)
	if err != nil {
		panic("internal/meaning: concepts.tsv: " + err.Error()) // a test reads the table
	}
	return t
})

func parseConcepts(tsv string) (*conceptTable, error) {
	t := &conceptTable{concepts: map[string]*concept{}, byAction: map[string][]string{}}
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: %d fields, want 4", n+1, len(f))
		}
		row := ConceptRow{Concept: f[0], Lang: f[1], Part: f[2], Phrase: f[3], Line: n + 1}
		alts, err := Expand(row.Phrase)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		c := t.concepts[row.Concept]
		if c == nil {
			c = &concept{name: row.Concept}
			t.concepts[row.Concept] = c
		}
		for _, a := range alts {
			ws := Words(a)
			switch row.Part {
			case "state":
				c.states = append(c.states, ws)
			case "opposite":
				c.opposites = append(c.opposites, ws)
			case "action":
				c.action = append(c.action, ws)
				if len(ws) == 1 {
					t.byAction[ws[0]] = append(t.byAction[ws[0]], row.Concept)
				}
			default:
				return nil, fmt.Errorf("line %d: part %q, want state, opposite or action", n+1, row.Part)
			}
		}
		t.rows = append(t.rows, row)
	}
	return t, nil
}

// genericActions are action concepts too common to bind a clause to a
// rule unless a rule's words name them: "run the query" is no deploy.
var genericActions = set(`run touch open create change use`)

// RuleSubject builds the subject of a rule from its match patterns, the
// statement that gives it (folded) and its targets: the states its
// patterns name, with their opposites and the actions they forbid, and
// the actions the statement forbids (under a negation or a prohibition),
// each with the words of its concept in every language.
func RuleSubject(patterns []*regexp.Regexp, statement string, targets []string) *Subject {
	tab := conceptsOf()
	s := &Subject{Kind: Rule, Patterns: patterns, Actions: map[string]bool{}}
	if statement != "" {
		s.Source = New(statement)
	}
	for _, tg := range targets {
		for _, w := range Words(tg) {
			s.Names = append(s.Names, w)
			s.Shaped = s.Shaped || isValue(w) || strings.ContainsRune(w, '-')
		}
	}
	named := map[string]bool{}
	for name, c := range tab.concepts {
		for _, st := range c.states {
			if matchesAnyRe(patterns, strings.Join(st, " ")) {
				named[name] = true
			}
		}
	}
	for _, w := range patternWords(patterns) {
		for _, c := range tab.byAction[w] {
			if len(tab.concepts[c].states) == 0 {
				named[c] = true // an action a pattern names, not a state that forbids it
			}
		}
	}
	for name := range s.statesOfSource(tab) {
		named[name] = true
	}
	forbidden := s.forbiddenBySource()
	specific := false
	for _, w := range forbidden {
		for _, c := range tab.byAction[w] {
			specific = specific || len(tab.concepts[c].states) == 0 && !genericActions[c]
		}
	}
	for _, w := range forbidden {
		for _, c := range tab.byAction[w] {
			if len(tab.concepts[c].states) == 0 && (!genericActions[c] || !specific) {
				named[c] = true
			}
		}
	}
	s.Listed = s.listedBySource(tab)
	for name := range named {
		s.addConcept(tab, tab.concepts[name])
	}
	s.Obliged = s.obligation()
	return s
}

// obligation reports whether the source states the rule as something to
// do: a pattern matches in a clause with a word of obligation and no
// negation or prohibition ("Always run mix format before you finish").
func (s *Subject) obligation() bool {
	t := s.Source
	if t == nil {
		return false
	}
	for ci := range t.clauses {
		for _, re := range s.Patterns {
			for _, m := range t.matchesIn(ci, re) {
				t0, t1 := t.tokenRange(ci, m[0], m[1])
				if len(t.hitsOf(ci, Oblige)) == 0 || len(t.hitsOf(ci, Negation, Forbid)) > 0 {
					return false
				}
				// the match names an action, not a state ("must remain
				// disabled" obliges a state: its opposite is forbidden)
				action := false
				for k := t0; k < t1; k++ {
					action = action || s.Actions[t.toks[k].W]
					if phraseAt(t.toks, k, t1, s.States) > 0 {
						return false
					}
				}
				return action
			}
		}
	}
	return false
}

// statesOfSource returns the concepts whose state the source statement
// gives in a clause where a pattern matches ("protobuf stays pinned at
// 3.25.x" for protobuf.*3\.25 names pinned).
func (s *Subject) statesOfSource(tab *conceptTable) map[string]bool {
	out := map[string]bool{}
	t := s.Source
	if t == nil {
		return out
	}
	for ci, c := range t.clauses {
		matched := false
		for _, re := range s.Patterns {
			matched = matched || len(t.matchesIn(ci, re)) > 0
		}
		if !matched {
			continue
		}
		for name, cc := range tab.concepts {
			for i := c.T0; i < c.T1; i++ {
				if phraseAt(t.toks, i, c.T1, cc.states) > 0 {
					out[name] = true
				}
			}
		}
	}
	return out
}

// NameRule reports whether the rule is about a name alone (a role, a
// host): its patterns and its statement name no state and no action, so a
// clause that names it says nothing of the rule unless it ends it.
func (s *Subject) NameRule() bool {
	return s.Kind == Rule && len(s.States) == 0 && len(s.Actions) == 0
}

func (s *Subject) addConcept(tab *conceptTable, c *concept) {
	s.States = append(s.States, c.states...)
	s.Opposites = append(s.Opposites, c.opposites...)
	for _, a := range c.action {
		if len(a) != 1 {
			continue
		}
		s.Actions[a[0]] = true
		// a state's action is an action of its own concept too
		for _, other := range tab.byAction[a[0]] {
			if oc := tab.concepts[other]; oc != c && len(oc.states) == 0 {
				for _, w := range oc.action {
					if len(w) == 1 {
						s.Actions[w[0]] = true
					}
				}
			}
		}
	}
}

// forbiddenBySource returns the action words the source statement puts
// under a negation or a prohibition ("no apply, no restart", "never push").
func (s *Subject) forbiddenBySource() []string {
	if s.Source == nil {
		return nil
	}
	t, tab := s.Source, conceptsOf()
	var out []string
	sents := t.ruleSentences(s.Patterns)
	for ci, c := range t.clauses {
		if sents != nil && !sents[c.Sent] {
			continue // another rule of the same event
		}
		for i := c.T0; i < c.T1; i++ {
			w := t.toks[i].W
			if len(tab.byAction[w]) == 0 {
				continue
			}
			if t.forbiddenAt(ci, i) {
				out = append(out, w)
			}
		}
	}
	return out
}

// listedBySource returns the specific actions (no state's, none of
// genericActions) that the source forbids by name, in
// order, when there are two or more: "manual mutating operations (apply,
// scale, patch, rollout restart) are not permitted" lists four.
func (s *Subject) listedBySource(tab *conceptTable) []string {
	t := s.Source
	if t == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for ci, c := range t.clauses {
		if !t.forbids(ci) {
			continue // the whole event: a notice lists what it forbids in a sentence of its own
		}
		for i := c.T0; i < c.T1; i++ {
			for _, cc := range tab.byAction[t.toks[i].W] {
				if len(tab.concepts[cc].states) == 0 && !genericActions[cc] && !seen[cc] {
					seen[cc] = true
					out = append(out, cc)
				}
			}
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// forbiddenAt reports whether the action word at token i of clause ci is
// under a negation or a prohibition ("no apply", "apply is not permitted").
func (t *Text) forbiddenAt(ci, i int) bool {
	_, neg := t.negationBefore(ci, i)
	d, gov := t.governing(ci, i, i+1, Forbid)
	return neg || gov && d.Class == Forbid
}

func matchesAnyRe(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

var regexClasses = regexp.MustCompile(`\[[^\]]*\]|\\.`)

// patternWords returns the literal words of patterns: the runs of letters
// in their source, outside character classes.
func patternWords(res []*regexp.Regexp) []string {
	var out []string
	for _, re := range res {
		src := regexClasses.ReplaceAllString(re.String(), " ")
		for _, w := range strings.FieldsFunc(strings.ToLower(src), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 3 {
				out = append(out, w)
			}
		}
	}
	return out
}

// ruleSentences returns the sentences of t that state the rule: those
// where a pattern matches, and a sentence right after one that opens with
// a negation or a prohibition ("… READ-ONLY investigation. No apply, no
// restart"). Nil when no pattern matches: the whole statement is the rule.
func (t *Text) ruleSentences(patterns []*regexp.Regexp) map[int]bool {
	var out map[int]bool
	for ci, c := range t.clauses {
		for _, re := range patterns {
			if len(t.matchesIn(ci, re)) > 0 {
				if out == nil {
					out = map[int]bool{}
				}
				out[c.Sent] = true
			}
		}
	}
	// a prohibition or a state in the rule's sentence may go on in a list
	// of prohibitions; an obligation does not
	goesOn := map[int]bool{}
	for ci, c := range t.clauses {
		if out[c.Sent] && (len(t.hitsOf(ci, Negation, Forbid)) > 0 || t.namesState(ci)) {
			goesOn[c.Sent] = true
		}
	}
	for ci, c := range t.clauses {
		if goesOn[c.Sent-1] && !out[c.Sent] {
			for _, h := range t.hitsOf(ci, Negation, Forbid) {
				if t.wordsBetween(c.T0, h.T0) <= 1 {
					out[c.Sent] = true
				}
			}
		}
	}
	return out
}

// namesState reports whether clause ci names the state of some concept
// (read-only, a freeze, a legal hold).
func (t *Text) namesState(ci int) bool {
	c := t.clauses[ci]
	for _, cc := range conceptsOf().concepts {
		for i := c.T0; i < c.T1; i++ {
			if phraseAt(t.toks, i, c.T1, cc.states) > 0 {
				return true
			}
		}
	}
	return false
}
