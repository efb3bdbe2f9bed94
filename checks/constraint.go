package checks

import (
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/scenarios"
)

// ConstraintCheck checks a `constraint` invariant: a rule a user gave (for
// example "read-only") survives compaction as a rule, of what it applies
// to, and the summary does not say the opposite.
//
// A pass is earned, never given. On a structured summary the typed record
// decides: a constraints[] entry that cites the rule's event (source_seq,
// or an event a match pattern matches), whose status is active (or not
// said), whose target (when the invariant names targets and the entry
// gives one) is one of them, and whose condition and expiry (when it gives
// them) are the rule's own, with words the rule's event holds; and its
// text restates the rule (internal/meaning reads Restates: a match of the
// patterns, the state the rule sets, or an action it forbids under a
// prohibition, with no modifier the rule's event does not carry). A record
// whose typed fields change the rule fails; one whose text the reader
// cannot read is uncertain. With no citing record, an entry with no
// source_seq that restates the rule passes by its statement; one citing
// another event fails; none fails, saying where else the rule is stated.
// On a text-only summary a pass needs a clause of text that restates the
// rule, bound to its target (a clause that states it of another name of
// the target's shape, prod-eu-2 for prod-eu-1, is uncertain). Then every
// other clause of every field the agent sees (but
// corrections[].supersedes) that touches the rule is read: one that
// contradicts it (cancels it, gives its subject the opposite state,
// permits or orders what it forbids, delegates it) fails the check; one
// the reader cannot read plainly (a plan to do what it forbids, a
// condition, an exception, a quantifier, an attribution, a time limit, a
// past frame, a concession, a question) makes it uncertain. Skip while
// source_seq is after the cut.
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
	st, r, ok := patternedInvariant(in, inv, inv.SourceSeq, inv.Match)
	if !ok {
		return []result.CheckResult{r}
	}
	sub := st.ruleSubjectOf(inv)
	if st.sum.TextOnly() {
		fs := st.readAcross(sub, inv.Match, [][]leaf{st.textLeaves()})
		return []result.CheckResult{ruleFromText(r, inv, append(fs, st.lineGaps(sub, fs)...))}
	}
	fs := st.readAcross(sub, inv.Match, st.current())
	return []result.CheckResult{st.ruleFromRecord(r, inv, sub, fs)}
}

// ruleFromText decides a text-only summary by its clauses.
func ruleFromText(r result.CheckResult, inv *scenarios.Constraint, fs []found) result.CheckResult {
	rule := fmt.Sprintf("the rule from #%d", inv.SourceSeq)
	if f, ok := strongest(fs); ok && f.r.Verdict >= meaning.Unclear {
		return readingOutcome(r, f, rule, inv.SourceSeq, anyOf(inv.Match))
	}
	for _, f := range fs {
		if f.r.Verdict == meaning.Restates {
			return decide(r, result.Pass, result.DecidedStatement,
				fmt.Sprintf("constraint restated at %s: %s (%s)", f.l.ptr, clipQ(f.r.Text), f.r.Why),
				result.Evidence{Pointer: f.l.ptr, Seq: inv.SourceSeq, Text: clip.String(f.r.Text, clipLen), Pattern: anyOf(inv.Match)})
		}
	}
	return decide(r, result.Fail, result.DecidedStatement,
		fmt.Sprintf("no clause of text restates %s (%s)", rule, anyOf(inv.Match)),
		result.Evidence{Pointer: "/text", Seq: inv.SourceSeq, Pattern: anyOf(inv.Match)})
}

