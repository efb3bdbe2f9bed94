package agents

import (
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// view is a context as the reference agent reads it: a list of units (the
// rules, the goal, each entry of the summary, each message of the events),
// each folded (internal/textmatch). A pattern matches within one unit, never
// across two, so the agent's choice does not depend on the order of the
// summary's keys or entries; and a match counts only when its clause
// does not contradict it (internal/meaning).
type view struct {
	units  []string // folded
	joined string   // units joined by "\n"
	starts []int    // offset of each unit in joined
	texts  []lazyText
	// data marks the units that are tool output: data, not instructions,
	// so what they say never contradicts a rule ("the wiki says you may
	// write to prod").
	data []bool
	// summary marks the units of the summary: the words a summarizer
	// wrote, in whatever language (read). rulesGoal is the scenario's
	// rules and goal, folded: the scenario's own language.
	summary   []bool
	rulesGoal string
	lower     string // joined, lower-cased, when it is ASCII (for textmatch.Need)
	ascii     bool
	// lowers are the units, lower-cased (mayTouch,
	// textmatch.MayMatchASCII); unitASCII marks those that are ASCII.
	lowers    []string
	unitASCII []bool
	// reads keeps what read said of each pattern (readOut by pattern).
	reads sync.Map
	// figs are the units with their figures respelled (figures.go);
	// noFigures marks such a view, which has none of its own.
	figs      figureView
	noFigures bool
}

// lazyText is a unit as the reader reads it, built on first use: most
// units are never read.
type lazyText struct {
	once sync.Once
	t    *meaning.Text
}

// reading is a context's view, built on the first probe (Context.ReadOnce).
type reading struct {
	once sync.Once
	v    *view
}

// viewOf returns the view of c: its shared reading when it has one.
func viewOf(c Context) *view {
	r := c.reading
	if r == nil {
		return newView(c)
	}
	r.once.Do(func() { r.v = newView(c) })
	return r.v
}

func newView(c Context) *view {
	var raw []string
	var data, summ []bool
	raw = append(raw, c.Rules, c.Goal)
	data, summ = append(data, false, false), append(summ, false, false)
	for _, u := range summaryUnits(c.Summary) {
		raw, data, summ = append(raw, u), append(data, false), append(summ, true)
	}
	for _, m := range transcript.EventMessages(c.Events) {
		raw, data, summ = append(raw, transcript.MessageText(m)), append(data, m.Role == "tool"), append(summ, false)
	}
	v := &view{rulesGoal: textmatch.Fold(c.Rules + "\n" + c.Goal)}
	var b strings.Builder
	for i, r := range raw {
		f := textmatch.Fold(r)
		if f == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		v.starts = append(v.starts, b.Len())
		v.units = append(v.units, f)
		v.data = append(v.data, data[i])
		v.summary = append(v.summary, summ[i])
		v.lowers = append(v.lowers, strings.ToLower(f))
		v.unitASCII = append(v.unitASCII, textmatch.IsASCII(f))
		b.WriteString(f)
	}
	v.joined = b.String()
	// each unit is read on its first question, safely for concurrent
	// use: a shared view is read by many probes at once
	v.texts = make([]lazyText, len(v.units))
	v.ascii = textmatch.IsASCII(v.joined)
	if v.ascii {
		v.lower = strings.ToLower(v.joined)
	}
	return v
}

// summaryUnits renders a summary document as one unit per entry, each
// entry's fields in a fixed order. A document that does not decode is one
// unit, as written. Extensions are never rendered.
func summaryUnits(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s summary.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return []string{string(summary.ForAgent(raw))}
	}
	var out []string
	add := func(parts ...string) { out = appendJoined(out, parts...) }
	paren := func(s string) string {
		if s == "" {
			return ""
		}
		return "(" + s + ")"
	}
	add(s.Goal)
	for _, c := range s.Constraints {
		add(c.Text)
	}
	out = append(out, typedStateUnits(&s, paren)...)
	for _, d := range s.Decisions {
		add(d.Text)
	}
	for _, c := range s.Verified {
		add(c.Claim)
	}
	for _, h := range s.Hypotheses {
		st := h.Status
		if h.ResolvedBy > 0 {
			st += fmt.Sprintf(" at #%d", h.ResolvedBy)
		}
		add(h.Claim, paren(st))
	}
	for _, p := range s.Pending {
		add(p.OpID+":", p.Description, paren(p.Status))
	}
	for _, a := range s.Artifacts {
		add(a.Path, a.Digest, paren(a.Status))
	}
	for _, c := range s.Corrections {
		sup := ""
		if c.Supersedes != "" {
			sup = "replaces " + c.Supersedes
		}
		add(c.Subject+":", c.Value, paren(sup))
	}
	for _, e := range s.Errors {
		add(e.Text, paren(e.Resolution))
	}
	for _, n := range s.NextSteps {
		add(n)
	}
	add(s.Text)
	return out
}

