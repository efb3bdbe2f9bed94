package checks

import (
	"fmt"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// RefutedHypothesisCheck checks a `refuted_hypothesis` invariant: once the
// event at refuted_by_seq refuted a hypothesis, the summary keeps that it
// was refuted, and never presents it as established or still open.
//
// A pass is earned. On a structured summary the typed record decides: the
// hypotheses[] entries about it (whose claim matches the patterns, or that
// cite hypothesis_seq or refuted_by_seq) all have status `refuted` and
// resolved_by equal to refuted_by_seq (`open`, `confirmed`, no status, or
// another resolved_by fail; the claim is the hypothesis as it was stated,
// and its status says what became of it). With no such entry, a clause
// that plainly restates the refutation (the hypothesis under a retraction
// or a negation: "the CDN does not add the latency", "ruled out at #31")
// passes by its statement; on a text-only summary that is the only way to
// pass. A summary that keeps the refutation nowhere fails: the agent would
// chase the idea again. Then every clause outside the hypotheses' claims
// (and corrections[].supersedes) that names it is read (internal/meaning):
// one that states it, calls it open, likely or confirmed fails; one that
// names it in words the reader cannot read plainly (two of its names with
// a word of cause in other words, a condition, a past or reported frame)
// is uncertain. When conclusion patterns are given, one of them must be
// stated plainly somewhere. Skip while refuted_by_seq is after the cut.
type RefutedHypothesisCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.RefutedHypothesis
}

// Check implements Check.
func (c RefutedHypothesisCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeRefutedHypothesis)
	}
	inv := c.Inv
	st, r, ok := patternedInvariant(in, inv, inv.RefutedBySeq, inv.Match, inv.Conclusion)
	if !ok {
		return []result.CheckResult{r}
	}
	what := fmt.Sprintf("the hypothesis refuted at #%d", inv.RefutedBySeq)
	sub := st.claimSubjectOf(inv)
	fields := [][]leaf{st.textLeaves()}
	if !st.sum.TextOnly() {
		fields = st.currentOutsideHypotheses()
	}
	fs := st.readAcross(sub, inv.Match, fields)
	listed, bad := st.hypothesisRecords(inv)
	switch {
	case bad != nil:
		return []result.CheckResult{decide(r, result.Fail, result.DecidedTyped, bad.Note, *bad)}
	case hasVerdict(fs, meaning.Contradicts):
		f, _ := strongest(fs)
		return []result.CheckResult{readingOutcome(r, f, what, inv.RefutedBySeq, anyOf(inv.Match))}
	}
	concl, missing := st.conclusion(inv)
	if missing {
		return []result.CheckResult{decide(r, result.Fail, result.DecidedStatement, concl.Note, concl)}
	}
	if f, ok := strongest(fs); ok && f.r.Verdict == meaning.Unclear {
		return []result.CheckResult{readingOutcome(r, f, what, inv.RefutedBySeq, anyOf(inv.Match))}
	}
	if listed > 0 {
		return []result.CheckResult{decide(r, result.Pass, result.DecidedTyped,
			fmt.Sprintf("hypothesis listed as refuted by #%d and nowhere as established", inv.RefutedBySeq),
			result.Evidence{Pointer: "/hypotheses", Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Match)})}
	}
	for _, f := range fs {
		if f.r.Verdict == meaning.Restates {
			return []result.CheckResult{decide(r, result.Pass, result.DecidedStatement,
				fmt.Sprintf("refutation kept at %s: %s (%s)", f.l.ptr, clipQ(f.r.Text), f.r.Why),
				result.Evidence{Pointer: f.l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(f.r.Text, clipLen), Pattern: anyOf(inv.Match)})}
		}
	}
	if concl.Pointer != "" {
		// the finding that refuted it, stated plainly, keeps the refutation
		return []result.CheckResult{decide(r, result.Pass, result.DecidedStatement,
			fmt.Sprintf("the conclusion of the refutation at #%d is kept at %s: %s", inv.RefutedBySeq, concl.Pointer, clipQ(concl.Text)), concl)}
	}
	by, where := result.DecidedTyped, "no hypotheses entry and no clause"
	if st.sum.TextOnly() {
		by, where = result.DecidedStatement, "no clause of text"
	}
	return []result.CheckResult{decide(r, result.Fail, by,
		fmt.Sprintf("%s keeps that %s was refuted (%s): the agent may chase it again", where, what, anyOf(inv.Match)),
		result.Evidence{Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Match)})}
}

