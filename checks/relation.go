package checks

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/quantity"
)

// The relation a claim gives its tokens, read as the grounding check reads
// it: each salient token (a path, an id, a quoted string, a figure with a
// unit) takes the content words of the clauses it stands in, and the
// cited event must give it some of the same words, not give them only to
// another of the claim's tokens.
//
// A clause ends at a sentence or line end, a semicolon, a comma or a dash
// before a space, a closing bracket (the bracket belongs to what stands
// before it: "X (ignored)"), or a conjunction that joins two statements ("and", "but", "while", "whereas", "y", "pero", "mientras",
// "aunque", "sino"). Reading clauses the same way on both sides, a claim
// "X is ignored, Y is in use" against an event "Y is ignored; X is in use"
// gives X "ignored", which the event gives only to Y: the relation is
// swapped.

// relVerdict is what the relation check says of one entry.
type relVerdict int8

const (
	relHolds     relVerdict = iota // every token keeps its relation, or no relation to check
	relSwapped                     // a token's words belong to another token in the event
	relUncertain                   // a token's words stand with it and with another token alike
)

// span is a clause of a text: [start, end).
type span struct{ start, end int }

// conjunctions that start a new clause, with their spaces.
var clauseJoins = []string{" and ", " but ", " while ", " whereas ", " whilst ", " y ", " pero ", " mientras ", " aunque ", " sino "}

// joinFirst holds the first letters of clauseJoins.
var joinFirst = func() (t [256]bool) {
	for _, j := range clauseJoins {
		t[j[1]] = true
	}
	return t
}()

// sharedSubject are the words that open a predicate: after "and" or "y"
// they continue the clause before ("X is a leftover and is ignored").
var sharedSubject = set(`is are was were has have had will would can could must should may might does did
	not never also then still
	es son era eran fue fueron esta estan ha han se no sigue siguen queda quedan puede pueden debe deben tambien luego tiene tienen`)

// wordAfter returns the word of letters at i in low.
func wordAfter(low string, i int) (string, int) {
	j := i
	for j < len(low) && (low[j] >= 'a' && low[j] <= 'z' || low[j] >= 0x80) {
		j++
	}
	return low[i:j], j
}

// clausesOf cuts low (folded, lower-cased) into clauses.
func clausesOf(low string) []span {
	var out []span
	start := 0
	cut := func(end, next int) {
		if end > start {
			out = append(out, span{start, end})
		}
		start = next
	}
	for i := 0; i < len(low); i++ {
		c := low[i]
		switch c {
		case '\n', ';', '!', '?':
			cut(i, i+1)
			continue
		case ')', ']':
			// a bracket says something of what stands before it: "X
			// (ignored)" keeps X's clause open until it closes
			cut(i+1, i+1)
			continue
		case '.', ',':
			if i+1 == len(low) || low[i+1] == ' ' || low[i+1] == '\n' {
				cut(i, i+1)
			}
			continue
		case '-':
			if i > 0 && low[i-1] == ' ' && i+1 < len(low) && low[i+1] == ' ' {
				cut(i, i+1)
			}
			continue
		case ' ':
			if i+1 >= len(low) || !joinFirst[low[i+1]] {
				break
			}
			for _, j := range clauseJoins {
				if strings.HasPrefix(low[i:], j) {
					if next, _ := wordAfter(low, i+len(j)); !sharedSubject[next] {
						cut(i, i+len(j)-1)
						i += len(j) - 2
					}
					break
				}
			}
		}
		if c == 0xe2 && strings.HasPrefix(low[i:], "—") { // em dash
			cut(i, i+len("—"))
		}
	}
	cut(len(low), len(low))
	return out
}

// relToken is one salient token of a claim: a string found as is, or a
// figure.
type relToken struct {
	name string
	q    *quantity.Quantity
}

// appendOccurrences appends to dst where tok stands in low (its start
// offsets); qs is quantity.Parse(low).
func (tok relToken) appendOccurrences(dst []int, low string, qs []quantity.Quantity) []int {
	if tok.q != nil {
		for _, h := range qs {
			if h.Unit != "" && quantity.Same(h, *tok.q) {
				dst = append(dst, h.Start)
			}
		}
		return dst
	}
	n := len(dst)
	add := func(t string) {
		for off := 0; off < len(low); {
			i := strings.Index(low[off:], t)
			if i < 0 {
				break
			}
			i += off
			if (i == 0 || !wordish(rune(low[i-1]))) && boundaryAfter(low, i+len(t), t) {
				dst = append(dst, i)
			}
			off = i + 1
		}
	}
	add(tok.name)
	if len(dst) == n {
		for _, part := range joinedParts(tok.name) {
			add(part)
		}
	}
	return dst
}

