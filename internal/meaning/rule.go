package meaning

import "strings"

// The predicate stage for a rule: what a clause says of the state a rule
// sets and of the actions it forbids.

// signals are what a clause says for and against its subject.
type signals struct {
	aff, opp string // the first words that keep it, and that go against it
	unclear  string // a mention the tables do not read (a plain action)
	used     []Hit  // the hits that decided, which are no modifiers
	// ended is set when the clause says the rule ended as a whole ("…
	// no longer applies"): that outweighs what the clause restates.
	ended bool
	// plan is set when an operation is said to be still to do ("is to be
	// migrated"): a condition then bears on the plan.
	plan bool
	// old is set when a clause names its subject only as an old belief
	// ("initially we thought …"): it does not touch it.
	old bool
	// live is set when an artifact's live name is said to be live;
	// lookalike when a lookalike is named with no word of which is live;
	// byPosition when a pointer picks the lookalike ("the former").
	live, lookalike, byPosition bool
	// affOutside is set when something outside brackets keeps the
	// subject: what brackets keep ("the investigation (read-only until
	// #5) may now apply") does not outweigh what the clause says.
	affOutside bool
}

func (g *signals) keep(why string, h ...Hit) {
	if g.aff == "" {
		g.aff = why
	}
	g.used = append(g.used, h...)
}

func (g *signals) against(why string, h ...Hit) {
	if g.opp == "" {
		g.opp = why
	}
	g.used = append(g.used, h...)
}

var deonticClasses = []Class{Permit, Forbid, Reluctance, Oblige, Suggest, Delegate}

// readRule reads clause ci against a rule: its states and matches (kept
// unless negated, cancelled or made optional), its opposites (against
// unless negated) and its actions (kept under a prohibition or a
// negation, against under a permission, an obligation or a delegation,
// unclear as a plain plan or order).
func (t *Text) readRule(ci int, ms []Mention, s *Subject) signals {
	var g signals
	for _, m := range ms {
		before := g.aff
		t.ruleMention(ci, m, ms, s, &g)
		if g.aff != before && !t.inParens[m.T0] {
			g.affOutside = true
		}
	}
	return g
}

// ruleMention reads one mention of a rule.
func (t *Text) ruleMention(ci int, m Mention, ms []Mention, s *Subject, g *signals) {
	switch m.What {
	case MatchOf:
		t.ruleMatch(ci, m, ms, s, g)
	case StateOf:
		t.ruleState(ci, m, g)
	case OppositeOf:
		if !t.boundOpposite(ci, m, s, ms) || t.otherSubject(ci, m, s) || !t.predicated(m) {
			return // the opposite of something else, or a word that says no state ("the session opened with")
		}
		if n, ok := t.negationBefore(ci, m.T0); ok {
			g.keep("opposite state negated: "+quote(t.words(n.T0, m.T1)), n)
		} else {
			g.against("opposite state " + quote(t.words(m.T0, m.T1)))
		}
	case ActionOf:
		t.ruleAction(ci, m, s, ms, g)
	case NameOf:
		if s.NameRule() {
			t.nameCues(ci, m, g)
		}
	}
}

// ruleEnded reports (and records) an end of the rule said of the whole
// clause: a word that ends it closing the clause ("… during the review no
// longer applies", "… was lifted"), when the clause opens with the rule
// (its mention within its first three words) or with a noun that names
// a rule ("The rule that …").
func (t *Text) ruleEnded(ci int, m Mention, g *signals) bool {
	c := t.clauses[ci]
	opens := t.wordsBetween(c.T0, m.T0) <= 3
	for _, h := range t.hitsOf(ci, RuleNoun) {
		opens = opens || h.T1 <= m.T0 && t.wordsBetween(c.T0, h.T0) <= 1
	}
	for _, h := range t.hitsOf(ci, Cancel) {
		if h.T0 < m.T1 || t.wordsBetween(h.T1, c.T1) > 0 || !opens {
			continue
		}
		if _, negated := t.negationBefore(ci, h.T0); !negated {
			g.against("cancellation "+quote(t.words(h.T0, h.T1)), h)
			g.ended = true
			return true
		}
	}
	// the clause after it may end it by pointing back: "…, but that no
	// longer holds", "…; the user has since withdrawn that rule"
	if cj := ci + 1; cj < len(t.clauses) {
		for _, h := range t.hitsOf(cj, Cancel) {
			if _, negated := t.negationBefore(cj, h.T0); !negated && t.pointsBack(cj, h) {
				g.against("cancellation "+quote(t.words(h.T0, h.T1))+" of it", h)
				g.ended = true
				return true
			}
		}
	}
	return false
}

