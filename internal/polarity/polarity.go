// Package polarity reads what a clause says about a phrase it holds: whether
// the phrase is affirmed, or negated, cancelled, permitted away, retracted,
// called a mistake, superseded, hedged, or reported as someone else's
// claim. Every check that decides from text, and the reference agent, use it,
// so that "read-only no longer applies" does not keep a read-only rule and
// "200 rows/s, not 50 rows/s" does not carry 50 rows/s.
//
// A text is cut into clauses at sentence punctuation, semicolons, colons,
// dashes and parentheses (a parenthetical is a clause of its own, and the
// clause around it runs on across it). Cues come from a table
// (cues.tsv, documented in docs/polarity.md), matched as whole words on
// folded, lower-cased text, English and Spanish. A cue bears on a phrase
// when both are in one clause and nothing stands between them:
//
//   - a cue that bears on what follows it ("not", "ignore", "instead of")
//     reaches at most four words to the right, and stops at a comma, a
//     conjunction (and, but, because, que, pero, …), a relative word, or a
//     preposition that comes after a verb ("do not touch anything in a
//     read-only session" does not negate read-only);
//   - a cue that bears on what precedes it ("no longer applies", "was a
//     typo", "queda sin efecto") reaches at most six words to the left and
//     stops at a conjunction, at another value (a word with a digit, a path,
//     an address: "50 rows/s, the 200 rows/s no longer applies" negates only
//     200), or at a cue that bears on what follows;
//   - a clause made only of a cue and a colon is a heading that bears on the
//     next clause ("Ruled out: the CDN adds latency"), and a parenthetical or
//     a dash right after a phrase continues it ("the CDN adds latency —
//     refuted at #31");
//   - a phrase inside a parenthetical with no cue of its own takes the
//     polarity of the place the parenthetical holds;
//   - a cue inside the matched phrase counts unless the pattern needs it
//     ("do not push" matched by "(do not|don.t) push");
//   - a plain negation is part of the rule, not its opposite, when the
//     phrase is conditional ("no failover without the IC's go-ahead");
//   - affirming idioms ("no doubt", "not only … but", "sin duda") negate
//     nothing, and a negation inside reported speech ("the wiki says
//     read-only no longer applies") is marked Reported.
//
// Beyond cues, the class reader (Text.Read, classes.tsv, antonyms.tsv)
// reads what each clause says about the subject of one invariant by
// semantic class (deontic, negation, change of state, antonyms,
// completion, epistemic, history, new-decision frames), on segments
// linked across relative clauses, appositives, brackets and colons, and
// answers contradicts, cannot-tell, affirms, history or unrelated per
// clause; Decide picks the reading that decides (docs/polarity.md).
package polarity

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Reach of a cue, in words between the cue and the phrase.
const (
	maxFollowing = 4
	maxPreceding = 6
)

// Verdict is what a clause says about a phrase. The zero Verdict is an
// affirmed phrase.
type Verdict struct {
	// Kind is the kind of the cue that bears on the phrase; "" when none.
	Kind Kind
	// Cue is the cue as written in the text.
	Cue string
	// Phrase is the cue's phrase in the table, and Lang its language.
	Phrase, Lang string
	// At is the byte offset of the cue in the text.
	At int
	// Reported is set when the cue sits inside reported speech ("the
	// runbook says read-only no longer applies"): someone else's claim,
	// which the text does not make its own.
	Reported bool
}

// Negated reports whether the phrase is not affirmed by the text itself: a
// cue bears on it and is not inside reported speech.
func (v Verdict) Negated() bool { return v.Kind != "" && !v.Reported }

// Text is a text prepared for polarity questions. Build it with New; it is
// safe for concurrent use.
type Text struct {
	s       string
	once    sync.Once
	toks    []token
	clauses []clause
	tokCl   []int // clause of each token (-1 for separators)
	// ci is what the class reader found (buildClasses); &noClasses until
	// then, so that a text never read by class costs no room for it
	ciOnce sync.Once
	ci     *classInfo
	vfOnce sync.Once
	vf     valFrames // HistoryFrame
}

type token struct {
	a, b  int
	low   string
	chunk int32 // index of the whitespace-separated chunk holding the token
	word  bool
	value bool // holds a digit, or is part of a path, an address or a file name
}

