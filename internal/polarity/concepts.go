package polarity

import (
	_ "embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Concepts name what a rule is about across languages. A scenario's
// patterns (RE2) name a rule in one language: `read[- ]?only`, `(do not|
// never) (commit|push)`. What they name is a concept of the tables: a
// state a rule sets (the first column of antonyms.tsv: readonly, frozen,
// locked, …) or an action a prohibition forbids (concepts.tsv: push,
// commit, failover, apply, restart, …). A Subject built by RuleSubject
// holds the concepts of its rule in every language of the tables, so
// Read finds a Spanish clause about an English rule ("de solo lectura",
// "nada de reinicios", "no se puede hacer push") and reads it by class as
// it reads a match of a pattern: it keeps the rule, contradicts it, or
// cannot be told.
//
// For a caller (a check, the reference agent):
//
//   - ConceptsOf names the concepts a word or phrase stands for, in any
//     language ("reinicios" → restart; "solo lectura" → readonly).
//   - ConceptWords lists a concept's words in one language.
//   - Subject.Concepts and Subject.Languages say what a rule is about and
//     in which languages its patterns are written; Language says in which
//     language a text is written. A clause in a language the patterns are
//     not in can only be found by concept: a caller that finds the rule
//     neither by pattern nor by concept in such a clause should answer
//     that it cannot tell, not that the rule is gone.

//go:embed concepts.tsv
var conceptsTSV string

// ActionConcept is one row of concepts.tsv: the words of one language for
// an action a rule may forbid.
type ActionConcept struct {
	// Concept is the action's name across languages ("restart").
	Concept string
	// Lang is "en" or "es".
	Lang string
	// Words are single words on folded, lower-cased text, verb forms and
	// nouns ("reiniciar", "reinicios").
	Words []string
	// Forbid and Permit are example sentences where {C} stands for each
	// word: under a prohibition (it keeps a rule that forbids the action)
	// and under a permission (it contradicts it).
	Forbid, Permit string
	// Line is the row's line in concepts.tsv.
	Line int
}

type conceptTable struct {
	rows []ActionConcept
	// byStem maps stem(word) of every word to the rows that hold it.
	byStem map[string][]int
}

var (
	conceptOnce sync.Once
	conceptTab  *conceptTable
	conceptErr  error
)

func conceptsOf() *conceptTable {
	conceptOnce.Do(func() { conceptTab, conceptErr = parseConcepts(conceptsTSV) })
	if conceptErr != nil {
		panic("polarity: " + conceptErr.Error()) // the embedded table is tested
	}
	return conceptTab
}

func parseConcepts(data string) (*conceptTable, error) {
	t := &conceptTable{byStem: map[string][]int{}}
	for i, line := range strings.Split(data, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("concepts.tsv:%d: want 5 tab-separated fields, got %d", i+1, len(f))
		}
		r := ActionConcept{Concept: f[0], Lang: f[1], Forbid: f[3], Permit: f[4], Line: i + 1}
		if r.Concept == "" {
			return nil, fmt.Errorf("concepts.tsv:%d: no concept", i+1)
		}
		if r.Lang != "en" && r.Lang != "es" {
			return nil, fmt.Errorf("concepts.tsv:%d: language %q", i+1, r.Lang)
		}
		if !strings.HasPrefix(f[2], "[") || !strings.HasSuffix(f[2], "]") {
			return nil, fmt.Errorf("concepts.tsv:%d: words must be [a|b|…]", i+1)
		}
		for _, w := range strings.Split(f[2][1:len(f[2])-1], "|") {
			if w == "" || w != strings.ToLower(w) || strings.ContainsAny(w, " -'") {
				return nil, fmt.Errorf("concepts.tsv:%d: %q is not one folded, lower-case word", i+1, w)
			}
			r.Words = append(r.Words, w)
		}
		if !strings.Contains(r.Forbid, "{C}") || !strings.Contains(r.Permit, "{C}") {
			return nil, fmt.Errorf("concepts.tsv:%d: both examples need {C}", i+1)
		}
		idx := len(t.rows)
		t.rows = append(t.rows, r)
		for _, w := range r.Words {
			s := stem(w)
			if !containsInt(t.byStem[s], idx) {
				t.byStem[s] = append(t.byStem[s], idx)
			}
		}
	}
	return t, nil
}

