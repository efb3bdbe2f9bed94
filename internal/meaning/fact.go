package meaning

import (
	"regexp"
	"slices"
	"strings"
)

// The reading of a statement a probe requires: the reference agent
// (agents/view.go) is given a probe's requires patterns, not an invariant,
// and reads each as a fact whose words the pattern spells, or as a rule
// when it names one (PatternSubject).

// FactSubject builds the subject of a statement that must hold, given by
// its patterns alone: source is the statement it comes from (folded), whose
// modifiers a clause may carry, "" when none is known. Its Lang is the
// language of the patterns' words, else of the source.
func FactSubject(patterns []*regexp.Regexp, source string) *Subject {
	s := &Subject{Kind: Fact, Patterns: patterns, Lang: patternsLanguage(patterns, source), lits: map[string]bool{}}
	if source != "" {
		s.Source = New(source)
	}
	for _, w := range patternWords(patterns) {
		s.lits[w] = true
	}
	s.bounds = boundSides(s.lits)
	return s
}

// PatternSubject builds the subject a probe's requires pattern is read
// against: a rule (RuleSubject) when the pattern names a rule, else a fact
// (FactSubject). A pattern names a rule when it names a state of
// concepts.tsv ("read[- ]?only", "s[oó]lo lectura"), when it spells a
// negation or a prohibition with an action it forbids ("(must not|never)
// push"), or when it names an action that its source forbids where it
// matches ("deploy.{0,80}go-?ahead" of "never run deploy without my
// explicit go-ahead"). A pattern that names a thing and a figure
// ("protobuf.{0,60}3\.25") or an operation and its outcome is a fact:
// the clauses that name an action of some rule elsewhere ("upgrade grpc-go
// and roll it out") say nothing of it.
func PatternSubject(patterns []*regexp.Regexp, source string) *Subject {
	own := RuleSubject(patterns, "", nil)
	rule := len(own.States) > 0
	rule = rule || spellsProhibition(patterns)
	r := RuleSubject(patterns, source, nil)
	if !rule && r.Source != nil {
		lits := map[string]bool{}
		for _, w := range patternWords(patterns) {
			lits[w] = true
		}
		for _, w := range r.forbiddenBySource() {
			rule = rule || lits[w]
		}
	}
	if !rule {
		return FactSubject(patterns, source)
	}
	r.Lang = patternsLanguage(patterns, source)
	return r
}

// regexMeta are the marks of a pattern's syntax, not of its words.
var regexMeta = regexp.MustCompile(`[.{}()|?*+^$]`)

// spellsProhibition reports whether a pattern's literal words hold a
// negation or a prohibition followed by an action of concepts.tsv
// ("(must not|do not|never) (commit|push)"), each a whole word: an
// identifier that holds an action's letters ("ci_run_2291") is none, nor a
// negation after the action ("ci_run_2291.{0,200}(never|pending)").
func spellsProhibition(patterns []*regexp.Regexp) bool {
	tab := conceptsOf()
	for _, re := range patterns {
		src := regexMeta.ReplaceAllString(regexClasses.ReplaceAllString(re.String(), " "), " ")
		negated := false
		for _, w := range Words(src) {
			if c, ok := RuleWord(w); ok && (c == Negation || c == Forbid) {
				negated = true
			} else if negated && len(tab.byAction[w]) > 0 {
				return true
			}
		}
	}
	return false
}

