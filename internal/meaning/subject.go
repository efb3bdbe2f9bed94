package meaning

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Kind is what an invariant's subject is.
type Kind int

// The kinds of subject.
const (
	// Rule: a constraint; its predicate is the state it sets and the
	// actions it forbids.
	Rule Kind = iota
	// Claim: a refuted hypothesis; its predicate is that it was refuted.
	Claim
	// Operation: a tool call with no result; its predicate is that it did
	// not finish.
	Operation
	// Artifact: the live file of a group of lookalikes; its predicate is
	// which one is live.
	Artifact
	// Fact: a statement that must hold (a refutation's conclusion); a
	// plain statement keeps it, a negation or a retraction goes against it.
	Fact
)

// Subject is what an invariant is about, as the stages read it.
type Subject struct {
	Kind Kind
	// Patterns are the invariant's match patterns, compiled for folded
	// text (a rule's words, a hypothesis).
	Patterns []*regexp.Regexp
	// Names bind a clause to the subject: a rule's targets, an
	// operation's id and the arguments that tell its call apart, the live
	// paths of an artifact. Lower-cased, compared as whole tokens.
	Names []string
	// ID is an operation's op id (one of Names): a clause that names it is
	// about the call; one that names only its arguments must also say
	// something of its outcome.
	ID string
	// Others are the names of something else of the same kind: a
	// lookalike path, another call's target. With Shaped set, a token
	// shaped as one of Names (prod-eu-2 beside prod-us-2) counts as
	// another too.
	Others []string
	Shaped bool
	// Actions are the words of what a rule forbids (push, pushing, apply),
	// or, with Obliged set, of what it requires.
	Actions map[string]bool
	// Listed are the action concepts a rule's source forbids by name, when
	// it names two or more ("no apply, no restart, no scaling"): a
	// restatement that names only some of them narrows the rule.
	Listed []string
	// Obliged is set for a rule that requires an action ("always run mix
	// format"): an obligation on it keeps the rule, a negation or a
	// prohibition goes against it.
	Obliged bool
	// States and Opposites are the phrases of the state a rule sets and of
	// its opposite (read-only; read-write), as lower-cased words.
	States, Opposites [][]string
	// bounds are the sides of a comparison a fact's patterns name
	// (bounds.go).
	bounds map[string]bool
	// lits are the literal words of the patterns (of a claim and a fact):
	// a negation among them is the subject's own words ("nobody ran
	// ANALYZE" as a hypothesis), and so is a bound ("max").
	lits map[string]bool
	// Lang is the language of the subject's patterns ("en", "es" or ""): a
	// clause in another language may name it by its names alone.
	Lang string
	// Source is the statement the invariant comes from (the event that
	// states the rule, asks the hypothesis, makes the call), read: a
	// modifier of a clause is accounted for when the source carries it.
	Source *Text

	// words indexes what binds a clause to the subject by its first word:
	// built on first use; a Subject must not change after it is read.
	once     sync.Once
	words    map[string][]ref
	triggers []string // the keys of words
}

// ref is a phrase of a subject that starts with some word.
type ref struct {
	what  What
	words []string
}

// index builds s.words.
func (s *Subject) index() map[string][]ref {
	s.once.Do(func() {
		s.words = map[string][]ref{}
		add := func(w What, ws []string) {
			if len(ws) > 0 {
				s.words[ws[0]] = append(s.words[ws[0]], ref{w, ws})
			}
		}
		for _, n := range s.Names {
			add(NameOf, []string{n})
		}
		for _, n := range s.Others {
			add(OtherOf, []string{n})
		}
		for a := range s.Actions {
			add(ActionOf, []string{a})
		}
		for _, p := range s.States {
			add(StateOf, p)
		}
		for _, p := range s.Opposites {
			add(OppositeOf, p)
		}
		s.triggers = make([]string, 0, len(s.words))
		for w := range s.words {
			s.triggers = append(s.triggers, w)
		}
	})
	return s.words
}

// Triggers returns the first words of everything that binds a clause to
// the subject but its patterns: a text holding none of them, and no match
// of a pattern, is not about the subject.
// The list is built once with the index and shared: callers must not
// modify it.
func (s *Subject) Triggers() []string {
	s.index()
	return s.triggers
}

// What a mention is.
type What int