// joinedParts splits a token that joins two names (host:/srv/data,
// db-01:5432) into them; nil when it joins none.
func joinedParts(tok string) []string {
	i := strings.IndexByte(tok, ':')
	if i < 2 || i > len(tok)-3 {
		return nil
	}
	return []string{tok[:i], tok[i+1:]}
}

// stems is a small set of word stems, in the order first seen.
type stems []string

func (ws stems) has(w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

func (ws stems) add(w string) stems {
	if ws.has(w) {
		return ws
	}
	return append(ws, w)
}

// textClauses is a text read for relations: its clauses, and each
// clause's content-word stems.
type textClauses struct {
	spans []span
	words []stems
	// backing is the array the words share (readClausesAt's buf, grown)
	backing stems
}

// readClauses reads low, whose figures are qs: a figure's unit ("rows"
// in 50 rows/s) is no content word.
func readClauses(low string, qs []quantity.Quantity) textClauses {
	return readClausesAt(low, qs, nil, nil)
}

// readClausesAt is readClauses reading the words of only the clauses that
// hold an offset of at, with the clauses attached to them (every clause
// when at is nil): a claim's other clauses are never compared.
func readClausesAt(low string, qs []quantity.Quantity, at [][]int, buf stems) textClauses {
	tc := textClauses{spans: clausesOf(low)}
	tc.words = make([]stems, len(tc.spans))
	head, shared, attached := clauseHeads(low, tc.spans)
	headOf := func(k int) int {
		if head == nil {
			return k
		}
		return head[k]
	}
	var need []bool
	if at != nil {
		var buf [8]bool
		if len(tc.spans) <= len(buf) {
			need = buf[:len(tc.spans)]
		} else {
			need = make([]bool, len(tc.spans))
		}
		for _, occ := range at {
			for _, i := range occ {
				if k := tc.clauseAt(i); k >= 0 {
					need[headOf(k)] = true
				}
			}
		}
	}
	qi := 0
	// one backing array for every clause's stems (buf's, when it is
	// given): a clause's are appended whole before the next clause starts
	all := buf
	if all == nil {
		all = make(stems, 0, len(low)/8+4)
	}
	for k, sp := range tc.spans {
		if need != nil && !need[headOf(k)] {
			continue
		}
		first := len(all)
		for i := sp.start; i < sp.end; {
			c := low[i]
			if c < 0x80 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(low[i:])
			if !unicode.IsLetter(r) {
				i += n
				continue
			}
			j, letters := i, 0
			for j < sp.end {
				if c := low[j]; c < 0x80 {
					if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
						break
					}
					j++
					letters++
					continue
				}
				r, n := utf8.DecodeRuneInString(low[j:])
				if !unicode.IsLetter(r) {
					break
				}
				j += n
				letters++
			}
			if letters >= 4 {
				for qi < len(qs) && qs[qi].End <= i {
					qi++
				}
				inFigure := qi < len(qs) && qs[qi].Unit != "" && qs[qi].Start <= i
				if w := low[i:j]; !inFigure && !stopWords[w] {
					if st := groundStem(w); !all[first:].has(st) {
						all = append(all, st)
					}
				}
			}
			i = j
		}
		if len(all) > first {
			tc.words[k] = all[first:len(all):len(all)]
		}
	}
	tc.backing = all
	if attached {
		tc.attach(head, shared)
	}
	return tc
}

// relativeWords open a relative clause: after a comma, the clause says
// something of the noun before the comma ("redis-sessions-1, whose INFO
// shows evicted_keys …"; "el pool, que sigue en 20").
var relativeWords = set(`which who whose whom where que cuyo cuya cuyos cuyas donde quien quienes cual cuales`)

// articles open an appositive ("X, the replica whose …, has …").
var articles = set(`the a an el la los las un una`)

// firstWord returns the first word of letters of sp in low.
func firstWord(low string, sp span) string {
	i := sp.start
	for i < sp.end && !(low[i] >= 'a' && low[i] <= 'z' || low[i] >= 0x80) {
		i++
	}
	w, _ := wordAfter(low, i)
	return w
}

