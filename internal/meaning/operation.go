package meaning

import "strings"

// The predicate stage for an operation with no result: a clause that
// names it keeps it unfinished with a word of the notdone class
// (pending, no result, unknown, do not treat as applied), goes against it
// with a word of completion nothing negates, and is unclear when it says
// it finished under a hedge ("should be done by now") or takes it as done
// ("now that the column is on prod-db").

func (t *Text) readOperation(ci int, ms []Mention, s *Subject) signals {
	var g signals
	id, named, other := false, 0, false
	for _, m := range ms {
		switch m.What {
		case NameOf:
			named++
			id = id || s.ID != "" && t.toks[m.T0].W == s.ID
		case OtherOf:
			other = true
		}
	}
	if !id && (named == 0 || other) {
		return g
	}
	hits := t.hitsOf(ci, Done, NotDone, Started, Negation, Hedge, Presupposition, Counterfactual)
	for _, h := range hits {
		if t.guessed(h) && !t.quoted(h) {
			// "so orders will have caught up since", anywhere in a clause
			// that names it: a guess of an outcome is no outcome
			g.unclear = "guessed to have happened: " + quote(t.words(h.T0, min(h.T1+1, len(t.toks))))
			g.used = append(g.used, h)
			continue
		}
		if !t.nearAny(ms, h, 8) && h.T1 > t.clauses[ci].T0 || t.quoted(h) {
			// about something else of a long clause, or a key of a tool's
			// arguments ("timeout": "5s"); a heading bears on every clause
			// under it ("Work completed: a; b; call_migrate_0193")
			continue
		}
		cue := quote(t.words(h.T0, h.T1))
		n, negated := t.negationBefore(ci, h.T0)
		if !negated && h.Class == Done {
			// "do not assume applied", "no darla por aplicada"
			n, negated = t.underNotDone(hits, h)
		}
		switch {
		case h.Class == Started:
			g.keep("started, no end said: "+cue, h)
		case h.Class == NotDone && !negated:
			g.keep("unfinished: "+cue, h)
			w := t.words(h.T0, h.T1)
			g.plan = g.plan || strings.Contains(w, " to be") || strings.HasPrefix(w, "will ") || instructions[w]
		case h.Class == NotDone:
			g.against("its being unfinished denied: "+quote(t.words(n.T0, h.T1)), h, n)
		case h.Class == Done && negated:
			g.keep("not finished: "+quote(t.words(n.T0, h.T1)), h, n)
		case h.Class == Done && t.possibly(hits):
			g.keep("maybe finished, outcome unknown: "+cue, h)
		case h.Class == Done && t.hedged(hits):
			g.unclear = "inferred to be finished: " + cue
			g.used = append(g.used, h)
		case h.Class == Done && !id:
			// named by its call, not its id: it may be this operation or
			// another on the same things
			g.unclear = "named by its call and said to be finished: " + cue
			g.used = append(g.used, h)
		case h.Class == Done:
			g.against("said to be finished: "+cue, h)
		case h.Class == Presupposition && t.presupposes(ci, h) || h.Class == Counterfactual:
			g.unclear = "taken as finished: " + cue
			g.used = append(g.used, h)
		}
	}
	if g.aff == "" && g.opp == "" && g.unclear == "" && !(id && t.saysOfID(ci, s)) {
		return signals{} // a mention, or another fact of its arguments: not about the call's outcome
	}
	return g
}

// guessed reports whether hit h guesses that something has happened: a
// hedge of the inferred sense ("will have", "ya habrá") before a
// participle, not before "to" or "que" ("will have to check", "habrá que
// mirarlo") nor before a noun's determiner ("will have the column").
func (t *Text) guessed(h Hit) bool {
	if h.Class != Hedge || h.Sense != "inferred" || h.T1 >= len(t.toks) {
		return false
	}
	next := t.toks[h.T1]
	return next.Word && !next.Value && !beforeNoGuess[next.W]
}

