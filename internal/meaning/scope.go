package meaning

// What a cue bears on: a negation reaches the next few words, a deontic
// word the action it governs, an artifact's or a value's marker the name
// beside it.

// barriers stop a cue from reaching past them.
var barriers = set(`, ( ) [ ] but because so which that who whose whereas while when if unless until since although though mientras cuando si hasta aunque pero porque que cuyo cual`)

// negationBefore returns the negation that bears on token i of clause ci:
// a negation ending at most three words before it with no barrier between,
// or a negative subject ("nothing", "nadie") earlier in the clause with no
// comma between.
func (t *Text) negationBefore(ci, i int) (Hit, bool) {
	for _, h := range t.hitsOf(ci, Negation, Forbid, Permit, Oblige, Reluctance, Retract, Open, NotDone, Stale, Cancel, Holds) {
		if h.Class != Negation && !(h.Class == Forbid && t.holdsNegation(h)) || h.T1 > i || h.T0 < t.start(ci) {
			continue // a prohibition with its own negation ("may not", "must not") negates too
		}
		gap, blocked := t.gap(h.T1, i)
		if h.Sense == "subject" && !t.commaBetween(h.T1, i) || gap <= 3 && !blocked {
			return h, true
		}
	}
	return Hit{}, false
}

// gap counts the words between tokens a and b, and whether a barrier
// stands between them.
func (t *Text) gap(a, b int) (int, bool) {
	n := 0
	for k := a; k < b; k++ {
		if barriers[t.toks[k].W] {
			return n, true
		}
		if t.toks[k].Word {
			n++
		}
	}
	return n, false
}

func (t *Text) commaBetween(a, b int) bool {
	for k := a; k < b; k++ {
		if t.toks[k].W == "," || t.toks[k].W == ";" {
			return true
		}
	}
	return false
}

// governing returns the hit of classes that bears on tokens a to b of
// clause ci: the nearest one ending at most six words before a, or else
// the nearest starting at most four words after b ("pushing is
// forbidden"), with no barrier between.
func (t *Text) governing(ci, a, b int, classes ...Class) (Hit, bool) {
	var best Hit
	found := false
	for _, h := range t.hitsOf(ci, classes...) {
		if h.T1 <= a {
			n, blocked := t.gap(h.T1, a)
			if blocked && t.actionList(h.T1, a) {
				// "may apply, restart and change prod": a list of actions
				// shares what governs its first
				n, blocked = 0, false
			}
			if !blocked && n <= 6 && (!found || h.T1 > best.T1 || best.T0 >= b) {
				best, found = h, true
			}
		}
	}
	if found {
		return best, true
	}
	for _, h := range t.hitsOf(ci, classes...) {
		if h.T0 >= b {
			if n, blocked := t.gap(b, h.T0); !blocked && n <= 4 {
				return h, true
			}
		}
	}
	return Hit{}, false
}

// planWords before an action make it a plan: "will push", "next: apply".
var planWords = set(`will 'll shall going plan plans planned about next then now voy vamos va van vamos_a luego despues proceed proceeds go`)

// leadWords may open a clause before an imperative.
var leadWords = set(`then next please also and step now finally first luego despues entonces primero ademas y`)

// plan reports whether token i of clause ci is an action stated as a plan
// or an order: the clause's first word (after lead words and numbers), or
// right after a word of plan.
func (t *Text) plan(ci, i int) bool {
	c := t.clauses[ci]
	first := c.T0
	for first < i && (!t.toks[first].Word || leadWords[t.toks[first].W] || t.toks[first].Value) {
		first++
	}
	if first == i {
		return true
	}
	for k := i - 1; k >= c.T0 && k >= i-2; k-- {
		if planWords[t.toks[k].W] {
			return true
		}
	}
	return false
}

// actionList reports whether tokens a to b are a list of actions: words
// of action, joined by commas and coordinators, with at most two other
// words (a determiner, an adverb) in all.
func (t *Text) actionList(a, b int) bool {
	acts, other := 0, 0
	for k := a; k < b; k++ {
		w := t.toks[k].W
		switch {
		case w == "," || coordinators[w]:
		case len(conceptsOf().byAction[w]) > 0:
			acts++
		case t.toks[k].Word:
			other++
		default:
			return false
		}
	}
	return acts > 0 && other <= 2
}

// negationWords are the single words that negate.
var negationWords = set(`not never no cannot can't won't mustn't nor nunca no jamas ni`)

// holdsNegation reports whether a hit's words hold a negation.
func (t *Text) holdsNegation(h Hit) bool {
	for k := h.T0; k < h.T1; k++ {
		if negationWords[t.toks[k].W] {
			return true
		}
	}
	return false
}
