package meaning

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
	hits := t.hitsOf(ci, Done, NotDone, Negation, Hedge, Presupposition, Counterfactual)
	for _, h := range hits {
		cue := quote(t.words(h.T0, h.T1))
		n, negated := t.negationBefore(ci, h.T0)
		switch {
		case h.Class == NotDone && !negated:
			g.keep("unfinished: "+cue, h)
		case h.Class == NotDone:
			g.against("its being unfinished denied: "+quote(t.words(n.T0, h.T1)), h, n)
		case h.Class == Done && negated:
			g.keep("not finished: "+quote(t.words(n.T0, h.T1)), h, n)
		case h.Class == Done && t.hedged(hits):
			g.unclear = "inferred to be finished: " + cue
			g.used = append(g.used, h)
		case h.Class == Done:
			g.against("said to be finished: "+cue, h)
		case h.Class == Presupposition && !t.valueAt(h.T1) || h.Class == Counterfactual:
			g.unclear = "taken as finished: " + cue
			g.used = append(g.used, h)
		}
	}
	if g.aff == "" && g.opp == "" && g.unclear == "" && !id {
		return signals{} // another fact of its arguments: not about the call
	}
	return g
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