type clause struct {
	toks   []int // token indexes, in text order
	hits   []hit
	parent int // enclosing clause of a parenthetical, -1
	at     int // offset of the '(' of a parenthetical
	prev   int // previous clause at the same level, -1
	next   int
	sep    string // separator before this clause: "(", ":", "-", ".", ";"
}

// hit is one cue found in a clause: tokens [first, last] of the clause.
type hit struct {
	first, last int // positions in clause.toks
	cues        []int
	idiom       bool
}

// New prepares text (normally folded, as internal/textmatch folds it). The
// work is done on the first question.
func New(text string) *Text { return &Text{s: text, ci: &noClasses} }

// String returns the text.
func (t *Text) String() string { return t.s }

// kindSet is the kinds a reading counts: a few at most, so a slice (no map
// per Judge call).
type kindSet []Kind

func (w kindSet) has(k Kind) bool {
	for _, x := range w {
		if x == k {
			return true
		}
	}
	return false
}

// Judge says how the text bears on the phrase at [start, end), counting only
// cues of the given kinds. re, when not nil, is the pattern that matched the
// phrase: a cue inside the phrase that the pattern needs is part of the
// phrase, not a cue ("do not push" matched by "do not push").
func (t *Text) Judge(start, end int, re *regexp.Regexp, kinds ...Kind) Verdict {
	t.build()
	if len(t.clauses) == 0 || start < 0 || end > len(t.s) || start > end {
		return Verdict{}
	}
	want := kindSet(kinds)
	ci := t.clauseAt(start)
	if ci < 0 {
		return Verdict{}
	}
	v := t.judgeIn(ci, start, end, re, want, 0)
	if v.Kind == Former && t.changedTo(v, start) {
		return Verdict{}
	}
	if v.Kind != "" && v.Kind != Report && t.reported(ci, start, v.At) {
		v.Reported = true
	}
	return v
}

// formerCopulas are the former cues that are only a past copula: what
// follows one may be the change that made the phrase current.
var formerCopulas = set(`was were era eran fue`)

// changeParticles may stand around that change ("was then set", "bumped
// back up to", "cambiado de nuevo a"); changeVerbs are changes whose
// participle participle() does not know ("set to", "put back to").
var (
	changeParticles = set(`back up down again finally then later eventually luego despues de nuevo`)
	changeVerbs     = set(`set cut put reset upped bumped puesto vuelto`)
)

// changedTo reports whether the words between former cue v and the phrase
// at start are a change to it: one participle among particles, then "to"
// or "a" ("was raised to 200 rows/s", "was then set back to 5432", "fue
// cambiado de nuevo a 5432", "was switched to config/db.yml"). The phrase
// is then the value now, not the former one.
func (t *Text) changedTo(v Verdict, start int) bool {
	from := v.At + len(v.Cue)
	if !formerCopulas[strings.ToLower(v.Cue)] || from < 0 || from > start || start > len(t.s) {
		return false
	}
	words := strings.Fields(strings.ToLower(t.s[from:start]))
	if len(words) < 2 || len(words) > 5 {
		return false
	}
	if last := words[len(words)-1]; last != "to" && last != "a" && last != "hasta" {
		return false
	}
	verbs := 0
	for _, w := range words[:len(words)-1] {
		switch {
		case changeParticles[w] || adverbs[w]:
		case changeVerbs[w] || participle(w):
			verbs++
		default:
			return false
		}
	}
	return verbs == 1
}

// Has reports whether a cue of one of kinds occurs anywhere in the clause
// holding pos, and returns the first.
func (t *Text) Has(pos int, kinds ...Kind) (Verdict, bool) {
	t.build()
	ci := t.clauseAt(pos)
	if ci < 0 {
		return Verdict{}, false
	}
	want := kindSet(kinds)
	c := &t.clauses[ci]
	for _, h := range c.hits {
		if h.idiom {
			continue
		}
		if k, i, ok := t.kindIn(h, want, ""); ok {
			return t.verdict(c, h, k, i), true
		}
	}
	return Verdict{}, false
}

// SameClause reports whether offsets a and b are in one clause.
func (t *Text) SameClause(a, b int) bool {
	t.build()
	ca, cb := t.clauseAt(a), t.clauseAt(b)
	return ca >= 0 && ca == cb
}