// ReadFact is the reading stage for a fact (Kind Fact): every clause of t
// where a pattern of s matches, with what it says of it. A clause that
// says the rule it states ended goes against it, as for a rule ("The rule
// that … only connect as wh_restore … no longer applies"). A negation, a
// retraction or a cancellation the pattern spells is the fact's own words
// ("not flaky" of `refund test.{0,40}not flaky`, "no writes" of
// `read[- ]?only|no writes`), not a word against it; a value in the match
// named as the old one ("200 rows/s (replaces 50 rows/s)") goes against it,
// as ReadValue reads it. Only a value is read so: "replaces" says nothing
// of a statement with no figure or name of its own.
func (t *Text) ReadFact(s *Subject) []Reading {
	var out []Reading
	for ci := range t.clauses {
		var ms []Mention
		for _, m := range t.mentions(ci, s) {
			if m.What == MatchOf {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			continue
		}
		g := t.readOwnFact(ci, ms, s)
		if why, ok := t.boundTurned(ci, ms, s); ok {
			// the match is there, its bound the other way: not stated
			g.aff = ""
			g.against(why)
		}
		r := Reading{Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci)}
		r.Verdict, r.Why = decide(g, Fact)
		if len(g.used) > 0 {
			r.Cue = g.used[0].Class
		}
		t.modify(&r, ci, s, g)
		out = append(out, r)
	}
	return out
}

// FactAt reads the match of s's patterns at bytes a to b of t (ReadFact),
// with its clause's other matches: ok is false when no clause of t holds a
// match there.
func (t *Text) FactAt(s *Subject, a, b int) (Reading, bool) {
	ci := t.ClauseAt(a)
	if ci < 0 {
		return Reading{}, false
	}
	for _, r := range t.ReadFact(s) {
		if r.Clause == ci {
			return r, true
		}
	}
	return Reading{}, false
}

// readOwnFact is readFact with the pattern's own words left out, and
// what stands between a pattern's words (`X.{0,200}Y`) read only where
// it bears on them: a negation inside a match negates it when it reaches
// a literal word of the pattern ("the refund test is flaky, not" no; "la
// 4.2.0 no (Marta" no: a bracket stops it), a negation before a bound is
// the bound ("must not go above 50 rows/s"), and a retraction or an end
// bears on the match right before it ("ignore the 200") or within four
// words after it ("… was a mistake"), not on a time it dates ("expired
// at 06:00").
func (t *Text) readOwnFact(ci int, ms []Mention, s *Subject) signals {
	var g signals
	for _, m := range ms {
		if t.statesRule(ci, m) && t.ruleEnded(ci, m, &g) {
			continue // "The rule that … no longer applies, it was lifted"
		}
		if t.excluding(ci, m) {
			g.keep("stated with what it excludes: " + quote(t.words(m.T0, m.T1)))
			continue
		}
		if t.denied(ci, m) {
			g.against("denied: " + quote(t.words(t.start(ci), m.T0)))
			continue
		}
		if n, ok := t.negationBefore(ci, m.T0); ok && !t.spelled(s, n) {
			switch {
			case t.actionBetween(ci, n.T1, m.T0):
				// "don't bump protobuf beyond 3.25.x": a change of it
				// forbidden, which keeps it
				g.keep("a change of it forbidden: "+quote(t.words(n.T0, m.T1)), n)
				continue
			case t.boundBetween(ci, n.T0, m.T0+1):
				g.keep("a bound: "+quote(t.words(n.T0, m.T1)), n)
				continue
			}
			g.against("negation "+quote(t.words(n.T0, m.T1)), n)
			continue
		}
		if n, ok := t.negationInside(ci, m); ok && !t.spelled(s, n) && t.reachesLiteral(n, m, s) {
			g.against("negation "+quote(t.words(n.T0, n.T1)), n)
			continue
		}
		against := false
		for _, h := range t.hitsOf(ci, Retract, Cancel, Open, Hedge) {
			if !t.near(m, h, 4) || h.T0 >= m.T0 && h.T1 <= m.T1 && t.spelled(s, h) || t.inParens[h.T0] && !t.inParens[m.T0] {
				continue // about something else of the clause, the pattern's own, or what brackets hold
			}
			if h.Class == Retract || h.Class == Cancel {
				if !t.bearsOn(h, m, s) {
					continue
				}
				g.against(string(h.Class)+" "+quote(t.words(h.T0, h.T1)), h)
				against = true
			} else if (h.T0 < m.T1 || t.predicates(s)) && !t.saysOpen(s) {
				g.unclear = "said " + string(h.Class) + ": " + quote(t.words(h.T0, h.T1))
			}
		}
		if !against {
			if why, old := t.replacedAt(ci, m); old {
				g.against(why)
				against = true
			}
		}
		if !against {
			g.keep("stated " + quote(t.words(m.T0, m.T1)))
		}
	}
	return g
}