// appendJoined appends to out the parts that are not blank, joined by a
// space, as one unit; nothing when every part is blank.
func appendJoined(out []string, parts ...string) []string {
	var keep []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return out
	}
	return append(out, strings.Join(keep, " "))
}

// typedStateUnits renders contract 1.3's approvals and handoff as units:
// an approval's text with, in brackets, who gave it, what it covers, what
// it is tied to, until when and whether it still holds; the handoff's
// session, reason, approved artifacts and unresolved operations. The
// labels hold no function word of any language, so a summary in Spanish
// reads as Spanish, and an approval's unit holds no word of approval of
// its own, so a pattern such as `approv.{0,160}X` matches what the
// summary says, not a label.
func typedStateUnits(s *summary.Summary, paren func(string) string) []string {
	var out []string
	join := func(parts ...string) { out = appendJoined(out, parts...) }
	for _, a := range s.Approvals {
		st := a.Status
		if st == "" {
			st = summary.ApprovalValid
		}
		if a.InvalidatedBy > 0 {
			st += fmt.Sprintf(" since #%d", a.InvalidatedBy)
		}
		var meta []string
		for _, m := range []string{a.Approver, a.Scope, a.Resource} {
			if m != "" {
				meta = append(meta, m)
			}
		}
		if a.Expires != "" {
			meta = append(meta, "until "+a.Expires)
		}
		join(a.Text, paren(strings.Join(append(meta, st), "; ")))
	}
	if h := s.Handoff; h != nil {
		join("handoff: previous session", h.PreviousSession+";", h.Reason)
		if len(h.ApprovedArtifacts) > 0 {
			join("approved artifacts:", strings.Join(h.ApprovedArtifacts, ", "))
		}
		if len(h.Unresolved) > 0 {
			join("unresolved:", strings.Join(h.Unresolved, ", "))
		}
	}
	return out
}

// unitAt returns the unit holding offset i of joined.
func (v *view) unitAt(i int) int {
	return sort.Search(len(v.starts), func(k int) bool { return v.starts[k] > i }) - 1
}

// text returns the reader's view of unit u, read on first use.
func (v *view) text(u int) *meaning.Text {
	v.texts[u].once.Do(func() { v.texts[u].t = meaning.New(v.units[u]) })
	return v.texts[u].t
}

// negation is what keeps a match from counting: the reader's words for
// it ("negation \"not 50 rows/s\"", "cancellation \"no longer applies\"").
type negation struct{ why string }

// judge reads the match at loc of unit u as a fact of re's words
// (meaning.ReadFact): a clause that contradicts it ("read-only no longer
// applies", "200 rows/s, not 50 rows/s", "200 rows/s (replaces 50
// rows/s)") keeps it from counting.
func (v *view) judge(u int, loc []int, sub *meaning.Subject) (negation, bool) {
	if r, ok := v.text(u).FactAt(sub, loc[0], loc[1]); ok && r.Verdict == meaning.Contradicts {
		return negation{r.Why}, true
	}
	return negation{}, false
}

// find returns the first match of pattern that its clause does not
// contradict. When every match is contradicted, neg is what the first
// one's clause says.
func (v *view) find(pattern string) (match string, neg negation, ok bool) {
	re, err := textmatch.Compile(pattern)
	if err != nil {
		return "", negation{}, false
	}
	m, neg, ok := v.findRe(re)
	if ok || v.noFigures {
		return m, neg, ok
	}
	if f := v.figures(); f != nil {
		if m, fneg, ok := f.findRe(re); ok {
			return m, neg, true
		} else if neg.why == "" {
			neg = fneg
		}
	}
	return "", neg, false
}

