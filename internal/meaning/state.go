package meaning

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The typed state of a workflow (issue 39): an approval, the current goal
// after a redirect, the next allowed step. Each is read by a reader of its
// own (ReadApproval, ReadGoal, ReadStep) with the stages every reader
// shares: the subject's mentions, the classes of words.tsv near them, the
// modifiers the subject's source does not carry.

// The kinds of typed state. Their values stand apart from the kinds
// Read knows, which never reads them.
const (
	// Approval: an approval; its predicate is that it holds, or, once its
	// expiry passed or its resource changed, that it no longer does.
	Approval Kind = 16 + iota
	// Goal: an objective; the current one after a redirect, or the one
	// the redirect replaced.
	Goal
	// Step: a step of a workflow; the next allowed one, a later one, or
	// the gate the later ones wait for.
	Step
)

// The classes of the typed state (words.tsv).
const (
	// Approve: a word of approval; sense verb or noun.
	Approve Class = "approve"
	// Invalid: an approval that no longer holds.
	Invalid Class = "invalid"
	// Unapproved: an approval missing, refused or needed again.
	Unapproved Class = "unapproved"
	// Universal: a word that widens what it governs to everything of its
	// kind.
	Universal Class = "universal"
	// GoalNoun: a word that names the objective of the work.
	GoalNoun Class = "goalnoun"
	// Shelved: what marks an objective as replaced; sense before or after.
	Shelved Class = "shelved"
	// Resume: what brings a replaced objective back.
	Resume Class = "resume"
	// Next: what presents a step as the one to take now.
	Next Class = "next"
	// Skip: what leaves a step out.
	Skip Class = "skip"
)

// StateSubject builds the subject of one part of a workflow's state: its
// patterns (folded), the statement it comes from, and the names that bind
// a clause to it (an approval's approver, scope and resource), with
// Shaped set when a name of their shape stands for something else
// (eu-west-2 beside eu-west-1, another digest).
func StateSubject(k Kind, patterns []*regexp.Regexp, statement string, names []string, others ...string) *Subject {
	s := &Subject{Kind: k, Patterns: patterns}
	for _, o := range others {
		if w := strings.ToLower(o); w != "" && !slices.Contains(s.Others, w) {
			s.Others = append(s.Others, w)
		}
	}
	if statement != "" {
		s.Source = New(statement)
	}
	seen := map[string]bool{}
	for _, n := range names {
		for _, w := range Words(n) {
			if !seen[w] && len(w) >= 2 && !stopWords[w] {
				seen[w] = true
				s.Names = append(s.Names, w)
				s.Shaped = s.Shaped || isValue(w) || strings.ContainsRune(w, '-')
			}
		}
	}
	return s
}

// Kin returns the tokens of text that are another of name's kind: of
// its shape (v1.9.0 beside v1.9.1), or, for a name with a prefix (a
// digest "sha256:3f9a…", an image "payments-api@sha256:…"), with the same
// prefix and another tail. What an approval was tied to changed into one
// of them.
func Kin(name, text string) []string {
	low := strings.ToLower(name)
	prefix := ""
	if i := strings.LastIndexAny(low, ":@"); i > 0 {
		prefix = low[:i+1]
	}
	var out []string
	for _, tk := range tokenize(strings.ToLower(text)) {
		for _, w := range append([]string{tk.W}, atParts(tk.W)...) {
			if !tk.Value || w == low || slices.Contains(out, w) {
				continue
			}
			if prefix != "" && strings.HasPrefix(w, prefix) && len(w) > len(prefix) || shapedLike(w, []string{low}) {
				out = append(out, w)
			}
		}
	}
	return out
}

// atParts returns the parts of a reference joined by "@" ("payments-api"
// and "sha256:3f9a…" of "payments-api@sha256:3f9a…"), none for a word
// without one.
func atParts(w string) []string {
	if !strings.Contains(w, "@") || strings.Count(w, "@") > 2 {
		return nil
	}
	return strings.Split(w, "@")
}

// stateMentions is mentions, with a name found as a part of a reference
// ("sha256:3f9a…" in "payments-api@sha256:3f9a…").
func (t *Text) stateMentions(ci int, s *Subject) []Mention {
	ms := t.mentions(ci, s)
	c := t.clauses[ci]
	for i := c.T0; i < c.T1; i++ {
		for _, p := range atParts(t.toks[i].W) {
			switch {
			case slices.Contains(s.Names, p):
				ms = append(ms, Mention{What: NameOf, T0: i, T1: i + 1})
			case slices.Contains(s.Others, p):
				ms = append(ms, Mention{What: OtherOf, T0: i, T1: i + 1})
			}
		}
	}
	return ms
}

// stateModifiers are the modifiers a reading of typed state accounts
// for: a condition, an exception, a quantifier, an attribution, a time
// limit, a hedge, a concession, a counterfactual, a question.
var stateModifiers = []Class{Condition, Exception, Quantifier, Attribution, Time, Hedge, Concession, Counterfactual, Question}

// modifyState is the modifier stage of a typed-state reading: a modifier
// the source does not carry (an attribution naming who gave the source,
// the approver, is the source's own) makes a plain reading unclear. used are the hits the predicate read.
func (t *Text) modifyState(r *Reading, ci int, s *Subject, used []Hit) {
	skip := func(h Hit) bool {
		for _, u := range used {
			if u.T0 < h.T1 && h.T0 < u.T1 {
				return true
			}
		}
		return false
	}
	for _, m := range t.modifiers(ci, stateModifiers, skip) {
		if accounted(m, s.Source) || m.Class == Attribution && s.speaker(m) {
			continue
		}
		r.Mods = append(r.Mods, m)
	}
	if t.distanced(ci) {
		r.Reported, r.Verdict = true, Silent
		r.Why = "reported, not stated: " + r.Why
		return
	}
	if len(r.Mods) > 0 && (r.Verdict == Restates || r.Verdict == Contradicts) {
		r.Why = fmt.Sprintf("%s, under %s, which the source does not state", r.Why, describe(r.Mods))
		r.Verdict = Unclear
	}
}

// speaker reports whether an attribution names who gave the source
// statement: the word right after its cue or right before it is one the
// source holds ("according to Dana", "Dana says", where Dana gave the
// approval).
func (s *Subject) speaker(m Modifier) bool {
	if s.Source == nil {
		return false
	}
	var near []string // the word right after the cue, and right before it
	if len(m.Object) > 0 {
		near = append(near, m.Object[0])
	}
	if n := len(m.Before); n > 0 && n <= 2 {
		near = append(near, m.Before[n-1]) // the speaker opens the clause: "Dana says …"
	}
	for _, w := range near {
		if len(w) >= 3 && !stopWords[w] && s.Source.holdsAny([]string{w}) {
			return true
		}
	}
	return false
}

// within reports whether hit h lies within n words of mention m, on either
// side, with no barrier between: the words a cue bears on.
func (t *Text) within(m Mention, h Hit, n int) bool {
	a, b := m.T1, h.T0
	if h.T1 <= m.T0 {
		a, b = h.T1, m.T0
	}
	if b < a {
		return true // they overlap
	}
	gap, blocked := t.gap(a, b)
	return !blocked && gap <= n
}

// reading starts the Reading of clause ci.
func (t *Text) reading(ci int) Reading {
	return Reading{Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci)}
}
