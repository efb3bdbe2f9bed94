package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/polarity"
	"github.com/compact-eval/compact-eval/scenarios"
)

// ConstraintCheck checks a `constraint` invariant: a rule a user gave (for
// example "read-only") survives compaction, and the summary does not say
// the opposite.
//
// Rule: one of the invariant's match patterns (RE2, case-insensitive, on
// whitespace- and accent-folded text) must match a constraints[].text (on a
// text-only summary, text) in a clause that affirms it. Every clause of
// every field the agent sees (but corrections[].supersedes) that touches
// the rule is read by class (internal/polarity, docs/polarity.md): its
// matches, the actions it forbids, the state it sets, and its entities
// given the opposite state. One clause that contradicts it fails the
// check, naming the pointer and the words, even when the rule is also
// stated: a cue ("read-only no longer applies", "ya no es de solo
// lectura"), a permission on what it forbids ("the assistant has
// clearance to push", "nada impide crear índices"), a change of state
// ("the freeze has expired", "queda suspendida"), an antonym given to its
// subject ("the session is now read-write", "prod-us-2 está
// desbloqueado"), in a relative or embedded clause or in brackets too. A
// negated action keeps the rule ("do not move protobuf off 3.25.x"), and a
// retraction word inside a new decision's own content is no retraction.
// A clause that touches the rule in words no table holds ("the freeze was
// softened") makes the check uncertain (never kept) when nothing
// contradicts and the rule is otherwise kept; so does a constraints entry
// no pattern finds that keeps the rule's concept, or that cites the
// rule's event and states a rule in other words (citedRestatement); a rule only in a frame of
// history or reported speech is not kept.
// The constraints entry that keeps the rule must cite an event that states
// it (source_seq, or an event where a match pattern matches); no citation
// is left to provenance. Fail gives the patterns that found nothing and,
// when the rule is stated elsewhere in a structured summary (text,
// decisions, …), where: a rule outside constraints is not kept as a rule.
// Skip while source_seq is after the cut.
type ConstraintCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.Constraint
}