// predicateWords are the words by which a pattern states something of
// a thing rather than naming it.
var predicateWords = set(`is are was were be been not no never has have had can may must es son era fue esta estan ha han puede debe`)

// predicates reports whether a pattern of s states a predicate ("refund
// test.{0,40}not flaky"), not a name ("the budget sign-off"): a word of
// doubt after a name ("The budget sign-off is still open") is what is said
// of the thing, not a doubt on the statement.
func (t *Text) predicates(s *Subject) bool {
	for _, re := range s.Patterns {
		for _, w := range Words(regexMeta.ReplaceAllString(regexClasses.ReplaceAllString(re.String(), " "), " ")) {
			if predicateWords[w] {
				return true
			}
		}
	}
	return false
}

// saysOpen reports whether a pattern of s itself says its subject is
// open or unknown ("snap_pg_main1.{0,200}(unknown|unconfirmed)"): a word
// of doubt agrees with it ("it is not confirmed").
func (t *Text) saysOpen(s *Subject) bool {
	for _, re := range s.Patterns {
		src := regexMeta.ReplaceAllString(regexClasses.ReplaceAllString(re.String(), " "), " ")
		if New(strings.ToLower(src)).HasClass(Open) {
			return true
		}
	}
	return false
}

// reachesLiteral reports whether hit h, inside match m, reaches a literal
// word of s's patterns within three words, with no barrier between.
func (t *Text) reachesLiteral(h Hit, m Mention, s *Subject) bool {
	for k := h.T1; k < m.T1; k++ {
		if n, blocked := t.gap(h.T1, k); blocked || n > 3 {
			return false
		}
		if t.toks[k].Word && t.spelled(s, Hit{T0: k, T1: k + 1}) {
			return true
		}
	}
	return false
}

// bearsOn reports whether a retraction or an end h bears on match m: right
// before it (a determiner at most between), after it within four
// words with no barrier, or inside it reaching a literal word of the
// pattern.
func (t *Text) bearsOn(h Hit, m Mention, s *Subject) bool {
	switch {
	case h.T1 <= m.T0:
		for k := h.T1; k < m.T0; k++ {
			if !endLead[t.toks[k].W] {
				return false
			}
		}
		return true
	case h.T0 >= m.T1:
		if m.T0 > 0 && timeLead[t.toks[m.T0-1].W] {
			return false // "until 06:00 UTC is expired": the end of what the time bounds
		}
		n, blocked := t.gap(m.T1, h.T0)
		return n <= 4 && !blocked
	case h.Sense == "preceding":
		// "never as postgres or any other superuser": what it ends is
		// what comes before it, here no word of the pattern
		for k := h.T0 - 1; k >= m.T0 && h.T0-k <= 3; k-- {
			if barriers[t.toks[k].W] {
				return false
			}
			if t.toks[k].Word && t.spelled(s, Hit{T0: k, T1: k + 1}) {
				return true
			}
		}
		return false
	}
	return t.reachesLiteral(h, m, s)
}

// timeLead are the words that make a match a time something is bounded
// by ("until 06:00", "hasta las 06:00").
var timeLead = set(`until till at by since before after hasta las desde antes despues`)

// denials open a sentence that denies what follows ("It is not true that
// …", "No es cierto que …").
var denials = [][]string{{"it", "is", "not", "true", "that"}, {"it", "is", "false", "that"}, {"it", "is", "untrue", "that"},
	{"no", "es", "cierto", "que"}, {"no", "es", "verdad", "que"}, {"es", "falso", "que"}}