// anaphors point back at what the clause before said.
var anaphors = set(`that this it which eso esto ello lo cual`)

// pointsBack reports whether clause cj names what came before it within
// three words of hit h: an anaphor, or a rule noun after one ("that
// rule", "esa regla").
func (t *Text) pointsBack(cj int, h Hit) bool {
	c := t.clauses[cj]
	for k := max(c.T0, h.T0-4); k < min(c.T1, h.T1+3); k++ {
		if k >= h.T0 && k < h.T1 {
			continue
		}
		w := t.toks[k].W
		if anaphors[w] || (w == "esa" || w == "ese" || w == "dicha" || w == "dicho") && k+1 < c.T1 {
			return true
		}
	}
	return false
}

func (t *Text) wordsBetween(a, b int) int {
	if b <= a {
		return 0
	}
	return words(t.toks[a:b])
}

// start is the first token clause ci is read from: its heading's, when it
// has one.
func (t *Text) start(ci int) int {
	if h := t.clauses[ci].Heading; h >= 0 {
		return t.clauses[h].T0
	}
	return t.clauses[ci].T0
}

// ruleMatch reads a match of the rule's patterns. A match that holds its
// own prohibition ("must not push") states the rule; one that holds an
// action the rule forbids is read as that action ("no database failover
// without my go-ahead"), and stands as a statement when the action says
// nothing else; a rule about a name is read by nameCues; any other is read
// as the state the rule sets.
func (t *Text) ruleMatch(ci int, m Mention, ms []Mention, s *Subject, g *signals) {
	if t.ruleEnded(ci, m, g) {
		return
	}
	for _, h := range t.hitsOf(ci, Negation, Forbid) {
		if h.T0 >= m.T0 && h.T1 <= m.T1 {
			// the pattern holds its own prohibition: only an end of the
			// rule goes against it
			if !t.ruleEnded(ci, m, g) {
				g.keep("stated "+quote(t.words(m.T0, m.T1)), h)
			}
			return
		}
	}
	if s.NameRule() {
		t.nameCues(ci, m, g)
		return
	}
	for _, a := range ms {
		if a.What == StateOf && a.T0 < m.T1 && m.T0 < a.T1 {
			break // the match names the state ("change freeze"): read it as the state
		}
		if a.What == ActionOf && a.T0 >= m.T0 && a.T1 <= m.T1 {
			var sub signals
			t.ruleAction(ci, a, s, ms, &sub)
			if sub.aff == "" && sub.opp == "" && sub.unclear == "" {
				sub.keep("stated: " + quote(t.words(m.T0, m.T1)))
			}
			g.merge(sub)
			return
		}
	}
	t.ruleState(ci, m, g)
}

// nameCues reads the name a rule is about: a word that ends or delegates
// near it goes against the rule; nothing else is about the rule.
func (t *Text) nameCues(ci int, m Mention, g *signals) {
	for _, h := range t.hitsOf(ci, Cancel, Delegate) {
		if _, negated := t.negationBefore(ci, h.T0); !negated && t.near(m, h, 5) {
			g.against("cancellation "+quote(t.words(h.T0, h.T1)), h)
			return
		}
	}
	// "only as wh_restore, never as postgres": the name under a word of
	// restriction, prohibition or obligation is the rule stated
	if hs := t.hitsOf(ci, Restrict, Forbid, Oblige, RuleNoun); len(hs) > 0 {
		g.keep("stated "+quote(t.words(hs[0].T0, hs[0].T1))+" "+quote(t.words(m.T0, m.T1)), hs[0])
	}
}