// Check implements Check.
func (c ConstraintCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeConstraint)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.SourceSeq)
	if !ok {
		return []result.CheckResult{r}
	}
	if r, bad := badPattern(r, inv.Match); bad {
		return []result.CheckResult{r}
	}
	all := st.current()
	where, prefix := "constraints", "/constraints/"
	if st.sum.TextOnly() {
		all, where, prefix = [][]leaf{st.textLeaves()}, "text", "/text"
	}
	occ := st.occurrencesIn(all, inv.Match, contradicts)
	// Every clause of every field the agent sees that touches the rule
	// (its matches, the actions it forbids, the state it sets and its
	// opposite given to what it is about) is read by class.
	rs := st.readPatterns(all, st.ruleSubject(inv), inv.Match)
	if c, ok := firstReading(rs, polarity.Contradicts); ok {
		note := readingNote(c.r)
		r.Status = result.Fail
		r.Message = fmt.Sprintf("%s contradicts the rule from #%d: %s (%s)", c.l.ptr, inv.SourceSeq, clipQ(c.r.Clause), note)
		r.Evidence = []result.Evidence{{Pointer: c.l.ptr, Seq: inv.SourceSeq, Text: clip.String(c.l.text, clipLen), Pattern: anyOf(inv.Match), Note: note}}
		return []result.CheckResult{r}
	}
	var kept []occurrence
	for _, o := range occ {
		if !strings.HasPrefix(o.l.ptr, prefix) {
			continue
		}
		cr, ok := st.readingAt(rs, o.l, o.at)
		if (ok && (cr.Reading == polarity.Affirms || cr.Reading == polarity.CannotTell)) || (!ok && o.v.Kind == "") {
			kept = append(kept, o)
		}
	}
	sub := st.ruleSubject(inv)
	if len(kept) == 0 {
		// in a language the patterns are not in, the rule is found by
		// concept (internal/polarity, concepts.go)
		kept = st.keptByConcept(rs, prefix, sub)
	}
	if len(kept) == 0 {
		u, ok := st.otherLanguageEntry(all, prefix, sub, inv)
		if !ok {
			u, ok = sameLanguageConcept(rs, prefix, sub, inv)
		}
		if !ok {
			u, ok = st.citedRestatement(all, prefix, sub, inv)
		}
		if ok {
			r.Status = result.Uncertain
			r.Message = u.Note
			r.Evidence = []result.Evidence{u}
			return []result.CheckResult{r}
		}
		r.Status = result.Fail
		r.Message = fmt.Sprintf("no %s entry matches %s (rule from #%d)", where, anyOf(inv.Match), inv.SourceSeq)
		ev := result.Evidence{Seq: inv.SourceSeq, Pattern: anyOf(inv.Match), Pointer: "/" + where}
		if o, ok := firstAffirmed(occ); ok && where == "constraints" {
			ev.Note = fmt.Sprintf("stated only at %s (%q), not as a constraint", o.l.ptr, clip.String(o.match, clipLen))
			r.Message += "; " + ev.Note
		} else if o, ok := firstReported(occ); ok {
			ev.Note = fmt.Sprintf("only reported at %s (%q), not stated", o.l.ptr, clip.String(o.match, clipLen))
			r.Message += "; " + ev.Note
		}
		r.Evidence = []result.Evidence{ev}
		return []result.CheckResult{r}
	}
	// The entry that keeps the rule cites an event that states it.
	var miscited []result.Evidence
	for _, o := range kept {
		seq := st.entrySeq(o.l.ptr)
		if seq == 0 || seq == inv.SourceSeq || st.sd.eventMatches(seq, inv.Match) {
			if u, ok := firstReading(rs, polarity.CannotTell); ok {
				r.Status = result.Uncertain
				r.Message = uncertainMessage(u, fmt.Sprintf("the rule from #%d", inv.SourceSeq))
				r.Evidence = []result.Evidence{{Pointer: u.l.ptr, Seq: inv.SourceSeq, Text: clip.String(u.l.text, clipLen), Pattern: anyOf(inv.Match), Note: readingNote(u.r)}}
				return []result.CheckResult{r}
			}
			r.Status = result.Pass
			r.Message = fmt.Sprintf("constraint kept at %s: %q", o.l.ptr, clip.String(o.match, clipLen))
			if o.note != "" {
				r.Message += " (" + o.note + ")"
			}
			r.Evidence = []result.Evidence{{Pointer: o.l.ptr, Seq: inv.SourceSeq, Text: clip.String(o.l.text, clipLen), Pattern: o.pattern}}
			return []result.CheckResult{r}
		}
		miscited = append(miscited, result.Evidence{Pointer: seqPointer(o.l.ptr), Seq: seq, Text: clip.String(o.l.text, clipLen), Pattern: o.pattern,
			Note: fmt.Sprintf("cites #%d, which does not state the rule (from #%d)", seq, inv.SourceSeq)})
	}
	e := miscited[0]
	r.Status = result.Fail
	r.Message = fmt.Sprintf("constraint kept at %s, but it %s", strings.TrimSuffix(e.Pointer, "/source_seq"), e.Note)
	r.Evidence = miscited
	return []result.CheckResult{r}
}

// keptByConcept returns, as occurrences, the clauses of the entries under
// prefix that keep the rule by concept: read by class as affirming it
// (its state stated, an action it forbids under a prohibition or a
// negation), in a field written in a language the rule's patterns are
// not in. In the patterns' own language the patterns decide: a rule
// reworded there is found by them or not at all.
func (st *state) keptByConcept(rs []reading, prefix string, sub *polarity.Subject) []occurrence {
	langs := sub.Languages()
	if len(langs) == 0 {
		return nil
	}
	var out []occurrence
	for _, c := range rs {
		if c.r.Reading != polarity.Affirms || !strings.HasPrefix(c.l.ptr, prefix) {
			continue
		}
		lang := st.pol(c.l).Language()
		if lang == "" || slices.Contains(langs, lang) {
			continue
		}
		note := fmt.Sprintf("read by concept in %s, a language its patterns are not in", languageName(lang))
		if c.r.Cue != "" {
			note += fmt.Sprintf(": %s", readingNote(c.r))
		}
		out = append(out, occurrence{l: c.l, pattern: "concept " + strings.Join(sub.Concepts(), ", "), match: c.r.Clause, at: c.r.ClauseAt, note: note})
	}
	return out
}