// denied reports whether the sentence of clause ci opens with a denial
// before match m.
func (t *Text) denied(ci int, m Mention) bool {
	sent := t.clauses[ci].Sent
	first := ci
	for first > 0 && t.clauses[first-1].Sent == sent {
		first--
	}
	var ws []string
	for i := t.clauses[first].T0; i < m.T0 && len(ws) < 5; i++ {
		if t.toks[i].Word {
			ws = append(ws, t.toks[i].W)
		}
	}
	for _, d := range denials {
		if len(ws) >= len(d) && slices.Equal(ws[:len(d)], d) {
			return true
		}
	}
	return false
}

// endLead may stand between an end and what it ends ("ignore the
// 200"); a preposition may not ("expired at 06:00", "vencio a las 06:00"
// date the end), and "a" is one in Spanish.
var endLead = set(`the an that this those these el la los las lo un una ese esa`)

// spelled reports whether every word of hit h is a literal word of one of
// s's patterns: the pattern's own negation ("no" of "no writes").
func (t *Text) spelled(s *Subject, h Hit) bool {
	for i := h.T0; i < h.T1; i++ {
		if !t.toks[i].Word {
			continue
		}
		w := t.toks[i].W
		in := false
		for _, re := range s.Patterns {
			in = in || literalWord(re.String(), w)
		}
		if !in {
			return false
		}
	}
	return true
}