// ruleFromRecord decides a structured summary: the record first, then
// what every other clause says.
func (st *state) ruleFromRecord(r result.CheckResult, inv *scenarios.Constraint, sub *meaning.Subject, fs []found) result.CheckResult {
	rule := fmt.Sprintf("the rule from #%d", inv.SourceSeq)
	rec := st.ruleRecord(inv, sub, fs)
	if bad, ok := st.recordBroken(inv, sub, rec); ok {
		return decide(r, result.Fail, result.DecidedTyped, bad.Note, bad)
	}
	own := func(f found) bool { return rec.holds(f.l.ptr) }
	fs = append(fs, st.recordGaps(sub, rec, fs)...)
	if f, ok := strongest(fs); ok && f.r.Verdict == meaning.Contradicts {
		return readingOutcome(r, f, rule, inv.SourceSeq, anyOf(inv.Match))
	}
	if f, ok := strongestWhere(fs, own); ok && f.r.Verdict == meaning.Unclear {
		return readingOutcome(r, f, rule, inv.SourceSeq, anyOf(inv.Match))
	}
	if !rec.kept() {
		return st.ruleMissing(r, inv, sub, rec, fs)
	}
	if f, ok := strongest(fs); ok && f.r.Verdict == meaning.Unclear {
		return readingOutcome(r, f, rule, inv.SourceSeq, anyOf(inv.Match))
	}
	if e := st.sum.Constraints[rec.idx]; len(inv.Target) > 0 && e.Target == "" && !namesAny(e.Text, inv.Target) {
		// "the Postgres primary is under a change freeze": kept, of what?
		return decide(r, result.Uncertain, result.DecidedJudge,
			fmt.Sprintf("%s keeps %s but names none of its targets %s, in text or in target", rec.ptr, rule, quoteAll(inv.Target)),
			result.Evidence{Pointer: rec.ptr, Seq: inv.SourceSeq, Text: clip.String(rec.text, clipLen), Pattern: anyOf(inv.Match)})
	}
	by, how := result.DecidedTyped, fmt.Sprintf("cites #%d", rec.seq)
	if rec.seq == 0 {
		by, how = result.DecidedStatement, "cites no event, restated"
	}
	return decide(r, result.Pass, by, fmt.Sprintf("constraint kept at %s (%s): %s", rec.ptr, how, clipQ(rec.text)),
		result.Evidence{Pointer: rec.ptr, Seq: inv.SourceSeq, Text: clip.String(rec.text, clipLen), Pattern: anyOf(inv.Match)})
}

// recordGaps returns the clauses of the citing entries' texts that name
// the rule in words the reader does not read, or ask a question
// (meaning.Text.Gaps), each unclear: a record's text is all about its
// rule.
func (st *state) recordGaps(sub *meaning.Subject, rec ruleRec, fs []found) []found {
	var ls []leaf
	for _, i := range rec.citing {
		ls = append(ls, st.leafAt(ptrf("constraints", i, "text")))
	}
	return st.gapsIn(ls, fs, func(t *meaning.Text, read []meaning.Reading) []meaning.Reading { return t.Gaps(sub, read) })
}

// lineGaps returns, for a text-only summary, the clauses around each
// restatement of the rule that name it in words the reader does not read,
// or ask a question (meaning.Text.LineGaps), each unclear: where a text
// states a rule is about it, as a record is.
func (st *state) lineGaps(sub *meaning.Subject, fs []found) []found {
	return st.gapsIn(st.textLeaves(), fs, func(t *meaning.Text, read []meaning.Reading) []meaning.Reading { return t.LineGaps(sub, read) })
}

// gapsIn runs gaps on each leaf of ls with what fs read there.
func (st *state) gapsIn(ls []leaf, fs []found, gaps func(*meaning.Text, []meaning.Reading) []meaning.Reading) []found {
	var out []found
	for _, l := range ls {
		var read []meaning.Reading
		for _, f := range fs {
			if f.l.ptr == l.ptr {
				read = append(read, f.r)
			}
		}
		for _, r := range gaps(st.mtext(l), read) {
			out = append(out, found{l, r})
		}
	}
	return out
}

// ruleRec is what the constraints[] entries hold of a rule.
type ruleRec struct {
	// ptr, text and seq are the entry that keeps it (restated in the
	// entry's text), "" when none does.
	ptr, text string
	seq, idx  int // idx: its index in constraints[]
	// citing are the entries that cite the rule's event.
	citing []int
	// miscited is an entry that restates the rule and cites an event
	// that does not state it (-1: none).
	miscited int
}

func (rc ruleRec) kept() bool { return rc.ptr != "" }

// holds reports whether a leaf pointer is the text of a citing entry.
func (rc ruleRec) holds(ptr string) bool {
	for _, i := range rc.citing {
		if ptr == ptrf("constraints", i, "text") {
			return true
		}
	}
	return false
}

