package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// GroundingCheck is the `grounding` check: an entry that cites an event is
// supported by that event, so a citation cannot be borrowed from a nearby
// event of the right role.
//
// Rule: for every verified[] claim, constraints[] entry, corrections[]
// value and pending[] entry with a source_seq, the cited event, read with
// its protocol partner (a tool result with the call that produced it, a
// call with its result), must hold:
//   - every salient token of the entry, after folding (case, accents,
//     whitespace): e-mail addresses, paths, quoted strings, identifiers (a
//     token joined by _ . : - / with a digit or an underscore:
//     call_migrate_0193, v1.9.0, 10.42.7.19, wh_restore) and, for a
//     pending entry, its op_id; a number with a known unit is supported by
//     the same quantity (within 10%, so "172 GB" rounds "184204920832"
//     bytes), or exactly the same number as written (a bare 768 does not
//     support 702 MB, and the digits of "30s" do not support "30 ms"),
//     or a more precise figure the entry rounds to the digits it shows
//     ("229 hours" for 228.925, not "228" nor "230"), unless the entry
//     marks it as approximate ("about 229 hours");
//   - for a claim or a constraint with no such token or figure, at least
//     half of its content words (four letters or more, not a stop word),
//     compared by stem (wordforms.tsv: "kept" is "keep", "stays" is
//     "keep", "dependency" is "depend" and counts once with it;
//     "production" is supported by "prod"); a word of a relative clause
//     or a bracket the cited event lacks counts neither way when a covered
//     event holds it. An entry in Spanish citing an event that is not (or
//     in English citing a Spanish one) is uncertain, never failed, when
//     fewer than half of its words and bare numbers are found: the words
//     cannot be compared;
//   - for a claim or a constraint with two or more tokens, each token keeps
//     the words and the role the event gives it (relation.go; a relative
//     clause or an appositive gives its words to its head noun); a swap
//     read across languages is uncertain.
//
// Fail names the entry and the first token or the words the event lacks;
// when the entry is a constraint or a correction cited to a user or system
// event and a covered tool output does hold it, the message says so: an
// instruction found only in a tool output is not the user's. An entry with
// no source_seq, or citing a seq that names no event, is left to evidence,
// provenance and references. Skip when the summary has no such entry with
// a source_seq (a text-only summary always skips).
type GroundingCheck struct{}

// grounded is one entry the grounding check judges.
type grounded struct {
	ptr  string // the entry's text field
	text string
	low  string // text folded and lower-cased (the leaf's, when known)
	seq  int
	opID string // pending entries
	// words: its content words must be supported (claims, constraints);
	// instruction: a constraint or correction, which only a user gives.
	words, instruction bool
	// qs is quantity.Parse(text), when known; sal its salient tokens,
	// once read.
	qs  []quantity.Quantity
	sal []string
	// bound is the cut: a relative clause or a bracket may add what
	// another covered event says.
	bound int
}

// support is what the cited event says of an entry.
type support int8

const (
	supported   support = iota
	unsupported         // the event lacks a token, a figure or the words
	cannotTell          // the words cannot be compared (another language)
)