// clauseHeads finds the clauses that attach to another: a relative
// clause, an appositive and the predicate that follows them give their
// words to the clause that holds their head noun, so a token is read with
// everything the text says of it: in "redis-sessions-1, whose INFO shows
// evicted_keys 1204, has no eviction rate", the replica takes "info",
// "show" and "eviction". Only clauses after a comma attach: a clause after
// a semicolon or a full stop is a statement of its own. head[k] is the
// clause k gives its words to (k itself when none); shared[k] says k takes
// its head's words too (the head's own predicate, after a relative
// clause), not only gives its own.
func clauseHeads(low string, spans []span) (head []int, shared []bool, attached bool) {
	n := len(spans)
	if n < 2 {
		return nil, nil, false
	}
	k := 1
	for ; k < n; k++ {
		if sp := spans[k]; sp.start > 0 && low[sp.start-1] == ',' {
			if w := firstWord(low, sp); relativeWords[w] || articles[w] {
				break
			}
		}
	}
	if k == n {
		return nil, nil, false // no relative clause nor appositive: none attaches
	}
	head = make([]int, n)
	shared = make([]bool, n)
	side := false // the clause before is a relative clause or an appositive
	for k := range head {
		head[k] = k
		if k == 0 {
			continue
		}
		sp := spans[k]
		if sp.start == 0 || low[sp.start-1] != ',' {
			side = false
			continue
		}
		w := firstWord(low, sp)
		switch {
		case relativeWords[w]:
			head[k], side = head[k-1], true
		case side && sharedSubject[w]:
			// the predicate after the relative clause: "…, has no rate"
			head[k], shared[k], side = head[k-1], true, false
		case articles[w] && k+1 < n && low[spans[k+1].start-1] == ',' && sharedSubject[firstWord(low, spans[k+1])]:
			head[k], side = head[k-1], true
		default:
			side = false
			continue
		}
		attached = true
	}
	return head, shared, attached
}

// attach merges the words of the clauses by clauseHeads. A relative
// clause gives its words to its head, not the head's to its own tokens:
// in "grpc was bumped with x/net, which moved from v0.26.0 to v0.30.0",
// v0.26.0 moved; it was not bumped.
func (tc *textClauses) attach(head []int, shared []bool) {
	n := len(tc.spans)
	words := make([]stems, n)
	copy(words, tc.words)
	for k, h := range head {
		if h != k {
			words[h] = append(stems(nil), words[h]...)
			for _, w := range tc.words[k] {
				words[h] = words[h].add(w)
			}
		}
	}
	for k, h := range head {
		if shared[k] {
			words[k] = words[h]
		}
	}
	tc.words = words
}

// clauseAt returns the index of the clause holding offset i, -1 when none.
func (tc textClauses) clauseAt(i int) int {
	for k, sp := range tc.spans {
		if i >= sp.start && i < sp.end {
			return k
		}
	}
	return -1
}

// appendWordsAround appends to dst the stems of the clauses holding the
// offsets, less those in not, each once.
func (tc textClauses) appendWordsAround(dst stems, at []int, not stems) stems {
	first := len(dst)
	for _, i := range at {
		if k := tc.clauseAt(i); k >= 0 {
			for _, w := range tc.words[k] {
				if !not.has(w) && !dst[first:].has(w) {
					dst = append(dst, w)
				}
			}
		}
	}
	return dst
}

// relScratch is the memory relation works in, reused across calls.
type relScratch struct {
	offsets []int
	stems   stems   // the claim's clause stems
	spans   [][]int // inEvent then inClaim
	words   stems
	clauses clauseSet
	pred    []stems
	have    []clauseSet
}

var relScratchPool = sync.Pool{New: func() any { return &relScratch{offsets: make([]int, 0, 64)} }}

// lists returns the offset lists of the n tokens in the event and in
// the claim, empty.
func (sc *relScratch) lists(n int) (inEvent, inClaim [][]int) {
	if cap(sc.spans) < 2*n {
		sc.spans = make([][]int, 2*n)
	}
	sc.spans = sc.spans[:2*n]
	clear(sc.spans)
	return sc.spans[:n:n], sc.spans[n:]
}

// put returns sc to the pool, holding no string of the claim or event
// alive (the slices keep their capacity; a scratch grown past a large
// claim is dropped).
func (sc *relScratch) put() {
	if cap(sc.offsets) > 1<<12 || cap(sc.words) > 1<<12 || cap(sc.stems) > 1<<12 {
		return
	}
	clear(sc.words[:cap(sc.words)])
	clear(sc.stems[:cap(sc.stems)])
	clear(sc.pred[:cap(sc.pred)])
	clear(sc.have[:cap(sc.have)])
	clear(sc.spans)
	relScratchPool.Put(sc)
}

