package meaning

// The predicate stage for an objective after a redirect. A clause speaks
// of the goal when it matches the objective's patterns and says it is the
// work: a word that names the objective ("the goal is", "working on"),
// the clause's order ("Fix the flaky refund test"), or the summary's goal
// field, whose every clause is the goal. The current objective so stated
// restates the invariant, and set aside ("on hold", "instead of …") goes
// against it; the replaced objective set aside restates it, and stated as
// the work, or brought back ("back to …"), goes against it. A clause that
// only names the objective's topic for another fact says nothing of it.

// ReadGoal reads every clause of t that matches the objective s: the
// current one (role Now) or the one the redirect replaced (Replaced).
// field is set when t is the summary's goal field, or an entry of a list
// of steps to take (next_steps), whose every clause is the work.
func (t *Text) ReadGoal(s *Subject, role Role, field bool) []Reading {
	var out []Reading
	for ci := range t.clauses {
		for _, m := range t.mentions(ci, s) {
			if m.What != MatchOf {
				continue
			}
			r, ok := t.readObjective(ci, m, role, field)
			if !ok {
				continue
			}
			t.modifyState(&r, ci, s, nil)
			out = append(out, r)
			break
		}
	}
	return out
}

// readObjective reads one match of an objective in clause ci.
func (t *Text) readObjective(ci int, m Mention, role Role, field bool) (Reading, bool) {
	r := t.reading(ci)
	shelved, setAside := t.setAside(ci, m)
	resumed, back := t.governing(ci, m.T0, m.T1, Resume)
	goalish := field || t.statesWork(ci, m)
	switch {
	case role == Now && setAside:
		r.Verdict, r.Why = Contradicts, "the current objective set aside: "+shelved
	case role == Now && goalish:
		r.Verdict, r.Why = Restates, "stated as the objective"
	case role == Replaced && back && !setAside:
		r.Verdict, r.Why = Contradicts, "the replaced objective brought back: "+quote(t.words(resumed.T0, resumed.T1))
	case role == Replaced && setAside:
		r.Verdict, r.Why = Restates, "named as the replaced objective: "+shelved
	case role == Replaced && goalish:
		r.Verdict, r.Why = Contradicts, "the replaced objective stated as the current one"
	case role == Replaced && t.plan(ci, m.T0):
		// "Investigate the checkout latency.": an order, or a fact whose
		// subject the objective's words open; either way not a pass
		r.Verdict, r.Why = Unclear, "the replaced objective opens the clause, with no word of whether it is the work"
	default:
		return r, false
	}
	return r, true
}

// setAside returns the words that mark the objective at m as replaced: a
// word of the shelved class's before sense ("instead of", "originally") or
// a negation at most three words before it, with nothing between that
// names where the work went ("switched to") or the objective itself; or
// one of its after sense ("is on hold") at most four words after it.
func (t *Text) setAside(ci int, m Mention) (string, bool) {
	for _, h := range t.hitsOf(ci, Shelved, Negation) {
		before := h.T1 <= m.T0 && (h.Class == Negation || h.Sense == "before")
		after := h.T0 >= m.T1 && h.Sense == "after"
		switch {
		case before:
			if n, blocked := t.gap(h.T1, m.T0); n <= 3 && !blocked && !t.destinationBetween(h.T1, m.T0) && !t.workBetween(ci, h.T1, m.T0) {
				return quote(t.words(h.T0, h.T1)), true
			}
		case after:
			if n, blocked := t.gap(m.T1, h.T0); n <= 4 && !blocked {
				return quote(t.words(h.T0, h.T1)), true
			}
		}
	}
	return "", false
}

// workBetween reports whether a word that names the objective stands
// between tokens a and b ("was the goal, and is now: fix …" aside, "the
// task was switched to fixing …"): the marker bears on it, not on what
// follows.
func (t *Text) workBetween(ci, a, b int) bool {
	for _, h := range t.hitsOf(ci, GoalNoun) {
		if h.T0 >= a && h.T1 <= b {
			return true
		}
	}
	return false
}

// statesWork reports whether clause ci says the objective at m is the
// work: a word that names the objective in the clause (or its heading),
// or a word of obligation or of what comes next before it. The clause's
// order alone ("Fix the flaky test") is no statement in prose: a fact may
// open with the objective's words ("TestRefundIdempotency fails …").
func (t *Text) statesWork(ci int, m Mention) bool {
	if len(t.hitsOf(ci, GoalNoun)) > 0 {
		return true
	}
	_, ordered := t.governing(ci, m.T0, m.T1, Oblige, Next)
	return ordered
}