func (g *signals) merge(o signals) {
	if g.aff == "" {
		g.aff = o.aff
	}
	if g.opp == "" {
		g.opp = o.opp
	}
	if g.unclear == "" {
		g.unclear = o.unclear
	}
	g.ended = g.ended || o.ended
	g.live, g.lookalike = g.live || o.live, g.lookalike || o.lookalike
	g.byPosition = g.byPosition || o.byPosition
	g.used = append(g.used, o.used...)
}

// ruleState reads a mention of the rule's state or words.
func (t *Text) ruleState(ci int, m Mention, g *signals) {
	if n, ok := t.negationBefore(ci, m.T0); ok && !t.actionBetween(ci, n.T1, m.T0) {
		g.against("negation "+quote(t.words(n.T0, m.T1)), n)
		return
	}
	if t.ruleEnded(ci, m, g) {
		return
	}
	for _, h := range t.hitsOf(ci, Cancel, Permit, Delegate, Holds) {
		if h.T0 >= m.T0 && h.T1 <= m.T1 || !t.near(m, h, 5) || t.epistemic(ci, h) {
			continue // inside the match (the pattern's own words), or about something else
		}
		n, negated := t.negationBefore(ci, h.T0)
		switch {
		case h.Class == Holds:
			g.keep("holds "+quote(t.words(h.T0, h.T1)), h)
		case negated:
			g.keep("cancellation denied "+quote(t.words(n.T0, h.T1)), h, n)
		case h.Class == Cancel:
			g.against("cancellation "+quote(t.words(h.T0, h.T1)), h)
			return
		case h.T0 >= m.T1:
			// "the freeze is optional", "read-only is up to you"
			g.against("permission "+quote(t.words(h.T0, h.T1)), h)
			return
		}
	}
	g.keep("stated " + quote(t.words(m.T0, m.T1)))
}

// ruleAction reads a mention of an action the rule forbids. A plain plan
// or order of it is unclear when the rule is about the session, or the
// clause names the rule or its target; otherwise it may be about
// something else ("upgrade grpc-go" beside a rule that pins protobuf).
func (t *Text) ruleAction(ci int, m Mention, s *Subject, ms []Mention, g *signals) {
	if s.Obliged {
		t.requiredAction(ci, m, s, ms, g)
		return
	}
	act := quote(t.words(m.T0, m.T1))
	if t.namesRuleNoun(ci, m) {
		return // "change freeze until Friday": the rule's name, not the act
	}
	n, negated := t.negationBefore(ci, m.T0)
	if !negated {
		// "change nothing in prod", "no toques nada": a negative object
		n, negated = t.negativeObject(ci, m)
	}
	if negated && t.negatedNegation(ci, n) {
		// "that doesn't mean it can't apply", "no es que no se permitan"
		g.unclear = "under two negations: " + quote(t.words(t.clauses[ci].T0, m.T1))
		return
	}
	d, governed := t.governing(ci, m.T0, m.T1, deonticClasses...)
	if governed && negated && n.T0 > d.T0 {
		// "may not push", "is allowed to never push": the action negated
		d, governed = Hit{}, false
	}
	if !governed {
		switch {
		case negated && t.conduct(m):
			// "I have not changed anything": a report of what was done,
			// not the rule
		case negated && n.T0 > m.T0:
			g.keep("prohibition "+quote(t.words(m.T0, n.T1)), n)
		case negated:
			g.keep("prohibition "+quote(t.words(n.T0, m.T1)), n)
		case bound(s, ms) && t.doneForm(ci, m):
			switch {
			case t.timeClauseBefore(ci, m.T0):
				// "a newer schema registered before the consumers were
				// upgraded": when something else happened, not a report
			case len(s.Names) == 0 && m.T0 > 0 && doneWords[t.toks[m.T0-1].W] && !t.firstPerson(ci, m.T0):
				// a session's rule and a passive done by no one named
				g.unclear = "reported done, by no one named: " + act
			default:
				g.against("reported done " + act)
			}
		case bound(s, ms) && t.plan(ci, m.T0):
			g.unclear = "planned or ordered " + act
		}
		return
	}
	dn, dNegated := t.negationBefore(ci, d.T0)
	cue := quote(t.words(d.T0, d.T1))
	switch {
	case d.Class == Suggest:
		g.used = append(g.used, d) // advice to someone else: neither
	case d.Class == Forbid && !dNegated, d.Class == Reluctance && !dNegated, d.Class == Permit && dNegated:
		g.keep("prohibition "+cue+" "+act, d, dn)
	case d.Class == Oblige && dNegated:
		g.unclear = "obligation denied " + cue + " " + act
	default:
		if dNegated {
			cue = quote(t.words(dn.T0, d.T1))
		}
		g.against(className[d.Class]+" "+cue+" on "+act, d, dn)
	}
}