// Check implements Check.
func (GroundingCheck) Check(in *Input) []result.CheckResult {
	st, res := structural(in, result.CheckGrounding, true)
	if st == nil {
		return res
	}
	r := result.CheckResult{Check: result.CheckGrounding, Kind: result.KindStructural}
	items := make([]grounded, 0, len(st.sum.Verified)+len(st.sum.Constraints)+len(st.sum.Corrections)+len(st.sum.Pending))
	for i, c := range st.sum.Verified {
		items = append(items, grounded{ptr: ptrf("verified", i, "claim"), text: c.Claim, seq: c.SourceSeq, words: true})
	}
	for i, c := range st.sum.Constraints {
		items = append(items, grounded{ptr: ptrf("constraints", i, "text"), text: c.Text, seq: c.SourceSeq, words: true, instruction: true})
	}
	for i, c := range st.sum.Corrections {
		items = append(items, grounded{ptr: ptrf("corrections", i, "value"), text: c.Value, seq: c.SourceSeq, instruction: true})
	}
	for i, p := range st.sum.Pending {
		items = append(items, grounded{ptr: ptrf("pending", i, "description"), text: p.Description, seq: p.SourceSeq, opID: p.OpID})
	}
	leafAt := make(map[string]int32, len(st.leaves)) // index in st.leaves
	for i, l := range st.leaves {
		leafAt[l.ptr] = int32(i)
	}
	judged := 0
	var unsure []result.Evidence // entries whose words or relation cannot be told
	bound := st.bound()
	for _, it := range items {
		it.bound = bound
		if it.seq == 0 {
			continue
		}
		if i, ok := leafAt[it.ptr]; ok && st.leaves[i].text == it.text {
			it.low, it.qs = st.leaves[i].lower, st.quantities(st.leaves[i])
		}
		if it.low == "" {
			it.low = strings.ToLower(foldText(it.text))
		}
		it.sal = salientTokensLow(it.low)
		hay, ok := st.sd.citedText(it.seq)
		if !ok {
			continue
		}
		judged++
		if it.opID != "" && findToken(hay, strings.ToLower(it.opID)) < 0 {
			ptr := strings.TrimSuffix(it.ptr, "/description") + "/op_id"
			r.Evidence = append(r.Evidence, result.Evidence{Pointer: ptr, Seq: it.seq, Text: it.opID, Note: "op id not in the cited event"})
			continue
		}
		note, sup := st.sd.unsupported(it, it.seq, hay)
		if sup == cannotTell {
			unsure = append(unsure, result.Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen), Note: note})
			continue
		}
		if sup == supported {
			if !it.words {
				continue
			}
			ok := false
			switch v, who, which := st.sd.relationOf(it, it.seq, hay); v {
			case relSwapped:
				ws := wordList(which)
				note = fmt.Sprintf("the relation is swapped: the cited event gives %s to another of the entry's tokens, not to %q", ws, who)
				if a, b := textLang(it.low), st.sd.readCited(it.seq, hay).lang(); a != "" && b != "" && a != b {
					// the words are compared across languages: a cognate
					// in another tense or voice ("exists", "existía") is
					// no evidence of a swap
					unsure = append(unsure, result.Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen),
						Note: fmt.Sprintf("cannot tell the relation across languages (the entry is %s, the cited event %s): the event gives %s to another of the entry's tokens, not to %q", langName(a), langName(b), ws, who)})
					break
				}
				ok = true
			case relUncertain:
				unsure = append(unsure, result.Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen),
					Note: fmt.Sprintf("cannot tell the relation: the cited event gives %s to %q and to another of the entry's tokens", wordList(which), who)})
			}
			if !ok {
				continue
			}
		}
		if it.instruction {
			if e, ok := st.sd.citedEvent(it.seq); ok && (e.Role == scenarios.RoleUser || e.Role == scenarios.RoleSystem) {
				if tool := st.sd.toolHolding(it, st.bound()); tool > 0 {
					note += fmt.Sprintf("; tool output #%d holds it: an instruction only a tool gave is not the user's", tool)
				}
			}
		}
		r.Evidence = append(r.Evidence, result.Evidence{Pointer: it.ptr, Seq: it.seq, Text: clip.String(it.text, clipLen), Note: note})
	}
	if judged == 0 {
		r.Status, r.Message = result.Skip, "the summary cites no event for a verified claim, constraint, correction or pending entry"
		return []result.CheckResult{r}
	}
	if len(r.Evidence) > 0 {
		e := r.Evidence[0]
		r.Status = result.Fail
		r.Message = fmt.Sprintf("%s cites #%d, which does not support it: %s", e.Pointer, e.Seq, e.Note)
		if len(r.Evidence) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d entries)", len(r.Evidence), judged)
		}
		return []result.CheckResult{r}
	}
	if len(unsure) > 0 {
		e := unsure[0]
		r.Status, r.Evidence = result.Uncertain, unsure
		r.Message = fmt.Sprintf("%s cites #%d, but the check %s", e.Pointer, e.Seq, e.Note)
		if len(unsure) > 1 {
			r.Message += fmt.Sprintf(" (%d of %d entries)", len(unsure), judged)
		}
		return []result.CheckResult{r}
	}
	r.Status, r.Message = result.Pass, fmt.Sprintf("all %d cited entries are supported by the events they cite", judged)
	return []result.CheckResult{r}
}

var (
	numRe    = regexp.MustCompile(`\d+(?:[.,_]\d+)*`)
	wordRe   = regexp.MustCompile(`\p{L}{4,}`)
	approxRe = regexp.MustCompile(`(?i)(about|around|roughly|approximately|approx\.?|nearly|almost|some|~|≈|unos|unas|aproximadamente|casi|cerca de|alrededor de)\s*$`)
)

