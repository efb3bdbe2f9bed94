package polarity

import (
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
)

// Reading is what one clause says about the subject of an invariant.
type Reading string

// The readings, from the strongest: one clause that contradicts decides,
// whatever else affirms.
const (
	// Contradicts: the clause says the opposite of the invariant (a rule
	// permitted away, ended, or given its opposite state; an unfinished
	// operation said to be done; a refuted idea said to be open, likely or
	// true).
	Contradicts Reading = "contradicts"
	// CannotTell: the clause bears on the subject with a word no table
	// holds (an unknown verb or modal on it), or hedges a contradiction
	// ("the freeze may have been lifted"). The reader does not guess.
	CannotTell Reading = "cannot-tell"
	// Affirms: the clause states the invariant, or keeps it.
	Affirms Reading = "affirms"
	// History: the clause puts the subject in a frame of past use,
	// proposal or consideration, or in someone else's words: it neither
	// states nor contradicts the current state.
	History Reading = "history"
	// Unrelated: the clause names the subject but says nothing about it
	// that the invariant is about.
	Unrelated Reading = "unrelated"
)

var readingRank = map[Reading]int{Contradicts: 5, CannotTell: 4, Affirms: 3, History: 2, Unrelated: 1}

// Role is what kind of invariant a subject belongs to.
type Role int

// The roles.
const (
	// RuleRole: a rule the user gave (a constraint).
	RuleRole Role = iota + 1
	// HypothesisRole: an idea that was refuted.
	HypothesisRole
	// OperationRole: an operation whose outcome never came back.
	OperationRole
)

// Subject is the subject of an invariant, as the reader looks for it in a
// text: where it occurs (the spans a caller passes to Read: the pattern's
// matches, the operation id), and, for a rule, what the rule forbids and
// which states it sets, worked out from the rule's patterns and statements.
// Build it with RuleSubject, HypothesisSubject or OperationSubject; it is
// read-only afterwards and safe for concurrent use.
type Subject struct {
	Role Role
	// actions are stems of the actions the rule forbids ("push",
	// "commit", "truncat"), from a negation or a prohibition before them
	// in a pattern or a statement.
	actions []string
	// pairs are the antonym pairs (antonyms.tsv) whose state the rule
	// sets.
	pairs []int
	// entities are the content words of the statement clauses: what the
	// rule is about ("session", "prod-us-2"), to which an opposite state
	// must be given to contradict it.
	entities map[string]bool
	// cognates are the first six letters of the entities of six letters
	// or more, undoubled (isEntity).
	cognates map[string]bool
	// narrow: learn from the words the patterns match (ClauseSubject).
	narrow bool
	// entityOrder and actionOrder are the entities and the actions
	// (as written) in the order the statements give them.
	entityOrder, actionOrder []string
	// needles are the first words of every phrase that makes a clause
	// touch the rule without a match (MayTouch).
	needles map[string]bool
	// actionSet holds actions and their words in the other languages of
	// concepts.tsv, for isAction.
	actionSet map[string]bool
	// sig is the hashes of the needles and the actions (MayTouchSigned).
	sig *sigBits
	// langs are the languages of the rule's patterns (Languages).
	langs []string
}

// Actions returns the stems of the actions the rule forbids, as its
// patterns and statements name them (Read also finds their concepts'
// words in the other language: concepts.go).
func (s *Subject) Actions() []string { return append([]string(nil), s.actions...) }

// States returns the states the rule sets, as the phrases of antonyms.tsv.
func (s *Subject) States() []string {
	tab := classesOf()
	var out []string
	for _, p := range s.pairs {
		out = append(out, tab.entries[tab.pairs[p].States].Phrase)
	}
	return out
}

// HypothesisSubject is the subject of a refuted hypothesis.
func HypothesisSubject() *Subject { return &Subject{Role: HypothesisRole} }

// OperationSubject is the subject of an operation with no result.
func OperationSubject() *Subject { return &Subject{Role: OperationRole} }

// RuleSubject is the subject of a rule found by patterns (compiled, as
// textmatch compiles them) and stated by statements (the event that gave
// the rule, a summary's own statement of it; folded as textmatch folds).
// What the rule forbids comes from the negations and prohibitions in the
// patterns' literal words and in the statements' clauses the patterns
// match ("must not commit, push or open PRs" forbids commit, push, PRs);
// the states it sets from antonyms.tsv ("read-only", "frozen"); and its
// entities from the content words of those clauses.
func RuleSubject(patterns []*regexp.Regexp, statements ...string) *Subject {
	return ruleSubject(false, patterns, texts(statements))
}

func ruleSubject(narrow bool, patterns []*regexp.Regexp, statements []*Text) *Subject {
	s := &Subject{Role: RuleRole, entities: map[string]bool{}, narrow: narrow}
	acts := map[string]bool{}
	pairs := map[int]bool{}
	for _, re := range patterns {
		if re == nil {
			continue
		}
		for _, lit := range literalTextsOf(re) {
			s.learn(lit, 0, len(lit.s), acts, pairs, false)
		}
	}
	for _, x := range statements {
		st := x.s
		seen := false
		for _, re := range patterns {
			if re == nil {
				continue
			}
			for _, loc := range re.FindAllStringIndex(st, 4) {
				if loc[1] > loc[0] {
					s.learn(x, loc[0], loc[1], acts, pairs, true)
					seen = true
				}
			}
		}
		if !seen && len(patterns) == 0 {
			s.learn(x, 0, len(st), acts, pairs, true)
		}
	}
	// an action is one concept in every language ("restart" is
	// "reiniciar" too; concepts.tsv)
	s.cognates = map[string]bool{}
	for e := range s.entities {
		if e = undouble(e); len(e) >= 6 {
			s.cognates[e[:6]] = true
		}
	}
	for a := range acts {
		// an action is a word: not a value ("not eu-central") nor a
		// fragment of one
		if len(a) >= 3 && !strings.ContainsAny(a, "0123456789") {
			s.actions = append(s.actions, a)
		}
	}
	sort.Strings(s.actions)
	s.langs = patternLanguages(patterns, textStrings(statements))
	expandActions(acts, s.langs)
	s.actionSet = acts
	// a state is one concept in every language ("read-only" is "solo
	// lectura" too)
	tab := classesOf()
	for p := range pairs {
		for q, other := range tab.pairs {
			if other.Concept == tab.pairs[p].Concept {
				pairs[q] = true
			}
		}
	}
	for p := range pairs {
		s.pairs = append(s.pairs, p)
	}
	sort.Ints(s.pairs)
	s.needles = map[string]bool{}
	for _, p := range s.pairs {
		pr := tab.pairs[p]
		for _, e := range []int{pr.States, pr.Opposites, pr.Action} {
			seqs, _ := expand(tab.entries[e].Phrase)
			for _, q := range seqs {
				if toks := tokenize(q); len(toks) > 0 {
					s.needles[toks[0].low] = true
				}
			}
		}
	}
	for i, e := range tab.entries {
		if e.Class == Change && e.Sense == RuleNoun {
			seqs, _ := expand(tab.entries[i].Phrase)
			for _, q := range seqs {
				if toks := tokenize(q); len(toks) > 0 {
					s.needles[toks[0].low] = true
				}
			}
		}
	}
	s.sig = s.signature()
	return s
}

// Signature lists hashes of the words of a text (lower-cased and folded as
// textmatch folds), three for each word: of the whole word, of its first
// three bytes and of its first two. A rule none of whose words has one of
// those hashes cannot touch the text (MayTouchSigned): a caller that reads
// many texts for many rules computes each text's signature once and skips
// most pairs with a few bit tests per word.
type Signature []uint16

// sigSize is the number of bits of each of a rule's bit sets; a
// signature's hashes are taken modulo it.
const sigSize = 8192

// sigHash hashes a word or a prefix of one (FNV-1a, its length mixed in
// at the end).
func sigHash(p string) uint32 {
	h := uint32(0x811c9dc5)
	for i := 0; i < len(p); i++ {
		h = (h ^ uint32(p[i])) * 0x01000193
	}
	return sigMix(h, len(p))
}

func sigMix(h uint32, n int) uint32 {
	h ^= uint32(n)
	return h ^ h>>15
}

// SignatureOf returns the signature of lower, its words cut as MayTouch
// cuts them.
func SignatureOf(lower string) Signature { return AppendSignature(nil, lower) }

// AppendSignature appends the signature of lower to dst. One pass: the
// hashes of a word's prefixes are the running hash after its second and
// third bytes.
func AppendSignature(dst Signature, lower string) Signature {
	for i := 0; i < len(lower); {
		if !isWordByte(lower[i]) {
			i++
			continue
		}
		h, h2, h3 := uint32(0x811c9dc5), uint32(0), uint32(0)
		j := i
		for ; j < len(lower) && isWordByte(lower[j]); j++ {
			h = (h ^ uint32(lower[j])) * 0x01000193
			switch j - i {
			case 1:
				h2 = sigMix(h, 2)
			case 2:
				h3 = sigMix(h, 3)
			}
		}
		n := j - i
		whole := sigMix(h, n)
		switch n {
		case 1:
			h2, h3 = whole, whole
		case 2:
			h3 = whole
		}
		dst = append(dst, uint16(whole%sigSize), uint16(h3%sigSize), uint16(h2%sigSize))
		i = j
	}
	return dst
}

