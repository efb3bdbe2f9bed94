package meaning

import (
	"fmt"
	"strings"
)

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
	// Figure: a quantity the session stated, now or in the past; only a
	// negation, an end or a mistake takes it back ("was 400 ms until
	// Tuesday" keeps it).
	Figure
)

// valueModifiers are the modifiers a value's clause reads.
var valueModifiers = []Class{Condition, Exception, Quantifier, Attribution, Time, Hedge, Concession, Counterfactual, Comparison, Question}

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
	if old && role == Figure && !t.takesBack(marker) {
		old = false
	}
	named := func() string { return quote(t.words(marker.T0, marker.T1)) }
	if role != Figure {
		if o, why, decided := t.tableOld(a, b); decided {
			old, named = o, func() string { return why }
		}
	}
	figure := role == Figure
	if figure {
		role = Now
	}
	revert, back := t.governing(ci, m.T0, m.T1, Revert)
	if back && old && revert.T0 >= m.T1 {
		back = false // "not analytics_prod as first planned": where the old value came from
	}
	switch {
	case role == Now && old:
		r.Verdict, r.Why = Contradicts, "named as the old value: "+named()
	case role == Now:
		r.Verdict, r.Why = Restates, "stated"
	case back:
		r.Verdict, r.Why = Contradicts, "brought back: "+quote(t.words(revert.T0, revert.T1))
	case old:
		r.Verdict, r.Why = Restates, "named as the old value: "+named()
	default:
		r.Verdict, r.Why = Contradicts, "stated as the value now"
	}
	if role == Now {
		t.modifyValue(&r, ci, m, src, figure)
		if w, ok := t.rangeOf(m); ok && r.Verdict == Restates && !(src != nil && src.hasRange()) {
			r.Verdict, r.Why = Unclear, "stated as one end of a range: "+quote(w)
		}
	}
	return r
}

// rangeOpen and rangeJoin are the words of a range of values: "between 12
// and 15 December", "entre el 12 y el 15". "From 12 to 15" is left out: it
// is how a change is told too ("moved from 12 to 15 December").
var (
	rangeOpen = set(`between entre`)
	rangeJoin = set(`and y`)
	rangeSkip = set(`the el la los las`)
)

// rangeOf reports whether the value at m is an end of a range of values
// (the other end a value too), and returns the range's words.
func (t *Text) rangeOf(m Mention) (string, bool) {
	back := func(i int) int { // the word before token i, past an article
		i--
		if i >= 0 && rangeSkip[t.toks[i].W] {
			i--
		}
		return i
	}
	// "between 12 and <m>": join, value, opener before it
	if j := back(m.T0); j >= 1 && rangeJoin[t.toks[j].W] {
		if v := back(j); v >= 1 && t.toks[v].Value {
			if o := back(v); o >= 0 && rangeOpen[t.toks[o].W] {
				return t.words(o, m.T1), true
			}
		}
	}
	// "between <m> and 15": opener before it, join and value after
	if o := back(m.T0); o >= 0 && rangeOpen[t.toks[o].W] && m.T1 < len(t.toks) && rangeJoin[t.toks[m.T1].W] {
		v := m.T1 + 1
		if v < len(t.toks) && rangeSkip[t.toks[v].W] {
			v++
		}
		if v < len(t.toks) && t.toks[v].Value {
			return t.words(o, v+1), true
		}
	}
	return "", false
}

// hasRange reports whether t gives a range of values itself: its ranges are
// its own.
func (t *Text) hasRange() bool {
	for i := range t.toks {
		if t.toks[i].Value {
			if _, ok := t.rangeOf(Mention{T0: i, T1: i + 1}); ok {
				return true
			}
		}
	}
	return false
}