// salientTokens returns the salient tokens of text, folded and
// lower-cased: quoted strings, then e-mail addresses, paths and
// identifiers in order of appearance.
func salientTokens(text string) []string {
	return salientTokensLow(strings.ToLower(foldText(text)))
}

// salientTokensLow is salientTokens on text already folded and lower-cased.
func salientTokensLow(low string) []string {
	var out []string
	for _, q := range [][2]string{{`"`, `"`}, {"`", "`"}, {"“", "”"}} {
		for rest := low; ; {
			i := strings.Index(rest, q[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(q[0]):]
			j := strings.Index(rest, q[1])
			if j < 0 {
				break
			}
			if g := strings.TrimSpace(rest[:j]); len(g) >= 3 {
				out = append(out, g)
			}
			rest = rest[j+len(q[1]):]
		}
	}
	take := func(c string) {
		// strings.TrimRight(c, ".,:;!?-") and TrimLeft(c, ".:-"), without
		// building their cutsets for every chunk
		for len(c) > 0 && strings.IndexByte(".,:;!?-", c[len(c)-1]) >= 0 {
			c = c[:len(c)-1]
		}
		if !strings.HasPrefix(c, "./") {
			for len(c) > 0 && (c[0] == '.' || c[0] == ':' || c[0] == '-') {
				c = c[1:]
			}
		}
		if c == "" {
			return
		}
		switch {
		case isEmail(c):
			out = append(out, c)
		case strings.Contains(c, "/") && isPathToken(c):
			out = append(out, cutLineNumber(c))
		case isIdentifier(c):
			// a line number is not part of the name (entries.go:31)
			out = append(out, cutLineNumber(c))
		}
	}
	// The chunks of strings.FieldsFunc(low, chunkSep), without the slice.
	start := -1
	for i, r := range low {
		switch {
		case !chunkSep(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			take(low[start:i])
			start = -1
		}
	}
	if start >= 0 {
		take(low[start:])
	}
	return out
}

// cutLineNumber drops a trailing ":<digits>" (a line number) from c.
func cutLineNumber(c string) string {
	i := strings.LastIndexByte(c, ':')
	if i < 0 || i == len(c)-1 {
		return c
	}
	for j := i + 1; j < len(c); j++ {
		if c[j] < '0' || c[j] > '9' {
			return c
		}
	}
	return c[:i]
}

// chunkSep cuts text into the chunks a salient token is read from.
func chunkSep(r rune) bool {
	switch r {
	case ' ', ',', ';', '(', ')', '[', ']', '{', '}', '<', '>', '"', '\'', '`', '=', '|', '“', '”', '*':
		return true
	}
	return r < ' '
}

func isEmail(c string) bool {
	at := strings.IndexByte(c, '@')
	return at > 0 && strings.Contains(c[at+1:], ".") && !strings.ContainsAny(c, "/:")
}

// isIdentifier tells an identifier (call_migrate_0193, v1.9.0, 10.42.7.19,
// wh_restore) from a hyphenated word (read-only) or a decimal (3.5).
func isIdentifier(t string) bool {
	if !hasJoiner(t) {
		return false // p95, arm64, c17: words, not names
	}
	for _, r := range t {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.:/-@+", r)) {
			return false
		}
	}
	if n := strings.TrimLeft(t, "+-"); n != "" && n[0] >= '0' && n[0] <= '9' { // a quantity starts with a digit
		if qs := quantity.Parse(n); len(qs) == 1 && qs[0].Start == 0 && qs[0].End == len(n) {
			return false // +1.12GB is a quantity
		}
	}
	if strings.Contains(t, "_") {
		return true
	}
	digit, letter := false, false
	for _, r := range t {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r != '.' && r != ':' && r != '-' && r != '/':
			letter = true
		}
	}
	if !digit {
		return false
	}
	if letter {
		return true
	}
	// 3.5, 12:30, 0.39-0.43, 2026-11-26 are numbers; 10.42.7.19,
	// 10.42.8.0/24 and 1.9.0 are not.
	for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '/' || r == ':' }) {
		if strings.Count(part, ".") >= 2 {
			return true
		}
	}
	return false
}