// forWords calls f with every word of lower until f returns true, and
// reports whether it did.
func forWords(lower string, f func(string) bool) bool {
	for i := 0; i < len(lower); {
		for i < len(lower) && !isWordByte(lower[i]) {
			i++
		}
		j := i
		for j < len(lower) && isWordByte(lower[j]) {
			j++
		}
		if j > i && f(lower[i:j]) {
			return true
		}
		i = j
	}
	return false
}

// sigBits are the hashes a rule's words have, as three bit sets of 8,192
// bits (one for whole words, one for three-byte prefixes, one for
// two-byte ones): a rule of a hundred words sets about one bit in eighty.
type sigBits struct {
	set [3][sigSize / 64]uint64
	any bool // a stem of one letter: any word may be an action
}

func (b *sigBits) add(kind int, p string) {
	h := sigHash(p) % sigSize
	b.set[kind][h/64] |= 1 << (h % 64)
}

func (b *sigBits) has(kind int, h uint16) bool {
	return b.set[kind][h/64]&(1<<(h%64)) != 0
}

// signature is the hashes of the words MayTouch looks for: a needle as a
// whole word, an action stem's first three bytes (a word that is the stem
// and up to four more letters starts with them), or its first two when
// the stem is shorter.
func (s *Subject) signature() *sigBits {
	b := &sigBits{}
	for n := range s.needles {
		b.add(0, n)
	}
	for a := range s.actionSet {
		switch {
		case len(a) >= 3:
			b.add(1, a[:3])
		case len(a) == 2:
			b.add(2, a)
		default:
			b.any = true
		}
	}
	return b
}

// MayTouchSigned is MayTouch of a text whose signature is sig: false at
// once when no word of the rule's can be in it.
func (s *Subject) MayTouchSigned(lower string, sig Signature) bool {
	return s.Role == RuleRole && s.sigMeets(sig) && s.MayTouch(lower)
}

// sigMeets reports whether a word of sig may be one MayTouch looks for.
func (s *Subject) sigMeets(sig Signature) bool {
	if s.sig == nil || s.sig.any {
		return true
	}
	for i := 0; i+2 < len(sig); i += 3 {
		if s.sig.has(0, sig[i]) || s.sig.has(1, sig[i+1]) || s.sig.has(2, sig[i+2]) {
			return true
		}
	}
	return false
}

// MayTouch reports whether a text, lower-cased and folded as textmatch
// folds, may hold a clause about a rule's subject other than a match of
// its patterns: a word of an action it forbids, of a state it sets, its
// opposite or its actions, or a noun that names a rule. When it does not,
// Read of the text with no span finds nothing; a caller may skip it.
func (s *Subject) MayTouch(lower string) bool {
	if s.Role != RuleRole {
		return false
	}
	return forWords(lower, func(w string) bool { return s.needles[w] || s.isAction(w) })
}

// isWordByte: letters, digits, underscore and any non-ASCII byte (a
// folded text keeps few), as tokenize cuts words.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '\'' || b >= 0x80 || b >= 'A' && b <= 'Z'
}

// learn reads the clause of x holding [start, end): the actions its
// negations and prohibitions bear on, the states it names, and (when
// entities is set) its content words.
func (s *Subject) learn(x *Text, start, end int, acts map[string]bool, pairs map[int]bool, entities bool) {
	x.buildClasses()
	ci := x.clauseAt(start)
	if ci < 0 {
		return
	}
	cl := &x.clauses[ci]
	tab := classesOf()
	lang := x.lang()
	// the clause, and those a colon or a dash chains to it ("Sesión de
	// sólo lectura: nada de índices")
	chain := x.sentenceAround(ci)
	if s.narrow {
		chain = []int{ci}
	}
	for _, k := range chain {
		for _, h := range x.ci.byClause[k] {
			if s.narrow && (h.a < start || h.b > end || changeNegation(x.s[h.a:h.b])) {
				continue // ClauseSubject: the words the pattern matched
			}
			for _, e := range h.entries {
				en := tab.entries[e]
				switch {
				case en.Class == Antonym && en.Sense == State:
					pairs[en.Pair] = true
				case en.Class == Deontic && en.Sense == Forbid && !en.Follows:
					// "Manual mutating operations (apply, scale, patch,
					// rollout restart) are not permitted"
					for _, w := range x.governedBefore(k, h, lang) {
						s.addAction(acts, w)
					}
				case en.Class == NegationClass || (en.Class == Deontic && en.Sense == Forbid):
					verbal := en.Class == Deontic || !nominalNegations[strings.ToLower(x.s[h.a:h.b])]
					for _, w := range x.governed(&x.clauses[k], h, lang, verbal) {
						s.addAction(acts, w)
					}
				}
			}
		}
	}
	if !entities {
		return
	}
	// the entities are those of the statement's own clause and its
	// brackets: "One thing you need to know: protobuf stays pinned at
	// 3.25.x" is about protobuf, not the grpc of the sentence before
	for k := range x.clauses {
		if k != ci && x.clauses[k].parent != ci {
			continue
		}
		for _, ti := range x.clauses[k].toks {
			tk := x.toks[ti]
			if !tk.word || x.ci.covered[ti] || stopword[tk.low] || len(tk.low) < 3 || isDigits(tk.low) {
				continue
			}
			if !s.entities[tk.low] {
				s.entityOrder = append(s.entityOrder, tk.low)
			}
			s.entities[tk.low] = true
		}
	}
	_ = cl
}

// sentenceAround returns the clauses of the sentence holding clause ci
// and of the sentences just before and after it, with their
// parentheticals: the statement of a rule ("This investigation is
// READ-ONLY. Do not change prod.").
func (x *Text) sentenceAround(ci int) []int {
	top := ci
	for x.clauses[top].parent >= 0 {
		top = x.clauses[top].parent
	}
	first := top
	for ends := 0; x.clauses[first].prev >= 0; {
		if x.clauses[first].sep == "." {
			if ends++; ends == 2 {
				break
			}
		}
		first = x.clauses[first].prev
	}
	var out []int
	in := map[int]bool{}
	for k, ends := first, 0; k >= 0; k = x.clauses[k].next {
		if k != first && x.clauses[k].sep == "." {
			if k > top {
				ends++
			}
			if ends == 2 {
				break
			}
		}
		out = append(out, k)
		in[k] = true
	}
	for k := range x.clauses {
		if p := x.clauses[k].parent; p >= 0 && in[p] && !in[k] {
			out = append(out, k)
			in[k] = true
		}
	}
	return out
}

// nominalNegations negate a noun phrase ("no manual apply"): its head is
// its last word in English; after any other negation the first word of
// each item is the verb ("do not change prod").
var nominalNegations = set(`no none nothing without neither nor`)

// governed returns the head words of the list a negation or prohibition
// stands before: "no manual apply, scale, patch or rollout restart" gives
// apply, scale, patch, restart (in Spanish the first word of each item:
// "nada de índices, VACUUM ni cambios de configuración" gives índices,
// vacuum, cambios). The list ends at a barrier other than a comma or a
// coordinator, at a condition (without, unless), or at a class word.
func (x *Text) governed(c *clause, h classHit, lang string, verbal bool) []string {
	var out []string
	var item []string
	skip := false
	flush := func() {
		skip = false
		if len(item) == 0 {
			return
		}
		if lang == "es" || verbal {
			out = append(out, item[0]) // "do not change prod": change
		} else {
			out = append(out, item[len(item)-1])
		}
		item = item[:0]
	}
	for j := h.last + 1; j < len(c.toks) && j <= h.last+14; j++ {
		tk := x.toks[c.toks[j]]
		if !tk.word {
			if tk.low == "," || tk.low == "/" {
				flush()
				continue
			}
			if tk.low == "-" || tk.low == "'" || tk.low == "." {
				continue
			}
			break
		}
		if coordinators[tk.low] || tk.low == "nor" || tk.low == "ni" {
			flush()
			continue
		}
		if bothBarriers[tk.low] || conditionMarkers[tk.low] || leftBarriers[tk.low] {
			break
		}
		if x.inClass(h.cl, j, NegationClass) || x.inClass(h.cl, j, Deontic) || x.inClass(h.cl, j, HistoryClass) || x.inClass(h.cl, j, FrameClass) {
			break // another operator ("… not X but may Y")
		}
		if prepositionsAll[tk.low] && len(item) > 0 && lang != "es" {
			skip = true // "open PRs against ledger": the head is PRs
		}
		if skip || stopword[tk.low] || len(tk.low) < 2 {
			continue
		}
		item = append(item, tk.low)
	}
	flush()
	return out
}

