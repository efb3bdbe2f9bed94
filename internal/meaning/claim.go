package meaning

import (
	"regexp"
	"strings"
)

// The predicate stage for a refuted hypothesis: a clause that names it
// keeps its refutation when a retraction or a negation bears on it,
// reports it as an old guess in a frame of the past, and goes against the
// refutation when it states it, calls it open or likely, or confirms it.

func (t *Text) readClaim(ci int, ms []Mention, s *Subject) signals {
	var g signals
	for _, m := range ms {
		if m.What != MatchOf {
			continue
		}
		if n, ok := t.negationBefore(ci, m.T0); ok && !s.lits[t.words(n.T0, n.T1)] {
			if h, ok := t.hitBetween(ci, Retract, n.T1, m.T0); ok {
				// "nothing refutes the hypothesis that …": a refutation denied
				g.against("its refutation denied: "+quote(t.words(n.T0, h.T1)), n)
				continue
			}
			g.keep("denied: "+quote(t.words(n.T0, m.T1)), n)
			continue
		}
		if n, ok := t.negationInside(ci, m); ok && !s.lits[t.words(n.T0, n.T1)] {
			g.keep("denied: "+quote(t.words(n.T0, n.T1)), n)
			continue
		}
		t.claimCues(ci, m, &g)
	}
	return g
}

// claimCues reads the cues of clause ci (and its heading) about a match; a
// retraction anywhere in its sentence bears on it ("DNS is broken —
// refuted at #4", "we first thought so; #31 disproved it").
func (t *Text) claimCues(ci int, m Mention, g *signals) {
	if h, ok := t.inSentence(ci, Retract); ok && t.retractPlanned(h) {
		// "before the pool work, rule out that Redis evicts hot keys":
		// the refutation made a step to take, the idea open again
		g.unclear = "a step to refute it again: " + quote(t.words(h.T0, h.T1))
		return
	}
	if h, ok := t.inSentence(ci, Retract); ok {
		if _, negated := t.negationBefore(t.ClauseAt(t.toks[h.T0].A), h.T0); !negated {
			g.keep("refuted: "+quote(t.words(h.T0, h.T1)), h)
			return
		}
	}
	if t.oldBelief(ci) {
		g.old = true
		return // "initially we thought …": an old belief, neither kept nor asserted
	}
	for _, h := range t.hitsOf(ci, Hedge) {
		if _, negated := t.negationBefore(ci, h.T0); !negated && len(t.hitsOf(ci, Open, Confirmed)) == 0 {
			g.unclear = "hedged: " + quote(t.words(h.T0, h.T1))
			return
		}
	}
	for _, h := range t.hitsOf(ci, Retract, Open, Confirmed) {
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
			g.against("restated as "+string(h.Class)+": "+cue, h)
			return
		}
	}
	for _, h := range t.hitsOf(ci, Attribution) {
		if h.T1 <= m.T0 || h.T0 >= m.T1 {
			g.used = append(g.used, h)
			g.unclear = "reported: " + quote(t.words(h.T0, h.T1))
			return
		}
	}
	g.against("asserted: " + quote(t.words(m.T0, m.T1)))
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

// ClaimSubject builds the subject of a refuted hypothesis: its patterns,
// and as names the words of its patterns that name things (cdn, latency,
// redis), by which a clause in other words or another language is bound to
// it when it names two of them.
func ClaimSubject(patterns []*regexp.Regexp, statement string, refutation ...string) *Subject {
	s := &Subject{Kind: Claim, Patterns: patterns}
	if statement != "" {
		s.Source = New(statement)
	}
	held := New(statement + "\n" + strings.Join(refutation, "\n"))
	s.lits = map[string]bool{}
	for _, w := range patternWords(patterns) {
		s.lits[w] = true
	}
	s.Lang = patternsLanguage(patterns, statement)
	seen := map[string]bool{}
	for _, w := range patternWords(patterns) {
		// a name is a word of the patterns that the statement of the
		// hypothesis or its refutation holds: its things, not the
		// patterns' alternatives
		if !stopWords[w] && !commonVerbs[w] && !seen[w] && (statement == "" || held.holdsAny([]string{w})) {
			seen[w] = true
			s.Names = append(s.Names, w)
		}
	}
	return s
}

// commonVerbs are pattern words that name no thing of a hypothesis.
var commonVerbs = set(`add adds added adding cause causes caused causing make makes made due because from into onto behind leak leaks turn turns turning get gets got has have not`)