// approxBefore is approxRe.MatchString(s), reading only the end of s: a
// match is an alternative (at most 15 characters, each at most 3 bytes
// under case folding) followed by trailing white space, so the regexp
// gives the same answer on that white space and the 64 bytes before it,
// and does not read a long entry from its start for each quantity.
func approxBefore(s string) bool {
	end := len(s)
	for end > 0 {
		switch s[end-1] {
		case ' ', '\t', '\n', '\f', '\r':
			end--
			continue
		}
		break
	}
	if start := end - 64; start > 0 {
		for start < end && !utf8.RuneStart(s[start]) {
			start++
		}
		s = s[start:]
	}
	return approxRe.MatchString(s)
}

// hasJoiner is strings.ContainsAny(t, "_.:/-") without building the set.
func hasJoiner(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '_', '.', ':', '/', '-':
			return true
		}
	}
	return false
}

// isPathToken tells a path (config/db.yml, /srv/app, ./run.sh) from a rate
// or a pair of words (rows/s, and/or, read/write).
func isPathToken(t string) bool {
	t = strings.TrimRight(t, ".")
	if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "~/") {
		return strings.Count(t, "/") >= 1 && len(t) > 2
	}
	if strings.Count(t, "/") >= 2 {
		return true
	}
	last := t[strings.LastIndex(t, "/")+1:]
	return strings.Contains(last, ".") && !strings.HasSuffix(last, ".")
}

// unsupported returns what the cited event (hay: folded, lower-cased) lacks
// of entry it: a note naming the first salient token, number or the
// content words it does not hold, and whether the event supports it, does
// not, or cannot be compared with it word by word.
func (d *scenarioData) unsupported(it grounded, seq int, hay string) (string, support) {
	anchors := 0
	low := it.low
	if low == "" {
		low = strings.ToLower(foldText(it.text))
	}
	sal := it.sal
	if sal == nil {
		sal = salientTokensLow(low)
	}
	for _, tok := range sal {
		if !containsLoose(hay, tok) && !joinedIn(hay, tok) && !wordListIn(hay, tok) {
			return fmt.Sprintf("%q is not in the cited event", tok), unsupported
		}
		anchors++
	}
	qs := it.qs
	if qs == nil {
		qs = quantity.Parse(it.text)
	}
	for _, q := range qs {
		if q.Unit == "" || !quantity.Known(q.Unit) || approxBefore(it.text[:q.Start]) {
			continue
		}
		if !d.numberIn(q, seq, hay) {
			return fmt.Sprintf("%q is not in the cited event", q.Text), unsupported
		}
		anchors++
	}
	// Content words judge an entry with nothing else to hold on to ("all
	// operations completed successfully", "read-only: no changes").
	if it.words && anchors == 0 {
		return d.wordsSupport(it, low, seq, hay)
	}
	return "", supported
}

// wordsSupport is the content-word test of an entry with no salient token
// or figure: at least half of its content words, compared by stem
// (groundStem: "kept" is "keep", "dependency" is "depend" and counts once
// with it), stand in the cited event. A word of a relative clause or a
// bracket ("…, which came right after the orders reindex started") that
// the cited event lacks counts neither way when a covered event holds it:
// such a clause adds context from elsewhere in the session. Across
// languages (a Spanish entry citing an English event, or the reverse) the
// words the event lacks cannot be told missing: the entry's bare numbers
// count as words, and when fewer than half are found the entry cannot be
// told, never failed.
func (d *scenarioData) wordsSupport(it grounded, low string, seq int, hay string) (string, support) {
	cw := claimWords(low)
	read := d.readCited(seq, hay)
	cross := crossLanguage(textLang(low), read.lang())
	// the entry's bare numbers count as words: across languages both ways,
	// otherwise only when the event holds them ("187 pkgs depend on grpc"
	// citing a result of 187; "418 220 913" is one number, not three)
	for _, n := range claimNumbers(low) {
		if cross || read.holdsNumber(n.text) {
			cw = append(cw, n)
		}
	}
	if len(cw) < 2 {
		return "", supported
	}
	have := d.wordsOf(hay)
	var session words
	found := 0
	var missing []string
	for _, w := range cw {
		switch {
		case w.number && read.holdsNumber(w.text):
			found++
			continue
		case !w.number && have.holds(w.stem):
			found++
			continue
		case w.side && !w.number && it.bound > 0:
			if session == nil {
				session = d.sessionWords(it.bound)
			}
			if session.holds(w.stem) {
				continue
			}
		}
		missing = append(missing, w.text)
	}
	if 2*len(missing) <= found+len(missing) {
		return "", supported
	}
	shown := missing
	if len(shown) > 4 {
		shown = shown[:4]
	}
	if cross {
		return fmt.Sprintf("cannot compare its words with the cited event's: the entry is %s, the event %s (%d of %d words found; not found: %s)",
			langName(textLang(low)), langName(read.lang()), found, found+len(missing), strings.Join(shown, ", ")), cannotTell
	}
	if 3*found >= found+len(missing) {
		// a third to a half: a paraphrase in other words, or a citation
		// of the wrong event; another event that holds them tells
		if other := d.betterSource(cw, seq, it.bound); other > 0 {
			return fmt.Sprintf("the cited event has none of %s; #%d holds them", strings.Join(shown, ", "), other), unsupported
		}
		return fmt.Sprintf("only %d of %d of its words are in the cited event (not found: %s)", found, found+len(missing), strings.Join(shown, ", ")), cannotTell
	}
	return fmt.Sprintf("the cited event has none of %s", strings.Join(shown, ", ")), unsupported
}

