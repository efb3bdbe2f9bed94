package meaning

import "strings"

// The predicate stage for a group of lookalike files: which name a clause
// presents as the live one. The live name (Names) is kept by a current
// word and goes against the invariant when a stale, old or cancel word
// bears on it; a lookalike (Others) is kept when such a word or a
// negation bears on it, goes against it with a current word (loads, in
// use, deploy, apply), and is unclear when named with no word either way.

// liveStates are the current words that say a file is the live one, as
// opposed to an action on it: "not loaded" retires a file, "do not edit"
// does not.
var liveStates = set(`current live loaded loads uses used in_use active authoritative canonical effective reads vigente actual activo activa carga usa`)

// replacedBy end a phrase of replacement whose next word is what replaces
// ("superseded by", "swapped for", "sustituido por").
var replacedBy = set(`by for with por con`)

// replaceVerbs replace one thing by another; after "has" or "ha" their
// subject is what replaces ("which db.yml has superseded").
var (
	replaceVerbs = set(`superseded replaced overridden supplanted sustituido reemplazado`)
	perfectAux   = set(`has have had ha han habia`)
)

// replaces reports whether hit h is a replacement verb in the active
// perfect right after mention m: m is what replaces, not what is replaced.
func (t *Text) replaces(m Mention, h Hit) bool {
	return h.T0 == m.T1+1 && perfectAux[t.toks[m.T1].W] && replaceVerbs[t.toks[h.T0].W]
}

func (t *Text) readArtifact(ci int, ms []Mention) signals {
	var g signals
	var paths []Mention
	for _, m := range ms {
		if m.What == NameOf || m.What == OtherOf {
			paths = append(paths, m)
		}
	}
	// a pointer's antecedents are the pair it picks from ("of a and b, the
	// latter"): naming them says nothing yet of which is live
	choice := -1
	for _, m := range paths {
		if m.Ref != nil && choice < 0 {
			choice = m.T0
		}
	}
	for k, m := range paths {
		lo, hi := t.clauses[ci].T0, t.clauses[ci].T1
		if k > 0 {
			lo = paths[k-1].T1
		}
		if k+1 < len(paths) {
			hi = paths[k+1].T0
		}
		if m.What == NameOf {
			t.livePath(ci, m, lo, hi, &g)
		} else {
			t.lookalike(ci, m, lo, hi, m.Ref == nil && m.T1 <= choice, &g)
		}
	}
	return g
}

// marker returns the artifact word nearest to mention m between tokens lo
// and hi, and whether a negation bears on it.
func (t *Text) marker(ci int, m Mention, lo, hi int, classes ...Class) (Hit, bool, bool) {
	var best Hit
	found, dist := false, 1<<30
	for _, h := range t.hitsOf(ci, append(classes, Negation)...) {
		if h.T0 < lo || h.T1 > hi || h.Class == Negation || h.T0 >= m.T0 && h.T1 <= m.T1 || !t.near(m, h, 4) && !t.pastAppositiveNear(m, h) {
			continue
		}
		if h.Class == Old && h.T1 <= m.T0 && t.destinationBetween(h.T1, m.T0) {
			continue // "was switched to config/db.yaml": the file a change went to
		}
		if h.T1 == m.T0 && h.T1-h.T0 > 1 && replacedBy[t.toks[h.T1-1].W] || t.replaces(m, h) {
			continue // "superseded by db.yml", "db.yml has superseded it": the file that replaces, not the one replaced
		}
		d := h.T0 - m.T1
		if h.T1 <= m.T0 {
			d = m.T0 - h.T1
		}
		if d < dist {
			best, found, dist = h, true, d
		}
	}
	_, negated := t.negationBefore(ci, best.T0)
	return best, found, found && negated
}

// pastAppositiveNear reports whether hit h follows mention m past an
// appositive, within four words of it: "values-prod.yaml, the file first
// named, is the old one".
func (t *Text) pastAppositiveNear(m Mention, h Hit) bool {
	from := t.pastAppositive(m.T1, h.T0)
	return h.T0 >= m.T1 && from > m.T1 && t.wordsBetween(from, h.T0) <= 4 && !t.clauseBarrier(from, h.T0)
}

func (t *Text) livePath(ci int, m Mention, lo, hi int, g *signals) {
	// only a word that retires a file, or denies its being live, bears on
	// the live one: "was", "not" or "do not edit" say too little of it
	h, ok, negated := t.marker(ci, m, lo, hi, Stale, Current, Cancel)
	name := t.pointerName(m)
	switch {
	case !ok && t.pastAfter(m):
		g.against(name + " said to be the one before: " + quote(t.words(m.T1, m.T1+1)))
	case !ok && m.Ref != nil:
		// of the two just named, the clause picks the live one
		g.keep(name + " picked of the two")
		g.live = true
	case !ok:
	case h.Class == Current && !negated:
		g.keep(name+" said live: "+quote(t.words(h.T0, h.T1)), h)
		g.live = true
	case h.Class == Current && liveStates[strings.ReplaceAll(t.words(h.T0, h.T1), " ", "_")]:
		g.against(name+" said not live: "+quote(t.words(h.T0, h.T1)), h)
	case h.Class != Current && !negated:
		g.against(name+" marked not live: "+quote(t.words(h.T0, h.T1)), h)
	}
}

func (t *Text) lookalike(ci int, m Mention, lo, hi int, antecedent bool, g *signals) {
	name := t.pointerName(m)
	if n, ok := t.negationBefore(ci, m.T0); ok && n.T0 >= lo {
		g.keep(name+" denied: "+quote(t.words(n.T0, m.T1)), n)
		return
	}
	h, ok, negated := t.marker(ci, m, lo, hi, Stale, Current, Old, Cancel)
	switch {
	case t.inCode[m.T0]:
		g.against(name + " named in a command or code: the one to use")
	case len(t.hitsOf(ci, Past)) > 0 && !t.reportsAfter(t.hitsOf(ci, Past)[0]):
		g.keep(name + " named in the past: " + quote(t.words(t.hitsOf(ci, Past)[0].T0, t.hitsOf(ci, Past)[0].T1)))
	case ok && (h.Class != Current) != negated:
		g.keep(name+" not the live one: "+quote(t.words(h.T0, h.T1)), h)
	case ok:
		g.against(name+" presented as the live one: "+quote(t.words(h.T0, h.T1)), h)
	case m.Ref != nil:
		// a choice by position of the lookalike: what is done to it is
		// done to the wrong file, whatever else says which one is live
		g.unclear, g.byPosition = "picks the lookalike by position: "+name, true
	case g.byPosition || antecedent:
		g.lookalike = true
	default:
		g.unclear = "names the lookalike " + name + " with no word of which one is live"
		g.lookalike = true
	}
}

func (t *Text) destinationBetween(a, b int) bool {
	for k := a; k < b; k++ {
		if destination[t.toks[k].W] {
			return true
		}
	}
	return false
}

// pastAfter reports whether a past copula follows a name ("config/db.yaml
// was the file"): it was the one, it is no longer.
func (t *Text) pastAfter(m Mention) bool {
	k := m.T1
	for k < len(t.toks) && t.inParens[k] || k < len(t.toks) && (t.toks[k].W == "(" || t.toks[k].W == ")") {
		k++
	}
	if k+1 >= len(t.toks) {
		return false
	}
	switch t.toks[k].W {
	case "was", "were", "era", "fue":
		return oneBefore[t.toks[k+1].W] // "was the file", not "was rendered"
	}
	return false
}

// oneBefore words after a past copula name what a file was: "was the
// file", "era el bueno".
var oneBefore = set(`the a an our its their el la los las un una`)