// namesRuleNoun reports whether the action at m is the first word of a
// rule's name: a rule noun right after it ("change freeze", "write ban").
func (t *Text) namesRuleNoun(ci int, m Mention) bool {
	for _, h := range t.hitsOf(ci, RuleNoun) {
		if h.T0 == m.T1 {
			return true
		}
	}
	return false
}

// coordinators join two predicates: a cue past one bears on the other.
var coordinators = set(`and or y o e u ni`)

// near reports whether hit h is within n words of mention m in its clause,
// with no barrier or coordinator between.
func (t *Text) near(m Mention, h Hit, n int) bool {
	a, b := m.T1, h.T0
	if h.T1 <= m.T0 {
		a, b = h.T1, m.T0
	}
	words := 0
	for k := a; k < b; k++ {
		w := t.toks[k].W
		switch {
		case t.inParens[k] || w == "(" || w == ")" || w == "[" || w == "]":
			// a bracket between them qualifies the first: "config/db.yaml
			// (sha256:abc) is not used"
		case coordinators[w]:
			return false
		case w == "," && k+1 < b && relatives[t.toks[k+1].W]:
			// "protobuf 3.25.x, whose pin was relaxed": a relative clause
			// says its predicate of what it follows
		case barriers[w] && !relatives[w]:
			return false
		case t.toks[k].Word:
			words++
		}
	}
	return words <= n
}

// relatives open a relative clause.
var relatives = set(`whose which who that where cuyo cuya cuyos cuyas que cual donde`)

// bound reports whether a clause is about the rule: the rule is about the
// session (it has no target), or the clause names a target or the rule.
func bound(s *Subject, ms []Mention) bool {
	return len(s.Names) == 0 || has(ms, NameOf) || namesRule(ms)
}

// boundOpposite reports whether an opposite is given to the rule's
// subject: bound as a clause is, or given to the session itself ("the
// session is now read-write"), the rule's state being the session's.
func (t *Text) boundOpposite(ci int, m Mention, s *Subject, ms []Mention) bool {
	if bound(s, ms) {
		return true
	}
	for _, w := range t.contentWords(t.start(ci), m.T0) {
		if sessionSubjects[w] {
			return true
		}
	}
	return false
}

// timeWords open a clause that dates another event: "before the
// consumers were upgraded", "cuando se actualizaron".
var timeWords = set(`before after until since once when while antes despues cuando hasta desde`)

