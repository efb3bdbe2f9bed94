package meaning

import (
	"fmt"
	"slices"
	"strings"
)

// Verdict is what a clause says of an invariant's subject.
type Verdict int

// The verdicts of the reading stage, from the weakest to the strongest.
const (
	// Silent: the clause does not touch the subject, or only names it.
	Silent Verdict = iota
	// Restates: it says plainly what the invariant holds.
	Restates
	// Unclear: it touches the subject and says something the tables do
	// not read, or says it under a modifier the source does not carry.
	Unclear
	// Contradicts: it says plainly the opposite.
	Contradicts
)

func (v Verdict) String() string {
	return [...]string{"silent", "restates", "unclear", "contradicts"}[v]
}

// Reading is what one clause says of a subject.
type Reading struct {
	Verdict Verdict
	// Clause is the clause's index; A its byte offset; Text its words.
	Clause int
	A      int
	Text   string
	// Why names the words that decided, for a message.
	Why string
	// Target is set when the clause names one of the subject's names;
	// Other is another name of their kind it names instead.
	Target bool
	Other  string
	// Mods are the clause's modifiers that the source does not carry.
	Mods []Modifier
	// Cue is the class of the words that decided (notdone, done, started,
	// …), "" when none did.
	Cue Class
	// Live is set when the clause says an artifact's live name is live;
	// Lookalike when it names a lookalike with no word of which is live.
	Live, Lookalike bool
	// Reported is set when the clause reports someone else's words (an
	// attribution the source does not carry, a claim it distances itself
	// from): what it says against the subject is reported, not said, and
	// its verdict is Silent.
	Reported bool
}

// modifierClasses are the modifiers each kind of subject reads.
var modifierClasses = map[Kind][]Class{
	Rule:      {Condition, Exception, Quantifier, Attribution, Time, Past, Hedge, Concession, Counterfactual, Question},
	Claim:     {Condition, Quantifier, Attribution, Time, Concession, Counterfactual, Question},
	Operation: {Condition, Quantifier, Attribution, Time, Concession, Counterfactual, Question},
	Artifact:  {Condition, Exception, Quantifier, Hedge, Concession, Counterfactual, Question},
	Fact:      {Condition, Quantifier, Attribution, Concession, Counterfactual, Question},
}

// Read is the reading stage: every clause of t that touches s, with what
// it says of it.
func (t *Text) Read(s *Subject) []Reading {
	var out []Reading
	var ids map[int]bool // an operation's: the sentences that name its id
	for ci := range t.clauses {
		ms := t.mentions(ci, s)
		if len(ms) == 0 {
			if r, ok := t.guessesAfter(ci, ids); ok && s.Kind == Operation {
				out = append(out, r)
			}
			continue
		}
		if s.Kind == Operation && s.ID != "" && t.namesID(ms, s) {
			if ids == nil {
				ids = map[int]bool{}
			}
			ids[t.clauses[ci].Sent] = true
		}
		g, touched := t.predicate(ci, s, ms)
		if !touched {
			continue
		}
		r := Reading{Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci)}
		r.Verdict, r.Why = decide(g, s.Kind)
		r.Live, r.Lookalike = g.live, g.lookalike && !g.byPosition && g.aff == "" && g.opp == ""
		if len(g.used) > 0 {
			r.Cue = g.used[0].Class
		}
		if s.Kind == Rule {
			t.bind(&r, ms)
		}
		t.modify(&r, ci, s, g)
		out = append(out, r)
	}
	return out
}

// Gaps reads the rest of a typed record's text (a constraints[] entry
// that cites the rule's event), given what Read found in it: every clause
// of a record is about its subject, so one that names it (its patterns,
// state, actions or target) and asks a question of it, says it under two
// negations ("no es que no se permitan") or as advice, a hedge or a
// quantifier ("es preferible"), is Unclear where Read leaves it silent.
func (t *Text) Gaps(s *Subject, read []Reading) []Reading {
	return t.gaps(s, read, func(int) bool { return true }, false)
}