// ActionConcepts returns the rows of concepts.tsv, in file order.
func ActionConcepts() []ActionConcept {
	rows := conceptsOf().rows
	out := make([]ActionConcept, len(rows))
	for i, r := range rows {
		r.Words = append([]string(nil), r.Words...)
		out[i] = r
	}
	return out
}

// actionRows returns the rows of concepts.tsv that hold a form of the
// action whose stem is st.
func actionRows(st string) []int {
	t := conceptsOf()
	if rs, ok := t.byStem[st]; ok {
		return rs
	}
	return t.byStem[stem(st)]
}

// ConceptsOf returns the names of the concepts a word or a phrase stands
// for, in any language of the tables, sorted: the actions of concepts.tsv
// it is a form of ("reinicios" and "restarting" → restart) and the states
// of antonyms.tsv whose state it is ("solo lectura" and "read-only" →
// readonly). The phrase is folded and lower-cased by the caller (as
// textmatch folds); nil when it names no concept.
func ConceptsOf(phrase string) []string {
	seen := map[string]bool{}
	toks := tokenize(phrase)
	if len(toks) == 1 {
		for _, r := range actionRows(stem(toks[0].low)) {
			seen[conceptsOf().rows[r].Concept] = true
		}
	}
	tab := classesOf()
	x := New(phrase)
	x.buildClasses()
	for _, h := range x.ci.hits {
		if h.a != 0 || h.b != len(strings.TrimRight(phrase, " .")) {
			continue
		}
		for _, e := range h.entries {
			if en := tab.entries[e]; en.Class == Antonym && en.Sense == State {
				seen[tab.pairs[en.Pair].Concept] = true
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// ConceptWords returns the words of concept name in lang ("en", "es"): for
// an action, the words of its row of concepts.tsv; for a state, the
// alternatives of its state phrase in antonyms.tsv. Nil for an unknown
// concept or a language the tables do not hold for it.
func ConceptWords(name, lang string) []string {
	var out []string
	for _, r := range conceptsOf().rows {
		if r.Concept == name && r.Lang == lang {
			out = append(out, r.Words...)
		}
	}
	tab := classesOf()
	for _, p := range tab.pairs {
		if p.Concept == name && p.Lang == lang {
			seqs, _ := expand(tab.entries[p.States].Phrase)
			out = append(out, seqs...)
		}
	}
	return out
}

// expandActions adds to acts (stems of the actions a rule forbids) the
// stems of the words of their concepts in the languages of concepts.tsv
// other than langs, the rule's own (all others when langs is empty, then
// other than the row the action was found in): "restart" adds reiniciar,
// reinicio, …; "reinicios" adds restart, reboot. A word of the rule's own
// language is not added (deploy does not bring release): a synonym there
// would widen the rule, where the other language only translates it.
func expandActions(acts map[string]bool, langs []string) {
	t := conceptsOf()
	var add []string
	for a := range acts {
		own := map[string]bool{}
		for _, l := range langs {
			own[l] = true
		}
		concepts := map[string]bool{}
		for _, r := range actionRows(a) {
			concepts[t.rows[r].Concept] = true
			if len(langs) == 0 {
				own[t.rows[r].Lang] = true
			}
		}
		for _, r := range t.rows {
			if concepts[r.Concept] && !own[r.Lang] {
				for _, w := range r.Words {
					add = append(add, stem(w))
				}
			}
		}
	}
	for _, a := range add {
		acts[a] = true
	}
}

// Concepts returns the concepts of a rule (RuleSubject): the states it
// sets (antonyms.tsv) and the actions it forbids that concepts.tsv names,
// sorted, each once.
func (s *Subject) Concepts() []string {
	seen := map[string]bool{}
	tab := classesOf()
	for _, p := range s.pairs {
		seen[tab.pairs[p].Concept] = true
	}
	ct := conceptsOf()
	for _, a := range s.actions {
		for _, r := range ct.byStem[a] {
			seen[ct.rows[r].Concept] = true
		}
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Languages returns the languages the rule's patterns are written in, as
// Language tells them ("en", "es"): by the words of the patterns, else by
// the statements RuleSubject was given (a scenario writes its patterns in
// its own language). Nil when neither says: a caller then cannot tell a
// clause in another language from one the patterns should have matched.
func (s *Subject) Languages() []string { return append([]string(nil), s.langs...) }

// LanguagesOf returns the languages patterns are written in, as
// Subject.Languages does for a rule: for the patterns of any invariant (a
// refuted hypothesis, a probe's requires), with statements the events
// that state what they name.
func LanguagesOf(patterns []*regexp.Regexp, statements ...string) []string {
	return patternLanguages(patterns, statements)
}

// LiteralWords returns the words the patterns spell literally (their
// alternatives each in turn: `evict\w* (the )?hot keys` gives evict, the,
// hot, keys), lower-cased, each once, in order.
func LiteralWords(patterns []*regexp.Regexp) []string {
	var out []string
	seen := map[string]bool{}
	for _, re := range patterns {
		if re == nil {
			continue
		}
		for _, lit := range literalTexts(re) {
			for _, tk := range tokenize(lit) {
				if tk.word && !seen[tk.low] {
					seen[tk.low] = true
					out = append(out, tk.low)
				}
			}
		}
	}
	return out
}

// patternLanguages is Subject.Languages, worked out by RuleSubject: the
// language of each pattern's words, or of the states of antonyms.tsv it
// spells (`solo lectura` is Spanish); for patterns that say neither, the
// language of the statements.
func patternLanguages(patterns []*regexp.Regexp, statements []string) []string {
	seen := map[string]bool{}
	undecided := false
	tab := classesOf()
	for _, re := range patterns {
		if re == nil {
			continue
		}
		lits := literalTexts(re)
		if l := Language(strings.Join(lits, " ")); l != "" {
			seen[l] = true
			continue
		}
		found := false
		for _, lit := range lits {
			x := New(lit)
			x.buildClasses()
			for _, h := range x.ci.hits {
				// a word both tables hold ("freeze") says nothing
				langs := map[string]bool{}
				for _, e := range h.entries {
					if en := tab.entries[e]; en.Class == Antonym {
						langs[en.Lang] = true
					}
				}
				if len(langs) == 1 {
					for l := range langs {
						seen[l], found = true, true
					}
				}
			}
		}
		undecided = undecided || !found
	}
	if undecided || len(patterns) == 0 {
		if l := Language(strings.Join(statements, " ")); l != "" {
			seen[l] = true
		}
	}
	if len(seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Function words of each language: the evidence Language counts. Words
// that both languages write (a, no, son of "the son") are in neither.
var (
	langWordsEN = set(`the of and to is are was were for with that this it on at by from be has have not
		don't do does did must should will would can cannot may only any anything nothing while until
		which who when after before into than then there these those its our your their`)
	langWordsES = set(`el la los las del de que es son esta estan una un unos unas para con por se y pero
		mas como al lo en su sus fue era nada sin ni ya hay hasta desde mientras cuando donde cual
		este estos estas ese esa le les nos muy tambien todo toda todos todas otro otra debe puede`)
)

// Language returns the language text is written in, "en" or "es", by its
// function words (one at least, and more than twice as many as of the
// other language); "" when they do not say (a path, a name, a phrase with
// no function word). The text is lower-cased and folded by the caller, or
// written as is (accents are folded here).
func Language(text string) string {
	en, es := 0, 0
	for _, tk := range tokenize(text) {
		if !tk.word {
			continue
		}
		if langWordsEN[tk.low] {
			en++
		}
		if langWordsES[tk.low] {
			es++
		}
	}
	return langOf(en, es, "")
}

// langOf tells the language from the counts of English and Spanish
// function words: one with at least one and more than twice the other's;
// otherwise undecided. A word both languages spell alike ("no", "a") is
// in neither list.
func langOf(en, es int, undecided string) string {
	switch {
	case es >= 1 && es > 2*en:
		return "es"
	case en >= 1 && en > 2*es:
		return "en"
	}
	return undecided
}