// findRe is find with the pattern compiled, on v alone.
func (v *view) findRe(re *regexp.Regexp) (match string, neg negation, ok bool) {
	sub := meaning.FactSubject([]*regexp.Regexp{re}, "")
	judge := func(u int, loc []int) (string, bool) {
		if n, negated := v.judge(u, loc, sub); negated {
			if neg.why == "" {
				neg = n
			}
			return "", false
		}
		return v.units[u][loc[0]:loc[1]], true
	}
	if !v.mayMatch(re) {
		return "", neg, false
	}
	// Most patterns either match nowhere or first in a clause that affirms
	// them: the first match decides those without scanning the rest.
	first := re.FindStringIndex(v.joined)
	if first == nil {
		return "", neg, false
	}
	if u := v.unitAt(first[0]); u >= 0 && first[1] <= v.starts[u]+len(v.units[u]) {
		if m, ok := judge(u, []int{first[0] - v.starts[u], first[1] - v.starts[u]}); ok {
			return m, neg, true
		}
		neg = negation{} // the full scan below judges it again
	}
	rerun := map[int]bool{}
	for _, loc := range re.FindAllStringIndex(v.joined, -1) {
		u := v.unitAt(loc[0])
		if u < 0 {
			continue
		}
		end := v.starts[u] + len(v.units[u])
		if loc[1] <= end {
			if m, ok := judge(u, []int{loc[0] - v.starts[u], loc[1] - v.starts[u]}); ok {
				return m, neg, true
			}
			continue
		}
		// a match across units: look for matches inside each unit it touches
		for w := u; w < len(v.units) && v.starts[w] < loc[1]; w++ {
			rerun[w] = true
		}
	}
	for _, u := range sortedKeys(rerun) {
		for _, loc := range re.FindAllStringIndex(v.units[u], -1) {
			if m, ok := judge(u, loc); ok {
				return m, neg, true
			}
		}
	}
	return "", neg, false
}

// Outcomes of reading a requires pattern in a view.
const (
	// missing: no clause states it.
	missing = iota
	// found: a clause states it and none contradicts it.
	found
	// contradicted: a clause contradicts it (or every match is negated).
	contradicted
	// unsure: a clause touches it in words the reader cannot classify,
	// and none contradicts it.
	unsure
)

// readOut is what read says of one pattern in one view.
type readOut struct {
	match, why string
	outcome    int
}

// read reads a requires pattern in the view (internal/meaning), as the
// checks read an invariant: its subject is a rule when the pattern, or the
// sentence of the context it comes from, names one, else a fact of the
// pattern's words (meaning.PatternSubject); its source is the first unit
// of the rules, the goal or a user or assistant message where it matches
// (else the first of the summary), whose modifiers a clause may carry
// ("deploy only with my explicit go-ahead" of "never run deploy without my
// explicit go-ahead"). One clause that contradicts it, outside tool
// output, makes it contradicted ("the session is now writable" against
// read[- ]?only), wherever it is. Else it is found where a match's own
// clause restates it or is unclear, or where it has no reading and the
// match is not negated (tool output is read so: it is data, and may state
// a fact); and it is unsure when a clause that touches it is unclear. A
// pattern that matches nothing as written is looked for in the figures
// respelled (figures.go). A view reads each pattern once: the answer is
// kept for every later probe and arm that asks it (the view is shared by
// every probe of a context).
func (v *view) read(pattern string) (match string, why string, outcome int) {
	if r, ok := v.reads.Load(pattern); ok {
		o := r.(readOut)
		return o.match, o.why, o.outcome
	}
	o := v.readOnce(pattern)
	v.reads.Store(pattern, o)
	return o.match, o.why, o.outcome
}