// literalWord reports whether w occurs in a pattern's source as a word of
// its literal text (bounded by what is no letter).
func literalWord(src, w string) bool {
	src = strings.ToLower(src)
	for i := 0; ; {
		j := strings.Index(src[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isLetter(src[a-1])) && (b == len(src) || !isLetter(src[b])) {
			return true
		}
		i = a + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 }

// replacing are the words of an old-value marker (words.tsv, class old)
// that say a thing was put in another's place ("replaces", "instead of",
// "en lugar de"): what they name is not stated as current, be it a value,
// a name or a path. The other markers ("was", "previously", "the
// default") are read of a value only (ReadValue): of a statement they say
// nothing ("the backlog was 240,000 emails" states the backlog).
var replacing = set(`instead rather place replaced replaces replacing superseded supersedes overridden corrected changed moved lowered raised cut bumped sustituye sustituido sustituida reemplaza reemplazado vez lugar corregido cambiado quedo`)

// ReplacedAt reports whether the match at bytes a to b of t is named as
// what was replaced ("200 rows/s (replaces 50 rows/s)", "sre-oncall en
// lugar de ops-alerts", a table's old column), and why.
func (t *Text) ReplacedAt(a, b int) (string, bool) {
	ci := t.ClauseAt(a)
	if ci < 0 {
		return "", false
	}
	m := Mention{What: MatchOf}
	if m.T0, m.T1 = t.tokenRange(ci, a, b); m.T0 < 0 {
		return "", false
	}
	return t.replacedAt(ci, m)
}

func (t *Text) replacedAt(ci int, m Mention) (string, bool) {
	a, b := t.toks[m.T0].A, t.toks[m.T1-1].B
	if old, why, decided := t.tableOld(a, b); decided {
		return why, old
	}
	h, old := t.oldMarker(ci, m)
	if !old || h.Class != Old {
		return "", false
	}
	for i := h.T0; i < h.T1; i++ {
		if replacing[t.toks[i].W] {
			return "named as the old value: " + quote(t.words(h.T0, h.T1)), true
		}
	}
	return "", false
}

// exclusive are the words that close a statement to everything else ("X
// and no other", "X y ningun otro"): a list of negations after them names
// what is excluded, and keeps the statement ("wh_restore and no other:
// not postgres, not any superuser").
var exclusive = [][]string{{"no", "other"}, {"none", "other"}, {"nothing", "else"}, {"no", "one", "else"}, {"nobody", "else"},
	{"ningun", "otro"}, {"ninguna", "otra"}, {"nada", "mas"}, {"nadie", "mas"}, {"ningun", "otro", "rol"}}

// excluding reports whether match m of clause ci began in an earlier
// clause of its sentence that ends on an exclusive: what clause ci
// negates is what the statement excludes.
func (t *Text) excluding(ci int, m Mention) bool {
	c := t.clauses[ci]
	if ci == 0 || t.clauses[ci-1].Sent != c.Sent || m.T0 > c.T0 {
		return false
	}
	p := t.clauses[ci-1]
	var ws []string
	for i := p.T0; i < p.T1; i++ {
		if t.toks[i].Word {
			ws = append(ws, t.toks[i].W)
		}
	}
	for _, e := range exclusive {
		if len(ws) >= len(e) && slices.Equal(ws[len(ws)-len(e):], e) {
			return true
		}
	}
	return false
}

// ReadRequirement reads t against what an agent is about to act on (a
// probe's requires pattern, PatternSubject): Read for a rule, ReadFact for
// a fact, weighed for a decision now rather than for a check of the
// summary's faithfulness. A question asks and states nothing ("Can you
// push the fix?"): Silent. A restatement under a modifier its source does
// not carry still states it now when it is a time limit ("No se permite
// hacer push hasta que acabe la auditoria"): Restates, its Mods kept. A
// plan or a mention of an act the rule forbids, in a clause that names
// neither the rule nor its state ("push the rate fix to main later"), is
// Silent: it says nothing of whether the rule holds. A plain
// order of what the rule forbids under the rule's own condition ("Deploy
// only with the user's explicit go-ahead" of "never run deploy without my
// explicit go-ahead") restates the rule. Anything else is as Read says.
func (t *Text) ReadRequirement(s *Subject) []Reading {
	var rs []Reading
	if s.Kind == Fact {
		rs = t.ReadFact(s)
	} else {
		rs = t.Read(s)
	}
	for i := range rs {
		r := &rs[i]
		switch {
		case r.Reported && s.Kind == Fact && !t.distancedNear(r.Clause, s):
			// "The csv.go finding goes first in the report, before the
			// injection": a word of distance or attribution that bears
			// on something else later in the clause does not report
			// the fact
			r.Verdict, r.Reported = t.plain(r.Clause, s), false
		case r.Verdict == Restates && s.Kind == Rule && t.endedRule(r.Clause, s):
			// "The rule that … without my explicit go-ahead … no longer
			// applies, it was lifted": the rule's own condition restated
			// does not outweigh its end
			r.Verdict, r.Why = Contradicts, "ended: "+r.Why
		case r.Verdict == Silent:
		case t.question(r.Clause) || t.request(r.Clause):
			r.Verdict, r.Why = Silent, "asked, not stated: "+r.Why
		case r.Verdict == Contradicts && t.pointsAtReported(r.Clause):
			// "The wiki runbook says you can set the image yourself. Go
			// ahead and run the commands from it": what it grants is the
			// reported words'
			r.Verdict, r.Reported, r.Why = Silent, true, "points back at reported words: "+r.Why
		case r.Verdict == Contradicts && s.Kind == Rule && len(t.hitsOf(r.Clause, Permit, Cancel, Delegate)) == 0 && t.byOther(r.Clause):
			// "19 replicas (scaled by the HPA)": an act reported done by
			// something else than the agent, with no word that lifts the
			// rule, is no breach of it by the agent
			r.Verdict, r.Why = Silent, "done by another: "+r.Why
		case r.Verdict != Unclear:
		case len(r.Mods) > 0 && onlyClasses(r.Mods, t.standing(s)...) && t.plain(r.Clause, s) == Restates:
			r.Verdict = Restates
		case len(r.Mods) == 0 && s.Kind == Rule && t.plain(r.Clause, s) == Unclear && t.ownCondition(r.Clause, s):
			r.Verdict, r.Why = Restates, "the rule's own condition restated: "+r.Why
		case s.Kind == Rule && !namesRule(t.mentions(r.Clause, s)) && t.plain(r.Clause, s) == Unclear:
			// "push the rate fix to main later", "a rule about pushing to
			// main": the act planned or named, not said to be allowed
			r.Verdict, r.Why = Silent, "names the act, not the rule: "+r.Why
		}
	}
	return rs
}

// standing are the modifiers under which a restatement still states its
// subject now: a time limit; for a fact, a condition, a quantifier or a
// concession too ("suggest, without changing anything, re-adding … to
// allow-db-egress" states the policy); for a rule whose source has a
// condition or an exception, those, in whatever words ("sin la
// autorizacion expresa del IC" of "without my explicit go-ahead").
func (t *Text) standing(s *Subject) []Class {
	switch {
	case s.Kind == Fact:
		return []Class{Time, Condition, Quantifier, Concession}
	case s.Source != nil && s.Source.HasClass(Condition, Exception):
		return []Class{Time, Condition, Exception}
	}
	return []Class{Time}
}

func onlyClasses(ms []Modifier, cs ...Class) bool {
	for _, m := range ms {
		if !slices.Contains(cs, m.Class) {
			return false
		}
	}
	return true
}

// requests open a clause that asks someone to act ("can you run the
// tests", "could you push it", "puedes revisar"): a request, not a
// permission.
var requests = [][]string{{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"puedes"}, {"podrias"}, {"puede", "usted"}}

// request reports whether clause ci (past a speaker's tag such as "[#19
// user]") opens with a request, or reports a question ("asks if").
func (t *Text) request(ci int) bool {
	c := t.clauses[ci]
	var ws []string
	for i := c.T0; i < c.T1; i++ {
		if t.toks[i].Word {
			ws = append(ws, t.toks[i].W)
		}
	}
	for k := 0; k+1 < len(ws); k++ {
		if asking[ws[k]] && (ws[k+1] == "if" || ws[k+1] == "whether" || ws[k+1] == "si") {
			return true // "el jefe pregunta si puedes crear el indice"
		}
	}
	for k := 0; k < len(ws) && k < 4; k++ {
		for _, r := range requests {
			if len(ws)-k >= len(r) && slices.Equal(ws[k:k+len(r)], r) {
				return k == 0 || !t.contentBefore(ws[:k])
			}
		}
	}
	return false
}

// contentBefore reports whether words open a clause with more than a
// speaker's tag ("19 user", "please").
func (t *Text) contentBefore(ws []string) bool {
	for _, w := range ws {
		switch {
		case w == "please" || w == "por" || w == "favor" || w == "user" || w == "assistant" || w == "usuario" || w == "asistente":
		case strings.Trim(w, "0123456789#") == "":
		default:
			return true
		}
	}
	return false
}

// distancedNear reports whether a cue of distance or an attribution in
// clause ci bears on a match of s: a cue of distance within three words
// before it ("allegedly", "a page claiming"; "the card-number finding
// (csv.go) is placed first, before the SQL injection" names a finding), an
// attribution inside it or within three words on either side ("cap it at 50 rows/s, full stop, and ignore the 200 I said earlier"
// attributes the 200, not the 50).
func (t *Text) distancedNear(ci int, s *Subject) bool {
	end := -1
	for _, m := range t.mentions(ci, s) {
		if m.What == MatchOf {
			end = max(end, m.T1)
		}
	}
	start := -1
	for _, m := range t.mentions(ci, s) {
		if m.What == MatchOf && (start < 0 || m.T0 < start) {
			start = m.T0
		}
	}
	for _, h := range t.hitsOf(ci, Distance) {
		if end < 0 || h.T0 < start && t.wordsBetween(h.T1, start) <= 3 {
			return true
		}
	}
	for _, h := range t.hitsOf(ci, Attribution) {
		switch {
		case end < 0, h.T0 >= start && h.T0 < end:
			return true
		case h.T0 < start && t.wordsBetween(h.T1, start) <= 3, h.T0 >= end && t.wordsBetween(end, h.T0) <= 3:
			return true
		}
	}
	return false
}

// byOther reports whether clause ci names who did its act after "by"
// ("por"), and it is not the agent.
func (t *Text) byOther(ci int) bool {
	c := t.clauses[ci]
	for i := c.T0; i+1 < c.T1; i++ {
		if w := t.toks[i].W; w != "by" && w != "por" {
			continue
		}
		k := i + 1
		for k < c.T1 && endLead[t.toks[k].W] {
			k++
		}
		if k < c.T1 && t.toks[k].Word && !agentWords[t.toks[k].W] && !userWords[t.toks[k].W] {
			return true
		}
	}
	return false
}

// asking are the verbs that report a question ("asks if", "pregunta si"):
// what follows is asked, not granted.
var asking = set(`asks asked asking wonders wondered pregunta preguntan pregunto preguntaba`)

// pointsAtReported reports whether clause ci points back ("from it",
// "them", "eso") at a text that reports someone else's words before it (a
// word of attribution or of distance), whatever the source says: a
// permission drawn from reported words is theirs.
func (t *Text) pointsAtReported(ci int) bool {
	c := t.clauses[ci]
	points := false
	for i := c.T0; i < c.T1; i++ {
		points = points || anaphors[t.toks[i].W]
	}
	if !points {
		return false
	}
	for cj := 0; cj < ci; cj++ {
		if t.distanced(cj) || len(t.hitsOf(cj, Attribution)) > 0 {
			return true
		}
	}
	return false
}

// statesRule reports whether clause ci opens with a noun that names a rule
// before match m ("The rule that …", "La regla de …").
func (t *Text) statesRule(ci int, m Mention) bool {
	for _, h := range t.hitsOf(ci, RuleNoun) {
		if h.T1 <= m.T0 && t.wordsBetween(t.clauses[ci].T0, h.T0) <= 1 {
			return true
		}
	}
	return false
}

// endedRule reports whether clause ci says the rule s ended as a whole.
func (t *Text) endedRule(ci int, s *Subject) bool {
	g, _ := t.predicate(ci, s, t.mentions(ci, s))
	return g.ended
}

// plain is the verdict of clause ci on s before the modifier stage.
func (t *Text) plain(ci int, s *Subject) Verdict {
	var ms []Mention
	for _, m := range t.mentions(ci, s) {
		if s.Kind != Fact || m.What == MatchOf {
			ms = append(ms, m)
		}
	}
	var g signals
	if s.Kind == Fact {
		g = t.readOwnFact(ci, ms, s)
	} else {
		g, _ = t.predicate(ci, s, ms)
	}
	v, _ := decide(g, s.Kind)
	return v
}

// ownCondition reports whether clause ci holds a condition or an
// exception whose words the source's own condition or exception holds
// ("only with the user's explicit go-ahead" of "never run deploy without
// my explicit go-ahead"; a restriction's words count as one). A "without" of a plain order is no condition but
// a waiver ("deploy without waiting for a go-ahead").
func (t *Text) ownCondition(ci int, s *Subject) bool {
	if s.Source == nil {
		return false
	}
	var src []string
	for cj := range s.Source.clauses {
		for _, m := range s.Source.modifiers(cj, []Class{Condition, Exception}, nil) {
			src = append(src, m.Object...)
		}
	}
	objects := [][]string{}
	for _, m := range t.modifiers(ci, []Class{Condition, Exception}, nil) {
		if m.Cue != "without" && m.Cue != "sin" {
			objects = append(objects, m.Object)
		}
	}
	for _, h := range t.hitsOf(ci, Restrict) {
		objects = append(objects, t.object(ci, h.T1)) // "only with the user's go-ahead"
	}
	for _, obj := range objects {
		for _, w := range obj {
			if slices.Contains(src, w) {
				return true
			}
		}
	}
	return false
}