func (t *Text) judgeIn(ci, start, end int, re *regexp.Regexp, want kindSet, depth int) Verdict {
	// A match that runs across a sentence or clause boundary ("… the CDN
	// cut-over. Ruled out: the CDN adds the latency") is judged where the
	// pattern matches within the clause it ends in, when it does.
	if re != nil && depth < 16 && end > start {
		if cj := t.clauseAt(end - 1); cj >= 0 && cj != ci && len(t.clauses[cj].toks) > 0 {
			if o := t.toks[t.clauses[cj].toks[0]].a; o > start && o < end {
				if loc := re.FindStringIndex(t.s[o:end]); loc != nil && loc[1] > loc[0] {
					return t.judgeIn(cj, o+loc[0], o+loc[1], re, want, depth+1)
				}
			}
		}
	}
	c := &t.clauses[ci]
	// A cue inside the phrase.
	for _, h := range c.hits {
		a, b := t.toks[c.toks[h.first]].a, t.toks[c.toks[h.last]].b
		if a < start || b > end || h.idiom {
			continue
		}
		k, i, ok := t.kindIn(h, want, "")
		if !ok || k == Report {
			continue
		}
		if re != nil && !re.MatchString(t.s[start:a]+" "+t.s[b:end]) {
			continue // the pattern needs the cue: it is part of the phrase
		}
		if k == Negation && t.conditional(c, start, end) {
			continue
		}
		// A greedy match can swallow a cue that bears on something else
		// ("region is eu-west, not eu-central … eu-west"): when the
		// pattern matches before the cue, judge that match instead.
		if re != nil && depth < 16 {
			if loc := re.FindStringIndex(t.s[start:a]); loc != nil && loc[1] > loc[0] {
				if cj := t.clauseAt(start + loc[0]); cj >= 0 {
					return t.judgeIn(cj, start+loc[0], start+loc[1], re, want, depth+1)
				}
			}
		}
		return t.verdict(c, h, k, i)
	}
	if v, ok := t.left(ci, start, end, want); ok {
		return v
	}
	if v, ok := t.right(ci, start, end, want); ok {
		return v
	}
	if v, ok := t.sentential(ci, start, want); ok {
		return v
	}
	if v, ok := t.framed(ci, start, end, want); ok {
		return v
	}
	if c.parent >= 0 && depth < 16 {
		return t.judgeIn(c.parent, c.at, c.at, nil, want, depth+1)
	}
	return Verdict{}
}

// kindIn returns the first kind of h's cues that is wanted with a scope
// compatible with side ("following", "preceding", "" for any).
func (t *Text) kindIn(h hit, want kindSet, side Scope) (Kind, int, bool) {
	tab := tableOf()
	for _, i := range h.cues {
		c := tab.cues[i]
		if !want.has(c.Kind) {
			continue
		}
		if side != "" && !c.Scope.bears(side) {
			continue
		}
		return c.Kind, i, true
	}
	return "", 0, false
}

// onlyScope reports whether every cue of h bears on side s only.
func onlyScope(h hit, s Scope) bool {
	tab := tableOf()
	for _, i := range h.cues {
		if c := tab.cues[i]; c.Kind == Frame || c.Scope.bears(Both) || !c.Scope.bears(s) {
			return false
		}
	}
	return true
}

// bears reports whether a cue of scope s bears on side (Following or
// Preceding; Both asks whether it bears on both sides).
func (s Scope) bears(side Scope) bool {
	switch s {
	case Both:
		return true
	case Clause:
		return side == Following
	}
	return s == side
}

// prepositional reports whether hit h is a word that is an adverb at the
// end of a clause ("the rate was 200 before") but a preposition when a word
// follows it ("csv.go goes first, before the SQL injection"): then it
// bears on nothing before it.
func (t *Text) prepositional(c *clause, h hit) bool {
	if h.first != h.last || !prepositionalCues[t.toks[c.toks[h.first]].low] {
		return false
	}
	for j := h.last + 1; j < len(c.toks); j++ {
		if tk := t.toks[c.toks[j]]; tk.word {
			return true
		} else if tk.low == "," {
			return false
		}
	}
	return false
}