// oldMarker returns the word that names the value at m as the old one: a
// word of the old class that bears on what follows it (or a negation) at
// most three words before it, not across another value or a destination
// word ("instead of 5432", "was 200 rows/s", "not 50"), or one that bears
// on what precedes it at most four words after it ("5432 was a typo",
// "200 rows/s, superseded").
func (t *Text) oldMarker(ci int, m Mention) (Hit, bool) {
	for _, h := range t.hitsOf(ci, Old, Negation, Cancel) {
		switch {
		case h.T1 <= m.T0 && (h.Class == Negation || h.Class == Old && h.Sense == "following"):
			if t.temporal(h) || t.holdsNegation(h) && t.boundBetween(ci, h.T1, m.T0) {
				continue // "antes del cierre del 12": before; "must not exceed 30 s": a bound
			}
			n, blocked := t.gap(h.T1, m.T0)
			if blocked && h.Class == Old && t.appositive(h.T1, m.T0) {
				n, blocked = 0, false // "the default, 200 rows/s"
			}
			// a destination word turns an old word's value into the one a
			// change went to ("was cut to 50"); a negation it does not ("not
			// straight into analytics_prod")
			if n <= 3 && !blocked && !(h.Class == Old && (t.valueOrDestination(h.T1, m.T0) || t.presentBetween(h.T1, m.T0))) && !t.valueBetween(h.T1, m.T0) {
				return h, true
			}
		case h.T1 <= m.T0 && h.Class == Cancel && h.Sense == "following":
			// "ignore the 200 I said earlier"
			if n, blocked := t.gap(h.T1, m.T0); n <= 2 && !blocked && !t.valueBetween(h.T1, m.T0) {
				return h, true
			}
		case h.T0 >= m.T1 && (h.Class == Cancel && h.Sense != "following" || h.Class == Old && h.Sense == "preceding"):
			// an appositive or a list may stand between: "200 rows/s, the
			// old value, was dropped", "200 rows/s and 1000, are superseded"
			from := t.pastAppositive(m.T1, h.T0)
			if n := t.wordsBetween(from, h.T0); n <= 4 && !t.clauseBarrier(m.T1, h.T0) && !t.destinationBetween(m.T1, h.T0) && !t.otherValueBetween(m, h.T0) {
				return h, true
			}
		}
	}
	return Hit{}, false
}

