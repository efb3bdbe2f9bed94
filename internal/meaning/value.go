package meaning

import "fmt"

// The predicate stage for a value a check found in a text (a corrected
// value, a quantity): whether the clause states it as the value now, or
// names it as the one replaced.

// Role is what a value is to its invariant.
type Role int

// The roles of a value.
const (
	// Now: the value that holds (a correction's new value, a quantity).
	Now Role = iota
	// Replaced: the value that no longer holds (a correction's old value).
	Replaced
)

// valueModifiers are the modifiers a value's clause reads.
var valueModifiers = []Class{Condition, Exception, Quantifier, Attribution, Time, Hedge, Concession, Counterfactual, Comparison, Approx, Question}

// destination words before a value make it the value a change went to:
// "was cut to 50 rows/s", "replaced by 50", "cambiado a 5432".
var destination = set(`to into by a por as = → -> with becomes became`)

// ReadValue reads the clause around bytes a to b of t, where a check
// found a value of role role; src is the statement the value comes from.
// Restates: stated as the role says (a value now stated plainly, a replaced
// value named as the old one); Contradicts: the opposite (the value now
// negated or named as old; the replaced value stated as current or brought
// back); Unclear: under a modifier src does not carry.
func (t *Text) ReadValue(a, b int, role Role, src *Text) Reading {
	ci := t.ClauseAt(a)
	if ci < 0 {
		return Reading{}
	}
	m := Mention{}
	m.T0, m.T1 = t.tokenRange(ci, a, b)
	r := Reading{Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci)}
	if m.T0 < 0 {
		return r
	}
	marker, old := t.oldMarker(ci, m)
	revert, back := t.governing(ci, m.T0, m.T1, Revert)
	switch {
	case role == Now && old:
		r.Verdict, r.Why = Contradicts, "named as the old value: "+quote(t.words(marker.T0, marker.T1))
	case role == Now:
		r.Verdict, r.Why = Restates, "stated"
	case back:
		r.Verdict, r.Why = Contradicts, "brought back: "+quote(t.words(revert.T0, revert.T1))
	case old:
		r.Verdict, r.Why = Restates, "named as the old value: "+quote(t.words(marker.T0, marker.T1))
	default:
		r.Verdict, r.Why = Contradicts, "stated as the value now"
	}
	if role == Now {
		t.modifyValue(&r, ci, m, src)
	}
	return r
}

// oldMarker returns the word that names the value at m as the old one: a
// word of the old class or a negation at most three words before it (not
// across another value or a destination word), or a word of the old or
// cancel class at most four words after it.
func (t *Text) oldMarker(ci int, m Mention) (Hit, bool) {
	for _, h := range t.hitsOf(ci, Old, Negation, Cancel, Revert) {
		switch {
		case h.Class == Revert:
		case h.T1 <= m.T0 && h.Class != Cancel:
			if n, blocked := t.gap(h.T1, m.T0); n <= 3 && !blocked && !t.valueOrDestination(h.T1, m.T0) {
				return h, true
			}
		case h.T0 >= m.T1 && h.Class != Negation:
			if n, blocked := t.gap(m.T1, h.T0); n <= 4 && !blocked && !t.valueOrDestination(m.T1, h.T0) {
				return h, true
			}
		}
	}
	return Hit{}, false
}

func (t *Text) valueOrDestination(a, b int) bool {
	for k := a; k < b; k++ {
		if t.toks[k].Value || destination[t.toks[k].W] {
			return true
		}
	}
	return false
}

// modifyValue makes a value now unclear under a modifier src does not
// carry: "at least 800 ms" where src says "under 800 ms", "about 30 s",
// "between 50 and 200 rows/s".
func (t *Text) modifyValue(r *Reading, ci int, m Mention, src *Text) {
	for _, md := range t.modifiers(ci, valueModifiers, nil) {
		if !accounted(md, src) {
			r.Mods = append(r.Mods, md)
		}
	}
	if len(r.Mods) > 0 && r.Verdict == Restates {
		r.Verdict = Unclear
		r.Why = fmt.Sprintf("stated under %s, which the source does not state", describe(r.Mods))
	}
}