// relation judges the tokens of a claim (low: folded, lower-cased; cqs
// its figures, nil to read them) against the cited event (hay, with hqs its figures and eventClauses its
// clauses). It returns the verdict and, unless the relation holds, the
// token and the words that stand with another token in the event.
func relation(low string, toks []relToken, cqs []quantity.Quantity, hay string, hqs []quantity.Quantity, eventClauses textClauses) (relVerdict, string, []string) {
	if len(toks) < 2 {
		return relHolds, "", nil
	}
	// where each token stands in the event: fewer than two found, nothing
	// to compare. The offset lists, the words and the clauses share the
	// backing arrays of a pooled scratch: a claim is judged without
	// allocating.
	sc := relScratchPool.Get().(*relScratch)
	defer sc.put()
	occ := sc.offsets[:0]
	inEvent, inClaim := sc.lists(len(toks))
	found := 0
	for i, t := range toks {
		start := len(occ)
		occ = t.appendOccurrences(occ, hay, hqs)
		if inEvent[i] = occ[start:len(occ):len(occ)]; len(inEvent[i]) > 0 {
			found++
		}
	}
	if found < 2 {
		return relHolds, "", nil
	}
	if cqs == nil {
		cqs = quantity.Parse(low)
	}
	var names stems
	for i, t := range toks {
		start := len(occ)
		occ = t.appendOccurrences(occ, low, cqs)
		inClaim[i] = occ[start:len(occ):len(occ)]
		names = letterRuns(t.name, names)
	}
	claim := readClausesAt(low, cqs, inClaim, sc.stems[:0])
	sc.stems = claim.backing
	// tokens that share a clause take their role from the preposition
	// before them: "from 400 ms to 2 s" against "from 2 s to 400 ms"
	if v, who, which := roleSwap(low, toks, inClaim, hay, inEvent, claim, eventClauses); v == relSwapped {
		return v, who, which
	}
	// the words around each token in the claim, and the event's clauses
	// holding it
	pred, have := sc.pred[:0], sc.have[:0]
	words, clauses := sc.words[:0], sc.clauses[:0]
	for i := range toks {
		n := len(words)
		words = claim.appendWordsAround(words, inClaim[i], names)
		pred = append(pred, words[n:len(words):len(words)])
		n = len(clauses)
		clauses = eventClauses.appendClausesAt(clauses, inEvent[i])
		have = append(have, clauses[n:len(clauses):len(clauses)])
	}
	sc.offsets, sc.words, sc.clauses, sc.pred, sc.have = occ, words, clauses, pred, have
	verdict, who, which := relHolds, "", []string(nil)
	for i, t := range toks {
		if !have[i].anyWords(eventClauses) {
			continue // not found as such (a figure in a table, p95=744), or with no words: nothing to tell
		}
		own, cross := 0, []string(nil)
		for _, w := range pred[i] {
			if have[i].has(eventClauses, w) {
				own++
				continue
			}
			for j := range toks {
				if j != i && have[j].has(eventClauses, w) && !pred[j].has(w) {
					cross = append(cross, w)
					break
				}
			}
		}
		switch {
		case len(cross) > 0 && own == 0:
			return relSwapped, label(t), cross
		case len(cross) > own && verdict == relHolds:
			verdict, who, which = relUncertain, label(t), cross
		}
	}
	return verdict, who, which
}

// clauseSet lists the clauses of a text a token stands in.
type clauseSet []int

// appendClausesAt appends to dst the clauses holding the offsets, each
// once.
func (tc textClauses) appendClausesAt(dst clauseSet, at []int) clauseSet {
	first := len(dst)
	for _, i := range at {
		if k := tc.clauseAt(i); k >= 0 && !slices.Contains(dst[first:], k) {
			dst = append(dst, k)
		}
	}
	return dst
}

// has reports whether one of the clauses holds stem w.
func (cs clauseSet) has(tc textClauses, w string) bool {
	for _, k := range cs {
		if tc.words[k].has(w) {
			return true
		}
	}
	return false
}

// anyWords reports whether one of the clauses holds a content word.
func (cs clauseSet) anyWords(tc textClauses) bool {
	for _, k := range cs {
		if len(tc.words[k]) > 0 {
			return true
		}
	}
	return false
}

// letterRuns adds to ws the stems of the runs of four letters or more of
// name (wordRe's words, without the regexp).
func letterRuns(name string, ws stems) stems {
	for i := 0; i < len(name); {
		r, n := utf8.DecodeRuneInString(name[i:])
		if !unicode.IsLetter(r) {
			i += n
			continue
		}
		j, letters := i, 0
		for j < len(name) {
			r, n := utf8.DecodeRuneInString(name[j:])
			if !unicode.IsLetter(r) {
				break
			}
			j += n
			letters++
		}
		if letters >= 4 {
			ws = ws.add(groundStem(name[i:j]))
		}
		i = j
	}
	return ws
}