// otherLanguageEntry reports an entry under prefix that neither a pattern
// nor a concept found, but that is written in a language the rule's
// patterns are not in and touches the rule's source: it cites source_seq,
// or shares a salient token (a path, an id, a name) with the event that
// states the rule. Such an entry may be a faithful restatement the reader
// cannot find: the check cannot tell, and says so.
func (st *state) otherLanguageEntry(all [][]leaf, prefix string, sub *polarity.Subject, inv *scenarios.Constraint) (result.Evidence, bool) {
	langs := sub.Languages()
	if len(langs) == 0 {
		return result.Evidence{}, false
	}
	var salient []string
	if text, ok := st.sd.citedText(inv.SourceSeq); ok {
		salient = salientTokens(text)
	}
	for _, s := range all {
		for _, l := range s {
			if !strings.HasPrefix(l.ptr, prefix) {
				continue
			}
			lang := st.pol(l).Language()
			if lang == "" || slices.Contains(langs, lang) {
				continue
			}
			how := ""
			if seq := st.entrySeq(l.ptr); seq == inv.SourceSeq && seq != 0 {
				how = fmt.Sprintf("cites #%d", seq)
			} else {
				low := strings.ToLower(l.folded)
				for _, tk := range salient {
					if findToken(low, tk) >= 0 {
						how = fmt.Sprintf("names %q from #%d", tk, inv.SourceSeq)
						break
					}
				}
			}
			if how == "" {
				continue
			}
			note := fmt.Sprintf("%s %s and is written in %s, which the rule's patterns (%s) are not in, and no concept of the rule (%s) was found in it: cannot tell whether it keeps the rule",
				l.ptr, how, languageName(lang), languageNames(langs), strings.Join(sub.Concepts(), ", "))
			return result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Pattern: anyOf(inv.Match), Note: note}, true
		}
	}
	return result.Evidence{}, false
}

// sameLanguageConcept reports an entry under prefix that no pattern
// matches but that the class reader finds keeping the rule by its concept
// in the patterns' own language: the state it sets in other words
// ("view-only" for `read[- ]?only`), or the actions it forbids,
// prohibited. It may be a faithful restatement, or a narrower or weaker
// rule said with the same words: the check cannot tell, and says so.
func sameLanguageConcept(rs []reading, prefix string, sub *polarity.Subject, inv *scenarios.Constraint) (result.Evidence, bool) {
	concepts := sub.Concepts()
	for _, c := range rs {
		if c.r.Reading != polarity.Affirms || !strings.HasPrefix(c.l.ptr, prefix) {
			continue
		}
		// the word the reading turns on must be one of the rule's
		// concepts: a rule about a name (a role, a host) restated without
		// the name keeps no concept of it
		if !sharesConcept(c.r, concepts) {
			continue
		}
		what := fmt.Sprintf("the rule's concept (%s)", strings.Join(concepts, ", "))
		note := fmt.Sprintf("%s keeps %s in other words than the rule's patterns (%s): %s; cannot tell whether it keeps the rule from #%d or a narrower one",
			c.l.ptr, what, anyOf(inv.Match), readingNote(c.r), inv.SourceSeq)
		return result.Evidence{Pointer: c.l.ptr, Seq: inv.SourceSeq, Text: clip.String(c.l.text, clipLen), Pattern: anyOf(inv.Match), Note: note}, true
	}
	return result.Evidence{}, false
}

// sharesConcept reports whether the word a reading turns on is one of
// the rule's concepts: the cue itself (the action a negation bears on),
// or, for a class phrase that names no action ("ban on", "refrain
// from"), an action the clause names after it.
func sharesConcept(r polarity.ClauseReading, concepts []string) bool {
	has := func(phrase string) bool {
		for _, k := range polarity.ConceptsOf(phrase) {
			if slices.Contains(concepts, k) {
				return true
			}
		}
		return false
	}
	if has(r.Cue) {
		return true
	}
	if r.Class != polarity.Deontic {
		return false
	}
	rest := r.Clause
	if i := strings.Index(strings.ToLower(rest), strings.ToLower(r.Cue)); i >= 0 {
		rest = rest[i+len(r.Cue):]
	}
	for _, w := range strings.FieldsFunc(rest, func(c rune) bool { return !unicode.IsLetter(c) }) {
		if has(w) {
			return true
		}
	}
	return false
}