// namedClaim reads a clause that names two of a hypothesis's names but
// matches none of its patterns: a retraction keeps the refutation, a word
// of cause or of doubt is unclear (it may restate the refuted idea in
// other words), anything else says nothing of it.
func (t *Text) namedClaim(ci int, ms []Mention, s *Subject) signals {
	var g signals
	names := map[string]bool{}
	var first []Mention
	for _, m := range ms {
		if m.What == NameOf {
			names[t.toks[m.T0].W] = true
			first = append(first, m)
		}
	}
	other := s.Lang != "" && Language(t.ClauseText(ci)) != "" && Language(t.ClauseText(ci)) != s.Lang
	if len(names) < 2 && !(other && len(names) == 1) {
		return g
	}
	if h, ok := t.inSentence(ci, Retract); ok && t.retractPlanned(h) {
		// "before the queries, rule out Cloudflare's cache misses as the
		// source": the refutation made a step to take again
		g.unclear = "names the hypothesis as a step to refute again: " + quote(t.words(h.T0, h.T1))
		return g
	}
	if h, ok := t.inSentence(ci, Retract); ok {
		g.keep("refuted: "+quote(t.words(h.T0, h.T1)), h)
		return g
	}
	if t.oldBelief(ci) {
		return g
	}
	for _, h := range t.hitsOf(ci, Cause, Open, Hedge, Comparison) {
		if _, negated := t.negationBefore(ci, h.T0); negated || h.Class == Cause && !t.causeOn(h, first) || h.Class == Comparison && !t.comparative(ci, h) {
			continue
		}
		g.unclear = "names the hypothesis in other words, with " + string(h.Class) + " " + quote(t.words(h.T0, h.T1))
		return g
	}
	if other && t.statedOf(first) {
		g.unclear = "names the hypothesis in a plain statement written in another language than its patterns"
	}
	return g
}

// causeOn reports whether a word of cause bears on one of the names: the
// name before it with no barrier between ("the CDN was behind the
// latency"; not "…as v2.31.0, which caused the latency"), or right after
// it in another language ("es culpa de Cloudflare").
func (t *Text) causeOn(h Hit, names []Mention) bool {
	for _, m := range names {
		if m.T1 <= h.T0 {
			if _, blocked := t.gap(m.T1, h.T0); !blocked {
				return true
			}
		}
		if m.T0 >= h.T1 && t.wordsBetween(h.T1, m.T0) <= 2 && (causeOf[t.toks[h.T1-1].W] || causeOf[t.toks[h.T1].W]) {
			return true // "es culpa de Cloudflare", "caused by the CDN"
		}
	}
	return false
}

// articles may open a clause before its subject.
var articles = set(`el la los las the a an un una`)

// statedOf reports whether one of the names stands as what the clause
// says something of: its first word, articles aside ("la CDN añade la
// latencia", "el DNS está roto"), not an object or a route ("devuelve los
// buffers", "medido a través de la CDN").
func (t *Text) statedOf(names []Mention) bool {
	for _, m := range names {
		c := t.clauses[t.ClauseAt(t.toks[m.T0].A)]
		k := c.T0
		for k < m.T0 && (!t.toks[k].Word || articles[t.toks[k].W]) {
			k++
		}
		if k == m.T0 {
			return true
		}
	}
	return false
}

// inSentence returns a hit of class c in the sentence of clause ci.
func (t *Text) inSentence(ci int, c Class) (Hit, bool) {
	sent := t.clauses[ci].Sent
	for cj, cl := range t.clauses {
		if cl.Sent != sent {
			continue
		}
		if hs := t.hitsOf(cj, c); len(hs) > 0 {
			return hs[0], true
		}
	}
	return Hit{}, false
}

// readFact reads a clause against a statement that must hold: kept when
// stated plainly, against it under a negation, a retraction or a
// cancellation, unclear when called open or likely.
func (t *Text) readFact(ci int, ms []Mention) signals {
	var g signals
	for _, m := range ms {
		if m.What != MatchOf {
			continue
		}
		if n, ok := t.negationBefore(ci, m.T0); ok {
			g.against("negation "+quote(t.words(n.T0, m.T1)), n)
			continue
		}
		if n, ok := t.negationInside(ci, m); ok {
			g.against("negation "+quote(t.words(n.T0, n.T1)), n)
			continue
		}
		against := false
		for _, h := range t.hitsOf(ci, Retract, Cancel, Open, Hedge) {
			if !t.near(m, h, 4) {
				continue // about something else of the clause
			}
			if h.Class == Retract || h.Class == Cancel {
				g.against(string(h.Class)+" "+quote(t.words(h.T0, h.T1)), h)
				against = true
			} else {
				g.unclear = "said " + string(h.Class) + ": " + quote(t.words(h.T0, h.T1))
			}
		}
		if !against {
			g.keep("stated " + quote(t.words(m.T0, m.T1)))
		}
	}
	return g
}

