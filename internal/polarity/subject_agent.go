package polarity

import (
	"regexp"
	"strings"
	"sync"
)

// What the reference agent (package agents) and selftest's planted
// variants need of a rule's subject beyond what the checks need: a subject
// read from the clause a pattern matches alone, the words to state its
// opposite or a permission in, a question that permits nothing, and the
// literal texts of a pattern read once per pattern.

// Lang guesses the language of a text, "en" or "es", from its function
// words.
func Lang(text string) string {
	x := New(text)
	x.build()
	return x.lang()
}

// pairIn returns the rule's antonym pair in lang when it has one, else
// its first; ok is false when the rule sets no state.
func (s *Subject) pairIn(lang string) (Pair, bool) {
	if len(s.pairs) == 0 {
		return Pair{}, false
	}
	tab := classesOf()
	for _, p := range s.pairs {
		if tab.pairs[p].Lang == lang {
			return tab.pairs[p], true
		}
	}
	return tab.pairs[s.pairs[0]], true
}

// entity returns the content word of the rule's statement that names
// what the rule is about: the first that is no word of the state's own
// phrases ("read" of "read-only", "legal" of "legal hold") and no adverb.
func (s *Subject) entity(pr Pair) string {
	tab := classesOf()
	own := map[string]bool{}
	for _, e := range []int{pr.States, pr.Opposites, pr.Action} {
		seqs, _ := expand(tab.entries[e].Phrase)
		for _, q := range seqs {
			for _, tk := range tokenize(q) {
				own[tk.low] = true
			}
		}
	}
	for _, w := range s.entityOrder {
		if !own[w] && !strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "mente") {
			return w
		}
	}
	return ""
}

// OppositeLine states the rule's subject in the opposite of the state
// the rule sets, in the form of its antonym pair's own example ("The
// investigation is now writable.", "The database failover can now be done
// unilaterally.", "La sesion ahora es escritura."): a clause that
// contradicts the rule by antonym. ok is false when the rule sets no state
// the antonym table holds, or its statement names nothing to give it to.
func (s *Subject) OppositeLine(lang string) (string, bool) {
	pr, ok := s.pairIn(lang)
	if !ok {
		return "", false
	}
	ent := s.entity(pr)
	if ent == "" {
		return "", false
	}
	opps, _ := expand(classesOf().entries[pr.Opposites].Phrase)
	if len(opps) == 0 {
		return "", false
	}
	return exampleLine(pr.Example, ent, opps[0]), true
}

// exampleLine fills a pair's example: <…> is the entity, {O} the
// opposite.
func exampleLine(example, entity, opposite string) string {
	out := example
	if i, j := strings.Index(out, "<"), strings.Index(out, ">"); i >= 0 && j > i {
		out = out[:i] + entity + out[j+1:]
	}
	return strings.Replace(out, "{O}", opposite, 1)
}

// PermissionLine grants what the rule forbids: an action of the state it
// sets, done to its subject ("The assistant may now write the
// investigation.", "Ahora se permite escribir en sesion."), or else an
// action its statement negates, as written ("The assistant may now
// push."). ok is false when the rule forbids no action the reader finds.
func (s *Subject) PermissionLine(lang string) (string, bool) {
	if pr, ok := s.pairIn(lang); ok {
		ent := s.entity(pr)
		acts, _ := expand(classesOf().entries[pr.Action].Phrase)
		if ent != "" && len(acts) > 0 {
			if lang == "es" {
				return "Ahora se permite " + acts[0] + " en " + ent + ".", true
			}
			return "The assistant may now " + acts[0] + " the " + ent + ".", true
		}
	}
	if len(s.actionOrder) == 0 {
		return "", false
	}
	if lang == "es" {
		return "Ahora se permite " + s.actionOrder[0] + ".", true
	}
	return "The assistant may now " + s.actionOrder[0] + ".", true
}

// ClauseSubject is RuleSubject for a pattern that may be any fact, read
// where it is stated (the reference agent's requires, selftest's planted
// variants): the states it sets and the actions it forbids come from the
// words the patterns match alone ("read-only", "must not push"), not from
// the rest of the clause or the sentences around it, which may be about
// anything else ("egress is allowed by allow-db-egress" states a fact, not
// a rule against allowing); its entities from the clause the patterns
// match.
func ClauseSubject(patterns []*regexp.Regexp, statements ...string) *Subject {
	return ruleSubject(true, patterns, texts(statements))
}

// ClauseSubjectOf is ClauseSubject on statements already read (a caller
// that holds the Text of each: the reference agent's view), so they are
// not read again.
func ClauseSubjectOf(patterns []*regexp.Regexp, statements ...*Text) *Subject {
	return ruleSubject(true, patterns, statements)
}

// changeNegation reports whether a negation states a change rather than a
// prohibition: "protobuf is no longer pinned" ends the pin, it does not
// forbid pinning, so ClauseSubject learns no action from it.
func changeNegation(phrase string) bool {
	switch strings.Join(strings.Fields(strings.ToLower(phrase)), " ") {
	case "no longer", "not any more", "not anymore", "no more", "ya no":
		return true
	}
	return false
}

// textStrings returns the text of each.
func textStrings(xs []*Text) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.s
	}
	return out
}

func texts(statements []string) []*Text {
	out := make([]*Text, len(statements))
	for i, st := range statements {
		out[i] = New(st)
	}
	return out
}

// addAction records w as an action the rule forbids.
func (s *Subject) addAction(acts map[string]bool, w string) {
	st := stem(w)
	if len(st) < 3 || strings.ContainsAny(st, "0123456789") {
		return
	}
	if !acts[st] {
		s.actionOrder = append(s.actionOrder, w)
	}
	acts[st] = true
}

// question reports whether clause cl is a question: the mark after it is
// "?", or "¿" opens it.
func (x *Text) question(cl int) bool {
	c := &x.clauses[cl]
	if len(c.toks) == 0 {
		return false
	}
	first, last := c.toks[0], c.toks[len(c.toks)-1]
	for i := last + 1; i < len(x.toks); i++ {
		if tk := x.toks[i]; !tk.word {
			if tk.low == "?" {
				return true
			}
			if x.separator(i) != "" {
				break
			}
			continue
		}
		break
	}
	return first > 0 && x.toks[first-1].low == "¿"
}

// literalTexts of a pattern, by its source: a pattern is read for every
// context it is asked of (each arm of each probe), its words once.
var literalCache sync.Map // string -> []*Text

// literalTextsOf is literalTexts, each as a Text, kept by the pattern's
// source. The slice and the Texts are shared: a Text is safe for
// concurrent use, and callers only read them.
func literalTextsOf(re *regexp.Regexp) []*Text {
	if v, ok := literalCache.Load(re.String()); ok {
		return v.([]*Text)
	}
	out := texts(literalTexts(re))
	literalCache.Store(re.String(), out)
	return out
}

// AddEntities adds to a RequirementSubject the entities of clauses that
// state the requirement without a match of its patterns (a clause found by
// concept in another language: "la sesion es de solo lectura" gives
// "sesion"), so a clause that gives them the opposite state contradicts it
// ("la sesion es de lectura y escritura"). It returns s.
func (s *Subject) AddEntities(clauses ...string) *Subject {
	for _, c := range clauses {
		x := New(c)
		x.buildClasses()
		s.learn(x, 0, len(c), map[string]bool{}, map[int]bool{}, true)
	}
	return s
}