// betterSource returns the seq of an event up to bound (all when bound is
// 0), other than seq, that holds more than half of the words cw, and 0
// when none does.
func (d *scenarioData) betterSource(cw []claimWord, seq, bound int) int {
	for i, ev := range d.sc.Events {
		if ev.Seq == seq || bound > 0 && ev.Seq > bound || ev.Filler {
			continue
		}
		have := d.wordsOf(d.folded[i])
		found := 0
		for _, w := range cw {
			if !w.number && have.holds(w.stem) || w.number && containsLoose(d.folded[i], w.text) {
				found++
			}
		}
		if 2*found > len(cw) {
			return ev.Seq
		}
	}
	return 0
}

// claimWord is a content word of an entry (or, across languages, a bare
// number of two digits or more).
type claimWord struct {
	text, stem   string
	side, number bool // in a relative clause or a bracket; a number
}

// claimWords returns the content words of low, one per stem, each marked
// side when it stands only in a relative clause or a bracket.
func claimWords(low string) []claimWord {
	sides := sideSpans(low)
	var out []claimWord
	at := map[string]int{}
	for _, loc := range wordRe.FindAllStringIndex(low, -1) {
		w := low[loc[0]:loc[1]]
		if stopWords[w] {
			continue
		}
		side := false
		for _, sp := range sides {
			side = side || loc[0] >= sp.start && loc[0] < sp.end
		}
		st := groundStem(w)
		if k, ok := at[st]; ok {
			out[k].side = out[k].side && side
			continue
		}
		at[st] = len(out)
		out = append(out, claimWord{text: w, stem: st, side: side})
	}
	return out
}

// claimNumbers returns the bare numbers of two digits or more of low.
func claimNumbers(low string) []claimWord {
	var out []claimWord
	for _, loc := range numRe.FindAllStringIndex(low, -1) {
		glued := loc[0] > 0 && isASCIILetter(low[loc[0]-1]) || loc[1] < len(low) && isASCIILetter(low[loc[1]])
		if m := low[loc[0]:loc[1]]; len(m) >= 2 && !glued {
			out = append(out, claimWord{text: m, number: true}) // not arm64, x86
		}
	}
	return out
}

// sideSpans returns the relative clauses (after a comma, from their
// relative word to the clause's end) and the brackets of low.
func sideSpans(low string) []span {
	var out []span
	for _, sp := range clausesOf(low) {
		if sp.start > 0 && low[sp.start-1] == ',' && relativeWords[firstWord(low, sp)] {
			out = append(out, sp)
		}
	}
	depth, open := 0, 0
	for i := 0; i < len(low); i++ {
		switch low[i] {
		case '(', '[':
			if depth == 0 {
				open = i
			}
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
				if depth == 0 {
					out = append(out, span{open, i + 1})
				}
			}
		}
	}
	return out
}

// langName names a language textLang returns.
func langName(l string) string {
	switch l {
	case "es":
		return "in Spanish"
	case "en":
		return "in English"
	}
	return "in no language its words show"
}