// governedBefore returns the head words of the list a prohibition that
// follows its subject bears on: the items before it in its clause and in
// the brackets it holds ("operations (apply, scale, patch, rollout
// restart) are not permitted" gives operations, apply, scale, patch,
// restart).
func (x *Text) governedBefore(cl int, h classHit, lang string) []string {
	var out []string
	var item []string
	flush := func() {
		if len(item) == 0 {
			return
		}
		if lang == "es" {
			out = append(out, item[0])
		} else {
			out = append(out, item[len(item)-1])
		}
		item = item[:0]
	}
	var toks []int
	for k := range x.clauses {
		c := &x.clauses[k]
		if k != cl && !(c.parent == cl && c.at < h.a) {
			continue
		}
		for _, ti := range c.toks {
			if x.toks[ti].b <= h.a {
				toks = append(toks, ti)
			}
		}
		toks = append(toks, -1) // an item ends with its clause
	}
	sort.Ints(toks)
	if len(toks) > 24 {
		toks = toks[len(toks)-24:]
	}
	prev := -2
	for _, ti := range toks {
		if ti < 0 {
			continue
		}
		if prev >= 0 && x.tokCl[ti] != x.tokCl[prev] {
			flush()
		}
		prev = ti
		tk := x.toks[ti]
		switch {
		case !tk.word && (tk.low == "," || tk.low == "/"):
			flush()
		case !tk.word:
		case coordinators[tk.low] || tk.low == "nor" || tk.low == "ni":
			flush()
		case bothBarriers[tk.low] || leftBarriers[tk.low]:
			flush()
			out = out[:0]
		case stopword[tk.low] || copulas[tk.low] || len(tk.low) < 2:
		default:
			item = append(item, tk.low)
		}
	}
	flush()
	return out
}

// lang tells the language of the text by its function words, as Language
// does; English when they do not say. "No apply, no restart, no
// scaling" is English: "no" is spelled alike in both.
func (x *Text) lang() string {
	if l := x.Language(); l != "" {
		return l
	}
	return "en"
}

// Language is Language of the text, read from the tokens it already
// holds: "en", "es", or "" when its function words do not say.
func (x *Text) Language() string {
	x.build()
	en, es := 0, 0
	for _, tk := range x.toks {
		if tk.word {
			en, es = en+b2i(langWordsEN[tk.low]), es+b2i(langWordsES[tk.low])
		}
	}
	return langOf(en, es, "")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// literalTexts returns the literal word runs of a pattern, with the
// alternatives of an alternation each as its own run: `(must not|do not)
// (commit|push)` gives "must not commit", "must not push", …, at most a
// few dozen.
func literalTexts(re *regexp.Regexp) []string {
	p, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	out := lits(p.Simplify(), 64)
	for i := range out {
		out[i] = strings.TrimSpace(strings.Join(strings.Fields(out[i]), " "))
	}
	return out
}

// lits returns the strings a regexp's literal parts spell, a gap (any
// other operator) written as a space.
func lits(p *syntax.Regexp, limit int) []string {
	switch p.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(p.Rune))}
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range p.Sub {
			alts := lits(sub, limit)
			if len(alts) == 0 {
				alts = []string{" "}
			}
			var next []string
			for _, o := range out {
				for _, a := range alts {
					if len(next) < limit {
						next = append(next, o+a)
					}
				}
			}
			out = next
		}
		return out
	case syntax.OpAlternate:
		var out []string
		for _, sub := range p.Sub {
			for _, a := range lits(sub, limit) {
				if len(out) < limit {
					out = append(out, a)
				}
			}
		}
		return out
	case syntax.OpCapture:
		return lits(p.Sub[0], limit)
	case syntax.OpQuest:
		// left out, it is still a gap: `redis.{0,40}evict` spells
		// "redis evict", not "redisevict"
		return append([]string{" "}, lits(p.Sub[0], limit)...)
	case syntax.OpCharClass:
		// a class of one or two characters (a separator such as [- ])
		// is a gap between words
		return []string{" "}
	}
	return []string{" "}
}

