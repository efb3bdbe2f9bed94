package checks

import (
	"fmt"
	"strconv"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// NextStepCheck checks a `next_step` invariant: from source_seq the next
// allowed transition of a workflow is the step match recognises, and no
// later step (later) may be taken before it and its gate (gate: what the
// later steps wait for, an approval; none, the step itself).
//
// A pass is earned. On a structured summary the typed record decides:
// next_steps, read in order (contract 1.3): an entry states the allowed
// step as next, and an entry that names a later step holds it back or
// comes after an entry that names the gate ("terraform plan", "post the plan for CAB review", "after CAB
// approval, terraform apply"). An entry that presents a later step as
// next, allowed or done, leaves the gate out or takes it as passed, or
// skips the allowed step, fails; next_steps that never give the allowed
// step fail (the message says where else it is stated). On a text-only
// summary a clause must present the allowed step as next (an order,
// "next", "only", "must"). Then every clause of every field the agent sees
// is read (internal/meaning's ReadStep): one that presents a later step as
// next, allowed or done ("Next: terraform apply", "run the plan, then
// apply", "now that the CAB approved, apply"), or skips the allowed one
// ("skip the dry-run"), fails; one the reader cannot read plainly is
// uncertain. Skip while source_seq is after the cut.
type NextStepCheck struct {
	// Inv is the invariant to check; ForInvariant fills it. It must not
	// be nil.
	Inv *scenarios.NextStep
}

// foundStep is a clause of a leaf that names a step of a workflow.
type foundStep struct {
	l leaf
	r meaning.StepReading
}

// workflowKey keys a workflow's subjects in the per-scenario cache.
type workflowKey struct {
	inv  *scenarios.NextStep
	part int
}

func (workflowKey) InvariantID() string  { return "" }
func (workflowKey) Type() string         { return "" }
func (workflowKey) Position() result.Pos { return result.Pos{} }

// workflowOf is a next step's workflow: the allowed step (with the
// statement that gives it), the later steps and the gate.
func (st *state) workflowOf(inv *scenarios.NextStep) *meaning.Workflow {
	part := func(n int, patterns []string, src string) *meaning.Subject {
		if len(patterns) == 0 {
			return nil
		}
		return st.subjectOf(workflowKey{inv, n}, func() *meaning.Subject {
			return meaning.StateSubject(meaning.Step, compiled(patterns), src, nil)
		})
	}
	src := st.eventText(inv.SourceSeq)
	return &meaning.Workflow{Allowed: part(0, inv.Match, src), Later: part(1, inv.Later, ""), Gate: part(2, inv.Gate, "")}
}

// Check implements Check.
func (c NextStepCheck) Check(in *Input) []result.CheckResult {
	if c.Inv == nil {
		return nilInvariant(result.TypeNextStep)
	}
	inv := c.Inv
	st, r, ok := patternedInvariant(in, inv, inv.SourceSeq, inv.Match, inv.Later, inv.Gate)
	if !ok {
		return []result.CheckResult{r}
	}
	w := st.workflowOf(inv)
	if st.sum.TextOnly() {
		return []result.CheckResult{stepOutcome(r, inv, st.readSteps(w, st.textLeaves()), false)}
	}
	var fs []foundStep
	gated := false
	for i := range st.sum.NextSteps {
		l := st.leafAt("/next_steps/" + strconv.Itoa(i))
		rs, open := st.mtext(l).ReadStep(w, true, gated)
		gated = gated || open
		for _, rd := range rs {
			fs = append(fs, foundStep{l, rd})
		}
	}
	var others []leaf
	for _, l := range st.currentFlat() {
		if fieldOf(l.ptr) != "next_steps" {
			others = append(others, l)
		}
	}
	return []result.CheckResult{stepOutcome(r, inv, append(fs, st.readSteps(w, others)...), true)}
}

// readSteps reads leaves as prose, not as a list.
func (st *state) readSteps(w *meaning.Workflow, leaves []leaf) []foundStep {
	var out []foundStep
	for _, l := range leaves {
		rs, _ := st.mtext(l).ReadStep(w, false, false)
		for _, rd := range rs {
			out = append(out, foundStep{l, rd})
		}
	}
	return out
}

// stepOutcome decides a next step from its readings; typed says whether
// next_steps is the record that must give it.
func stepOutcome(r result.CheckResult, inv *scenarios.NextStep, fs []foundStep, typed bool) result.CheckResult {
	what := fmt.Sprintf("the next allowed step from #%d", inv.SourceSeq)
	pattern := anyOf(inv.Match)
	all := make([]found, len(fs))
	for i, f := range fs {
		all[i] = found{f.l, f.r.Reading}
	}
	inList := func(f found) bool { return fieldOf(f.l.ptr) == "next_steps" }
	if f, ok := strongestWhere(all, inList); ok && f.r.Verdict == meaning.Contradicts {
		return decide(r, result.Fail, result.DecidedTyped, fmt.Sprintf("%s skips ahead of %s: %s (%s)", f.l.ptr, what, clipQ(f.r.Text), f.r.Why),
			result.Evidence{Pointer: f.l.ptr, Seq: inv.SourceSeq, Text: clip.String(f.l.text, clipLen), Pattern: anyOf(inv.Later), Note: f.r.Why})
	}
	if f, ok := strongest(all); ok && f.r.Verdict == meaning.Contradicts {
		return readingOutcome(r, f, what, inv.SourceSeq, pattern)
	}
	first := -1
	for i, f := range fs {
		if (!typed || inList(all[i])) && !f.r.Later && f.r.Verdict == meaning.Restates {
			first = i
			break
		}
	}
	if first < 0 {
		return stepMissing(r, inv, fs, typed)
	}
	if f, ok := strongest(all); ok && f.r.Verdict == meaning.Unclear {
		return readingOutcome(r, f, what, inv.SourceSeq, pattern)
	}
	f := fs[first]
	by := result.DecidedStatement
	if typed {
		by = result.DecidedTyped
	}
	return decide(r, result.Pass, by, fmt.Sprintf("%s kept at %s: %s (%s)", what, f.l.ptr, clipQ(f.r.Text), f.r.Why),
		result.Evidence{Pointer: f.l.ptr, Seq: inv.SourceSeq, Text: clip.String(f.r.Text, clipLen), Pattern: pattern})
}

// stepMissing is the outcome when nothing gives the allowed step as next.
func stepMissing(r result.CheckResult, inv *scenarios.NextStep, fs []foundStep, typed bool) result.CheckResult {
	ptr, by := "/text", result.DecidedStatement
	msg := fmt.Sprintf("no clause of text gives the next allowed step from #%d (%s)", inv.SourceSeq, anyOf(inv.Match))
	if typed {
		ptr, by = "/next_steps", result.DecidedTyped
		msg = fmt.Sprintf("next_steps does not give the next allowed step from #%d (%s) first", inv.SourceSeq, anyOf(inv.Match))
	}
	ev := result.Evidence{Pointer: ptr, Seq: inv.SourceSeq, Pattern: anyOf(inv.Match)}
	for _, f := range fs {
		if !f.r.Later && f.r.Verdict == meaning.Restates && fieldOf(f.l.ptr) != "next_steps" {
			ev.Note = fmt.Sprintf("stated only at %s (%s), not in next_steps", f.l.ptr, clipQ(f.r.Text))
			msg += "; " + ev.Note
			break
		}
	}
	return decide(r, result.Fail, by, msg, ev)
}