// pastAppositive returns the token after an appositive that opens tokens
// a to b (", the file first named,"): a comma, at most five words and a
// comma; a otherwise.
func (t *Text) pastAppositive(a, b int) int {
	if a >= b || t.toks[a].W != "," {
		return a
	}
	for k := a + 1; k < b && k <= a+6; k++ {
		if t.toks[k].W == "," {
			return k + 1
		}
		if !t.toks[k].Word {
			return a
		}
	}
	return a
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
// carry that bears on it: an approximation or a comparison right before
// it ("about 30 s", "at least 800 ms"), or another modifier in its stretch
// of the clause, between the values before and after it ("between 50 and
// 200 rows/s", "50 rows/s if the lag allows").
func (t *Text) modifyValue(r *Reading, ci int, m Mention, src *Text, figure bool) {
	lo, hi := t.valueStretch(ci, m)
	for _, md := range t.valueModifiers(ci, m, lo, hi) {
		if figure && md.Class == Time {
			continue // a figure of the past keeps its dates ("was 400 ms until Tuesday")
		}
		if !accounted(md, src) {
			r.Mods = append(r.Mods, md)
		}
	}
	if len(r.Mods) > 0 && r.Verdict == Restates {
		r.Verdict = Unclear
		r.Why = fmt.Sprintf("stated under %s, which the source does not state", describe(r.Mods))
	}
}

// valueStretch is the part of clause ci a value's modifiers may stand in:
// from the value before it (or a comma) to the value after it (or a
// comma), brackets left out unless the value is in them.
func (t *Text) valueStretch(ci int, m Mention) (int, int) {
	c := t.clauses[ci]
	lo, hi := c.T0, c.T1
	for k := m.T0 - 1; k >= c.T0; k-- {
		if t.toks[k].W == "," || t.toks[k].Value && !t.inParens[k] || t.inParens[k] != t.inParens[m.T0] {
			lo = k + 1
			break
		}
	}
	for k := m.T1; k < c.T1; k++ {
		if t.toks[k].W == "," || t.toks[k].Value && !t.inParens[k] || t.inParens[k] != t.inParens[m.T0] {
			hi = k
			break
		}
	}
	return lo, hi
}

// valueModifiers returns the modifiers that bear on the value at m.
func (t *Text) valueModifiers(ci int, m Mention, lo, hi int) []Modifier {
	var out []Modifier
	for _, md := range t.modifierHits(ci, valueModifiers) {
		h := md.hit
		tight := h.Class == Approx || h.Class == Comparison
		switch {
		case tight && t.comparesOther(ci, h, m):
			continue // "0.42%, under your 1% line": the other figure is compared
		case tight && h.T1 <= m.T0 && t.wordsBetween(h.T1, m.T0) <= 1:
		case tight:
			continue
		case h.T0 >= lo && h.T1 <= hi:
		default:
			continue
		}
		out = append(out, md.Modifier)
	}
	if t.question(ci) {
		out = append(out, Modifier{Class: Question, Cue: "?"})
	}
	return out
}

// clauseBarrier reports whether a word that opens another predicate
// stands between tokens a and b (but, because, which, que…); commas and
// values do not.
func (t *Text) clauseBarrier(a, b int) bool {
	for k := a; k < b; k++ {
		if contrastOrCause[t.toks[k].W] {
			return true
		}
	}
	return false
}

// contrastOrCause open a predicate of another thing; a relative word or a
// bracket describes the value before it ("200 rows/s, which was replaced").
var contrastOrCause = set(`but because although though whereas so pero porque aunque sino`)

// appositive reports whether tokens a to b are one comma: a value set
// beside the noun that names it.
func (t *Text) appositive(a, b int) bool { return b == a+1 && t.toks[a].W == "," }

// temporal reports whether an old word is a preposition of time: "antes"
// or "before" followed by de, del, que, the.
func (t *Text) temporal(h Hit) bool {
	w := t.words(h.T0, h.T1)
	if w != "antes" && w != "before" || h.T1 >= len(t.toks) {
		return false
	}
	switch t.toks[h.T1].W {
	case "de", "del", "que", "the":
		return true
	}
	return false
}

// otherValueBetween reports whether a value in other brackets than m's
// stands between m and token b: "Port 6432 (5432 was a typo)" says the typo
// of 5432, not of 6432.
func (t *Text) otherValueBetween(m Mention, b int) bool {
	for k := m.T1; k < b; k++ {
		if t.toks[k].Value && t.inParens[k] != t.inParens[m.T0] {
			return true
		}
	}
	return false
}

// boundBetween reports whether a word of comparison stands between tokens
// a and b: a negation before it makes a bound ("must not exceed 30 s").
func (t *Text) boundBetween(ci, a, b int) bool {
	for _, h := range t.hitsOf(ci, Comparison) {
		if h.T1 > a && h.T0 < b {
			return true // between them, or holding the negation ("must not exceed")
		}
	}
	return false
}

// takesBack reports whether a marker takes a figure back rather than
// dating it: a negation, an end, or a mistake ("30 s was a typo"); "was"
// or "before" only date it.
func (t *Text) takesBack(h Hit) bool {
	if h.Class == Negation || h.Class == Cancel {
		return true
	}
	for _, w := range strings.Fields(t.words(h.T0, h.T1)) {
		switch w {
		case "typo", "mistake", "wrong", "incorrect", "error", "errata", "erroneous", "misprint", "not", "no", "longer":
			return true
		}
	}
	return false
}

func (t *Text) valueBetween(a, b int) bool {
	for k := a; k < b; k++ {
		if t.toks[k].Value {
			return true
		}
	}
	return false
}

// comparesOther reports whether a comparison before a value relates
// another figure to it: a value at most three words before the
// comparison, in the same clause.
func (t *Text) comparesOther(ci int, h Hit, m Mention) bool {
	for k := h.T0 - 1; k >= t.clauses[ci].T0 && k >= h.T0-4; k-- {
		if t.toks[k].Value && (k < m.T0 || k >= m.T1) {
			return true
		}
	}
	return false
}

// presentWords after an old word give the value after them the present:
// "what was corrected is now 6432".
var presentWords = set(`is are now es son ahora esta estan queda`)

func (t *Text) presentBetween(a, b int) bool {
	for k := a; k < b; k++ {
		if presentWords[t.toks[k].W] {
			return true
		}
	}
	return false
}
