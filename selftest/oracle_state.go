package selftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// The oracle's typed state of a workflow (contract 1.3): each approval
// with who gave it, its scope, its resource and expiry, and its status at
// the cut; the current goal, with the goal it replaced as a correction;
// the next allowed step first in next_steps, with the workflow's rule as
// a constraint; the handoff of a summary written for a new session.

// stateFact is what an approval or a handoff fact carries beyond a fact's
// own fields.
type stateFact struct {
	approver, scope, resource, expires string
	// session, artifacts and unresolved are the handoff's.
	session               string
	artifacts, unresolved []string
}

// clone copies s, so a variant can change it.
func (s *stateFact) clone() *stateFact {
	if s == nil {
		return &stateFact{}
	}
	c := *s
	c.artifacts, c.unresolved = slices.Clone(s.artifacts), slices.Clone(s.unresolved)
	return &c
}

// renderState adds an approval or a handoff fact to the structured form.
func (f fact) renderState(s *summary.Summary) {
	st := f.state
	if st == nil {
		st = &stateFact{}
	}
	switch f.field {
	case fApproval:
		s.Approvals = append(s.Approvals, summary.Approval{Text: f.text, SourceSeq: f.seq, Approver: st.approver, Scope: st.scope,
			Resource: st.resource, Expires: st.expires, Status: f.status, InvalidatedBy: f.resolvedBy})
	case fHandoff:
		s.Handoff = &summary.Handoff{PreviousSession: st.session, Reason: f.text, SourceSeq: f.seq,
			ApprovedArtifacts: slices.Clone(st.artifacts), Unresolved: slices.Clone(st.unresolved)}
	}
}

// stateSentence is how the text-only form states an approval or a
// handoff.
func (f fact) stateSentence() string {
	st := f.state
	if st == nil {
		st = &stateFact{}
	}
	if f.field == fHandoff {
		s := fmt.Sprintf("Handoff from session %s (#%d): %s.", st.session, f.seq, strings.TrimRight(f.text, ". "))
		if len(st.artifacts) > 0 {
			s += " Approved for use: " + strings.Join(st.artifacts, ", ") + "."
		}
		if len(st.unresolved) > 0 {
			s += " Unresolved, no result: " + strings.Join(st.unresolved, ", ") + "."
		}
		return s
	}
	var parts []string
	for _, p := range [][2]string{{"by ", st.approver}, {"for ", st.scope}, {"tied to ", st.resource}, {"until ", st.expires}} {
		if p[1] != "" {
			parts = append(parts, p[0]+p[1])
		}
	}
	what := strings.Join(parts, ", ")
	if f.status != "" && f.status != summary.ApprovalValid {
		s := fmt.Sprintf("The approval from #%d %s is %s since #%d: it no longer holds, a new approval is needed.", f.seq, what, f.status, f.resolvedBy)
		if st.scope == "" && st.resource == "" {
			// nothing else names what it approved
			s += " It covered " + oneClause(f.text) + "."
		}
		return s
	}
	return fmt.Sprintf("Approval (#%d), valid: %s. Approved %s.", f.seq, strings.TrimRight(f.text, ". "), what)
}

// nextSentence is how the text-only form states a step to take.
func nextSentence(step string) string {
	return "Next step: " + strings.TrimRight(step, ". ") + "."
}

// typedState adds the oracle's facts of every approval, goal, next step
// and handoff whose event the cut covers.
func (b *builder) typedState() {
	for _, inv := range b.sc.Invariants {
		switch v := scenarios.Pointer(inv).(type) {
		case *scenarios.Approval:
			b.approval(v)
		case *scenarios.Goal:
			b.goal(v)
		case *scenarios.NextStep:
			b.nextStep(v)
		case *scenarios.Handoff:
			b.handoff(v)
		}
	}
}

