package checks

import (
	"fmt"
	"regexp"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// RefutedHypothesisCheck checks a `refuted_hypothesis` invariant: once the
// event at refuted_by_seq refuted a hypothesis, the summary never presents
// it as established or still open.
//
// Rule, on a structured summary: (1) no verified[].claim and no
// decisions[].text asserts the hypothesis: a match of the invariant's match
// patterns counts unless it is negated, that is unless the matched text
// itself holds a negation ("the CDN does not add the latency") or the few
// words before it rule it out ("ruled out: the CDN adds latency"); a
// negation elsewhere in the field does not excuse it ("the CDN adds the
// latency, not the db" fails); (2) every
// hypotheses[] entry whose claim matches has status `refuted` and
// resolved_by equal to refuted_by_seq (`open`, `confirmed` or no status
// fail, as does a wrong or missing resolved_by); (3) when conclusion
// patterns are given, one of them matches some field of the summary. A
// summary that does not mention the hypothesis at all passes (1) and (2).
// On a text-only summary the status cannot be read: the check looks for the
// conclusion in text when one is given, and says skip otherwise. Skip while
// refuted_by_seq is after the cut.
type RefutedHypothesisCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.RefutedHypothesis
}

// Check implements Check.
func (c RefutedHypothesisCheck) Check(in *Input) []Result {
	if c.Inv == nil {
		return nilInvariant(scenarios.TypeRefutedHypothesis)
	}
	inv := c.Inv
	st, r, ok := invariant(in, inv, inv.RefutedBySeq)
	if !ok {
		return []Result{r}
	}
	if r, bad := badPattern(r, inv.Match, inv.Conclusion); bad {
		return []Result{r}
	}
	if st.sum.TextOnly() {
		if len(inv.Conclusion) == 0 {
			r.Status, r.Message = Skip, "text-only summary: the hypothesis status cannot be read and no conclusion is required"
			return []Result{r}
		}
		if l, p, m, ok := matchLeaves(st.textLeaves(), inv.Conclusion); ok {
			r.Status, r.Message = Pass, fmt.Sprintf("conclusion kept in text: %q", clip.String(m, clipLen))
			r.Evidence = []Evidence{{Pointer: l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(m, clipLen), Pattern: p}}
			return []Result{r}
		}
		r.Status, r.Message = Fail, fmt.Sprintf("the conclusion of the refutation at #%d is missing from text (%s)", inv.RefutedBySeq, anyOf(inv.Conclusion))
		r.Evidence = []Evidence{{Pointer: "/text", Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Conclusion)}}
		return []Result{r}
	}
	var msgs []string
	fail := func(e Evidence, msg string) {
		r.Evidence = append(r.Evidence, e)
		msgs = append(msgs, msg)
	}
	for _, l := range st.leaves {
		f := fieldOf(l.ptr)
		if f != "verified" && f != "decisions" {
			continue
		}
		if p, m, ok := assertedMatch(inv.Match, l.folded); ok {
			fail(Evidence{Pointer: l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(l.text, clipLen), Pattern: p},
				fmt.Sprintf("the hypothesis refuted at #%d is listed in %s at %s (%q)", inv.RefutedBySeq, f, l.ptr, clip.String(m, clipLen)))
		}
	}
	listed := 0
	claims := st.hypothesisClaims()
	for i, h := range st.sum.Hypotheses {
		p, _, ok := textmatch.FindAny(inv.Match, claims[i])
		if !ok {
			continue
		}
		listed++
		status := h.Status
		if status == "" {
			status = "(none)"
		}
		if h.Status != summarizers.HypothesisRefuted {
			fail(Evidence{Pointer: ptrf("hypotheses", i, "status"), Seq: inv.RefutedBySeq, Text: clip.String(h.Claim, clipLen), Pattern: p, Note: "status " + status},
				fmt.Sprintf("hypothesis %s is %s after its refutation at #%d", fmt.Sprintf("/hypotheses/%d", i), status, inv.RefutedBySeq))
			continue
		}
		if h.ResolvedBy != inv.RefutedBySeq {
			fail(Evidence{Pointer: ptrf("hypotheses", i, "resolved_by"), Seq: inv.RefutedBySeq, Text: fmt.Sprint(h.ResolvedBy), Pattern: p, Note: fmt.Sprintf("want %d", inv.RefutedBySeq)},
				fmt.Sprintf("hypothesis %s has resolved_by %d; it was refuted at #%d", fmt.Sprintf("/hypotheses/%d", i), h.ResolvedBy, inv.RefutedBySeq))
		}
	}
	var concl *Evidence
	if len(inv.Conclusion) > 0 {
		if l, p, m, ok := matchLeaves(st.leaves, inv.Conclusion); ok {
			concl = &Evidence{Pointer: l.ptr, Seq: inv.RefutedBySeq, Text: clip.String(m, clipLen), Pattern: p, Note: "conclusion"}
		} else {
			fail(Evidence{Seq: inv.RefutedBySeq, Pattern: anyOf(inv.Conclusion), Note: "conclusion missing"},
				fmt.Sprintf("the conclusion of the refutation at #%d is missing (%s)", inv.RefutedBySeq, anyOf(inv.Conclusion)))
		}
	}
	if len(msgs) > 0 {
		r.Status = Fail
		r.Message = msgs[0]
		if len(msgs) > 1 {
			r.Message += fmt.Sprintf(" (%s)", plural(len(msgs), "problem"))
		}
		return []Result{r}
	}
	r.Status = Pass
	switch {
	case listed > 0:
		r.Message = fmt.Sprintf("hypothesis listed as refuted by #%d and nowhere as established", inv.RefutedBySeq)
	default:
		r.Message = "hypothesis not presented as established or open"
	}
	if concl != nil {
		r.Evidence = append(r.Evidence, *concl)
		r.Message += fmt.Sprintf("; conclusion kept at %s", concl.Pointer)
	}
	return []Result{r}
}

var (
	negationIn     = regexp.MustCompile(`(?i)\b(not|no|never|isn't|wasn't|doesn't|didn't|aren't|cannot|can't|nor|no es|no fue|nunca|sin)\b`)
	negationBefore = regexp.MustCompile(`(?i)\b(not|no|never|ruled out|rule out|refuted|disproved|rejected|excluded|dismissed|instead of|rather than|descartad[oa]s?|descartamos|refutad[oa]s?|no es|no fue|en lugar de|en vez de)\b[^.;!?]{0,12}$`)
)

// assertedMatch returns the first match of patterns in folded text that is
// not negated (see RefutedHypothesisCheck).
func assertedMatch(patterns []string, folded string) (pattern, match string, ok bool) {
	for _, p := range patterns {
		re, err := textmatch.Compile(p)
		if err != nil {
			continue
		}
		for _, loc := range re.FindAllStringIndex(folded, -1) {
			m := folded[loc[0]:loc[1]]
			before := folded[max(0, loc[0]-40):loc[0]]
			if negationIn.MatchString(m) || negationBefore.MatchString(before) {
				continue
			}
			return p, m, true
		}
	}
	return "", "", false
}