// sentential returns the verdict of a cue that bears on the whole rest of
// its clause ("It is not true that …", "No es cierto que …") when one
// stands before start in clause ci.
func (t *Text) sentential(ci, start int, want kindSet) (Verdict, bool) {
	c := &t.clauses[ci]
	tab := tableOf()
	for _, h := range c.hits {
		if h.idiom || t.toks[c.toks[h.last]].b > start {
			continue
		}
		for _, i := range h.cues {
			if cue := tab.cues[i]; cue.Scope == Clause && want.has(cue.Kind) && cue.Kind != Report {
				return t.verdict(c, h, cue.Kind, i), true
			}
		}
	}
	return Verdict{}, false
}

// framed handles a phrase inside the subject of a frame ("The rule that …
// no longer applies", "La regla de que … queda sin efecto"): the first cue
// after the phrase that bears on what precedes it is the frame's predicate,
// and bears on everything the frame holds, however long, across commas
// and values. A contrasting conjunction (but, however, although, pero,
// aunque, …) starts a new predicate and ends the frame; "and", "or", "so",
// "because", "while" do not, since a quoted rule often holds them ("never
// drop anything, so …", "do not push while the review runs").
func (t *Text) framed(ci, start, end int, want kindSet) (Verdict, bool) {
	c := &t.clauses[ci]
	tab := tableOf()
	framed := false
	for _, h := range c.hits {
		if t.toks[c.toks[h.last]].b > start {
			break
		}
		for _, i := range h.cues {
			framed = framed || tab.cues[i].Kind == Frame
		}
	}
	if !framed {
		return Verdict{}, false
	}
	for j := 0; j < len(c.toks); j++ {
		tk := t.toks[c.toks[j]]
		if tk.a < end {
			continue
		}
		if h, ok := hitStarting(c, j); ok {
			if !h.idiom {
				if k, i, ok := t.kindIn(h, want, Preceding); ok && k != Report && !t.prepositional(c, h) {
					return t.verdict(c, h, k, i), true
				}
			}
			j = h.last
			continue
		}
		if tk.word && contrasts[tk.low] {
			return Verdict{}, false
		}
	}
	return Verdict{}, false
}

func (t *Text) verdict(c *clause, h hit, k Kind, i int) Verdict {
	cue := tableOf().cues[i]
	a, b := t.toks[c.toks[h.first]].a, t.toks[c.toks[h.last]].b
	return Verdict{Kind: k, Cue: t.s[a:b], Phrase: cue.Phrase, Lang: cue.Lang, At: a}
}

// hitEnding returns the hit of c that ends at clause position p, if any.
func hitEnding(c *clause, p int) (hit, bool) {
	for _, h := range c.hits {
		if h.last == p {
			return h, true
		}
	}
	return hit{}, false
}

func hitStarting(c *clause, p int) (hit, bool) {
	for _, h := range c.hits {
		if h.first == p {
			return h, true
		}
	}
	return hit{}, false
}

// left looks for a cue before the phrase that bears on what follows it.
func (t *Text) left(ci, start, end int, want kindSet) (Verdict, bool) {
	c := &t.clauses[ci]
	p := len(c.toks)
	for i, ti := range c.toks {
		if t.toks[ti].b > start {
			p = i
			break
		}
	}
	scan := func() (Verdict, bool) {
		words, wordsBeyondPrep, prep, limit := 0, 0, false, false
		for j := p - 1; j >= 0; j-- {
			if h, ok := hitEnding(c, j); ok {
				j = h.first
				if h.idiom {
					continue
				}
				if prep && wordsBeyondPrep > 0 {
					return Verdict{}, false
				}
				if k, i, ok := t.kindIn(h, want, Following); ok {
					if k == Report {
						return Verdict{}, false
					}
					if k == Negation && (limit || t.conditional(c, start, end)) {
						// "must not exceed 800 ms", "no failover without approval"
						return Verdict{}, false
					}
					return t.verdict(c, h, k, i), true
				}
				if onlyScope(h, Preceding) {
					return Verdict{}, false
				}
				continue
			}
			tk := t.toks[c.toks[j]]
			if !tk.word {
				if tk.low == "," {
					return Verdict{}, false
				}
				continue
			}
			if bothBarriers[tk.low] || leftBarriers[tk.low] {
				return Verdict{}, false
			}
			if tk.value && t.toks[c.toks[j]].b <= start && (p >= len(c.toks) || tk.chunk != t.toks[c.toks[p]].chunk) {
				// a cue bears on the nearest value: "from 200 to 50" does
				// not make 50 the old one (a value the phrase starts inside,
				// "25.x" of "3.25.x", is the phrase's own)
				return Verdict{}, false
			}
			if limitWords[tk.low] {
				limit = true
			}
			if prepositions[tk.low] && !prep {
				prep = true
				continue
			}
			words++
			if prep {
				wordsBeyondPrep++
			}
			if words > maxFollowing {
				return Verdict{}, false
			}
		}
		return Verdict{}, false
	}
	if v, ok := scan(); ok {
		return v, true
	}
	// A heading clause ("Ruled out: …", "Lifted: …") bears on the whole
	// clause after it, however long, up to a contrasting conjunction ("…,
	// but the db is the cause"), and on the clauses a colon chains after it
	// ("Ruled out: stale statistics: nobody ran ANALYZE").
	for j := 0; j < p; j++ {
		if tk := t.toks[c.toks[j]]; tk.word && contrasts[tk.low] {
			return Verdict{}, false
		}
	}
	for k, cur := 0, c; k < 8 && cur.prev >= 0 && cur.sep == ":"; k, cur = k+1, &t.clauses[cur.prev] {
		if v, ok := t.heading(cur.prev, want); ok && !(v.Kind == Negation && t.conditional(c, start, end)) {
			return v, true
		}
	}
	return Verdict{}, false
}