// ruleRecord finds the entries that cite the rule's event and the one that
// keeps it: a citing entry first, then one with no source_seq; a
// restatement citing another event is miscited.
func (st *state) ruleRecord(inv *scenarios.Constraint, sub *meaning.Subject, fs []found) ruleRec {
	rec := ruleRec{miscited: -1}
	restated := map[string]bool{}
	for _, f := range fs {
		if f.r.Verdict == meaning.Restates {
			restated[f.l.ptr] = true
		}
	}
	if sub.NameRule() {
		// a rule about a name is kept by naming it, as a rule
		for i, e := range st.sum.Constraints {
			if matchesAny(inv.Match, foldText(e.Text)) {
				restated[ptrf("constraints", i, "text")] = true
			}
		}
	}
	uncited := -1
	for i, e := range st.sum.Constraints {
		ptr := ptrf("constraints", i, "text")
		cites := e.SourceSeq == inv.SourceSeq || e.SourceSeq != 0 && st.sd.eventMatches(e.SourceSeq, inv.Match)
		switch {
		case cites && restated[ptr]:
			rec.citing = append(rec.citing, i)
			if rec.ptr == "" {
				rec.ptr, rec.text, rec.seq, rec.idx = ptr, e.Text, e.SourceSeq, i
			}
		case cites && !st.sd.otherRule(inv, foldText(e.Text)):
			rec.citing = append(rec.citing, i) // the event's other rule is no record of this one
		case cites:
		case restated[ptr] && e.SourceSeq == 0 && uncited < 0:
			uncited = i
		case restated[ptr] && e.SourceSeq != 0 && rec.miscited < 0:
			rec.miscited = i
		}
	}
	if rec.ptr == "" && len(rec.citing) == 0 && uncited >= 0 {
		e := st.sum.Constraints[uncited]
		rec.ptr, rec.text, rec.idx = ptrf("constraints", uncited, "text"), e.Text, uncited
	}
	return rec
}

// recordBroken returns the typed field of a citing entry that changes the
// rule: a status other than active, a target that is none of the rule's,
// a condition or an expiry the rule's event does not state.
func (st *state) recordBroken(inv *scenarios.Constraint, sub *meaning.Subject, rec ruleRec) (result.Evidence, bool) {
	for _, i := range rec.citing {
		e := st.sum.Constraints[i]
		ev := func(field, value, note string) (result.Evidence, bool) {
			return result.Evidence{Pointer: ptrf("constraints", i, field), Seq: inv.SourceSeq, Text: clip.String(value, clipLen), Note: note}, true
		}
		switch {
		case e.Status != "" && e.Status != summary.ConstraintActive:
			return ev("status", e.Status, fmt.Sprintf("/constraints/%d lists the rule from #%d as %s", i, inv.SourceSeq, e.Status))
		case e.Target != "" && len(inv.Target) > 0 && !namesAny(e.Target, inv.Target):
			return ev("target", e.Target, fmt.Sprintf("/constraints/%d keeps the rule from #%d for %q, not for %s", i, inv.SourceSeq, e.Target, quoteAll(inv.Target)))
		case e.Condition != "" && !sub.Carries(meaning.Condition, e.Condition):
			return ev("condition", e.Condition, fmt.Sprintf("/constraints/%d gives the rule from #%d a condition it does not state: %q", i, inv.SourceSeq, e.Condition))
		case e.Expires != "" && !sub.Carries(meaning.Time, "until "+e.Expires):
			return ev("expires", e.Expires, fmt.Sprintf("/constraints/%d gives the rule from #%d an expiry it does not state: %q", i, inv.SourceSeq, e.Expires))
		}
	}
	return result.Evidence{}, false
}