// The mentions of a subject in a clause.
const (
	MatchOf What = iota
	NameOf
	OtherOf
	ActionOf
	StateOf
	OppositeOf
)

// Mention is where a clause names its subject: tokens T0 to T1. Ref is
// set for a pointer by position ("the former", anaphora.go): the mention
// it points at.
type Mention struct {
	What   What
	T0, T1 int
	Ref    *Mention
}

// mentions is the subject stage: where clause ci names s, in token order;
// a heading's mentions come first ("read-only: suspended for the hotfix").
func (t *Text) mentions(ci int, s *Subject) []Mention {
	var out []Mention
	if h := t.clauses[ci].Heading; h >= 0 {
		out = t.clauseMentions(h, s)
	}
	return t.withPointers(ci, s, append(out, t.clauseMentions(ci, s)...))
}

// clauseMentions is mentions within clause ci alone.
func (t *Text) clauseMentions(ci int, s *Subject) []Mention {
	var out []Mention
	for _, re := range s.Patterns {
		for _, m := range t.matchesIn(ci, re) {
			if t0, t1 := t.tokenRange(ci, m[0], m[1]); t0 >= 0 {
				out = append(out, Mention{What: MatchOf, T0: t0, T1: t1})
			}
		}
	}
	c := t.clauses[ci]
	idx := s.index()
	for i := c.T0; i < c.T1; i++ {
		tk := t.toks[i]
		if !tk.Word {
			continue
		}
		var best [OppositeOf + 1]int
		found := false
		refs := idx[tk.W]
		if stem, ok := strings.CutSuffix(tk.W, "'s"); ok {
			refs = append(refs[:len(refs):len(refs)], idx[stem]...) // "Cloudflare's tiered cache"
		}
		for _, r := range refs {
			if n := len(r.words); n > best[r.what] && phraseAt(t.toks, i, c.T1, [][]string{r.words}) > 0 {
				best[r.what], found = n, true
			}
		}
		if !found && s.Shaped && tk.Value && shapedLike(tk.W, s.Names) {
			best[OtherOf] = 1
		}
		for _, w := range []What{NameOf, OtherOf, ActionOf, StateOf, OppositeOf} {
			if n := best[w]; n > 0 {
				out = append(out, Mention{What: w, T0: i, T1: i + n})
			}
		}
	}
	return out
}

// phraseAt returns the length in tokens of the longest of phrases that
// starts at toks[i] and ends by end, or 0.
func phraseAt(toks []Token, i, end int, phrases [][]string) int {
	best := 0
	for _, p := range phrases {
		if len(p) <= best || i+len(p) > end {
			continue
		}
		ok := true
		for k, w := range p {
			tw := toks[i+k].W
			if k == len(p)-1 {
				tw = strings.TrimSuffix(tw, "'s") // a possessive names it too
			}
			ok = ok && tw == w
		}
		if ok {
			best = len(p)
		}
	}
	return best
}

// Shape is a token's outline: each run of letters a, of digits 9, the
// joiners kept ("prod-eu-2" and "prod-us-2" are both "a-a-9").
func Shape(w string) string {
	var b strings.Builder
	last := rune(0)
	for _, r := range w {
		c := r
		switch {
		case unicode.IsLetter(r):
			c = 'a'
		case unicode.IsDigit(r):
			c = '9'
		}
		if c != last || (c != 'a' && c != '9') {
			b.WriteRune(c)
		}
		last = c
	}
	return b.String()
}

// shapedLike reports whether w has the shape of one of names without
// being one: another host, another cluster, another file.
func shapedLike(w string, names []string) bool {
	sw := Shape(w)
	for _, n := range names {
		if n != w && Shape(n) == sw && sharesPart(n, w) {
			return true
		}
	}
	return false
}

// sharesPart reports whether two names share a part between their
// joiners (prod-eu-2 and prod-us-2 share "prod"): a name of the same shape
// from another family (v1.2.3 beside 10.0.0.1) is no lookalike.
func sharesPart(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	pa := split(a)
	for _, p := range split(b) {
		for _, q := range pa {
			if p == q && len(p) >= 2 {
				return true
			}
		}
	}
	return false
}

// Words returns text's words (lower-cased tokens), for building names and
// phrases from a scenario's words.
func Words(text string) []string {
	var out []string
	for _, t := range tokenize(text) {
		if t.Word {
			out = append(out, t.W)
		}
	}
	return out
}