// LineGaps reads the rest of where a text restates its subject, as Gaps
// reads a record: the sentences under a rule's heading up to the next
// heading ("Rule (#1): … READ-ONLY investigation: no apply, no restart.
// Then again, does re-adding the subnet even count as a change?"), or,
// with no rule heading before it, the sentence (stretchOf). A question
// under a rule's heading is Unclear whether it names the subject or not.
func (t *Text) LineGaps(s *Subject, read []Reading) []Reading {
	var scopes [][2]int // in the order of the readings: the output is too
	for _, r := range read {
		if st := t.stretchOf(r.Clause); r.Verdict == Restates && !slices.Contains(scopes, st) {
			scopes = append(scopes, st)
		}
	}
	if len(scopes) == 0 {
		return nil
	}
	stretch := make([][2]int, len(t.clauses)) // each clause's, once
	for ci := range t.clauses {
		stretch[ci] = t.stretchOf(ci)
	}
	out := t.gaps(s, read, func(ci int) bool { return slices.Contains(scopes, stretch[ci]) }, true)
	for _, st := range scopes {
		if r, ok := t.narrowed(s, read, func(ci int) bool { return stretch[ci] == st }); ok {
			out = append(out, r)
		}
	}
	return out
}

// narrowed reads the stretch (the clauses that in selects) where a text restates a rule whose source
// forbids a list of actions: naming some of them and not the others, with
// no word for all of them ("Manual kubectl apply is not permitted" of "no
// manual apply, scale, patch or rollout restart"), narrows the rule, and
// is Unclear at the first restatement there.
func (t *Text) narrowed(s *Subject, read []Reading, in func(int) bool) (Reading, bool) {
	if len(s.Listed) == 0 {
		return Reading{}, false
	}
	tab := conceptsOf()
	named := map[string]bool{}
	first := -1
	for ci, c := range t.clauses {
		if !in(ci) {
			continue
		}
		if len(t.hitsOf(ci, Quantifier)) > 0 || t.sayAll(ci) {
			return Reading{}, false // "any manual operation", "todos los cambios"
		}
		if !t.forbids(ci) {
			continue // actions named, not forbidden ("we wait for them to apply the fix")
		}
		for i := c.T0; i < c.T1; i++ {
			for _, cc := range tab.byAction[t.toks[i].W] {
				named[cc] = true
			}
		}
	}
	for _, r := range read {
		if r.Verdict == Restates && in(r.Clause) && first < 0 {
			first = r.Clause
		}
	}
	var some, missing []string
	for _, c := range s.Listed {
		if named[c] {
			some = append(some, c)
		} else {
			missing = append(missing, c)
		}
	}
	if first < 0 || len(some) == 0 || len(missing) == 0 {
		return Reading{}, false
	}
	return Reading{Verdict: Unclear, Clause: first, A: t.clauses[first].A, Text: t.ClauseText(first),
		Why: fmt.Sprintf("names only %s of what the rule forbids, not %s", strings.Join(some, ", "), strings.Join(missing, ", "))}, true
}

// forbids reports whether clause ci forbids the actions it names: it
// holds a negation or a prohibition anywhere ("a restart is not
// permitted", "nothing may be applied, restarted or scaled").
func (t *Text) forbids(ci int) bool {
	return len(t.hitsOf(ci, Forbid, Negation)) > 0
}

// allWords name every action of a kind at once: a restatement with one
// does not narrow a list ("no changes of any kind").
var allWords = set(`any all every everything anything ningun ninguna ningunos ningunas todo toda todos todas cualquier`)

func (t *Text) sayAll(ci int) bool {
	c := t.clauses[ci]
	for i := c.T0; i < c.T1; i++ {
		if allWords[t.toks[i].W] {
			return true
		}
	}
	return false
}

// stretchOf returns what a restatement in clause ci speaks for: the
// sentences under a rule's heading ("Rule (#1):", "Regla del usuario:")
// that opens its sentence or one of the three before it, with no other
// heading between ({that sentence, -1}), else its sentence ({-1, the
// sentence}). Folded text has no line
// breaks: a summary's line starts at such a heading.
func (t *Text) stretchOf(ci int) [2]int {
	sent := t.clauses[ci].Sent
	for k := ci; k >= 0 && t.clauses[k].Sent >= sent-3; k-- {
		c := t.clauses[k]
		opens := k == 0 || t.clauses[k-1].Sent != c.Sent
		if !opens || !endsAtColon(t.toks, &c) || words(t.toks[c.T0:c.T1]) > 6 {
			continue
		}
		if len(t.hitsOf(k, RuleNoun)) > 0 {
			return [2]int{c.Sent, -1}
		}
		break // another heading ("Findings:") ends the rule's line
	}
	return [2]int{-1, sent}
}