// ruleMissing is the outcome when no entry keeps the rule: a citing entry
// whose words the reader cannot read is uncertain; a restatement citing
// another event fails; otherwise the rule is missing, and the message says
// where else it is stated.
func (st *state) ruleMissing(r result.CheckResult, inv *scenarios.Constraint, sub *meaning.Subject, rec ruleRec, fs []found) result.CheckResult {
	reported := map[string]bool{}
	for _, f := range fs {
		reported[f.l.ptr] = reported[f.l.ptr] || f.r.Reported
	}
	for _, i := range rec.citing {
		ptr := ptrf("constraints", i, "text")
		t := st.mtext(st.leafAt(ptr))
		if sub.NameRule() || reported[ptr] || t.Attributed(sub) || !t.HasClass(ruleWords...) {
			continue // another fact of the rule's event, someone else's words, or a rule about a name restated without it
		}
		note := fmt.Sprintf("%s cites #%d, where the rule comes from, and states it in words the reader cannot read plainly (%s): cannot tell whether it keeps it", ptr, inv.SourceSeq, anyOf(inv.Match))
		return decide(r, result.Uncertain, result.DecidedJudge, note,
			result.Evidence{Pointer: ptr, Seq: inv.SourceSeq, Text: clip.String(st.sum.Constraints[i].Text, clipLen), Pattern: anyOf(inv.Match), Note: note})
	}
	if i := rec.miscited; i >= 0 {
		e := st.sum.Constraints[i]
		note := fmt.Sprintf("cites #%d, which does not state the rule (from #%d)", e.SourceSeq, inv.SourceSeq)
		return decide(r, result.Fail, result.DecidedTyped, fmt.Sprintf("constraint kept at /constraints/%d/text, but it %s", i, note),
			result.Evidence{Pointer: ptrf("constraints", i, "source_seq"), Seq: e.SourceSeq, Text: clip.String(e.Text, clipLen), Pattern: anyOf(inv.Match), Note: note})
	}
	msg := fmt.Sprintf("no constraints entry keeps the rule from #%d (%s)", inv.SourceSeq, anyOf(inv.Match))
	ev := result.Evidence{Seq: inv.SourceSeq, Pattern: anyOf(inv.Match), Pointer: "/constraints"}
	for _, i := range rec.citing {
		if l := st.leafAt(ptrf("constraints", i, "text")); st.mtext(l).Attributed(sub) {
			fs = append([]found{{l: l, r: meaning.Reading{Reported: true, Text: l.text}}}, fs...)
			break
		}
	}
	for _, f := range fs {
		switch {
		case f.r.Verdict == meaning.Restates:
			ev.Note = fmt.Sprintf("stated only at %s (%s), not as a constraint", f.l.ptr, clipQ(f.r.Text))
		case f.r.Reported:
			ev.Note = fmt.Sprintf("only reported at %s (%s), not stated", f.l.ptr, clipQ(f.r.Text))
		default:
			continue
		}
		msg += "; " + ev.Note
		break
	}
	return decide(r, result.Fail, result.DecidedTyped, msg, ev)
}

// ruleWords are what makes an entry state a rule: a negation, a deontic
// word, a word that ends or keeps a rule, a noun that names one.
var ruleWords = []meaning.Class{meaning.Negation, meaning.Forbid, meaning.Permit, meaning.Oblige, meaning.Reluctance, meaning.Cancel, meaning.Holds, meaning.RuleNoun, meaning.Limit}

// leafAt returns the leaf with pointer ptr (a zero leaf when none).
func (st *state) leafAt(ptr string) leaf {
	for _, l := range st.leaves {
		if l.ptr == ptr {
			return l
		}
	}
	return leaf{ptr: ptr}
}

// readingOutcome is the outcome a clause decides: fail where it
// contradicts the invariant, uncertain where it cannot be read plainly.
func readingOutcome(r result.CheckResult, f found, what string, seq int, pattern string) result.CheckResult {
	ev := result.Evidence{Pointer: f.l.ptr, Seq: seq, Text: clip.String(f.l.text, clipLen), Pattern: pattern, Note: f.r.Why}
	if f.r.Verdict == meaning.Contradicts {
		return decide(r, result.Fail, result.DecidedStatement, fmt.Sprintf("%s contradicts %s: %s (%s)", f.l.ptr, what, clipQ(f.r.Text), f.r.Why), ev)
	}
	return decide(r, result.Uncertain, result.DecidedJudge, fmt.Sprintf("%s touches %s in words the reader cannot read plainly: %s (%s)", f.l.ptr, what, clipQ(f.r.Text), f.r.Why), ev)
}

// decide sets a result's status, what decided it, its message and its
// evidence.
func decide(r result.CheckResult, s result.Status, by, msg string, ev ...result.Evidence) result.CheckResult {
	r.Status, r.DecidedBy, r.Message, r.Evidence = s, by, msg, ev
	return r
}

// strongestWhere is strongest over the readings keep selects.
func strongestWhere(fs []found, keep func(found) bool) (found, bool) {
	var sel []found
	for _, f := range fs {
		if keep(f) {
			sel = append(sel, f)
		}
	}
	return strongest(sel)
}

// namesAny reports whether text names one of names as a whole word.
func namesAny(text string, names []string) bool {
	low := strings.ToLower(foldText(text))
	for _, n := range names {
		if findToken(low, strings.ToLower(foldText(n))) >= 0 {
			return true
		}
	}
	return false
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}