func (v *view) readOnce(pattern string) readOut {
	re, err := textmatch.Compile(pattern)
	if err != nil {
		return readOut{why: "found nothing", outcome: missing}
	}
	// the units where the pattern matches: each unit is searched on its
	// own, and only when it holds a string every match needs
	// (textmatch.Need), never the whole context at once
	spans := map[int][][]int{}
	var order []int
	source := -1
	for u, text := range v.units {
		if v.unitASCII[u] && !textmatch.MayMatchASCII(re, v.lowers[u]) {
			continue
		}
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if loc[1] == loc[0] {
				continue
			}
			if len(spans[u]) == 0 {
				order = append(order, u)
				if !v.data[u] && (source < 0 || v.summary[source] && !v.summary[u]) {
					source = u
				}
			}
			spans[u] = append(spans[u], loc)
		}
	}
	if len(order) == 0 {
		return v.readElsewhere(pattern, re)
	}
	src := ""
	if source >= 0 {
		src = v.units[source]
	}
	res := []*regexp.Regexp{re}
	sub := meaning.PatternSubject(res, src)
	fact := sub
	if sub.Kind != meaning.Fact {
		fact = meaning.FactSubject(res, src)
	}
	triggers := sub.Triggers()
	readings := map[int][]meaning.Reading{}
	var unsureAt *meaning.Reading
	for u := range v.units {
		if v.data[u] || (len(spans[u]) == 0 && !mayTouch(triggers, v.lowers[u])) {
			continue
		}
		rs := v.readUnit(u, sub)
		readings[u] = rs
		for _, r := range rs {
			switch r.Verdict {
			case meaning.Contradicts:
				return readOut{why: fmt.Sprintf("is contradicted by %q (%s)", clip.String(r.Text, 120), r.Why), outcome: contradicted}
			case meaning.Unclear:
				if unsureAt == nil {
					r := r
					unsureAt = &r
				}
			}
		}
	}
	// the first match its own clause restates (or leaves unclear)
	m, neg, history := "", negation{}, ""
	for _, u := range order {
		for _, sp := range spans[u] {
			if sub.Kind != meaning.Fact {
				// a value named as the one replaced ("200 rows/s
				// (replaces 50 rows/s)") is not stated as current,
				// whatever the rule's reading says of its clause
				if why, old := v.text(u).ReplacedAt(sp[0], sp[1]); old {
					if neg.why == "" {
						neg = negation{why}
					}
					continue
				}
			}
			r, ok := readingAt(v.text(u), readings[u], sp[0])
			if ok && (r.Verdict == meaning.Restates || r.Verdict == meaning.Unclear) {
				m = v.units[u][sp[0]:sp[1]]
				break
			}
			if ok && r.Verdict == meaning.Silent {
				if history == "" {
					history = r.Text
				}
				continue
			}
			if ok && r.Verdict == meaning.Contradicts {
				continue
			}
			if n, negated := v.judge(u, sp, fact); negated {
				if neg.why == "" {
					neg = n
				}
				continue
			}
			m = v.units[u][sp[0]:sp[1]]
			break
		}
		if m != "" {
			break
		}
	}
	switch {
	case m == "" && neg.why != "":
		return readOut{why: fmt.Sprintf("matched only where the text negates it (%s)", neg.why), outcome: contradicted}
	case m == "" && history != "":
		return readOut{why: fmt.Sprintf("matched only as history or someone else's words (%q)", clip.String(history, 120)), outcome: missing}
	case m == "":
		return readOut{why: "matched only where the text says nothing of it", outcome: missing}
	case unsureAt != nil:
		return readOut{match: m, why: fmt.Sprintf("is touched by %q in words the reader cannot classify (%s)", clip.String(unsureAt.Text, 120), unsureAt.Why), outcome: unsure}
	}
	return readOut{match: m, outcome: found}
}

// readUnit reads unit u against sub (meaning.Text.ReadRequirement).
func (v *view) readUnit(u int, sub *meaning.Subject) []meaning.Reading {
	return v.text(u).ReadRequirement(sub)
}

