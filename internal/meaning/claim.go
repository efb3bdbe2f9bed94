package meaning

// The predicate stage for a refuted hypothesis: a clause that names it
// keeps its refutation when a retraction or a negation bears on it,
// reports it as an old guess in a frame of the past, and goes against the
// refutation when it states it, calls it open or likely, or confirms it.

func (t *Text) readClaim(ci int, ms []Mention) signals {
	var g signals
	for _, m := range ms {
		if m.What != MatchOf {
			continue
		}
		if n, ok := t.negationBefore(ci, m.T0); ok {
			g.keep("denied: "+quote(t.words(n.T0, m.T1)), n)
			continue
		}
		if n, ok := t.negationInside(ci, m); ok {
			g.keep("denied: "+quote(t.words(n.T0, n.T1)), n)
			continue
		}
		t.claimCues(ci, m, &g)
	}
	return g
}

// claimCues reads the cues of clause ci (and its heading) about a match.
func (t *Text) claimCues(ci int, m Mention, g *signals) {
	for _, h := range t.hitsOf(ci, Retract, Open, Confirmed, Hedge) {
		cue := quote(t.words(h.T0, h.T1))
		_, negated := t.negationBefore(ci, h.T0)
		switch {
		case h.Class == Retract && !negated:
			g.keep("refuted: "+cue, h)
			return
		case h.Class == Retract:
			g.against("its refutation denied: "+cue, h)
			return
		case negated && h.Class == Confirmed:
			g.keep("its confirmation denied: "+cue, h)
			return
		case negated:
			g.unclear = "negated doubt: " + cue
			return
		default:
			g.against("said "+string(h.Class)+": "+cue, h)
			return
		}
	}
	for _, h := range t.hitsOf(ci, Past, Attribution) {
		if h.T1 <= m.T0 || h.T0 >= m.T1 {
			g.used = append(g.used, h)
			g.unclear = "reported or past: " + quote(t.words(h.T0, h.T1))
			return
		}
	}
	g.against("stated: " + quote(t.words(m.T0, m.T1)))
}

// negationInside returns a negation inside a match ("the CDN does not add
// the latency" for cdn.*latency).
func (t *Text) negationInside(ci int, m Mention) (Hit, bool) {
	for _, h := range t.hitsOf(ci, Negation, Retract, Open) {
		if h.Class == Negation && h.T0 > m.T0 && h.T1 < m.T1 {
			return h, true
		}
	}
	return Hit{}, false
}