// gaps is Gaps over the clauses in selects; with asks, a question is
// Unclear whether it names s or not.
func (t *Text) gaps(s *Subject, read []Reading, in func(int) bool, asks bool) []Reading {
	done := map[int]bool{}
	for _, r := range read {
		done[r.Clause] = true
	}
	var out []Reading
	for ci := range t.clauses {
		if done[ci] || !in(ci) {
			continue
		}
		if t.copied(ci, s) {
			continue // the event's own words, copied ("¿Y cuánto ganaríamos con el índice?")
		}
		why := t.gapWhy(ci, s, asks)
		if why == "" {
			continue
		}
		out = append(out, Reading{Verdict: Unclear, Clause: ci, A: t.clauses[ci].A, Text: t.ClauseText(ci), Why: why})
	}
	return out
}

// agentWords name the agent itself as the one who acts.
var agentWords = set(`assistant agent we i asistente agente nosotros yo`)

// agentActs reports whether clause ci, beside a rule, has the agent (its
// subject: "the assistant diagnoses and makes the changes") do an action
// of any rule's concept with no negation or prohibition on it: where the
// rule says someone else acts, the agent is given the act.
func (t *Text) agentActs(ci int) bool {
	c := t.clauses[ci]
	subj := -1
	for i := c.T0; i < c.T1; i++ {
		if t.toks[i].Word && !partyDeterminers[t.toks[i].W] {
			subj = i
			break
		}
	}
	if subj < 0 || !agentWords[t.toks[subj].W] || t.forbids(ci) {
		return false
	}
	tab := conceptsOf()
	for i := subj + 1; i < c.T1; i++ {
		switch w := t.toks[i].W; {
		case partyNouns[w] || userWords[w]:
			return false // another acts: "we wait for the network team to apply it"
		case len(tab.byAction[w]) > 0:
			return true
		}
	}
	return false
}

// gapWhy says why clause ci, beside a restatement, is unclear, "" when it
// is not. A record's every clause is its rule's; a line's only those that
// name it (asks), but a question under its heading.
func (t *Text) gapWhy(ci int, s *Subject, asks bool) string {
	named := names(t.mentions(ci, s))
	if party, ok := t.foreignParty(ci, s.Source); ok && (named || !asks) {
		return "gives it to " + quote(party) + ", whom the source does not name"
	}
	if asks && t.question(ci) && t.stretchOf(ci)[1] < 0 {
		return "asks a question in the line that states it"
	}
	switch {
	case !named && t.agentActs(ci):
		return "has the agent do what the rule is about"
	case !named:
	case t.question(ci):
		return "asks a question of it"
	case t.agentActs(ci):
		return "has the agent do what the rule is about"
	case t.negations(ci) >= 2:
		return "says it under two negations"
	case len(t.hitsOf(ci, Suggest, Hedge, Quantifier)) > 0:
		return "says it as advice, a hedge or a quantifier"
	}
	if asks {
		return ""
	}
	if m := t.unaccounted(ci, s, Condition, Exception); m != "" {
		return "gives it " + m + ", which the source does not state"
	}
	return ""
}

// copied reports whether clause ci is, word for word, in s's source: a
// text that copies the event (a masked transcript) says nothing new.
func (t *Text) copied(ci int, s *Subject) bool {
	c := t.clauses[ci]
	return s.Source != nil && c.B-c.A >= 12 && strings.Contains(s.Source.s, t.s[c.A:c.B])
}

// unaccounted names the first modifier of classes in clause ci that s's
// source does not carry, in its cue or in the words it governs ("si el
// CAB aprueba una excepción" of "exceptions need approval from the CAB"),
// and that does not point back at the record's own words ("salvo esas
// dos cosas"); "" when there is none.
func (t *Text) unaccounted(ci int, s *Subject, classes ...Class) string {
	for _, md := range t.modifierHits(ci, classes) {
		m := md.Modifier
		if accounted(m, s.Source) || s.Source != nil && len(m.Object) > 0 && s.Source.holdsAlike(m.Object) {
			continue
		}
		if k := md.hit.T1; k < len(t.toks) && pointsBack[t.toks[k].W] {
			continue
		}
		return m.String()
	}
	return ""
}

// pointsBack are the words that open a modifier's object pointing back at
// what the text already said ("except those two", "salvo esas dos cosas").
var pointsBack = set(`that those these this them it esa esas ese esos esta estas este estos eso esto ello`)