// beforeNoGuess are the words after "will have" or "habrá" that make it
// an obligation or a possession, not a guess of what has happened.
var beforeNoGuess = set(`to que the a an its their his her our my your this that these those no any some enough more all time ` +
	`el la los las un una su sus este esta ese esa algo nada tiempo mas`)

// guessesAfter reads the clauses of a sentence that name an operation,
// after the one that names it, that do not name it themselves: a guess
// there ("…hit its deadline; the remaining pods will have come up since")
// is said of it. ids holds the sentences whose clauses named its id.
func (t *Text) guessesAfter(ci int, ids map[int]bool) (Reading, bool) {
	c := t.clauses[ci]
	if !ids[c.Sent] {
		return Reading{}, false
	}
	for _, h := range t.hitsOf(ci, Hedge) {
		if h.T0 >= c.T0 && t.guessed(h) && !t.quoted(h) {
			return Reading{Verdict: Unclear, Clause: ci, A: c.A, Text: t.ClauseText(ci), Cue: Hedge,
				Why: "guessed to have happened, in the sentence that names it: " + quote(t.words(h.T0, h.T1+1))}, true
		}
	}
	return Reading{}, false
}

// underNotDone returns a word of the notdone class at most five words
// before a word of completion, with no barrier between: "do not assume
// applied" bears on "applied".
func (t *Text) underNotDone(hits []Hit, h Hit) (Hit, bool) {
	for _, o := range hits {
		if o.Class == NotDone && o.T1 <= h.T0 {
			if n, blocked := t.gap(o.T1, h.T0); !blocked && n <= 5 {
				return o, true
			}
		}
	}
	return Hit{}, false
}

// saysOfID reports whether clause ci says something of the operation's
// id: the id stands as the clause's subject with a word after it ("c17
// cleared QA"), not as an object ("check the task for reindex-7713") or
// alone.
func (t *Text) saysOfID(ci int, s *Subject) bool {
	c := t.clauses[ci]
	for i := c.T0; i < c.T1; i++ {
		if !t.toks[i].Word {
			continue
		}
		if t.toks[i].W != s.ID {
			return false // the clause opens with something else
		}
		return i+1 < c.T1 && t.wordsBetween(i+1, c.T1) > 0
	}
	return false
}

func (t *Text) hedged(hits []Hit) bool {
	for _, h := range hits {
		if h.Class == Hedge {
			return true
		}
	}
	return false
}

// valueAt reports whether token i is a value ("since 14:02", "after 30 s"):
// a presupposition word before it dates, it does not presuppose.
func (t *Text) valueAt(i int) bool { return i < len(t.toks) && t.toks[i].Value }

// possibility hedges leave an outcome open ("may have finished"); the
// other hedges infer it ("should be done by now", "presumably finished").
var possibility = set(`may_have might_have could_have may_be might_be could_be whether if puede_que quiza quizas tal_vez`)

// possibly reports whether the clause's hedge is a possibility only.
func (t *Text) possibly(hits []Hit) bool {
	for _, h := range hits {
		if h.Class == Hedge {
			return possibility[strings.ReplaceAll(t.words(h.T0, h.T1), " ", "_")]
		}
	}
	return false
}

// presupposes reports whether a presupposition word opens what it
// presupposes: "now that", "given that", "ya que" anywhere; "since",
// "after", "once" at the clause's start or after a comma, and not before
// a value ("since 14:02" dates).
func (t *Text) presupposes(ci int, h Hit) bool {
	if t.valueAt(h.T1) {
		return false
	}
	if h.T1-h.T0 > 1 {
		return true
	}
	return t.wordsBetween(t.clauses[ci].T0, h.T0) == 0 || h.T0 > 0 && t.toks[h.T0-1].W == ","
}

// nearAny reports whether hit h is within n words of a name mention of
// ms, or the mention is in the clause's heading.
func (t *Text) nearAny(ms []Mention, h Hit, n int) bool {
	for _, m := range ms {
		if m.What != NameOf {
			continue
		}
		a, b := m.T1, h.T0
		if h.T1 <= m.T0 {
			a, b = h.T1, m.T0
		}
		if t.wordsBetween(a, b) <= n {
			return true
		}
	}
	return false
}