// relStem is the stem a relation compares: the word without an English
// inflection (-ing, -ed, -es, -s, a final -e) and cut to five letters, so
// "load", "loads" and "loaded" are one, "agree" and "agreed" are one, and
// "time" is not "timeout"; Spanish forms share their first five letters
// ("ignora", "ignorado"; "acordado", "acordamos").
func relStem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) {
			if suf == "s" && strings.HasSuffix(w, "ss") {
				break // pass, process: no plural
			}
			w = w[:len(w)-len(suf)]
			if n := len(w); (suf == "ing" || suf == "ed") && n >= 3 && w[n-1] == w[n-2] && strings.IndexByte("bdgmnprt", w[n-1]) >= 0 {
				w = w[:n-1] // stopped, running, skipped
			}
			break
		}
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	if len(w) > 5 {
		w = w[:5]
	}
	return w
}

func label(t relToken) string {
	if t.q != nil {
		return t.q.Text
	}
	return t.name
}

// roleWords mark the role of the token after them in its clause: its
// start or end, what it replaces or is compared with.
var roleWords = set(`from to into desde hasta de del a al instead replaces replaced than versus vs not no`)

// quantifierDe are the words that make a following "de" part of a
// quantifier ("más de", "menos de", "cerca de").
var quantifierDe = set(`mas menos cerca alrededor acerca unos unas`)

// roleOf returns the role word nearest before offset at in its clause
// (within four words, not past another token's start), "" when none.
func roleOf(text string, at int, sp span, starts []int) string {
	lo := sp.start
	for _, s := range starts {
		if s < at && s > lo {
			lo = s
		}
	}
	words := strings.Fields(wordsOnly(text[lo:at]))
	for k, n := len(words)-1, 0; k >= 0 && n < 4; k, n = k-1, n+1 {
		if roleWords[words[k]] {
			if words[k] == "de" && k > 0 && quantifierDe[words[k-1]] {
				continue // "más de 2 s": more than, not from
			}
			return words[k]
		}
	}
	return ""
}

// roleSwap finds two tokens that share a clause in the claim and in the
// event, each with the role word the event gives the other: "p95 went from
// 2 s to 400 ms" against "from about 400 ms to well over 2 s".
func roleSwap(low string, toks []relToken, inClaim [][]int, hay string, inEvent [][]int, claim, event textClauses) (relVerdict, string, []string) {
	type place struct {
		clause int
		role   string
	}
	read := func(text string, occ [][]int, tc textClauses) []place {
		at := make([]int, len(toks))
		for i := range toks {
			at[i] = -1
			if len(occ[i]) == 1 {
				at[i] = occ[i][0]
			}
		}
		out := make([]place, len(toks))
		for i := range toks {
			out[i] = place{clause: -1}
			if at[i] < 0 {
				continue
			}
			k := tc.clauseAt(at[i])
			if k < 0 {
				continue
			}
			out[i] = place{clause: k, role: roleOf(text, at[i], tc.spans[k], at)}
		}
		return out
	}
	// only a pair of tokens that share a clause on both sides has roles
	// to compare
	clauseOf := func(occ []int, tc textClauses) int {
		if len(occ) != 1 {
			return -1
		}
		return tc.clauseAt(occ[0])
	}
	shared := false
	for i := range toks {
		ci, ei := clauseOf(inClaim[i], claim), clauseOf(inEvent[i], event)
		for j := i + 1; j < len(toks) && ci >= 0 && ei >= 0 && !shared; j++ {
			shared = ci == clauseOf(inClaim[j], claim) && ei == clauseOf(inEvent[j], event)
		}
	}
	if !shared {
		return relHolds, "", nil
	}
	c, e := read(low, inClaim, claim), read(hay, inEvent, event)
	for i := range toks {
		for j := i + 1; j < len(toks); j++ {
			if c[i].clause < 0 || c[i].clause != c[j].clause || e[i].clause < 0 || e[i].clause != e[j].clause {
				continue
			}
			if c[i].role != "" && c[j].role != "" && c[i].role != c[j].role && c[i].role == e[j].role && c[j].role == e[i].role {
				return relSwapped, label(toks[i]), []string{c[i].role}
			}
		}
	}
	return relHolds, "", nil
}