// heading returns the cue of a heading clause: a clause (with its
// parentheticals) made of cues and filler words, such as "Ruled out",
// "Lifted", "No longer applies" or "Hypothesis (refuted)".
func (t *Text) heading(hi int, want kindSet) (Verdict, bool) {
	var v Verdict
	found := false
	for ci := range t.clauses {
		c := &t.clauses[ci]
		if ci != hi && c.parent != hi {
			continue
		}
		used := map[int]bool{}
		for _, h := range c.hits {
			if h.idiom {
				continue
			}
			k, i, ok := t.kindIn(h, want, "")
			if !ok || k == Report {
				continue
			}
			if !found {
				v, found = t.verdict(c, h, k, i), true
			}
			for j := h.first; j <= h.last; j++ {
				used[j] = true
			}
		}
		for j, ti := range c.toks {
			tk := t.toks[ti]
			if !used[j] && tk.word && !headingFiller[tk.low] && !isDigits(tk.low) {
				return Verdict{}, false
			}
		}
	}
	return v, found
}

// right looks for a cue after the phrase that bears on what precedes it.
func (t *Text) right(ci, start, end int, want kindSet) (Verdict, bool) {
	c := &t.clauses[ci]
	p := len(c.toks)
	for i, ti := range c.toks {
		if t.toks[ti].a >= end {
			p = i
			break
		}
	}
	// A parenthetical right after the phrase continues it.
	for k := range t.clauses {
		pc := &t.clauses[k]
		if pc.parent == ci && pc.at >= end && strings.TrimSpace(t.s[end:pc.at]) == "" {
			if v, _, ok := t.scanRight(pc, 0, want, 0); ok {
				return v, true
			}
		}
	}
	if v, stop, ok := t.scanRight(c, p, want, 0); ok || stop {
		return v, ok
	}
	// So does a clause after a dash or a colon, when the phrase ends its
	// own clause.
	for j := p; j < len(c.toks); j++ {
		if t.toks[c.toks[j]].word {
			return Verdict{}, false
		}
	}
	if c.next >= 0 {
		nc := &t.clauses[c.next]
		if nc.sep == "-" || nc.sep == ":" {
			if v, _, ok := t.scanRight(nc, 0, want, 0); ok {
				return v, true
			}
		}
	}
	return Verdict{}, false
}

// scanRight walks c from position p; stop is set when a barrier ended the
// walk before the end of the clause.
func (t *Text) scanRight(c *clause, p int, want kindSet, words int) (Verdict, bool, bool) {
	// The value the phrase ends inside ("3.25" of "3.25.x") runs on.
	chunk := int32(-1)
	if p > 0 && p <= len(c.toks) {
		chunk = t.toks[c.toks[p-1]].chunk
	}
	for j := p; j < len(c.toks); j++ {
		if h, ok := hitStarting(c, j); ok {
			if h.idiom {
				j = h.last
				continue
			}
			if k, i, ok := t.kindIn(h, want, Preceding); ok && k != Report && !t.prepositional(c, h) {
				return t.verdict(c, h, k, i), false, true
			}
			if onlyScope(h, Following) {
				return Verdict{}, true, false
			}
			j = h.last
			continue
		}
		tk := t.toks[c.toks[j]]
		if !tk.word {
			continue
		}
		if bothBarriers[tk.low] {
			// coordinated values: "c1 and c4 are unknown"
			if coordinators[tk.low] && j+1 < len(c.toks) && t.toks[c.toks[j+1]].value && j > 0 && t.toks[c.toks[j-1]].value {
				j++
				continue
			}
			return Verdict{}, true, false
		}
		if tk.value {
			if tk.chunk == chunk {
				continue // one value written as several tokens
			}
			return Verdict{}, true, false
		}
		chunk = -1
		words++
		if words > maxPreceding {
			return Verdict{}, true, false
		}
	}
	return Verdict{}, false, false
}