// timeClauseBefore reports whether a word of timeWords stands at most
// four words before token k in clause ci.
func (t *Text) timeClauseBefore(ci, k int) bool {
	for j, n := k-1, 0; j >= t.clauses[ci].T0 && n < 5; j-- {
		if !t.toks[j].Word {
			continue
		}
		if timeWords[t.toks[j].W] {
			return true
		}
		n++
	}
	return false
}

// pastForm reports whether a word has the ending of a past participle
// (-ed; -ado, -ido, -ada, -ida).
func pastForm(w string) bool {
	for _, end := range []string{"ed", "ado", "ido", "ada", "ida"} {
		if strings.HasSuffix(w, end) {
			return true
		}
	}
	return false
}

// firstPersonWords name the agent as the doer of an act: a pronoun of the
// first person, or the agent by name ("the assistant restarted"). Each is
// one token; "he" is not among them, the English pronoun being another's.
var firstPersonWords = set(`i we i've we've i'd we'd agent assistant yo nosotros hemos`)

// firstPerson reports whether the agent is named before token k in
// clause ci.
func (t *Text) firstPerson(ci, k int) bool {
	for j := t.clauses[ci].T0; j < k; j++ {
		if firstPersonWords[t.toks[j].W] {
			return true
		}
	}
	return false
}

// doneWords before an action report it done: "was upgraded", "has been
// pushed", "got deployed".
var doneWords = set(`was were has have had been got gets fue fueron ha han se`)

// doneForm reports whether an action is reported as done: a past form
// (pastForm) after a word of the perfect or the passive, after the agent
// named as its doer ("we restarted"), or the clause's first word in a
// past form ("upgraded protobuf to 4.28").
func (t *Text) doneForm(ci int, m Mention) bool {
	w := t.toks[m.T0].W
	if !pastForm(w) {
		return false
	}
	if m.T0 > 0 && doneWords[t.toks[m.T0-1].W] {
		return true
	}
	for k := m.T0 - 1; k >= t.clauses[ci].T0 && k >= m.T0-2; k-- {
		if firstPersonWords[t.toks[k].W] {
			return true // "we restarted the pods", "the assistant restarted them"
		}
	}
	return t.plan(ci, m.T0)
}

// negativeObject returns a negative pronoun right after an action, as its
// object: "change nothing", "touch none of it", "toques nada".
func (t *Text) negativeObject(ci int, m Mention) (Hit, bool) {
	for _, h := range t.hitsOf(ci, Negation) {
		if h.Sense == "subject" && h.T0 >= m.T1 && t.wordsBetween(m.T1, h.T0) <= 1 {
			return h, true
		}
	}
	return Hit{}, false
}

// className names a deontic class for a message.
var className = map[Class]string{Permit: "permission", Forbid: "prohibition", Oblige: "obligation", Reluctance: "negated reluctance",
	Delegate: "delegation", Suggest: "suggestion"}

// epistemic reports whether a permission word is a possibility ("may be
// lifted", "could have ended"): a hedge covers it.
func (t *Text) epistemic(ci int, h Hit) bool {
	if h.Class != Permit {
		return false
	}
	for _, o := range t.hitsIn(ci) {
		if o.Class == Hedge && o.T0 <= h.T0 && h.T1 <= o.T1 && o.T1-o.T0 > h.T1-h.T0 {
			return true
		}
	}
	return false
}

// sessionSubjects are what a rule about the session may be said of
// without naming it: "the session is now read-write".
var sessionSubjects = set(`session investigation review audit work assistant agent everything anything it this we you sesion investigacion revision auditoria asistente agente todo`)

// otherSubject reports whether the words before an opposite in its clause
// name something the rule's statement never names, and nothing it does:
// "staging is writable" beside a rule about prod.
func (t *Text) otherSubject(ci int, m Mention, s *Subject) bool {
	if s.Source == nil || len(s.Names) > 0 {
		return false
	}
	before := t.contentWords(t.start(ci), m.T0)
	if len(before) == 0 {
		return false
	}
	for _, w := range before {
		if sessionSubjects[w] || s.Source.holdsAny([]string{w}) {
			return false
		}
	}
	return true
}