// mayTouch reports whether lower holds one of the words that bind a
// clause to a subject (meaning.Subject.Triggers).
func mayTouch(triggers []string, lower string) bool {
	for _, w := range triggers {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// readElsewhere reads a pattern that matches no unit as written: a figure
// respelled (figures.go) is a match; else the requirement is looked for by
// concept (internal/meaning, concepts.tsv) in the clauses written in
// another language than the pattern ("nada de push" for `(do not|never)
// push`): one that contradicts it defeats it, one that restates it is a
// match, one the reader leaves unclear makes it unsure. When neither finds
// it and the summary is written, in part, in a language the pattern is not
// in, the agent cannot tell whether the summary says it in words no table
// holds: unsure, not missing.
func (v *view) readElsewhere(pattern string, re *regexp.Regexp) readOut {
	m, neg, ok := v.find(pattern)
	if ok {
		return readOut{match: m, outcome: found}
	}
	// by concept: whatever concept the pattern names, a state or an
	// action ("(failover|fail over).{0,80}approv")
	sub := meaning.RuleSubject([]*regexp.Regexp{re}, "", nil)
	if len(sub.States)+len(sub.Opposites)+len(sub.Actions) == 0 {
		sub = meaning.FactSubject([]*regexp.Regexp{re}, "")
	} else {
		sub.Lang = meaning.FactSubject([]*regexp.Regexp{re}, "").Lang
	}
	var langs []string
	if sub.Lang != "" {
		langs = []string{sub.Lang}
	} else if l := meaning.Language(v.rulesGoal); l != "" {
		// a pattern of names and figures ("csv\.go.{0,200}first") says
		// no language: it is written in the scenario's, which its rules
		// and goal are in
		langs = []string{l}
	}
	other := func(u int) string {
		l := meaning.Language(v.units[u])
		if l == "" || slices.Contains(langs, l) {
			return ""
		}
		return l
	}
	var kept, unsureAt *meaning.Reading
	keptLang := ""
	if sub.Kind != meaning.Fact {
		triggers := sub.Triggers()
		for u := range v.units {
			if v.data[u] || !mayTouch(triggers, v.lowers[u]) {
				continue
			}
			for _, r := range v.text(u).ReadRequirement(sub) {
				switch {
				case r.Verdict == meaning.Contradicts:
					return readOut{why: fmt.Sprintf("is contradicted by %q (%s)", clip.String(r.Text, 120), r.Why), outcome: contradicted}
				case r.Verdict == meaning.Unclear && unsureAt == nil:
					r := r
					unsureAt = &r
				case r.Verdict == meaning.Restates && kept == nil && len(langs) > 0:
					if l := other(u); l != "" {
						r := r
						kept, keptLang = &r, l
					}
				}
			}
		}
	}
	switch {
	case neg.why != "":
		return readOut{why: fmt.Sprintf("matched only where the text negates it (%s)", neg.why), outcome: contradicted}
	case unsureAt != nil:
		return readOut{match: unsureAt.Text, why: fmt.Sprintf("is touched by %q in words the reader cannot classify (%s)", clip.String(unsureAt.Text, 120), unsureAt.Why), outcome: unsure}
	case kept != nil:
		return readOut{match: fmt.Sprintf("%s (by concept, in %s: %s)", clip.String(kept.Text, 120), keptLang, kept.Why), outcome: found}
	}
	if len(langs) > 0 {
		words, tokens := patternWords(re)
		for u := range v.units {
			// a summary entry in another language that names what the
			// pattern is about (its version, path or id) and not all of
			// its words: it may say it in words no table holds
			if l := other(u); v.summary[u] && l != "" && !allIn(words, v.lowers[u]) && anyIn(tokens, v.lowers[u]) {
				concepts := "it names no concept the tables hold"
				if sub.Kind != meaning.Fact {
					concepts = "no clause names its concept"
				}
				return readOut{why: fmt.Sprintf("found nothing, but the summary is written in %s, which the pattern (%s) is not in, and %s: cannot tell", l, strings.Join(langs, ", "), concepts), outcome: unsure}
			}
		}
	}
	return readOut{why: "found nothing", outcome: missing}
}

// patternWords returns the words of a pattern's literal text (letters
// only, three or more, lower-cased), what a text in another language may
// say in other words ("128,?000 tokens" has "tokens"; "csv\.go.{0,200}first"
// has "csv", "first"), and its salient tokens, which no language changes:
// literal runs with a digit, '_', '.', '/' or '-' ("csv.go", "4.8.0",
// "wh_restore").
func patternWords(re *regexp.Regexp) (words, tokens []string) {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, nil
	}
	var b strings.Builder
	var walk func(t *syntax.Regexp)
	walk = func(t *syntax.Regexp) {
		if t.Op == syntax.OpLiteral {
			b.WriteString(string(t.Rune))
		}
		b.WriteByte(' ')
		for _, sub := range t.Sub {
			walk(sub)
		}
	}
	walk(tree)
	lits := strings.ToLower(b.String())
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(lits, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 3 && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for _, tk := range strings.Fields(lits) {
		tk = strings.Trim(tk, ".-/")
		if len(tk) >= 3 && strings.ContainsAny(tk, "0123456789_./-") && !seen[tk] {
			seen[tk] = true
			tokens = append(tokens, tk)
		}
	}
	return words, tokens
}

// anyIn reports whether one of tokens occurs in lower.
func anyIn(tokens []string, lower string) bool {
	for _, tk := range tokens {
		if strings.Contains(lower, tk) {
			return true
		}
	}
	return false
}

// allIn reports whether every word occurs in lower as a word.
func allIn(words []string, lower string) bool {
	for _, w := range words {
		i, found := 0, false
		for !found {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			a, b := i+j, i+j+len(w)
			found = (a == 0 || !isLetterByte(lower[a-1])) && (b == len(lower) || !isLetterByte(lower[b]))
			i = a + 1
		}
		if !found {
			return false
		}
	}
	return true
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 }

// readingAt returns the reading of the clause of x that holds offset at.
func readingAt(x *meaning.Text, rs []meaning.Reading, at int) (meaning.Reading, bool) {
	ci := x.ClauseAt(at)
	for _, r := range rs {
		if r.Clause == ci {
			return r, true
		}
	}
	return meaning.Reading{}, false
}

// mayMatch is false when re cannot match anywhere in the view: the text is
// ASCII and holds none of the strings one of which every match of re
// contains (textmatch.Need). The regexp would find nothing either; it
// would only take longer to say so.
func (v *view) mayMatch(re *regexp.Regexp) bool {
	return !v.ascii || textmatch.MayMatchASCII(re, v.lower)
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