// reported reports whether a report cue ("says", "according to") governs
// the phrase at start, or the cue at cueAt, from the left.
func (t *Text) reported(ci, start, cueAt int) bool {
	want := kindSet{Report}
	for _, pos := range []int{start, cueAt} {
		c := &t.clauses[ci]
		p := len(c.toks)
		for i, ti := range c.toks {
			if t.toks[ti].b > pos {
				p = i
				break
			}
		}
		for j := p - 1; j >= 0; j-- {
			if h, ok := hitEnding(c, j); ok {
				if _, _, ok := t.kindIn(h, want, Following); ok {
					return true
				}
				j = h.first
				continue
			}
			tk := t.toks[c.toks[j]]
			if tk.word && bothBarriers[tk.low] {
				break
			}
		}
	}
	return false
}

// conditional reports whether the phrase at [start, end) states a
// condition ("failover without the IC's go-ahead", "no changes until"):
// then a plain negation before it is part of the rule.
func (t *Text) conditional(c *clause, start, end int) bool {
	after := 0
	for _, ti := range c.toks {
		tk := t.toks[ti]
		if !tk.word || tk.b <= start {
			continue
		}
		if tk.a >= end {
			after++
			if after > 3 {
				break
			}
		}
		if conditionMarkers[tk.low] {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var (
	// bothBarriers start a new predicate, on either side of a phrase.
	bothBarriers = set(`and but or because since so while whereas although though however therefore
		y e pero o u porque aunque sino mientras pues`)
	// prepositionalCues are cues only at the end of a clause.
	prepositionalCues = set(`before after antes despues`)
	// contrasts end a frame: what follows is a new predicate.
	contrasts = set(`but however although though whereas yet pero aunque sino embargo`)
	// coordinators join values that share a predicate ("c1 and c4 are unknown").
	coordinators = set(`and or y e o u`)
	// leftBarriers end the reach of a cue that bears on what follows.
	leftBarriers = set(`that which who whom whose where when que cual cuales quien quienes donde cuando`)
	// prepositions end it too when a word stands between the cue and them.
	prepositions = set(`in on at during within inside under en durante dentro bajo`)
	// limitWords between a negation and a value make it a limit ("must not
	// exceed 800 ms" states 800 ms).
	limitWords = set(`exceed exceeds exceeding above over beyond more less fewer below under higher lower greater
		surpass go superar supere supera superen pasar pase pasen mas menos encima debajo rebasar rebase`)
	// conditionMarkers make a negated phrase a conditional rule.
	conditionMarkers = set(`without unless until except before sin salvo hasta excepto antes menos`)
	// headingFiller may stand beside a cue in a heading clause.
	headingFiller = set(`the a an this that el la lo los las este esta hypothesis hypotheses hipotesis claim idea
		theory suspicion sospecha cause causa culprit note nota status estado now ahora by at per por en event evento seq`)
)

// build tokenizes the text and cuts it into clauses.
func (t *Text) build() { t.once.Do(t.doBuild) }

func (t *Text) doBuild() {
	t.toks = tokenize(t.s)
	markValues(t.s, t.toks)
	t.tokCl = make([]int, len(t.toks))
	newClause := func(parent, at, prev int, sep string) int {
		t.clauses = append(t.clauses, clause{parent: parent, at: at, prev: prev, next: -1, sep: sep})
		i := len(t.clauses) - 1
		if prev >= 0 {
			t.clauses[prev].next = i
		}
		return i
	}
	cur := newClause(-1, 0, -1, "")
	var stack []int
	for i, tk := range t.toks {
		if tk.word {
			t.clauses[cur].toks = append(t.clauses[cur].toks, i)
			t.tokCl[i] = cur
			continue
		}
		t.tokCl[i] = cur
		switch sep := t.separator(i); sep {
		case "(":
			stack = append(stack, cur)
			cur = newClause(cur, tk.a, -1, "(")
		case ")":
			if len(stack) > 0 {
				cur = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			} else {
				cur = newClause(t.clauses[cur].parent, t.clauses[cur].at, cur, ".")
			}
		case "":
			t.clauses[cur].toks = append(t.clauses[cur].toks, i)
		default:
			cur = newClause(t.clauses[cur].parent, t.clauses[cur].at, cur, sep)
		}
	}
	tab := tableOf()
	for ci := range t.clauses {
		t.clauses[ci].hits = t.findHits(&t.clauses[ci], tab)
	}
}

// separator classifies punctuation token i: "(" or ")" for brackets, a
// clause separator (".", ";", ":", "-"), or "" for punctuation inside a
// clause.
func (t *Text) separator(i int) string {
	tk := t.toks[i]
	s := t.s
	spaceAfter := tk.b >= len(s) || isSpaceByte(s[tk.b])
	spaceBefore := tk.a == 0 || isSpaceByte(s[tk.a-1])
	switch tk.low {
	case "(", "[":
		return "("
	case ")", "]":
		return ")"
	case ".":
		if abbreviation(s[:tk.a]) {
			return ""
		}
		fallthrough
	case "!", "?", "…":
		if spaceAfter || (tk.b < len(s) && strings.ContainsRune(`"')]`, rune(s[tk.b]))) {
			return "."
		}
	case "¿", "¡", "\n":
		return "."
	case ";":
		if spaceAfter || !isASCIIWord(s[tk.b]) {
			return ";"
		}
	case ":":
		if spaceAfter {
			return ":"
		}
	case "—", "―":
		return "-"
	case "–":
		if spaceBefore || spaceAfter {
			return "-"
		}
	case "-":
		if spaceBefore && spaceAfter {
			return "-"
		}
	}
	return ""
}

// abbreviations end with a dot that ends no sentence ("e.g. the db").
var abbreviations = []string{"e.g", "i.e", "vs", "cf", "approx", "aprox", "incl", "aka", "a.k.a", "mr", "mrs", "dr", "sr", "sra"}

// abbreviation reports whether before ends with an abbreviation (as a
// whole word, any case).
func abbreviation(before string) bool {
	for _, a := range abbreviations {
		if len(before) < len(a) || !strings.EqualFold(before[len(before)-len(a):], a) {
			continue
		}
		if i := len(before) - len(a); i == 0 || !isASCIIWord(before[i-1]) {
			return true
		}
	}
	return false
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// findHits finds the cues of a clause, leftmost longest, without overlap.
func (t *Text) findHits(c *clause, tab *table) []hit {
	var out []hit
	for j := 0; j < len(c.toks); j++ {
		n := tab.trie
		var best *hit
		for k := j; k < len(c.toks); k++ {
			n = n.next[t.toks[c.toks[k]].low]
			if n == nil {
				break
			}
			if len(n.cues) == 0 {
				continue
			}
			// An idiom whose continuation is missing ("not only" with no
			// "but") is no idiom: a shorter cue ("not") stands.
			h := hit{first: j, last: k}
			for _, i := range n.cues {
				if tab.cues[i].Kind != Idiom {
					h.cues = append(h.cues, i)
				} else if t.thenHolds(c, k, tab.cues[i].Then) {
					h.cues = append(h.cues, i)
					h.idiom = true
				}
			}
			if len(h.cues) > 0 {
				best = &h
			}
		}
		if best == nil {
			continue
		}
		out = append(out, *best)
		j = best.last
	}
	return out
}

// thenHolds reports whether word follows clause position p before the end
// of the sentence ("" always holds).
func (t *Text) thenHolds(c *clause, p int, word string) bool {
	if word == "" {
		return true
	}
	for i := c.toks[p] + 1; i < len(t.toks); i++ {
		tk := t.toks[i]
		if tk.low == word {
			return true
		}
		if !tk.word && t.separator(i) == "." {
			return false
		}
	}
	return false
}

// clauseAt returns the clause holding offset pos: the clause of the first
// token that ends after pos.
func (t *Text) clauseAt(pos int) int {
	for i, tk := range t.toks {
		if tk.b > pos {
			if tk.word || t.separator(i) == "" {
				return t.tokCl[i]
			}
			continue
		}
	}
	if len(t.toks) > 0 {
		return t.tokCl[len(t.toks)-1]
	}
	return -1
}

// tokenize cuts s into words (letters, digits and underscores, with an
// apostrophe inside a word: isn't) and single punctuation marks, lower-cased.
func tokenize(s string) []token { return tokenizeOf(s, true) }

// tokenizeOf is tokenize, reading ASCII without decoding runes when fast
// is set (TestTokenizeFastPath holds the two to the same tokens).
func tokenizeOf(s string, fast bool) []token {
	out := make([]token, 0, len(s)/4+1) // about one token per 4-5 bytes of prose
	for i := 0; i < len(s); {
		// ASCII: a space, a word of letters and digits, or a mark, read
		// without decoding runes; anything else takes the general path
		if c := s[i]; fast && c < utf8.RuneSelf {
			switch {
			case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
				i++
				continue
			case asciiWord[c]:
				j := i + 1
				for j < len(s) && s[j] < utf8.RuneSelf && asciiWord[s[j]] {
					j++
				}
				// a word that goes on past an apostrophe or into a non-ASCII
				// letter takes the general path
				if j == len(s) || s[j] != '\'' && s[j] < utf8.RuneSelf {
					out = append(out, token{a: i, b: j, low: asciiLower(s[i:j]), word: true})
					i = j
					continue
				}
			case c != '\n':
				out = append(out, token{a: i, b: i + 1, low: s[i : i+1]})
				i++
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) && r != '\n' {
			i += n
			continue
		}
		if isWordRune(r) {
			j := i + n
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if isWordRune(r2) {
					j += n2
					continue
				}
				if r2 == '\'' || r2 == '’' {
					if r3, _ := utf8.DecodeRuneInString(s[j+n2:]); j+n2 < len(s) && unicode.IsLetter(r3) {
						j += n2
						continue
					}
				}
				break
			}
			low := strings.ReplaceAll(strings.ToLower(s[i:j]), "’", "'")
			if !isASCII(low) {
				low = textmatch.Fold(low)
			}
			out = append(out, token{a: i, b: j, low: low, word: true})
			i = j
			continue
		}
		out = append(out, token{a: i, b: i + n, low: string(r)})
		i += n
	}
	return out
}

// asciiWord marks the ASCII bytes isWordRune accepts.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

// asciiLower lower-cases an ASCII word, without copying one that is.
func asciiLower(w string) string {
	for i := 0; i < len(w); i++ {
		if 'A' <= w[i] && w[i] <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// markValues marks the words that are values: a word of a whitespace-
// separated chunk that holds a digit, an '@', a '/' or a '.' between word
// characters (50, rows/s, db.yml, ops@x.io, c17).
func markValues(s string, toks []token) {
	for i := 0; i < len(toks); {
		// the chunk: tokens with no space between them
		j := i + 1
		for j < len(toks) && toks[j].a == toks[j-1].b {
			j++
		}
		chunk := s[toks[i].a:toks[j-1].b]
		for k := i; k < j; k++ {
			toks[k].chunk = int32(i)
		}
		v := false
		for k := 0; k < len(chunk); k++ {
			switch ch := chunk[k]; {
			case ch >= '0' && ch <= '9', ch == '@':
				v = true
			case (ch == '/' || ch == '.' || ch == '_') && k > 0 && k < len(chunk)-1 && isASCIIWord(chunk[k-1]) && isASCIIWord(chunk[k+1]):
				v = true
			}
		}
		if v {
			for k := i; k < j; k++ {
				if toks[k].word {
					toks[k].value = true
				}
			}
		}
		i = j
	}
}

func isASCIIWord(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Find returns every cue of the given kinds in the text, in order (idioms
// excluded), each as the Verdict it would give.
func (t *Text) Find(kinds ...Kind) []Verdict {
	t.build()
	want := kindSet(kinds)
	var out []Verdict
	for ci := range t.clauses {
		c := &t.clauses[ci]
		for _, h := range c.hits {
			if h.idiom {
				continue
			}
			if k, i, ok := t.kindIn(h, want, ""); ok {
				out = append(out, t.verdict(c, h, k, i))
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}