// claimSubjectOf is a refuted hypothesis's subject, built once per
// scenario.
func (st *state) claimSubjectOf(inv *scenarios.RefutedHypothesis) *meaning.Subject {
	return st.subjectOf(inv, func() *meaning.Subject {
		return meaning.ClaimSubject(compiled(inv.Match), st.eventText(inv.HypothesisSeq), st.eventText(inv.RefutedBySeq))
	})
}

// hypothesisRecords counts the hypotheses[] entries about the invariant
// (the claim matches its patterns, or the entry cites hypothesis_seq or
// refuted_by_seq) and returns the evidence of the first whose status or
// resolved_by is not the refutation's.
func (st *state) hypothesisRecords(inv *scenarios.RefutedHypothesis) (int, *result.Evidence) {
	if st.sum.TextOnly() {
		return 0, nil
	}
	listed := 0
	claims := st.hypothesisClaims()
	for i, h := range st.sum.Hypotheses {
		matches := matchesAny(inv.Match, claims[i])
		if !matches && h.SourceSeq != inv.HypothesisSeq && h.ResolvedBy != inv.RefutedBySeq {
			continue
		}
		listed++
		ptr := fmt.Sprintf("/hypotheses/%d", i)
		switch {
		case h.Status != summary.HypothesisRefuted:
			status := h.Status
			if status == "" {
				status = "(none)"
			}
			return listed, &result.Evidence{Pointer: ptrf("hypotheses", i, "status"), Seq: inv.RefutedBySeq, Text: clip.String(h.Claim, clipLen), Pattern: anyOf(inv.Match),
				Note: fmt.Sprintf("hypothesis %s is %s after its refutation at #%d", ptr, status, inv.RefutedBySeq)}
		case h.ResolvedBy != inv.RefutedBySeq:
			return listed, &result.Evidence{Pointer: ptrf("hypotheses", i, "resolved_by"), Seq: inv.RefutedBySeq, Text: fmt.Sprint(h.ResolvedBy), Pattern: anyOf(inv.Match),
				Note: fmt.Sprintf("hypothesis %s has resolved_by %d; it was refuted at #%d", ptr, h.ResolvedBy, inv.RefutedBySeq)}
		}
	}
	return listed, nil
}

// conclusion returns where the refutation's conclusion is stated plainly
// (an empty pointer when the invariant gives no conclusion), or, with
// missing set, the evidence that it is stated nowhere.
func (st *state) conclusion(inv *scenarios.RefutedHypothesis) (ev result.Evidence, missing bool) {
	if len(inv.Conclusion) == 0 {
		return result.Evidence{}, false
	}
	segs := st.current()
	if st.sum.TextOnly() {
		segs = [][]leaf{st.textLeaves()}
	}
	sub := st.subjectOf(conclusionKey{inv}, func() *meaning.Subject {
		return &meaning.Subject{Kind: meaning.Fact, Patterns: compiled(inv.Conclusion), Source: sourceText(st.eventText(inv.RefutedBySeq))}
	})
	for _, f := range st.readAcross(sub, inv.Conclusion, segs) {
		if f.r.Verdict == meaning.Restates {
			return result.Evidence{Pointer: f.l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(f.r.Text, clipLen), Pattern: anyOf(inv.Conclusion), Note: "conclusion"}, false
		}
	}
	note := fmt.Sprintf("the conclusion of the refutation at #%d is missing (%s)", inv.RefutedBySeq, anyOf(inv.Conclusion))
	return result.Evidence{Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Conclusion), Note: note}, true
}

// conclusionKey keys the subject of a hypothesis's conclusion in the
// per-scenario cache, apart from the hypothesis's own.
type conclusionKey struct{ inv *scenarios.RefutedHypothesis }

func (conclusionKey) InvariantID() string  { return "" }
func (conclusionKey) Type() string         { return "" }
func (conclusionKey) Position() result.Pos { return result.Pos{} }

// hasVerdict reports whether a reading of rs says v.
func hasVerdict(rs []found, v meaning.Verdict) bool {
	for _, f := range rs {
		if f.r.Verdict == v {
			return true
		}
	}
	return false
}