// negations counts the negations of clause ci, each once however many
// entries of the table read it ("no" is English and Spanish).
func (t *Text) negations(ci int) int {
	at := map[int]bool{}
	for _, h := range t.hitsOf(ci, Negation) {
		at[h.T0] = true
	}
	return len(at)
}

// names reports whether mentions name the subject itself, not another
// thing of its kind.
func names(ms []Mention) bool {
	for _, m := range ms {
		if m.What != OtherOf {
			return true
		}
	}
	return false
}

// predicate runs the kind's predicate stage and says whether the clause
// touches the subject at all.
func (t *Text) predicate(ci int, s *Subject, ms []Mention) (signals, bool) {
	switch s.Kind {
	case Rule:
		g := t.readRule(ci, ms, s)
		if s.NameRule() {
			return g, g.opp != "" || g.aff != ""
		}
		return g, g.aff != "" || g.opp != "" || g.unclear != "" || namesRule(ms) || t.ruleWordsOnName(ci, ms)
	case Claim:
		if !has(ms, MatchOf) {
			g := t.namedClaim(ci, ms, s)
			return g, g.aff != "" || g.unclear != ""
		}
		g := t.readClaim(ci, ms, s)
		return g, !g.old || g.aff != "" || g.opp != "" || g.unclear != ""
	case Fact:
		return t.readFact(ci, ms), has(ms, MatchOf)
	case Operation:
		g := t.readOperation(ci, ms, s)
		return g, g.aff != "" || g.opp != "" || g.unclear != "" || t.namesID(ms, s) && t.saysOfID(ci, s)
	case Artifact:
		g := t.readArtifact(ci, ms)
		return g, g.aff != "" || g.opp != "" || g.unclear != ""
	}
	return signals{}, false
}

// decide turns a clause's signals into a verdict.
func decide(g signals, k Kind) (Verdict, string) {
	switch {
	case g.ended, g.opp != "" && g.aff != "" && !g.affOutside && k == Rule:
		return Contradicts, g.opp
	case g.aff != "" && g.opp != "":
		return Unclear, fmt.Sprintf("says both: %s; %s", g.aff, g.opp)
	case g.opp != "":
		return Contradicts, g.opp
	case g.unclear != "":
		return Unclear, g.unclear
	case g.aff != "":
		return Restates, g.aff
	}
	return Unclear, "touches it in words the reader does not know"
}

// bind is the subject binding of a rule's clause: the target it names, or
// another name of the target's kind instead, which turns what it says
// into something said of another thing.
func (t *Text) bind(r *Reading, ms []Mention) {
	for _, m := range ms {
		switch m.What {
		case NameOf:
			if part, ok := t.partOf(m); ok && r.Verdict == Restates {
				r.Why = fmt.Sprintf("said of %s of the rule's target, not of all of it (%s)", quote(part), r.Why)
				r.Verdict = Unclear
			}
			r.Target = true
		case OtherOf:
			if r.Other == "" {
				r.Other = t.words(m.T0, m.T1)
			}
		}
	}
	if r.Target || r.Other == "" || r.Verdict == Silent {
		return
	}
	if r.Verdict == Restates || r.Verdict == Contradicts {
		r.Why = fmt.Sprintf("said of %s, not of the rule's target (%s)", quote(r.Other), r.Why)
		r.Verdict = Unclear
	}
}