// actionBetween reports whether a word of action stands between tokens a
// and b: a negation before it bears on the action, not on what follows
// ("don't bump protobuf beyond 3.25.x").
func (t *Text) actionBetween(ci, a, b int) bool {
	for k := a; k < b; k++ {
		if w := t.toks[k].W; t.toks[k].Word && len(conceptsOf().byAction[w]) > 0 {
			return true
		}
	}
	return false
}

// copulas give a subject a state: "is open", "is now read-write".
var copulas = set(`is are was were be been become becomes became now stays remains es son esta estan era fue queda quedan sigue siguen ahora`)

// predicated reports whether an opposite is said as a state: a phrase of
// two words or more, or a word after a copula ("is open", "which is
// editable"), not a verb that happens to share its form ("opened with").
func (t *Text) predicated(m Mention) bool {
	if m.T1-m.T0 > 1 {
		return true
	}
	for k := m.T0 - 1; k >= 0 && k >= m.T0-2; k-- {
		if copulas[t.toks[k].W] {
			return true
		}
	}
	return false
}

// requiredAction reads a mention of an action a rule requires: kept under
// an obligation or as a plain order, against it under a negation, a
// prohibition or a denied obligation ("no need to run it"), unclear when
// only permitted.
func (t *Text) requiredAction(ci int, m Mention, s *Subject, ms []Mention, g *signals) {
	act := quote(t.words(m.T0, m.T1))
	if t.namesRuleNoun(ci, m) {
		return // "change freeze until Friday": the rule's name, not the act
	}
	n, negated := t.negationBefore(ci, m.T0)
	d, governed := t.governing(ci, m.T0, m.T1, deonticClasses...)
	_, dNegated := t.negationBefore(ci, d.T0)
	cue := quote(t.words(d.T0, d.T1))
	switch {
	case negated && (!governed || n.T0 > d.T0):
		g.against("negation "+quote(t.words(n.T0, m.T1)), n)
	case governed && d.Class == Oblige && !dNegated:
		g.keep("obligation "+cue+" on "+act, d)
	case governed && (d.Class == Forbid || d.Class == Reluctance) && !dNegated, governed && d.Class == Oblige:
		g.against(className[d.Class]+" "+cue+" on "+act, d)
	case governed && (d.Class == Permit || d.Class == Delegate):
		g.unclear = "made optional: " + cue + " on " + act
	case governed:
		g.used = append(g.used, d)
	case bound(s, ms) && t.plan(ci, m.T0):
		g.keep("ordered " + act)
	}
}

// perfectWords before a past form report conduct: "have not changed",
// "did not push", "no ha tocado".
var perfectWords = set(`have has had did was were ha han habia habian`)

// conduct reports whether an action is in a past form after a word of
// the perfect or the past ("I have not changed anything"): it reports
// what was done, it states no rule.
func (t *Text) conduct(m Mention) bool {
	w := t.toks[m.T0].W
	if !pastForm(w) {
		return false
	}
	for k := m.T0 - 1; k >= 0 && k >= m.T0-3; k-- {
		if perfectWords[t.toks[k].W] {
			return true
		}
	}
	return false
}

// negatedNegation reports whether negation n of clause ci is itself under
// a negation: an earlier one in the clause with no action between them
// ("that doesn't mean this investigation can't apply", "no es que no se
// permitan"), where a list of prohibitions ("no apply, no restart") has an
// action after each.
func (t *Text) negatedNegation(ci int, n Hit) bool {
	for _, h := range t.hitsOf(ci, Negation) {
		if h.T1 <= n.T0 && h.T0 >= t.clauses[ci].T0 && t.wordsBetween(h.T1, n.T0) > 0 &&
			!t.actionBetween(ci, h.T1, n.T0) && !t.commaBetween(h.T1, n.T0) {
			return true
		}
	}
	return false
}