// patternsLanguage is the language of a hypothesis's patterns: of their
// literal words, else of the statement that asked it.
func patternsLanguage(patterns []*regexp.Regexp, statement string) string {
	if l := Language(strings.Join(patternWords(patterns), " ")); l != "" {
		return l
	}
	return Language(statement)
}

// causeOf words after a word of cause name the cause, not the effect.
var causeOf = set(`de del by of from to`)

// oldBelief reports whether clause ci frames its words as what was once
// thought ("initially we thought", "was suspected"), not confirmed by "as"
// ("as first suspected" confirms the guess).
func (t *Text) oldBelief(ci int) bool {
	for _, h := range t.hitsOf(ci, Belief) {
		if h.Sense == "noun" {
			if t.pastCopulaAfter(h.T1) {
				return true
			}
			continue
		}
		if h.T0 == 0 || t.toks[h.T0-1].W != "as" && t.toks[h.T0-1].W != "como" {
			return true
		}
	}
	return false
}

// retractPlanned reports whether a retraction is a step to take rather
// than one taken: the first word of its clause, past a lead or a time
// clause ("before X, rule out …", "descartar que …"), an infinitive after
// a plan word ("are to be excluded", "need to rule out").
func (t *Text) retractPlanned(h Hit) bool {
	ci := t.ClauseAt(t.toks[h.T0].A)
	if ci < 0 {
		return false
	}
	w := t.toks[h.T0].W
	past := pastForm(w) || strings.HasSuffix(w, "en") || // "proven wrong"
		w == "se" || h.T0 > 0 && t.toks[h.T0-1].W == "se" // "se descartó que …": said done, impersonally
	if !past && (t.plan(ci, h.T0) || h.T0 > t.clauses[ci].T0 && strings.Contains(",;:", t.toks[h.T0-1].W)) {
		return true // "before X, rule out …"
	}
	for k := h.T0 - 1; k >= t.clauses[ci].T0 && k >= h.T0-3; k-- {
		switch t.toks[k].W {
		case "to", "be":
			if k > 0 && (t.toks[k-1].W == "are" || t.toks[k-1].W == "is" || t.toks[k-1].W == "need" || t.toks[k-1].W == "must" || t.toks[k-1].W == "have") {
				return true
			}
		}
	}
	return false
}

// hitBetween returns a hit of class c in clause ci between tokens a and b.
func (t *Text) hitBetween(ci int, c Class, a, b int) (Hit, bool) {
	for _, h := range t.hitsOf(ci, c) {
		if h.T0 >= a && h.T1 <= b {
			return h, true
		}
	}
	return Hit{}, false
}

// pastCopula after a noun of belief dates the idea: "the hypothesis (seq
// 2) was that", "la hipotesis era que"; "the hypothesis is that" does not.
var pastCopula = set(`was were fue era habia`)

// pastCopulaAfter reports whether a past copula follows token k within
// three words, bracketed words aside.
func (t *Text) pastCopulaAfter(k int) bool {
	for n := 0; k < len(t.toks) && n < 3; k++ {
		switch {
		case t.inParens[k] || !t.toks[k].Word && t.toks[k].W != ",":
			continue
		case pastCopula[t.toks[k].W]:
			return true
		}
		n++
	}
	return false
}

// thanWords close a comparative: "faster than", "antes que".
var thanWords = set(`than que`)

// comparative reports whether comparison h is a comparative of two things,
// more or less of one than of another ("much faster than through
// Cloudflare", "crece más deprisa que sessionCache.Put"): what the
// measurement that refuted a hypothesis compared, said in words the
// reader cannot weigh against it.
func (t *Text) comparative(ci int, h Hit) bool {
	if h.Sense != "more" && h.Sense != "less" {
		return false
	}
	for k := h.T1; k < t.clauses[ci].T1 && k <= h.T1+1; k++ {
		if thanWords[t.toks[k].W] {
			return true
		}
	}
	return false
}
