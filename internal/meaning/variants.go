package meaning

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// What selftest plants against a rule (selftest/plant.go): one sentence
// that gives the rule's subject the opposite of the state it sets
// (OppositeLine), one that permits what it forbids (PermissionLine), in
// the words of the rule's own concepts, so a check that reads the rule
// with this package must catch them.

//go:embed variants.tsv
var variantsTSV string

// variants maps concept and language ("readonly\ten") to the sentence of
// variants.tsv.
var variants = sync.OnceValue(func() map[string]string {
	out, err := parseVariants(variantsTSV)
	if err != nil {
		panic("internal/meaning: variants.tsv: " + err.Error()) // a test reads the table
	}
	return out
})

func parseVariants(tsv string) (map[string]string, error) {
	out := map[string]string{}
	for n, line := range strings.Split(tsv, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || !strings.Contains(f[2], "<E>") || !strings.Contains(f[2], "{O}") {
			return nil, fmt.Errorf("line %d: want concept, lang and a sentence with <E> and {O}", n+1)
		}
		out[f[0]+"\t"+f[1]] = f[2]
	}
	return out, nil
}

// ruleConcepts returns the concepts of concepts.tsv whose states the
// subject holds, in the table's order.
func (s *Subject) ruleConcepts() []string {
	tab := conceptsOf()
	var out []string
	seen := map[string]bool{}
	for _, row := range tab.rows {
		c := tab.concepts[row.Concept]
		if seen[c.name] || len(c.states) == 0 {
			continue
		}
		seen[c.name] = true
		if holdsPhrase(s.States, c.states[0]) {
			out = append(out, c.name)
		}
	}
	return out
}

func holdsPhrase(phrases [][]string, p []string) bool {
	for _, q := range phrases {
		if strings.Join(q, " ") == strings.Join(p, " ") {
			return true
		}
	}
	return false
}

// firstPhrase returns the first alternative of the first row of concept
// in lang for part ("opposite", "action").
func firstPhrase(concept, lang, part string) string {
	for _, row := range conceptsOf().rows {
		if row.Concept == concept && row.Lang == lang && row.Part == part {
			if alts, err := Expand(row.Phrase); err == nil && len(alts) > 0 {
				return alts[0]
			}
		}
	}
	return ""
}

// entity returns what the rule is about, to give a state to: its first
// target; else the content word of the source closest before where a
// pattern matches ("this session is strictly read-only" gives "session"),
// or else the first after it; the noun right after it when a determiner
// opens the match ("treat this as a READ-ONLY investigation").
func (s *Subject) entity() string {
	if len(s.Names) > 0 {
		return s.Names[0]
	}
	t := s.Source
	if t == nil {
		return ""
	}
	for ci, c := range t.clauses {
		for _, re := range s.Patterns {
			for _, m := range t.matchesIn(ci, re) {
				t0, t1 := t.tokenRange(ci, m[0], m[1])
				if t0 < 0 {
					continue
				}
				// "a READ-ONLY investigation": the state qualifies the noun
				// after it
				if t0 > c.T0 && nounOpeners[t.toks[t0-1].W] && t1 < c.T1 && s.contentWord(t.toks[t1]) {
					return t.toks[t1].W
				}
				for i := t0 - 1; i >= c.T0; i-- {
					if s.contentWord(t.toks[i]) {
						return t.toks[i].W
					}
				}
				for i := t1; i < c.T1; i++ {
					if s.contentWord(t.toks[i]) {
						return t.toks[i].W
					}
				}
			}
		}
	}
	return ""
}

// nounOpeners open a noun phrase.
var nounOpeners = set(`a an the this that these those its our your un una unos unas el la los las este esta estos estas ese esa su sus`)

// contentWord reports whether tk may name what a rule is about: a word of
// three letters or more that is no function word, adverb, word of the
// word table or word of the rule's own states, opposites and actions.
func (s *Subject) contentWord(tk Token) bool {
	w := tk.W
	if !tk.Word || tk.Value || len(w) < 3 || langEN[w] || langES[w] || s.Actions[w] ||
		strings.HasSuffix(w, "ly") || strings.HasSuffix(w, "mente") || len(lex().byFirst[w]) > 0 {
		return false
	}
	for _, p := range append(append([][]string(nil), s.States...), s.Opposites...) {
		for _, pw := range p {
			if pw == w {
				return false
			}
		}
	}
	return true
}

// OppositeLine states the rule's subject in the opposite of the state the
// rule sets, in lang ("The session is now writable.", "La sesion ahora
// es escritura."): a clause that contradicts the rule by antonym. ok is
// false when the rule sets no state of concepts.tsv with a sentence of
// variants.tsv in lang, or names nothing to give it to.
func (s *Subject) OppositeLine(lang string) (string, bool) {
	ent := s.entity()
	if ent == "" {
		return "", false
	}
	for _, c := range s.ruleConcepts() {
		line, opp := variants()[c+"\t"+lang], firstPhrase(c, lang, "opposite")
		if line != "" && opp != "" {
			return strings.Replace(strings.Replace(line, "<E>", ent, 1), "{O}", opp, 1), true
		}
	}
	return "", false
}

// PermissionLine grants what the rule forbids, in lang: an action of the
// state it sets, done to its subject ("The assistant may now write the
// session.", "Ahora se permite escribir en sesion."), or else the first
// action its source statement forbids ("The assistant may now commit.").
// ok is false when the rule forbids no action the reader finds.
func (s *Subject) PermissionLine(lang string) (string, bool) {
	if ent := s.entity(); ent != "" {
		for _, c := range s.ruleConcepts() {
			if act := firstPhrase(c, lang, "action"); act != "" {
				if lang == "es" {
					return "Ahora se permite " + act + " en " + ent + ".", true
				}
				return "The assistant may now " + act + " the " + ent + ".", true
			}
		}
	}
	acts := s.forbiddenBySource()
	if len(acts) == 0 {
		return "", false
	}
	if lang == "es" {
		return "Ahora se permite " + acts[0] + ".", true
	}
	return "The assistant may now " + acts[0] + ".", true
}

// SourceLang returns the language of the rule's statement where a
// pattern matches (its sentences), else of the whole statement; "" when
// neither says. The rule's own sentence decides: a list of prohibitions
// after it ("No apply, no restart") is no sign of Spanish.
func (s *Subject) SourceLang() string {
	t := s.Source
	if t == nil {
		return ""
	}
	sents := map[int]bool{}
	for ci, c := range t.clauses {
		for _, re := range s.Patterns {
			if len(t.matchesIn(ci, re)) > 0 {
				sents[c.Sent] = true
			}
		}
	}
	var b strings.Builder
	for _, c := range t.clauses {
		if sents[c.Sent] {
			b.WriteString(t.s[c.A:c.B])
			b.WriteByte(' ')
		}
	}
	if l := Language(b.String()); l != "" {
		return l
	}
	return Language(t.s)
}