// numberIn reports whether hay, the cited text of event seq, supports
// quantity q: the same figure (package quantity: any unit, scale or
// locale, rounded to the digits shown), or the same quantity within 10%
// (after unit conversion), or the number as written, or a bare number that
// is q in the unit's base (bytes for GB) within 10%.
func (d *scenarioData) numberIn(q quantity.Quantity, seq int, hay string) bool {
	hqs := d.readCited(seq, hay).qs
	for _, h := range hqs {
		if h.Unit != "" && quantity.SameDimension(h.Unit, q.Unit) && (quantity.Same(h, q) || near(quantity.Base(h.Value, h.Unit), quantity.Base(q.Value, q.Unit))) {
			return true
		}
	}
	// The number as written must be the same number: 702 MB is not
	// supported by a bare 768 (a different figure 9% away). Only a
	// rendering in another scale may round: the base unit (172 GB as
	// 184204920832 bytes) or a ratio for a percentage (0.42% as 0.0042).
	var scaled []float64
	if b := quantity.Base(q.Value, q.Unit); b != q.Value {
		scaled = append(scaled, b)
	}
	if quantity.Canon(q.Unit) == "%" {
		scaled = append(scaled, q.Value/100)
	}
	// a bare number in a tool's own unit: p95=744 in a ttft_ms column is
	// 0.744 s, dur=31 of a server-timing header is 0.031 s
	for _, u := range quantity.ToolUnits {
		if quantity.SameDimension(u, q.Unit) && quantity.Canon(u) != quantity.Canon(q.Unit) {
			scaled = append(scaled, quantity.Base(q.Value, q.Unit)/quantity.Base(1, u))
		}
	}
	same := func(n float64) bool {
		if n == q.Value {
			return true
		}
		for _, w := range scaled {
			if near(n, w) {
				return true
			}
		}
		return false
	}
	for _, h := range hqs {
		// a bare number in any locale (41.206.553, 128.000), or one that
		// q rounds to the digits it shows ("229 hours" for a column
		// "hours" holding 228.925)
		if h.Unit == "" || !quantity.Known(h.Unit) {
			if same(h.Value) || h.Alt != 0 && same(h.Alt) || q.Rounds(h.Value, q.Unit) || h.Alt != 0 && q.Rounds(h.Alt, q.Unit) {
				return true
			}
		}
	}
	// The digits of a figure in another unit are not a bare number: "30s"
	// does not hold "30 ms" (in q's own unit they are q as written, in
	// whatever locale the event was read).
	k := 0
	for _, loc := range numRe.FindAllStringIndex(hay, -1) {
		for k < len(hqs) && hqs[k].End <= loc[0] {
			k++
		}
		if k < len(hqs) && hqs[k].Start <= loc[0] && quantity.Known(hqs[k].Unit) && hqs[k].Unit != q.Unit || loc[1] < len(hay) && isASCIILetter(hay[loc[1]]) {
			continue
		}
		n, err := strconv.ParseFloat(strings.NewReplacer(",", "", "_", "").Replace(hay[loc[0]:loc[1]]), 64)
		if err == nil && same(n) {
			return true
		}
	}
	return false
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// citedRead is a cited text read for figures and relations, once per
// event.
type citedRead struct {
	qs []quantity.Quantity // figures of the folded text
	// lines is the text with its lines, lineQs its figures, clauses its
	// clauses (see readCited).
	lines   string
	lineQs  []quantity.Quantity
	clauses textClauses
	// language is textLang of the text, read once.
	langOnce sync.Once
	language string
	text     string
}

// lang returns the language of the cited text (textLang).
func (r *citedRead) lang() string {
	r.langOnce.Do(func() { r.language = textLang(r.text) })
	return r.language
}

// holdsNumber reports whether the cited text holds the number n as
// written (in either locale).
func (r *citedRead) holdsNumber(n string) bool {
	for _, q := range quantity.Parse(n) {
		for _, h := range r.qs {
			if h.Value == q.Value || h.Alt != 0 && h.Alt == q.Value || q.Alt != 0 && (h.Value == q.Alt || h.Alt == q.Alt) {
				return true
			}
		}
	}
	return false
}

// readCited returns the figures and clauses of hay, the cited text of
// event seq (0: a text of no event, read every time). The clauses are read
// on the event's own lines (folded line by line: folding joins lines), so
// a table's header and a YAML key's line stay apart from other lines.
func (d *scenarioData) readCited(seq int, hay string) *citedRead {
	if seq > 0 {
		if v, ok := d.citedReads.Load(seq); ok {
			return v.(*citedRead)
		}
	}
	qs := quantity.Parse(hay)
	lines := hay
	if seq > 0 {
		if raw, ok := d.citedLines(seq); ok {
			lines = raw
		}
	}
	r := &citedRead{qs: qs, lines: lines, lineQs: quantity.Parse(lines), text: hay}
	r.clauses = readClauses(lines, r.lineQs)
	if seq > 0 {
		d.citedReads.Store(seq, r)
	}
	return r
}

// citedLines is citedText with the events' lines kept: each line folded
// and lower-cased.
func (d *scenarioData) citedLines(seq int) (string, bool) {
	i := d.eventIndex(seq)
	if i < 0 {
		return "", false
	}
	e := d.sc.Events[i]
	idx := []int{i}
	if e.ToolResult != nil {
		if ci, ok := d.callIndex[e.ToolResult.CallID]; ok && ci != i {
			idx = append(idx, ci)
		}
	}
	if e.ToolCall != nil {
		if res, ok := d.results[e.ToolCall.ID]; ok {
			if j := d.eventIndex(res.Seq); j >= 0 && j != i {
				idx = append(idx, j)
			}
		}
	}
	var b strings.Builder
	for _, k := range idx {
		for _, line := range strings.Split(d.raw[k], "\n") {
			b.WriteString(strings.ToLower(foldText(line)))
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}

// relationOf judges the relation entry it gives its salient tokens against
// the cited event seq (see relation).
func (d *scenarioData) relationOf(it grounded, seq int, hay string) (relVerdict, string, []string) {
	low := it.low
	if low == "" {
		low = strings.ToLower(foldText(it.text))
	}
	sal := it.sal
	if sal == nil {
		sal = salientTokensLow(low)
	}
	qs := it.qs
	if qs == nil {
		qs = quantity.Parse(it.text)
	}
	toks := make([]relToken, 0, len(sal)+len(qs))
	for _, t := range sal {
		toks = append(toks, relToken{name: t})
	}
	for i := range qs {
		if qs[i].Unit != "" && quantity.Known(qs[i].Unit) {
			toks = append(toks, relToken{q: &qs[i]})
		}
	}
	if len(toks) < 2 {
		return relHolds, "", nil
	}
	r := d.readCited(seq, hay)
	var cqs []quantity.Quantity
	if len(low) == len(it.text) && textmatch.IsASCII(it.text) {
		cqs = qs // folding changed only the case: the offsets hold
	}
	return relation(low, toks, cqs, r.lines, r.lineQs, r.clauses)
}

// joinedIn reports whether tok joins two names that hay holds apart
// (host:/srv/data for "host" and "/srv/data").
func joinedIn(hay, tok string) bool {
	parts := joinedParts(tok)
	if parts == nil {
		return false
	}
	for _, p := range parts {
		if !containsLoose(hay, p) {
			return false
		}
	}
	return true
}

// wordListIn reports whether tok is a list of plain words written with
// slashes ("apply/scale/patch") whose every word hay holds: a list, not a
// path, when no part has a dot or a digit.
func wordListIn(hay, tok string) bool {
	parts := strings.Split(tok, "/")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 2 || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 || !containsLoose(hay, p) {
			return false
		}
	}
	return true
}

// wordList renders stems for a message: "agree", "agree and defau".
func wordList(ws []string) string {
	for i, w := range ws {
		ws[i] = strconv.Quote(w)
	}
	return strings.Join(ws, " and ")
}

func near(a, b float64) bool {
	if a == b {
		return true
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	m := a
	if b > m {
		m = b
	}
	return m > 0 && d <= 0.1*m
}

// words is the set of word stems of an event's text.
type words map[string]bool

func wordSet(hay string) words {
	ws := words{}
	for _, w := range wordRe.FindAllString(hay, -1) {
		ws[groundStem(w)] = true
	}
	return ws
}

// holds reports whether a word of the set has stem s (groundStem), or a
// stem that is a prefix of it of four letters or more ("prod" for
// "production").
func (ws words) holds(s string) bool {
	if ws[s] {
		return true
	}
	for n := 4; n < len(s); n++ {
		if ws[s[:n]] {
			return true
		}
	}
	return false
}

var stopWords = set(`this that these those with from into onto over under about after before than then them they their there
	here have has had having been being were will would should could must shall what when where which while whom whose
	also just only very more most much many some such each every other another same both either neither because since
	until unless does doing done make made makes your yours ours mine itself themselves it's isn't aren't wasn't
	para pero como esta este estos estas esto sobre entre desde hasta sino tambien cuando donde porque aunque
	todo toda todos todas otro otra otros otras mismo misma tiene tienen hace hacer sera seria habia hemos
	cual cuales solo sola solos solas nada algo demas despues antes contra mientras puede pueden debe deben
	cada aqui alli ahora luego segun durante`)

func set(ws string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(ws) {
		m[w] = true
	}
	return m
}

// containsLoose finds tok in hay with a boundary after it as for findToken,
// but any non-word character before it: a claim naming config/db.yml is
// supported by an event printing /srv/orders/config/db.yml.
func containsLoose(hay, tok string) bool {
	for off := 0; ; {
		i := strings.Index(hay[off:], tok)
		if i < 0 {
			return false
		}
		i += off
		if (i == 0 || !wordish(rune(hay[i-1]))) && boundaryAfter(hay, i+len(tok), tok) {
			return true
		}
		off = i + 1
	}
}

// citedText is the folded, lower-cased text of the event with seq, with
// its protocol partner: a tool result with its call, a call with its
// result. ok is false when no event of the history has that seq.
func (d *scenarioData) citedText(seq int) (string, bool) {
	if v, ok := d.cited.Load(seq); ok {
		s := v.(string)
		return s, s != "\x00"
	}
	s, ok := d.buildCitedText(seq)
	if !ok {
		d.cited.Store(seq, "\x00")
	} else {
		d.cited.Store(seq, s)
	}
	return s, ok
}

func (d *scenarioData) buildCitedText(seq int) (string, bool) {
	i := sort.Search(len(d.sc.Events), func(i int) bool { return d.sc.Events[i].Seq >= seq })
	if i >= len(d.sc.Events) || d.sc.Events[i].Seq != seq {
		return "", false
	}
	e := d.sc.Events[i]
	text := d.folded[i]
	partner := func(p scenarios.Event) {
		j := sort.Search(len(d.sc.Events), func(j int) bool { return d.sc.Events[j].Seq >= p.Seq })
		if j < len(d.sc.Events) && d.sc.Events[j].Seq == p.Seq && j != i {
			text += "\n" + d.folded[j]
		}
	}
	if e.ToolResult != nil {
		for _, c := range d.calls {
			if c.ToolCall.ID == e.ToolResult.CallID {
				partner(c)
				break
			}
		}
	}
	if e.ToolCall != nil {
		if res, ok := d.results[e.ToolCall.ID]; ok {
			partner(res)
		}
	}
	return text, true
}

// citedEvent returns the event with seq from the history.
func (d *scenarioData) citedEvent(seq int) (scenarios.Event, bool) {
	if i := d.eventIndex(seq); i >= 0 {
		return d.sc.Events[i], true
	}
	return scenarios.Event{}, false
}

// toolHolding returns the seq of the first covered tool output that
// supports it, 0 when none does.
func (d *scenarioData) toolHolding(it grounded, bound int) int {
	for _, e := range d.sc.Events {
		if e.Seq > bound {
			break
		}
		if e.Role != scenarios.RoleTool {
			continue
		}
		if hay, ok := d.citedText(e.Seq); ok {
			if _, sup := d.unsupported(it, e.Seq, hay); sup == supported {
				return e.Seq
			}
		}
	}
	return 0
}

// sessionWords returns the word set of the events at or before bound,
// remembered per bound.
func (d *scenarioData) sessionWords(bound int) words {
	if v, ok := d.sessions.Load(bound); ok {
		return v.(words)
	}
	ws := words{}
	for i, e := range d.sc.Events {
		if e.Seq > bound {
			break
		}
		for _, w := range wordRe.FindAllString(d.folded[i], -1) {
			ws[groundStem(w)] = true
		}
	}
	d.sessions.Store(bound, ws)
	return ws
}

// wordsOf returns the word set of a cited text, remembered per text.
func (d *scenarioData) wordsOf(hay string) words {
	if v, ok := d.wordSets.Load(hay); ok {
		return v.(words)
	}
	ws := wordSet(hay)
	d.wordSets.Store(hay, ws)
	return ws
}