// stem cuts an English or Spanish inflection off a word, so "push"
// finds pushes, pushing, pushed and "truncate" truncating.
func stem(w string) string {
	for _, suf := range []string{"ing", "es", "ed", "s", "e"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// isAction reports whether word w is a form of an action the rule
// forbids (hasStem of one of s.actions), by at most five lookups rather
// than a scan of every action.
func (s *Subject) isAction(w string) bool {
	if len(s.actionSet) == 0 {
		return false
	}
	for k := 0; k <= 4 && k < len(w); k++ {
		if s.actionSet[w[:len(w)-k]] {
			return true
		}
	}
	return false
}

// hasStem reports whether word w is a form of stem st.
func hasStem(w, st string) bool {
	return strings.HasPrefix(w, st) && len(w)-len(st) <= 4
}

// classHit is one class entry found in a clause: tokens [first, last] of
// the clause.
type classHit struct {
	cl, first, last int
	a, b            int // byte offsets
	entries         []int
	seg             int
}

// segment is a run of a clause between commas, conjunctions and relative
// words: the unit a class word bears within, linked to its antecedent
// (the noun a relative clause or an appositive follows, the clause a
// parenthetical or a colon continues, the subject of a predicate that
// follows an appositive).
type segment struct {
	cl, first, last int
	ante            int
}

// classInfo is the class reading of a text, built once.
type classInfo struct {
	hits     []classHit
	byClause [][]classHit
	segs     []segment
	segOf    []int  // per token: its segment (-1 for none)
	covered  []bool // per token: inside a class or cue hit
	// antonymOnly marks tokens covered only by antonym entries (a state
	// or action word inside a prohibition's list).
	antonymOnly []bool
}

func (x *Text) buildClasses() {
	x.build()
	x.ciOnce.Do(x.doBuildClasses)
}

// noClasses is the class reading of a text not yet read by class.
var noClasses classInfo

func (x *Text) doBuildClasses() {
	ci := &classInfo{}
	x.ci = ci
	tab := classesOf()
	ci.byClause = make([][]classHit, len(x.clauses))
	ci.segOf = make([]int, len(x.toks))
	ci.covered = make([]bool, len(x.toks))
	ci.antonymOnly = make([]bool, len(x.toks))
	for i := range ci.segOf {
		ci.segOf[i] = -1
	}
	for k := range x.clauses {
		c := &x.clauses[k]
		for _, h := range c.hits {
			for j := h.first; j <= h.last; j++ {
				ci.covered[c.toks[j]] = true
			}
		}
		for _, root := range []*node{tab.trie, tab.antTrie} {
			for j := 0; j < len(c.toks); j++ {
				best, bestEntries := x.longest(root, c, j)
				if best < 0 {
					continue
				}
				h := classHit{cl: k, first: j, last: best, a: x.toks[c.toks[j]].a, b: x.toks[c.toks[best]].b, entries: bestEntries}
				for m := j; m <= best; m++ {
					t := c.toks[m]
					if root == tab.antTrie {
						ci.antonymOnly[t] = !ci.covered[t]
					} else {
						ci.antonymOnly[t] = false
					}
					ci.covered[t] = true
				}
				ci.byClause[k] = append(ci.byClause[k], h)
				if root == tab.trie {
					j = best
				} // antonym phrases may overlap ("is now on our own")
			}
		}
		sort.Slice(ci.byClause[k], func(a, b int) bool { return ci.byClause[k][a].first < ci.byClause[k][b].first })
	}
	// segments
	for k := range x.clauses {
		c := &x.clauses[k]
		first := len(ci.segs)
		start, lead := 0, ""
		cut := func(end int, nextLead string) {
			if end >= start {
				ci.segs = append(ci.segs, segment{cl: k, first: start, last: end, ante: -1})
				x.linkSegment(len(ci.segs)-1, first, lead)
			}
			lead = nextLead
		}
		for j := 0; j < len(c.toks); j++ {
			tk := x.toks[c.toks[j]]
			switch {
			case !tk.word && tk.low == ",":
				cut(j-1, ",")
				start = j + 1
			case tk.word && (bothBarriers[tk.low] || tk.low == "nor" || tk.low == "ni") && j > start && !x.inHit(k, j):
				cut(j-1, tk.low)
				start = j + 1
			case tk.word && leftBarriers[tk.low] && j > start && !x.inHit(k, j):
				cut(j-1, "")
				start = j
				lead = "rel:" + tk.low
			}
		}
		cut(len(c.toks)-1, "")
		for s := first; s < len(ci.segs); s++ {
			for j := ci.segs[s].first; j <= ci.segs[s].last; j++ {
				ci.segOf[c.toks[j]] = s
			}
		}
		for i := range ci.byClause[k] {
			h := &ci.byClause[k][i]
			h.seg = ci.segOf[c.toks[h.first]]
		}
	}
	// parentheticals and clauses after a colon or a dash take the segment
	// they follow as antecedent
	for s := range ci.segs {
		sg := &ci.segs[s]
		if sg.ante >= 0 || (s > 0 && ci.segs[s-1].cl == sg.cl) {
			continue
		}
		c := &x.clauses[sg.cl]
		switch {
		case c.parent >= 0:
			sg.ante = x.segBefore(c.parent, c.at)
		case c.prev >= 0 && (c.sep == ":" || c.sep == "-") && (x.words(c.prev) <= 8 || x.predicateFirst(sg)):
			// "deploy_cgw_214: rolled out", "… latency — refuted at #31"
			sg.ante = x.lastSeg(c.prev)
		}
	}
	for k := range ci.byClause {
		ci.hits = append(ci.hits, ci.byClause[k]...)
	}
}

// inHit reports whether clause position j is inside a class hit.
func (x *Text) inHit(cl, j int) bool {
	for _, h := range x.ci.byClause[cl] {
		if j >= h.first && j <= h.last {
			return true
		}
	}
	return false
}

// linkSegment sets the antecedent of segment s (first is the clause's
// first segment) and merges a short list item into the segment before it.
func (x *Text) linkSegment(s, first int, lead string) {
	ci := x.ci
	sg := &ci.segs[s]
	if s == first {
		return
	}
	c := &x.clauses[sg.cl]
	prev := &ci.segs[s-1]
	if w := x.firstWord(sg); w >= 0 && leftBarriers[x.toks[c.toks[w]].low] {
		lead = "rel:" + x.toks[c.toks[w]].low // ", which …"
	}
	switch {
	case strings.HasPrefix(lead, "rel:"):
		sg.ante = s - 1
		return
	case lead == "," || coordinators[lead] || lead == "nor" || lead == "ni":
		// a short list item with no predicate of its own ("commit, push
		// or open PRs") belongs to the segment before it
		words, pred := 0, false
		for j := sg.first; j <= sg.last; j++ {
			tk := x.toks[c.toks[j]]
			if !tk.word {
				continue
			}
			words++
			if copulas[tk.low] || (x.ci.covered[c.toks[j]] && !x.ci.antonymOnly[c.toks[j]]) {
				pred = true
			}
		}
		if words <= 3 && !pred {
			prev.last = sg.last
			ci.segs = ci.segs[:s]
			return
		}
	}
	// a segment of class words and function words alone ("…, most
	// likely, …", "…, for now") bears on the segment before it
	content := false
	for j := sg.first; j <= sg.last; j++ {
		tk := x.toks[c.toks[j]]
		if tk.word && !x.ci.covered[c.toks[j]] && !stopword[tk.low] && !adverbs[tk.low] && tk.low != "most" {
			content = true
			break
		}
	}
	if !content {
		sg.ante = s - 1
		return
	}
	// a predicate after an appositive ("The freeze, set at #15, was
	// lifted") bears on the clause's subject
	for j := sg.first; j <= sg.last; j++ {
		tk := x.toks[c.toks[j]]
		if !tk.word {
			continue
		}
		if copulas[tk.low] || modals[tk.low] || x.inHit(sg.cl, j) {
			sg.ante = first
		}
		break
	}
}

// firstWord returns the clause position of the first word of segment
// sg, -1 when it has none.
func (x *Text) firstWord(sg *segment) int {
	c := &x.clauses[sg.cl]
	for j := sg.first; j <= sg.last; j++ {
		if x.toks[c.toks[j]].word {
			return j
		}
	}
	return -1
}

// predicateFirst reports whether segment sg starts with a predicate (a
// class word, a copula or a modal): it has no subject of its own.
func (x *Text) predicateFirst(sg *segment) bool {
	j := x.firstWord(sg)
	if j < 0 {
		return false
	}
	low := x.toks[x.clauses[sg.cl].toks[j]].low
	return copulas[low] || modals[low] || x.inHit(sg.cl, j)
}

// segBefore returns the segment of clause cl that holds offset at (or
// ends last before it).
func (x *Text) segBefore(cl, at int) int {
	best := -1
	for s, sg := range x.ci.segs {
		if sg.cl != cl {
			continue
		}
		c := &x.clauses[cl]
		if sg.first < len(c.toks) && x.toks[c.toks[sg.first]].a <= at {
			best = s
		}
	}
	return best
}

func (x *Text) lastSeg(cl int) int {
	best := -1
	for s, sg := range x.ci.segs {
		if sg.cl == cl {
			best = s
		}
	}
	return best
}

func (x *Text) words(cl int) int {
	n := 0
	for _, ti := range x.clauses[cl].toks {
		if x.toks[ti].word {
			n++
		}
	}
	return n
}

// linked reports whether segments a and b bear on each other: one, or one
// the antecedent of the other (two steps at most).
func (x *Text) linked(a, b int) bool {
	if a < 0 || b < 0 {
		return false
	}
	if a == b {
		return true
	}
	segs := x.ci.segs
	for _, p := range [][2]int{{a, b}, {b, a}} {
		u, v := p[0], p[1]
		if au := segs[u].ante; au >= 0 && (au == v || segs[au].ante == v) {
			return true
		}
	}
	// two predicates of one subject
	if au, bu := segs[a].ante, segs[b].ante; au >= 0 && au == bu {
		return true
	}
	return false
}

// Span is one occurrence of a subject in a text: [Start, End) in the text
// Read is asked about, and the pattern that found it (nil for an id).
type Span struct {
	Start, End int
	Re         *regexp.Regexp
}

// ClauseReading is what one clause says about a subject.
type ClauseReading struct {
	Reading Reading
	// Class and Sense are the class word that decided ("" for a plain
	// statement, a cue of cues.tsv or an unknown word).
	Class Class
	Sense Sense
	// Cue is the word or words that decided, as written ("" for a plain
	// statement), and At their offset (else the clause's).
	Cue string
	At  int
	// Clause is the clause, as written, and ClauseAt an offset inside it
	// (Text.SameClause(r.ClauseAt, at) tells whether at is in it; At may
	// lie in a linked clause: "stays read-only: don't apply").
	Clause   string
	ClauseAt int
	// Verdict is the cue of cues.tsv that decided, when one did.
	Verdict Verdict
}

// Decide returns the reading that decides among a field's (or a
// summary's) clause readings: the first that contradicts; else the first
// that cannot tell; else the first that affirms; else history; else
// unrelated (the zero ClauseReading when rs is empty).
func Decide(rs []ClauseReading) ClauseReading {
	var best ClauseReading
	for _, r := range rs {
		if readingRank[r.Reading] > readingRank[best.Reading] {
			best = r
		}
	}
	return best
}

// occurrence kinds, for a rule
const (
	occSpan = iota
	occAction
	occState
	occOpposite
	occOppAction
	occEntity
)

type occ struct {
	kind    int
	tok     int // first token
	a, b    int
	seg     int
	re      *regexp.Regexp
	negated bool // a negation stands right before it
}

// Read classifies every clause of the text that touches the subject: the
// clauses holding spans (the subject's occurrences the caller found: the
// pattern's matches, the operation's id) and, for a rule, the clauses that
// name an action it forbids, a state it sets, or its opposite with one of
// its entities. The result is one reading per clause, in text order.
func (x *Text) Read(s *Subject, spans []Span) []ClauseReading {
	x.buildClasses()
	if len(x.clauses) == 0 || s == nil {
		return nil
	}
	occs := x.occurrences(s, spans)
	if len(occs) == 0 {
		return nil
	}
	bySeg := map[int][]occ{}
	var segsWith []int
	for _, o := range occs {
		if o.seg < 0 {
			continue
		}
		if _, ok := bySeg[o.seg]; !ok {
			segsWith = append(segsWith, o.seg)
		}
		bySeg[o.seg] = append(bySeg[o.seg], o)
	}
	sort.Ints(segsWith)
	perClause := map[int]ClauseReading{}
	var order []int
	for _, sg := range segsWith {
		r, ok := x.readSegment(s, sg, occs, bySeg[sg])
		if !ok {
			continue
		}
		cl := x.ci.segs[sg].cl
		old, seen := perClause[cl]
		if !seen {
			order = append(order, cl)
		}
		if !seen || readingRank[r.Reading] > readingRank[old.Reading] {
			perClause[cl] = r
		}
	}
	sort.Ints(order)
	out := make([]ClauseReading, 0, len(order))
	for _, cl := range order {
		out = append(out, perClause[cl])
	}
	return out
}

// occurrences finds the subject in the text.
func (x *Text) occurrences(s *Subject, spans []Span) []occ {
	var out []occ
	tokAt := func(pos int) int {
		for i, tk := range x.toks {
			if tk.b > pos && tk.word {
				return i
			}
		}
		return -1
	}
	for _, sp := range spans {
		if sp.Start < 0 || sp.End > len(x.s) || sp.Start >= sp.End {
			continue
		}
		ti := tokAt(sp.Start)
		if ti < 0 {
			continue
		}
		out = append(out, occ{kind: occSpan, tok: ti, a: sp.Start, b: sp.End, seg: x.ci.segOf[ti], re: sp.Re, negated: x.negatedAt(ti)})
	}
	if s.Role != RuleRole {
		return out
	}
	tab := classesOf()
	for _, h := range x.ci.hits {
		for _, e := range h.entries {
			en := tab.entries[e]
			if en.Class != Antonym || !containsInt(s.pairs, en.Pair) {
				continue
			}
			kind := occState
			switch en.Sense {
			case Opposite:
				kind = occOpposite
			case Action:
				kind = occOppAction
			}
			ti := x.clauses[h.cl].toks[h.first]
			out = append(out, occ{kind: kind, tok: ti, a: h.a, b: h.b, seg: h.seg, negated: x.negatedAt(ti)})
		}
	}
	for i, tk := range x.toks {
		if !tk.word || x.ci.segOf[i] < 0 {
			continue
		}
		if s.isAction(tk.low) {
			out = append(out, occ{kind: occAction, tok: i, a: tk.a, b: tk.b, seg: x.ci.segOf[i], negated: x.negatedAt(i)})
		}
		if !x.ci.covered[i] && s.isEntity(tk.low) {
			out = append(out, occ{kind: occEntity, tok: i, a: tk.a, b: tk.b, seg: x.ci.segOf[i]})
		}
	}
	// an action whose object is the rule itself ("apply the freeze",
	// "aplicar la congelación") is not an action the rule forbids
	keep := out[:0]
	for _, o := range out {
		if (o.kind == occAction || o.kind == occOppAction) && x.objectIsRule(o, out) {
			continue
		}
		keep = append(keep, o)
	}
	return keep
}

// isEntity reports whether word w names one of the rule's entities: the
// same word, or a cognate in the other language (six letters in common at
// the start, double letters but ll and rr read as one: investigation and
// investigación, configuration and configuración, session and sesión).
func (s *Subject) isEntity(w string) bool {
	if s.entities[w] {
		return true
	}
	if len(w) < 6 {
		return false
	}
	w = undouble(w)
	return len(w) >= 6 && s.cognates[w[:6]]
}

// undouble drops the second of two equal letters ("session" → "sesion",
// "committee" → "comite"): Spanish writes few double letters where
// English does, so cognates compare without them.
func undouble(w string) string {
	for i := 1; i < len(w); i++ {
		if w[i] == w[i-1] && w[i] != 'l' && w[i] != 'r' {
			b := make([]byte, 0, len(w))
			b = append(b, w[:i]...)
			for j := i; j < len(w); j++ {
				if w[j] != w[j-1] || w[j] == 'l' || w[j] == 'r' {
					b = append(b, w[j])
				}
			}
			return string(b)
		}
	}
	return w
}

// objectIsRule reports whether a span or a state of the rule follows
// action o, a determiner at most between them.
func (x *Text) objectIsRule(o occ, all []occ) bool {
	next := -1
	for i := o.tok + 1; i < len(x.toks); i++ {
		tk := x.toks[i]
		if tk.a < o.b || !tk.word {
			continue
		}
		if determiners[tk.low] {
			continue
		}
		next = i
		break
	}
	if next < 0 {
		return false
	}
	for _, p := range all {
		if (p.kind == occSpan || p.kind == occState) && p.tok == next {
			return true
		}
	}
	return false
}

// negatedAt reports whether a negation stands right before token ti (at
// most two words between, in its segment): "no pushes", "never
// force-push", "without pushing", "not writable".
func (x *Text) negatedAt(ti int) bool {
	seg := x.ci.segOf[ti]
	if seg < 0 {
		return false
	}
	sg := x.ci.segs[seg]
	c := &x.clauses[sg.cl]
	pos := -1
	for j, t := range c.toks {
		if t == ti {
			pos = j
		}
	}
	if pos < 0 {
		return false
	}
	tab := classesOf()
	for _, h := range x.ci.byClause[sg.cl] {
		if h.last >= pos || h.seg != seg || !hasClass(tab, h, NegationClass) {
			continue
		}
		between := 0
		for j := h.last + 1; j < pos; j++ {
			if x.toks[c.toks[j]].word {
				between++
			}
			if x.ci.covered[c.toks[j]] && !x.ci.antonymOnly[c.toks[j]] && !x.inNegation(sg.cl, j) && !x.inClass(sg.cl, j, Deontic) {
				between = 99
			}
			if x.inSense(sg.cl, j, Deontic, Forbid) {
				// the negation bears on the prohibition, not on the
				// action: "do not refrain from pushing" pushes
				between = 99
			}
		}
		if between <= 2 || between <= 6 && x.quantifierSubject(c, h, pos) {
			return true
		}
	}
	return false
}

// negativeQuantifiers are the negations that are a clause's subject: the
// verb they govern may follow the phrase that says of what ("nothing in
// prod is changed", "none of the pods were restarted", "nada en prod se
// cambia").
var negativeQuantifiers = set(`nothing none nobody noone nada nadie ninguno ninguna`)

// quantifierPrepositionsES open the phrase after a Spanish quantifier
// ("nada en prod", "ninguno de los pods").
var quantifierPrepositionsES = set(`en de del sobre para con`)

// quantifierSubject reports whether negation hit h of clause c is a
// negative quantifier whose phrase (a preposition and its object) runs up
// to the copula or auxiliary before position pos: "nothing [in prod] is
// changed".
func (x *Text) quantifierSubject(c *clause, h classHit, pos int) bool {
	if h.first != h.last || !negativeQuantifiers[x.toks[c.toks[h.first]].low] || pos-h.last < 3 {
		return false
	}
	first, last := x.toks[c.toks[h.last+1]], x.toks[c.toks[pos-1]]
	return first.word && (prepositionsAll[first.low] || quantifierPrepositionsES[first.low]) && last.word && copulas[last.low]
}

// inClass reports whether clause position j is inside a hit of class c.
func (x *Text) inClass(cl, j int, c Class) bool {
	tab := classesOf()
	for _, h := range x.ci.byClause[cl] {
		if j >= h.first && j <= h.last && hasClass(tab, h, c) {
			return true
		}
	}
	return false
}

// inSense reports whether clause position j is inside a hit of class c
// with sense se.
func (x *Text) inSense(cl, j int, c Class, se Sense) bool {
	tab := classesOf()
	for _, h := range x.ci.byClause[cl] {
		if j >= h.first && j <= h.last {
			if got, ok := senseOf(tab, h, c); ok && got == se {
				return true
			}
		}
	}
	return false
}

func (x *Text) inNegation(cl, j int) bool {
	tab := classesOf()
	for _, h := range x.ci.byClause[cl] {
		if j >= h.first && j <= h.last && hasClass(tab, h, NegationClass) {
			return true
		}
	}
	return false
}

func hasClass(tab *classTable, h classHit, c Class) bool {
	for _, e := range h.entries {
		if tab.entries[e].Class == c {
			return true
		}
	}
	return false
}

// sense returns the sense of h in class c, and whether h has it.
func senseOf(tab *classTable, h classHit, c Class) (Sense, bool) {
	for _, e := range h.entries {
		if tab.entries[e].Class == c {
			return tab.entries[e].Sense, true
		}
	}
	return "", false
}

// flipped reports whether a negation bears on class hit h: it stands
// before h in h's segment with at most three words between and no other
// class word, or right after a modal ("may not", "must not").
func (x *Text) flipped(h classHit) bool {
	tab := classesOf()
	c := &x.clauses[h.cl]
	for _, n := range x.ci.byClause[h.cl] {
		if n.seg != h.seg || !hasClass(tab, n, NegationClass) || (n.first == h.first && n.last == h.last) {
			continue
		}
		if n.first == h.last+1 {
			if s, ok := senseOf(tab, h, Deontic); ok && (s == Permit || s == Oblige) {
				return true
			}
		}
		if n.last >= h.first {
			continue
		}
		between, blocked := 0, false
		for j := n.last + 1; j < h.first; j++ {
			if x.toks[c.toks[j]].word {
				between++
			}
			if x.inHit(h.cl, j) && !x.inNegation(h.cl, j) && !x.ci.antonymOnly[c.toks[j]] {
				blocked = true
			}
		}
		if !blocked && between <= 3 {
			return true
		}
	}
	return false
}

// readSegment reads segment sg, which holds the occurrences here; all is
// every occurrence of the subject in the text. ok is false when the
// segment says nothing of the subject (an entity alone).
func (x *Text) readSegment(s *Subject, sg int, all, here []occ) (ClauseReading, bool) {
	tab := classesOf()
	seg := x.ci.segs[sg]
	c := &x.clauses[seg.cl]
	clauseText := x.clauseText(seg.cl)
	base := ClauseReading{Clause: clauseText, At: x.toks[c.toks[seg.first]].a, ClauseAt: x.toks[c.toks[seg.first]].a}
	relevant := false
	for _, o := range here {
		if o.kind != occEntity {
			relevant = true
		}
	}
	// the occurrences and class words of the segments linked to this one
	var linkedOccs []occ
	for _, o := range all {
		if x.linked(o.seg, sg) {
			linkedOccs = append(linkedOccs, o)
		}
	}
	var hits []classHit
	for _, h := range x.ci.hits {
		if x.linked(h.seg, sg) {
			hits = append(hits, h)
		}
	}
	has := func(kinds ...int) bool {
		for _, o := range linkedOccs {
			for _, k := range kinds {
				if o.kind == k && !o.negated {
					return true
				}
			}
		}
		return false
	}
	hasNeg := func(kinds ...int) bool {
		for _, o := range linkedOccs {
			for _, k := range kinds {
				if o.kind == k && o.negated {
					return true
				}
			}
		}
		return false
	}
	// near reports whether entry en of hit h bears on occurrence o by
	// position: an entry used before its subject ("may push", "lift the
	// freeze") on one at most two words after it with no copula between,
	// one used after it ("pushing is allowed", "the freeze was lifted")
	// on one before it.
	near := func(h classHit, en Entry, o occ) bool {
		if (en.Class != Deontic && en.Class != Change) || en.Sense == RuleNoun {
			return true
		}
		if en.Class == Change && o.a < h.b && o.b > h.a {
			return false // the state itself ("disabled"), not a change of it
		}
		if !en.Follows {
			return o.a < h.b
		}
		if en.Class == Deontic && x.passiveAfter(h) {
			return true // "which can be swapped for postgres": the whole predicate
		}
		if o.a < h.b {
			return o.b > h.a && o.a >= h.a // inside the hit
		}
		words := 0
		for i := x.clauses[h.cl].toks[h.last] + 1; i < o.tok && i < len(x.toks); i++ {
			if tk := x.toks[i]; tk.word {
				words++
				if copulas[tk.low] || prepositionsAll[tk.low] {
					// "the bump against protobuf 3.25.x": not its object
					return false
				}
			}
		}
		if words <= 2 {
			return true
		}
		// a permission before a list bears on every item ("may now
		// apply, restart and change prod"), unless a negation follows
		// the item ("and change nothing")
		return en.Class == Deontic && en.Sense == Permit && x.inList(h, o)
	}
	hasFor := func(h classHit, en Entry, neg bool, kinds ...int) bool {
		for _, o := range linkedOccs {
			if o.negated != neg || !near(h, en, o) {
				continue
			}
			for _, k := range kinds {
				if o.kind == k {
					return true
				}
			}
		}
		return false
	}
	inSeg := func(h classHit, cls Class, senses ...Sense) (classHit, bool) {
		for _, g := range x.ci.byClause[h.cl] {
			if (g.seg != h.seg && g.seg != sg) || (g.a == h.a && g.b == h.b) {
				continue
			}
			if s, ok := senseOf(tab, g, cls); ok && (len(senses) == 0 || hasSense(senses, s)) {
				return g, true
			}
		}
		return classHit{}, false
	}
	mk := func(r Reading, h classHit, cls Class, sense Sense) ClauseReading {
		out := base
		out.Reading, out.Class, out.Sense = r, cls, sense
		out.Cue, out.At = x.s[h.a:h.b], h.a
		return out
	}
	// a contradiction is history in a frame of the past, and cannot be
	// told when hedged
	contra := func(h classHit, cls Class, sense Sense) ClauseReading {
		if g, ok := inSeg(h, HistoryClass); ok {
			return mk(History, g, HistoryClass, Past)
		}
		if s.Role != HypothesisRole {
			if g, ok := inSeg(h, Epistemic, Open); ok {
				return mk(CannotTell, g, Epistemic, Open)
			}
			if s.Role == RuleRole {
				if g, ok := inSeg(h, Completion, Hedged); ok {
					return mk(CannotTell, g, Completion, Hedged)
				}
			}
		}
		return mk(Contradicts, h, cls, sense)
	}
	var affirm *ClauseReading
	setAffirm := func(r ClauseReading) {
		if affirm == nil {
			affirm = &r
		}
	}
	var hist *ClauseReading
	for _, h := range hits {
		if x.ci.segs[h.seg].cl == seg.cl && h.seg == sg {
			if _, ok := senseOf(tab, h, HistoryClass); ok && hist == nil {
				r := mk(History, h, HistoryClass, Past)
				hist = &r
			}
		}
	}
	switch s.Role {
	case RuleRole:
		// the cues of cues.tsv on the pattern's matches
		spanAffirm := false
		reported := false
		for _, o := range here {
			// a state the rule sets is read as a match of its pattern
			// ("sesión de solo lectura", "prod-eu-1 está en congelación",
			// "ya no es de solo lectura"), unless a match holds it
			if o.kind != occSpan && (o.kind != occState || insideSpan(o, here)) {
				continue
			}
			relevant = true
			v := x.Judge(o.a, o.b, o.re, Contradiction...)
			if v.Reported || x.reported(x.clauseAt(o.a), o.a, o.a) {
				reported = true
				continue
			}
			if !v.Negated() || (v.At <= o.a && o.b <= v.At+len(v.Cue)) {
				// the rule's own state inside a cue ("the auto-scaler is
				// off" sets "off") states it
				spanAffirm = true
				continue
			}
			if x.keeps(s, v, sg) {
				r := base
				r.Reading, r.Cue, r.At, r.Verdict = Affirms, v.Cue, v.At, v
				setAffirm(r)
				continue
			}
			r := base
			r.Reading, r.Cue, r.At, r.Verdict = Contradicts, v.Cue, v.At, v
			if h, ok := x.hitAt(v.At); ok {
				c := contra(h, "", "")
				if c.Reading == Contradicts {
					c.Cue, c.At, c.Verdict = v.Cue, v.At, v
				}
				return c, true
			}
			if hist != nil {
				return *hist, true
			}
			return r, true
		}
		for _, h := range hits {
			if x.underNewFrame(h.cl, h.a) || (hasClass(tab, h, Change) && overlapsRule(h, linkedOccs)) {
				continue
			}
			if hasClass(tab, h, Deontic) && x.question(h.cl) {
				continue // "Can you kubectl apply it?" asks; it permits nothing
			}
			if x.reported(h.cl, h.a, h.a) {
				// "a page claiming they may write to prod": someone
				// else's words
				reported = true
				continue
			}
			flip := x.flipped(h)
			for _, e := range h.entries {
				en := tab.entries[e]
				sense := en.Sense
				switch en.Class {
				case Deontic:
					if flip {
						switch sense {
						case Permit, Oblige:
							sense = Forbid
						case Forbid:
							sense = Permit
						}
					}
					// an action the statement forbids counts alone; an
					// action a state forbids ("write" for read-only) with
					// what the rule is about ("may upgrade grpc" is no
					// permission on the protobuf pin)
					acts := hasFor(h, en, false, occAction) || (hasFor(h, en, false, occOppAction) && has(occEntity, occSpan, occState))
					switch sense {
					case Permit:
						if acts {
							return contra(h, Deontic, Permit), true
						}
					case Oblige:
						if acts {
							return contra(h, Deontic, Oblige), true
						}
						if hasFor(h, en, false, occSpan, occState) {
							setAffirm(mk(Affirms, h, Deontic, Oblige))
						}
					case Forbid:
						if hasFor(h, en, false, occAction, occOppAction, occSpan) || hasFor(h, en, true, occAction, occOppAction) {
							setAffirm(mk(Affirms, h, Deontic, Forbid))
						}
					}
				case Change:
					if flip {
						switch sense {
						case Ends:
							sense = Holds
						case Holds:
							sense = Ends
						}
					}
					switch sense {
					case Ends:
						// on the state the rule sets, on a match of a rule
						// that sets a state or names one near ("the
						// wh_restore login was disabled" ends no rule), or
						// on its entity near a noun that names a rule
						nounNear := x.ruleNounNear(hits, h, func(o occ) bool { return near(h, en, o) })
						if hasFor(h, en, false, occState) || (hasFor(h, en, false, occSpan) && (len(s.pairs) > 0 || nounNear)) || (has(occEntity) && nounNear) {
							return contra(h, Change, Ends), true
						}
					case Holds:
						if hasFor(h, en, false, occSpan, occState) {
							setAffirm(mk(Affirms, h, Change, Holds))
						}
					}
				}
			}
		}
		for _, o := range linkedOccs {
			if o.kind != occOpposite || x.reported(x.clauseAt(o.a), o.a, o.a) {
				continue
			}
			if !has(occEntity, occState, occSpan) {
				continue
			}
			h, _ := x.hitAt(o.a)
			if o.negated {
				setAffirm(mk(Affirms, h, Antonym, Opposite))
				continue
			}
			return contra(h, Antonym, Opposite), true
		}
		if hasNeg(occAction, occOppAction) {
			for _, o := range linkedOccs {
				if (o.kind == occAction || o.kind == occOppAction) && o.negated {
					r := base
					r.Reading, r.Class, r.Sense, r.Cue, r.At = Affirms, NegationClass, Not, x.s[o.a:o.b], o.a
					setAffirm(r)
					break
				}
			}
		}
		if reported {
			r := base
			r.Reading = History
			return r, true
		}
		if hist != nil {
			return *hist, true
		}
		if affirm != nil {
			return *affirm, true
		}
		if !relevant {
			return ClauseReading{}, false
		}
		if r, ok := x.unknownOn(s, here, sg, base); ok {
			return r, true
		}
		if spanAffirm {
			r := base
			r.Reading = Affirms
			return r, true
		}
		r := base
		r.Reading = Unrelated
		return r, true

	case OperationRole:
		for _, h := range hits {
			sense, ok := senseOf(tab, h, Completion)
			if !ok {
				continue
			}
			if sense == Done && x.flipped(h) {
				sense = NotDone
			}
			switch sense {
			case Done:
				if g, ok := inSeg(h, Completion, Hedged); ok {
					setAffirm(mk(Affirms, g, Completion, Hedged))
					continue
				}
				if g, ok := inSeg(h, Epistemic, Open); ok {
					setAffirm(mk(Affirms, g, Epistemic, Open))
					continue
				}
				if g, ok := inSeg(h, HistoryClass); ok {
					return mk(History, g, HistoryClass, Past), true
				}
				return mk(Contradicts, h, Completion, Done), true
			case NotDone, Hedged:
				setAffirm(mk(Affirms, h, Completion, sense))
			}
		}
		if affirm != nil {
			return *affirm, true
		}
		if hist != nil {
			return *hist, true
		}
		for _, h := range hits {
			if sense, ok := senseOf(tab, h, Completion); ok && sense == Started {
				return mk(Unrelated, h, Completion, Started), true
			}
		}
		if r, ok := x.unknownOn(s, here, sg, base); ok {
			return r, true
		}
		r := base
		r.Reading = Unrelated
		return r, true

	case HypothesisRole:
		notAsserted := false
		reported := false
		var cueV Verdict
		for _, o := range here {
			v := x.Judge(o.a, o.b, o.re, append(Contradiction, Hedge)...)
			if v.Reported || x.reported(x.clauseAt(o.a), o.a, o.a) {
				reported = true
			} else if v.Negated() {
				notAsserted, cueV = true, v
				if (v.Kind == Retraction || v.Kind == Negation) && v.At < o.a && !x.SameClause(v.At, o.a) {
					// a heading ("Refuted at #31: the CDN adds latency,
					// maybe …") refutes the whole quoted idea, its own
					// hedges included
					r := base
					r.Reading, r.Cue, r.At, r.Verdict = Affirms, v.Cue, v.At, v
					return r, true
				}
			}
		}
		for _, h := range hits {
			sense, ok := senseOf(tab, h, Epistemic)
			if !ok {
				continue
			}
			if x.flipped(h) {
				switch sense {
				case Open, Confirmed:
					sense = Refuted
				case Refuted:
					sense = Open
				}
			}
			switch sense {
			case Open, Confirmed:
				if g, ok := inSeg(h, HistoryClass); ok {
					return mk(History, g, HistoryClass, Past), true
				}
				return mk(Contradicts, h, Epistemic, sense), true
			case Refuted:
				setAffirm(mk(Affirms, h, Epistemic, Refuted))
			}
		}
		if affirm != nil {
			return *affirm, true
		}
		if notAsserted {
			r := base
			r.Reading, r.Cue, r.At, r.Verdict = Affirms, cueV.Cue, cueV.At, cueV
			return r, true
		}
		if reported || hist != nil {
			if hist != nil {
				return *hist, true
			}
			r := base
			r.Reading = History
			return r, true
		}
		if r, ok := x.unknownOn(s, here, sg, base); ok {
			return r, true
		}
		r := base
		r.Reading = Contradicts // stated as it was, after its refutation
		return r, true
	}
	return ClauseReading{}, false
}

// insideSpan reports whether occurrence o lies inside a span of here.
func insideSpan(o occ, here []occ) bool {
	for _, p := range here {
		if p.kind == occSpan && p.a <= o.a && o.b <= p.b {
			return true
		}
	}
	return false
}

// keeps reports whether a contradicting cue v is part of what keeps the
// rule: a negation before a word that ends or permits ("do not move
// protobuf off 3.25", "never lift the freeze"), a negation right before a
// cancellation, permission or retraction cue ("never ignore read-only"),
// or a retraction word inside a new decision's own content ("the new
// rule: ignore rate limits").
func (x *Text) keeps(s *Subject, v Verdict, sg int) bool {
	tab := classesOf()
	h, ok := x.hitAt(v.At)
	cl := x.ci.segs[sg].cl
	if v.Kind == Negation || (ok && hasClass(tab, h, NegationClass)) {
		if !ok {
			// the negation cue of cues.tsv may differ from the class
			// entry's extent; find the negation hit that starts there
			return false
		}
		c := &x.clauses[h.cl]
		for _, g := range x.ci.byClause[h.cl] {
			if g.first <= h.last || g.seg != h.seg {
				continue
			}
			words := 0
			for j := h.last + 1; j < g.first; j++ {
				if x.toks[c.toks[j]].word {
					words++
				}
			}
			if words > 2 {
				break
			}
			if s, ok := senseOf(tab, g, Change); ok && s == Ends {
				return true
			}
			if s, ok := senseOf(tab, g, Deontic); ok && s == Permit {
				return true
			}
			for _, e := range g.entries {
				if en := tab.entries[e]; en.Class == Antonym && en.Sense == Action && containsInt(s.pairs, en.Pair) {
					return true // "don't apply, restart or scale": what the rule forbids
				}
			}
			break
		}
		// or before an action the rule forbids ("do not push")
		for j := h.last + 1; j < len(c.toks) && j <= h.last+3; j++ {
			tk := x.toks[c.toks[j]]
			if !tk.word {
				continue
			}
			if s.isAction(tk.low) {
				return true
			}
		}
		// or an imperative that opens its own clause, its verb followed
		// by an object or a list ("read-only: don't apply, restart or
		// scale anything"): it forbids, and says nothing of the rule
		// before it ("read-only doesn't apply" has no imperative)
		return h.cl != cl && x.imperativeOpening(h)
	}
	// a negation right before the cue
	if ok {
		c := &x.clauses[h.cl]
		for _, g := range x.ci.byClause[h.cl] {
			if g.last >= h.first || g.seg != h.seg || !hasClass(tab, g, NegationClass) {
				continue
			}
			words := 0
			for j := g.last + 1; j < h.first; j++ {
				if x.toks[c.toks[j]].word {
					words++
				}
			}
			if words <= 2 {
				return true
			}
		}
	}
	if v.Kind == Retraction {
		return x.underNewFrame(cl, v.At)
	}
	return false
}

// inList reports whether occurrence o is the head of an item of the list
// class hit h governs, with no negation right after it.
func (x *Text) inList(h classHit, o occ) bool {
	c := &x.clauses[h.cl]
	found := false
	for _, w := range x.governed(c, h, x.lang(), true) {
		if w == x.toks[o.tok].low {
			found = true
		}
	}
	if !found {
		return false
	}
	for i := o.tok + 1; i < len(x.toks) && i <= o.tok+2; i++ {
		if tk := x.toks[i]; tk.word && (tk.low == "nothing" || tk.low == "none" || tk.low == "nada" || tk.low == "no" || tk.low == "not") {
			return false
		}
	}
	return true
}

// imperativeOpening reports whether negation hit h opens its clause as a
// negative imperative ("don't", "do not", "never", "no" + infinitive in
// Spanish) and more follows its verb in the clause.
func (x *Text) imperativeOpening(h classHit) bool {
	c := &x.clauses[h.cl]
	neg := strings.ToLower(x.s[h.a:h.b])
	switch {
	case h.first == 0 && (neg == "don't" || neg == "dont" || neg == "never" || neg == "no" || neg == "nunca"):
	case h.first == 1 && neg == "not" && x.toks[c.toks[0]].low == "do":
	default:
		return false
	}
	// the verb, then at least one more token of the clause
	return h.last+2 < len(c.toks)
}

// underNewFrame reports whether offset at of clause cl follows the frame
// of a new decision ("the new rule:", "from now on"), in its clause or in
// the heading clause a colon puts before it: what follows is the
// decision's content.
func (x *Text) underNewFrame(cl, at int) bool {
	tab := classesOf()
	for k, n := cl, 0; k >= 0 && n < 2; n++ {
		for _, g := range x.ci.byClause[k] {
			if g.a < at && hasClass(tab, g, FrameClass) {
				return true
			}
		}
		c := &x.clauses[k]
		if c.sep != ":" || c.prev < 0 {
			break
		}
		k = c.prev
	}
	return false
}

// hitAt returns the class hit that starts at offset at.
func (x *Text) hitAt(at int) (classHit, bool) {
	for _, h := range x.ci.hits {
		if h.a == at {
			return h, true
		}
		if h.a < at && at < h.b {
			return h, true
		}
	}
	return classHit{}, false
}

// passiveAfter reports whether a passive predicate follows hit h ("can be
// swapped", "may be replaced").
func (x *Text) passiveAfter(h classHit) bool {
	c := &x.clauses[h.cl]
	var ws []string
	for j := h.last + 1; j < len(c.toks) && len(ws) < 3; j++ {
		if tk := x.toks[c.toks[j]]; tk.word {
			ws = append(ws, tk.low)
		}
	}
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "be" || ws[i] == "ser" {
			return participle(ws[i+1])
		}
		if !adverbs[ws[i]] {
			break
		}
	}
	return false
}

// SegmentSpans returns a span at the first word of every segment of the
// text: for a field that is wholly about a subject (an operation's own
// pending entry), every clause touches it.
func (x *Text) SegmentSpans() []Span {
	x.buildClasses()
	var out []Span
	for _, sg := range x.ci.segs {
		if j := x.firstWord(&sg); j >= 0 {
			tk := x.toks[x.clauses[sg.cl].toks[j]]
			out = append(out, Span{Start: tk.a, End: tk.b})
		}
	}
	return out
}

// overlapsRule reports whether hit h is part of a span or a state of the
// rule ("change" of "change freeze"): then it is the rule's own word.
func overlapsRule(h classHit, occs []occ) bool {
	for _, o := range occs {
		if (o.kind == occSpan || o.kind == occState) && h.a >= o.a && h.b <= o.b {
			return true
		}
	}
	return false
}

// ruleNounNear reports whether a noun that names a rule ("ban",
// "freeze") is among hits, other than h, where near says h bears on it.
func (x *Text) ruleNounNear(hits []classHit, h classHit, near func(occ) bool) bool {
	tab := classesOf()
	for _, g := range hits {
		if g.a == h.a {
			continue
		}
		if s, ok := senseOf(tab, g, Change); ok && s == RuleNoun {
			if near(occ{tok: x.clauses[g.cl].toks[g.first], a: g.a, b: g.b}) {
				return true
			}
		}
	}
	return false
}

// unknownOn looks for a word on the subject that no table holds: a
// participle after a form of "be" or "get" that follows the subject ("the
// freeze was softened"), a past-tense verb right after an operation's id
// ("c17 cleared QA"), a verb in -ed before a determiner and the subject
// ("we softened the freeze"), or a frame of modality around a forbidden
// action ("agents are poised to push", "have the nod to push").
func (x *Text) unknownOn(s *Subject, here []occ, sg int, base ClauseReading) (ClauseReading, bool) {
	seg := x.ci.segs[sg]
	c := &x.clauses[seg.cl]
	pos := func(ti int) int {
		for j := seg.first; j <= seg.last; j++ {
			if c.toks[j] == ti {
				return j
			}
		}
		return -1
	}
	found := func(j int) (ClauseReading, bool) {
		tk := x.toks[c.toks[j]]
		r := base
		r.Reading, r.Cue, r.At = CannotTell, x.s[tk.a:tk.b], tk.a
		return r, true
	}
	for _, o := range here {
		if o.kind == occEntity || o.kind == occOpposite {
			continue
		}
		if s.Role == RuleRole && o.kind == occSpan && len(s.pairs) == 0 {
			// a rule that sets no state names an entity ("connect only
			// as wh_restore"): what befalls the entity is not the rule
			continue
		}
		p := pos(o.tok)
		if p < 0 {
			continue
		}
		// past the occurrence's own tokens
		end := p
		for end+1 <= seg.last && x.toks[c.toks[end+1]].a < o.b {
			end++
		}
		aux := false
		for j, n := end+1, 0; j <= seg.last && n < 5; j++ {
			tk := x.toks[c.toks[j]]
			if !tk.word {
				if tk.low == "(" || tk.low == ")" {
					break
				}
				continue
			}
			n++
			if copulas[tk.low] || auxiliaries[tk.low] {
				aux = true
				continue
			}
			if adverbs[tk.low] || (n <= 2 && x.inRuleNoun(seg.cl, j)) {
				continue
			}
			if x.knownFor(s.Role, seg.cl, j) {
				break
			}
			if participle(tk.low) && (aux || (s.Role == OperationRole && n == 1 && strings.HasSuffix(tk.low, "ed"))) {
				return found(j)
			}
			break
		}
		// "we softened the freeze"
		if p-2 >= seg.first {
			det := x.toks[c.toks[p-1]]
			verb := x.toks[c.toks[p-2]]
			if determiners[det.low] && verb.word && !x.knownFor(s.Role, seg.cl, p-2) && strings.HasSuffix(verb.low, "ed") && len(verb.low) > 4 {
				return found(p - 2)
			}
		}
		// "are poised to push", "have the nod to push"
		if o.kind == occAction && p-2 >= seg.first && x.toks[c.toks[p-1]].low == "to" {
			w := p - 2
			if !x.ci.covered[c.toks[w]] && x.toks[c.toks[w]].word && !stopword[x.toks[c.toks[w]].low] {
				for k := w - 1; k >= seg.first && k >= w-2; k-- {
					if low := x.toks[c.toks[k]].low; copulas[low] || low == "has" || low == "have" || low == "had" {
						return found(w)
					}
				}
			}
		}
	}
	return ClauseReading{}, false
}

// knownFor reports whether clause position j of clause cl is a word the
// tables know for a subject of role r: a class word of a class that
// speaks of such a subject, a negation, a known word, or a cue of
// cues.tsv other than a plain tense word.
func (x *Text) knownFor(r Role, cl, j int) bool {
	tab := classesOf()
	for _, h := range x.ci.byClause[cl] {
		if j < h.first || j > h.last {
			continue
		}
		for _, e := range h.entries {
			switch c := tab.entries[e].Class; {
			case c == NegationClass || c == Known || c == HistoryClass:
				return true
			case r == OperationRole && c == Completion:
				return true
			case r == HypothesisRole && c == Epistemic:
				return true
			case r == RuleRole:
				return true
			}
		}
	}
	c := &x.clauses[cl]
	for _, h := range c.hits {
		if j >= h.first && j <= h.last {
			for _, i := range h.cues {
				if k := tableOf().cues[i].Kind; k != Former && k != Current && k != Stale {
					return true
				}
			}
		}
	}
	return false
}

// inRuleNoun reports whether clause position j is a noun that names a
// rule ("the read-only rule was softened").
func (x *Text) inRuleNoun(cl, j int) bool {
	tab := classesOf()
	for _, h := range x.ci.byClause[cl] {
		if j >= h.first && j <= h.last {
			if s, ok := senseOf(tab, h, Change); ok && s == RuleNoun {
				return true
			}
		}
	}
	return false
}

// participle reports whether w has the form of a past participle.
func participle(w string) bool {
	if len(w) < 5 {
		return false
	}
	for _, suf := range []string{"ed", "en", "ado", "ada", "ido", "ida", "ados", "adas", "idos", "idas"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

func (x *Text) clauseText(cl int) string {
	c := &x.clauses[cl]
	if len(c.toks) == 0 {
		return ""
	}
	return x.s[x.toks[c.toks[0]].a:x.toks[c.toks[len(c.toks)-1]].b]
}

var (
	copulas = set(`is are was were be been being am 's get gets got gotten become becomes became
		es son fue fueron era eran esta estan estaba estaban queda quedan quedo sido ha han se`)
	auxiliaries = set(`has have had will would shall now also just`)
	adverbs     = set(`now already just since also still again officially temporarily partially fully finally
		effectively quietly silently recently today ya ahora tambien todavia aun recien hoy`)
	prepositionsAll = set(`against to on in at for from into onto with within about over under by of during while toward towards`)
	modals          = set(`may might can could should would will shall must ought puede pueden debe deben podria deberia`)
	determiners     = set(`the a an this that its their our your these those el la los las un una este esta su sus`)
	// stopword are function words and words too common to name what a
	// rule is about.
	stopword = set(`the a an and or but of to in on at by for with from as is are was were be been being it its
		this that these those there here any all some every each no not never nor only just also very so than then
		too into onto over under up down out off about after before during until till since while if when where
		which who whom whose what how why do does did done doing have has had having will would shall should can
		could may might must need needs own other another more most less least same such you your we our us they
		them their he she his her i me my mine yours ours theirs strictly please anything everything something nothing
		anyone everyone someone nobody none thing things way ways time times make makes made get gets got let lets
		one two via per etc e.g i.e ok yes
		el la los las un una unos unas de del al y e o u ni que en con por para sin sobre entre hasta desde es son
		fue era esta estan este estos estas ese esa eso lo le les se su sus mi mis tu tus nuestro nuestra muy mas
		menos ya no si tambien como cuando donde cual quien todo toda todos todas nada algo cada otro otra`)
)