// modify applies the modifier stage: a modifier the source does not carry
// makes a plain reading unclear; a permission under the rule's own
// condition restates the rule ("deploy only with my explicit go-ahead").
func (t *Text) modify(r *Reading, ci int, s *Subject, g signals) {
	decidedOutside := len(g.used) > 0
	for _, u := range g.used {
		decidedOutside = decidedOutside && !t.inParens[u.T0]
	}
	used := func(h Hit) bool {
		for _, u := range g.used {
			if u.T0 < h.T1 && h.T0 < u.T1 {
				return true
			}
		}
		// a modifier in brackets qualifies what the brackets hold, not
		// what the clause decided outside them
		return decidedOutside && t.inParens[h.T0]
	}
	ownCondition := false
	for _, m := range t.modifiers(ci, modifierClasses[s.Kind], used) {
		if accounted(m, s.Source) {
			ownCondition = ownCondition || m.Class == Condition || m.Class == Exception
			continue
		}
		r.Mods = append(r.Mods, m)
	}
	if s.Kind == Rule {
		// only a rule is given for a party or waits for an owner's approval
		if party, ok := t.foreignParty(ci, s.Source); ok {
			r.Mods = append(r.Mods, Modifier{Class: Party, Cue: party})
		}
		if place, ok := t.foreignPlace(ci, s); ok {
			r.Mods = append(r.Mods, Modifier{Class: Place, Cue: place})
		}
	}
	if g.plan {
		// "is to be migrated only if staging looks clean": the condition
		// of a plan, not of what became of the call
		r.Mods = dropClasses(r.Mods, Condition, Time)
	}
	if r.Verdict == Contradicts {
		// a past or a date does not soften what ended: "the freeze was
		// lifted this morning" says it is over now
		r.Mods = dropClasses(r.Mods, Past, Time)
	}
	if t.distanced(ci) || hasClass(r.Mods, Attribution) {
		// "the wiki says read-only no longer applies", "a page claiming
		// they may write": reported, neither kept nor contradicted; a rule
		// in someone else's mouth is not plainly the summary's
		r.Reported = true
		r.Why = "reported, not stated: " + r.Why
		switch {
		case t.distanced(ci), r.Verdict == Contradicts && s.Kind == Rule:
			// an injected or reported permission is reported, not given
			r.Verdict = Silent
			return
		case r.Verdict == Contradicts:
			// someone else's claim of what the invariant denies is not
			// plainly the summary's, nor plainly refused
			r.Verdict = Unclear
			return
		}
	}
	switch {
	case len(r.Mods) > 0 && (r.Verdict == Restates || r.Verdict == Contradicts):
		r.Why = fmt.Sprintf("%s, under %s, which the source does not state", r.Why, describe(r.Mods))
		r.Verdict = Unclear
	case s.Kind == Rule && r.Verdict == Contradicts && ownCondition && !g.ended:
		// "apply only with my go-ahead" restates the rule; "the rule that
		// … without my go-ahead no longer applies" ends it, condition and all
		r.Why = "the rule's own condition restated: " + r.Why
		r.Verdict = Restates
	}
}

func describe(ms []Modifier) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.String())
	}
	return strings.Join(parts, ", ")
}

func has(ms []Mention, w What) bool {
	for _, m := range ms {
		if m.What == w {
			return true
		}
	}
	return false
}

// namesRule reports whether a clause names the rule itself: a match of its
// patterns or its state (its opposite counts only as what it says).
func namesRule(ms []Mention) bool {
	return has(ms, MatchOf) || has(ms, StateOf)
}

// ruleWordsOnName reports whether a clause names the rule's target with a
// word that lifts, permits, delegates or ends something: it may speak of
// the rule in words no pattern holds ("prod-us-2 is open again").
func (t *Text) ruleWordsOnName(ci int, ms []Mention) bool {
	for _, m := range ms {
		if m.What != NameOf {
			continue
		}
		for _, h := range t.hitsOf(ci, Cancel, Permit, Delegate, Forbid) {
			if t.near(m, h, 4) && !t.epistemic(ci, h) {
				return true
			}
		}
	}
	return false
}

// distanced reports whether clause ci reports words it does not stand
// behind ("a page claiming they may write to prod"): it neither keeps
// nor contradicts what it reports.
func (t *Text) distanced(ci int) bool { return len(t.hitsOf(ci, Distance)) > 0 }

// HasClass reports whether the text holds a phrase of one of classes.
func (t *Text) HasClass(classes ...Class) bool {
	for ci := range t.clauses {
		if len(t.hitsOf(ci, classes...)) > 0 {
			return true
		}
	}
	return false
}

func (t *Text) namesID(ms []Mention, s *Subject) bool {
	for _, m := range ms {
		if m.What == NameOf && s.ID != "" && t.toks[m.T0].W == s.ID {
			return true
		}
	}
	return false
}

func dropClasses(ms []Modifier, cs ...Class) []Modifier {
	out := ms[:0:0]
	for _, m := range ms {
		keep := true
		for _, c := range cs {
			keep = keep && m.Class != c
		}
		if keep {
			out = append(out, m)
		}
	}
	return out
}

func hasClass(ms []Modifier, c Class) bool {
	for _, m := range ms {
		if m.Class == c {
			return true
		}
	}
	return false
}