// citedRestatement reports an entry under prefix that neither a pattern
// nor a concept found, but that cites the rule's source event and states a
// rule of its own: a word the reader takes for a rule cue (a negation, a
// prohibition, an obligation: "changes go to the audit notes, never to
// the repo") or a noun that names a rule ("a ban on commits"). Citing the
// event the rule comes from while stating a rule is what a restatement in
// other words looks like; it may also be another rule from the same event. The check cannot tell, and says so. An entry
// that cites the event and states no rule (another fact of it), or that
// another constraint of the scenario's patterns find (the event's other
// rule), leaves the rule missing.
func (st *state) citedRestatement(all [][]leaf, prefix string, sub *polarity.Subject, inv *scenarios.Constraint) (result.Evidence, bool) {
	if len(sub.Concepts()) == 0 {
		// a rule about a name (a role, a host): restated without the
		// name, it is another rule
		return result.Evidence{}, false
	}
	for _, s := range all {
		for _, l := range s {
			if !strings.HasPrefix(l.ptr, prefix) || st.entrySeq(l.ptr) != inv.SourceSeq || st.sd.otherRule(inv, l.folded) {
				continue
			}
			low := strings.ToLower(l.folded)
			at := 0
			for _, w := range strings.FieldsFunc(low, func(r rune) bool {
				return !unicode.IsLetter(r) && r != '\''
			}) {
				i := strings.Index(low[at:], w) + at
				at = i + len(w)
				what, ok := polarity.RuleCue(w)
				if !ok && polarity.IsRuleNoun(w) {
					what, ok = "a noun that names a rule", true
				}
				if !ok {
					continue
				}
				if _, reported := st.pol(l).Has(i, polarity.Report); reported {
					continue // someone else's words, not a rule the summary states
				}
				note := fmt.Sprintf("%s cites #%d, where the rule comes from, and states a rule (%q, %s) in words that neither the rule's patterns (%s) nor its concepts (%s) find: cannot tell whether it keeps the rule",
					l.ptr, inv.SourceSeq, w, what, anyOf(inv.Match), strings.Join(sub.Concepts(), ", "))
				return result.Evidence{Pointer: l.ptr, Seq: inv.SourceSeq, Text: clip.String(l.text, clipLen), Pattern: anyOf(inv.Match), Note: note}, true
			}
		}
	}
	return result.Evidence{}, false
}

// languageName names a language code of polarity.Language for a message.
func languageName(code string) string {
	switch code {
	case "en":
		return "English"
	case "es":
		return "Spanish"
	}
	return code
}

func languageNames(codes []string) string {
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = languageName(c)
	}
	return strings.Join(names, ", ")
}

// firstReported returns the first occurrence inside reported speech.
func firstReported(occ []occurrence) (occurrence, bool) {
	for _, o := range occ {
		if o.v.Reported {
			return o, true
		}
	}
	return occurrence{}, false
}

// entrySeq returns the source_seq of the entry a leaf pointer belongs to
// (/constraints/2/text → constraints[2].source_seq), 0 when it has none.
func (st *state) entrySeq(ptr string) int {
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if len(parts) < 2 {
		return 0
	}
	i, err := strconv.Atoi(parts[1])
	if err != nil || i < 0 {
		return 0
	}
	s := st.sum
	switch parts[0] {
	case "constraints":
		if i < len(s.Constraints) {
			return s.Constraints[i].SourceSeq
		}
	case "decisions":
		if i < len(s.Decisions) {
			return s.Decisions[i].SourceSeq
		}
	case "verified":
		if i < len(s.Verified) {
			return s.Verified[i].SourceSeq
		}
	case "pending":
		if i < len(s.Pending) {
			return s.Pending[i].SourceSeq
		}
	case "corrections":
		if i < len(s.Corrections) {
			return s.Corrections[i].SourceSeq
		}
	case "artifacts":
		if i < len(s.Artifacts) {
			return s.Artifacts[i].SourceSeq
		}
	case "errors":
		if i < len(s.Errors) {
			return s.Errors[i].SourceSeq
		}
	case "hypotheses":
		if i < len(s.Hypotheses) {
			return s.Hypotheses[i].SourceSeq
		}
	}
	return 0
}

// seqPointer turns a leaf pointer into its entry's source_seq pointer.
func seqPointer(ptr string) string {
	if i := strings.LastIndex(ptr, "/"); i > 0 {
		return ptr[:i] + "/source_seq"
	}
	return ptr
}