func (b *builder) approval(a *scenarios.Approval) {
	if !b.covered(a.SourceSeq) {
		return
	}
	t := targetOf(a)
	b.missed = ""
	text, ok := b.quote(a.SourceSeq, matchesAny(a.Match))
	if !ok {
		b.problemMissed(t, "no sentence of its event #%d matches %s: a summary that quotes the approval fails", a.SourceSeq, strings.Join(a.Match, " | "))
		return
	}
	f := fact{field: fApproval, text: text, seq: a.SourceSeq, about: []string{t.key()},
		state: &stateFact{approver: a.Approver, scope: strings.Join(a.Scope, ", "), resource: a.Resource, expires: a.Expires}}
	if a.Stale(b.cut) {
		f.status, f.resolvedBy = b.endedAs(a), a.InvalidatedBy
	}
	b.add(f)
}

// endedAs is the status of an approval that ended: stale when the event
// that ended it names another of its resource's kind, else expired.
func (b *builder) endedAs(a *scenarios.Approval) string {
	if i := b.ev.index(a.InvalidatedBy); i >= 0 && a.Resource != "" && len(meaning.Kin(a.Resource, b.ev.text[i])) > 0 {
		return summary.ApprovalStale
	}
	return summary.ApprovalExpired
}

func (b *builder) goal(g *scenarios.Goal) {
	if !b.covered(g.SourceSeq) {
		return
	}
	t := targetOf(g)
	b.missed = ""
	now, ok := b.quote(g.SourceSeq, matchesAny(g.Match))
	if !ok {
		b.problemMissed(t, "no sentence of its event #%d matches %s: a summary that states the goal in its words fails", g.SourceSeq, strings.Join(g.Match, " | "))
		return
	}
	b.add(fact{field: fGoal, text: now, about: []string{t.key()}})
	if old, ok := oldGoal(b.ev, g); ok {
		b.add(fact{field: fCorrection, subject: "goal", value: now, supersedes: b.redact(old), seq: g.SourceSeq, about: []string{t.key()}})
	}
}

// oldGoal quotes the goal a redirect replaced: the sentence of the first
// event before it that matches its superseded patterns.
func oldGoal(ev *events, g *scenarios.Goal) (string, bool) {
	pred := matchesAny(g.Superseded)
	for i, e := range ev.list {
		if e.Seq >= g.SourceSeq {
			break
		}
		if !e.Filler && pred(ev.folded[i]) {
			if q, ok := window(ev.text[i], pred); ok {
				return respell(q), true
			}
		}
	}
	return "", false
}

func (b *builder) nextStep(n *scenarios.NextStep) {
	if !b.covered(n.SourceSeq) {
		return
	}
	t := targetOf(n)
	b.missed = ""
	step, ok := b.quote(n.SourceSeq, matchesAny(n.Match))
	if !ok {
		b.problemMissed(t, "no sentence of its event #%d matches %s: a summary that quotes the next step fails", n.SourceSeq, strings.Join(n.Match, " | "))
		return
	}
	b.add(fact{field: fConstraint, text: step, seq: n.SourceSeq, about: []string{t.key()}})
	b.add(fact{field: fNext, text: step, about: []string{t.key()}})
}

func (b *builder) handoff(h *scenarios.Handoff) {
	if !b.covered(h.SourceSeq) {
		return
	}
	t := targetOf(h)
	b.missed = ""
	reason, ok := b.quote(h.SourceSeq, matchesAny(h.Reason))
	if !ok {
		b.problemMissed(t, "no sentence of its event #%d matches %s: a summary that quotes the reason for the restart fails", h.SourceSeq, strings.Join(h.Reason, " | "))
		return
	}
	b.add(fact{field: fHandoff, text: reason, seq: h.SourceSeq, about: []string{t.key()},
		state: &stateFact{session: h.Session, artifacts: slices.Clone(h.Artifacts), unresolved: slices.Clone(h.Operations)}})
}

// firstMatchIn returns the first text a pattern of patterns matches in the
// events up to cut (folded), "" when none: the words a variant uses to
// name a step.
func firstMatchIn(ev *events, cut int, patterns []string) string {
	for i, e := range ev.list {
		if e.Seq > cut {
			break
		}
		if _, m, ok := textmatch.FindAny(patterns, ev.folded[i]); ok {
			return m
		}
	}
	return ""
}