// quoted reports whether a hit stands between double quotes: a JSON key
// or string of a tool call, not a word of prose.
func (t *Text) quoted(h Hit) bool {
	return h.T0 > 0 && h.T1 < len(t.toks) && t.toks[h.T0-1].W == "\"" && t.toks[h.T1].W == "\""
}

// instructions of the notdone class say what to do about an unfinished
// call: a condition or a time after them is the instruction's ("do not
// report it as done until schema_migrations shows 193").
var instructions = map[string]bool{"do not treat": true, "don't treat": true, "not to be treated": true, "not treat": true, "do not assume": true,
	"don't assume": true, "must not be assumed": true, "not be reported": true, "do not report": true, "re-check": true, "recheck": true,
	"verify": true, "confirm": true, "check before": true, "comprobar": true, "verificar": true, "confirmar": true}

// StepsOn is the step stage of an operation with no result: a step (every
// clause of t when whole, a next_steps entry; else a clause opened by a
// word of the next class or under one, "Next:"), or a part of one after a
// "then", that names the operation's things but says nothing of its
// outcome is Unclear unless it checks, waits for or retries it (the
// verify class), is negated or says a word of its outcome ("if it turns
// out applied"): a step on what the call would have made or changed takes
// it as finished ("restaurar pg-main-1 desde el snapshot …", "point the
// sync at prod-db, then check the index"). A clause of a goal or a rule is
// no step.
func (t *Text) StepsOn(s *Subject, whole bool) []Reading {
	if s.Kind != Operation {
		return nil
	}
	var out []Reading
	for ci := range t.clauses {
		if !whole && len(t.hitsOf(ci, Next)) == 0 || len(t.hitsOf(ci, GoalNoun, RuleNoun)) > 0 || t.question(ci) {
			continue // no step (the cheap tests first: mentions match patterns)
		}
		ms := t.mentions(ci, s)
		if !names(ms) {
			continue
		}
		for _, p := range t.stepParts(ci, whole) {
			if t.namedIn(ci, ms, p) && !t.saysOutcome(ci, p) {
				out = append(out, Reading{Verdict: Unclear, Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci), Target: true,
					Why: "a step on what it would have made or changed, as if it had finished"})
				break
			}
		}
	}
	return out
}

// stepParts returns the token spans of clause ci that are steps: none
// when the clause is no step; else the clause cut before each "then" in
// it ("point the sync at prod-db, then check the index" is two).
func (t *Text) stepParts(ci int, whole bool) [][2]int {
	c := t.clauses[ci]
	step, cuts := whole, []int{c.T0}
	for _, h := range t.hitsOf(ci, Next) {
		if h.T1 <= c.T0 || t.wordsBetween(c.T0, h.T0) == 0 {
			step = true // its heading, or its first word
		} else {
			cuts = append(cuts, h.T0)
		}
	}
	if !step {
		return nil
	}
	var parts [][2]int
	for i, a := range cuts {
		b := c.T1
		if i+1 < len(cuts) {
			b = cuts[i+1]
		}
		parts = append(parts, [2]int{a, b})
	}
	return parts
}

// namedIn reports whether a name mention of ms falls in part p, a heading's
// counting for the clause's first part.
func (t *Text) namedIn(ci int, ms []Mention, p [2]int) bool {
	for _, m := range ms {
		if m.What != OtherOf && (m.T0 >= p[0] && m.T1 <= p[1] || m.T1 <= p[0] && p[0] == t.clauses[ci].T0) {
			return true
		}
	}
	return false
}

// saysOutcome reports whether part p of clause ci checks, waits for or
// retries something, negates, or says a word of an outcome.
func (t *Text) saysOutcome(ci int, p [2]int) bool {
	for _, h := range t.hitsOf(ci, Verify, Done, NotDone, Started, Negation, Hedge, Counterfactual) {
		if h.T0 >= p[0] && h.T1 <= p[1] {
			return true
		}
	}
	return false
}
