package selftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// The planted defects of the typed state of a workflow (docs/selftest.md):
// an approval dropped, its scope widened, carried past its end or to the
// resource that replaced it; the replaced goal stated as current or
// brought back; a later step presented as next, the allowed one skipped,
// the gate taken as passed; a handoff from another session, with an
// artifact no approval covers or an operation said to have finished; each
// fact moved where its field does not hold it, and its citation
// fabricated.

// stateLines are the sentences the typed state's variants add, by the
// language of the invariant's own event, so a Spanish scenario is
// attacked in Spanish.
var stateLines = map[string]map[string]string{
	"en": {
		"widened": "%s and every other region", "carried": "The approval from #%d carries over to %s.", "valid": "Approved and valid: %s.",
		"next": "Next: %s.", "passed": "Now that %s is done, %s.", "skip": "Skip the %s.", "resumed": "Back to the %s now.",
		"goal": "The goal is: %s.", "done": "%s completed successfully.",
	},
	"es": {
		"widened": "%s y todas las demás regiones", "carried": "La aprobación de #%d se traslada a %s.", "valid": "Aprobado y vigente: %s.",
		"next": "Siguiente: %s.", "passed": "Ahora que %s está hecho, %s.", "skip": "Saltar el %s.", "resumed": "Volvemos a la %s ahora.",
		"goal": "El objetivo es: %s.", "done": "%s terminó con éxito.",
	},
}

// line is the sentence key of stateLines in the language of event seq,
// with args.
func (p *planter) line(seq int, key string, args ...any) string {
	lang := "en"
	if i := p.ev.index(seq); i >= 0 && meaning.Language(p.ev.folded[i]) == "es" {
		lang = "es"
	}
	return fmt.Sprintf(stateLines[lang][key], args...)
}

// typedState plants the defects of an approval, a goal, a next step or a
// handoff.
func (p *planter) typedState(inv scenarios.Invariant) {
	switch v := scenarios.Pointer(inv).(type) {
	case *scenarios.Approval:
		p.approval(v)
	case *scenarios.Goal:
		p.goal(v)
	case *scenarios.NextStep:
		p.nextStep(v)
	case *scenarios.Handoff:
		p.handoff(v)
	}
}

// stateOf returns the state of the fact at i of d, copied so the variant
// can change it.
func stateOf(d *doc, i int) *stateFact {
	d.facts[i].state = d.facts[i].state.clone()
	return d.facts[i].state
}

// uncovered skips every class of a target whose event comes after the
// oracle's cut, and reports whether it did.
func (p *planter) uncovered(seq int, what string) bool {
	if p.covered(seq) {
		return false
	}
	p.skip("", "its %s (#%d) comes after the last cut #%d: no summary carries it", what, seq, p.d.cut)
	return true
}

func (p *planter) approval(a *scenarios.Approval) {
	if p.uncovered(a.SourceSeq, "approval") {
		return
	}
	idx := carriers(p.d, p.t.key(), fApproval)
	if len(idx) == 0 {
		p.skip("", "the oracle could not state the approval (see the satisfiability failure)")
		return
	}
	i, f := idx[0], p.d.facts[idx[0]]
	p.plant(Omit, "", without(p.d, idx), "the approval is left out")

	w := p.d.clone()
	st := stateOf(&w, i)
	st.scope = p.line(a.SourceSeq, "widened", st.scope)
	p.plant(Invert, "scope widened", w, "approvals: scope "+st.scope)

	if a.Stale(p.d.cut) {
		p.approvalEnded(a, i)
	} else {
		p.approvalHolds(a, i)
	}

	mt := without(p.d, idx)
	mt.text = append(mt.text, f.stateSentence())
	p.plant(MoveToText, "", mt, "text: "+f.stateSentence())
	me := without(p.d, idx)
	setExt(&me, "approvals", []string{f.text})
	p.plant(MoveToExtensions, "", me, "extensions.approvals: "+f.text)

	other := p.otherEvent(a.SourceSeq, userRoles, matchesAny(a.Match), a.SourceSeq)
	if other == 0 {
		p.skip(FabricateCitation, "no other user or system event is covered to cite")
		return
	}
	fc := p.d.clone()
	fc.facts[i].seq = other
	p.plant(FabricateCitation, "", fc, fmt.Sprintf("approvals cite #%d for the approval of #%d", other, a.SourceSeq))
}

// approvalEnded plants an approval that ended as if it held: its status
// valid again, carried over to what replaced its resource, stated as
// valid in text.
func (p *planter) approvalEnded(a *scenarios.Approval, i int) {
	v := p.d.clone()
	v.facts[i].status, v.facts[i].resolvedBy = "", 0
	p.plant(Invert, "carried past its end", v, fmt.Sprintf("approvals: the approval of #%d with no status, though #%d ended it", a.SourceSeq, a.InvalidatedBy))

	var kin []string
	if j := p.ev.index(a.InvalidatedBy); j >= 0 && a.Resource != "" {
		kin = meaning.Kin(a.Resource, p.ev.text[j])
	}
	if len(kin) == 0 {
		p.skip(Invert, "carried to the new resource: the event that ended it (#%d) names no other resource of its kind", a.InvalidatedBy)
	} else {
		c := p.d.clone()
		line := p.line(a.SourceSeq, "carried", a.SourceSeq, kin[0])
		c.text = append(c.text, line)
		p.plant(Invert, "carried to the new resource", c, "text: "+line)
	}
	name := a.Resource
	if len(a.Scope) > 0 {
		name = a.Scope[0]
	}
	if name == "" {
		p.skip(Invert, "stated as valid: the approval names no scope or resource to state it of")
		return
	}
	c := p.d.clone()
	line := p.line(a.SourceSeq, "valid", name)
	c.text = append(c.text, line)
	p.plant(Invert, "stated as valid", c, "text: "+line)
}

// approvalHolds plants an approval that holds as if it ended, and kept
// without what it is tied to.
func (p *planter) approvalHolds(a *scenarios.Approval, i int) {
	v := p.d.clone()
	v.facts[i].status = summary.ApprovalExpired
	p.plant(Invert, "marked ended", v, "approvals: status expired, though it still holds")
	if a.Resource == "" {
		p.skip(Invert, "resource dropped: the approval is tied to no resource")
		return
	}
	r := p.d.clone()
	stateOf(&r, i).resource = ""
	r.facts[i].text = strings.ReplaceAll(r.facts[i].text, a.Resource, "the build")
	p.plant(Invert, "resource dropped", r, "approvals: no resource, "+a.Resource+" left out")
}

func (p *planter) goal(g *scenarios.Goal) {
	if p.uncovered(g.SourceSeq, "redirect") {
		return
	}
	gidx := carriers(p.d, p.t.key(), fGoal)
	if len(gidx) == 0 {
		p.skip("", "the oracle could not state the goal (see the satisfiability failure)")
		return
	}
	now := p.d.facts[gidx[0]].text
	all := carriers(p.d, p.t.key(), fGoal, fCorrection)
	p.plant(Omit, "", without(p.d, all), "the goal is left out")

	if old, ok := oldGoal(p.ev, g); ok {
		v := p.d.clone()
		v.facts[gidx[0]].text = old
		p.plant(Invert, "old goal as current", v, "goal: "+old)
	} else {
		p.skip(Invert, "old goal as current: no event before the redirect (#%d) states the replaced goal", g.SourceSeq)
	}
	if m := firstMatchIn(p.ev, g.SourceSeq-1, g.Superseded); m != "" {
		v := p.d.clone()
		line := p.line(g.SourceSeq, "resumed", m)
		v.text = append(v.text, line)
		p.plant(Invert, "old goal resumed", v, "text: "+line)
	}

	mt := without(p.d, gidx)
	mt.text = append(mt.text, p.line(g.SourceSeq, "goal", now))
	p.plant(MoveToText, "", mt, "text: "+p.line(g.SourceSeq, "goal", now))
	ms := without(p.d, all)
	ms.facts = insertFact(ms.facts, fact{field: fCorrection, subject: "goal", value: fmt.Sprintf("redirected at #%d", g.SourceSeq), supersedes: now, seq: g.SourceSeq})
	p.plant(MoveToSupersedes, "", ms, "corrections[].supersedes: "+now)
	me := without(p.d, all)
	setExt(&me, "goal", now)
	p.plant(MoveToExtensions, "", me, "extensions.goal: "+now)
}

func (p *planter) nextStep(n *scenarios.NextStep) {
	if p.uncovered(n.SourceSeq, "workflow") {
		return
	}
	all := carriers(p.d, p.t.key(), fConstraint, fNext)
	steps := carriers(p.d, p.t.key(), fNext)
	if len(steps) == 0 {
		p.skip("", "the oracle could not state the next step (see the satisfiability failure)")
		return
	}
	step := p.d.facts[steps[0]].text
	p.plant(Omit, "", without(p.d, all), "the next step is left out")

	if later := firstMatchIn(p.ev, p.d.cut, n.Later); later == "" {
		p.skip(Invert, "no covered event names a later step to put first")
	} else {
		v := p.d.clone()
		v.facts = slices.Insert(v.facts, steps[0], fact{field: fNext, text: later})
		p.plant(Invert, "later step first", v, "next_steps[0]: "+later)
		t := p.d.clone()
		next := p.line(n.SourceSeq, "next", later)
		t.text = append(t.text, next)
		p.plant(Invert, "later step next in text", t, "text: "+next)
		if gate := firstMatchIn(p.ev, p.d.cut, n.Gate); gate != "" {
			g := p.d.clone()
			line := p.line(n.SourceSeq, "passed", gate, later)
			g.text = append(g.text, line)
			p.plant(Invert, "gate taken as passed", g, "text: "+line)
		}
	}
	if allowed := firstMatchIn(p.ev, p.d.cut, n.Match); allowed != "" {
		s := p.d.clone()
		line := p.line(n.SourceSeq, "skip", allowed)
		s.text = append(s.text, line)
		p.plant(Invert, "allowed step skipped", s, "text: "+line)
	}

	mt := without(p.d, steps)
	mt.text = append(mt.text, nextSentence(step))
	p.plant(MoveToText, "", mt, "text: "+nextSentence(step))
	me := without(p.d, steps)
	setExt(&me, "next_steps", []string{step})
	p.plant(MoveToExtensions, "", me, "extensions.next_steps: "+step)
}

func (p *planter) handoff(h *scenarios.Handoff) {
	if p.uncovered(h.SourceSeq, "restart") {
		return
	}
	idx := carriers(p.d, p.t.key(), fHandoff)
	if len(idx) == 0 {
		p.skip("", "the oracle could not state the handoff (see the satisfiability failure)")
		return
	}
	i, f := idx[0], p.d.facts[idx[0]]
	p.plant(Omit, "", without(p.d, idx), "the handoff is left out")

	s := p.d.clone()
	st := stateOf(&s, i)
	st.session = otherID(h.Session)
	p.plant(Invert, "another session", s, "handoff.previous_session: "+st.session)
	p.handoffLists(h, i)

	mt := without(p.d, idx)
	mt.text = append(mt.text, f.stateSentence())
	p.plant(MoveToText, "", mt, "text: "+f.stateSentence())
	me := without(p.d, idx)
	setExt(&me, "handoff", map[string]any{"previous_session": h.Session, "reason": f.text})
	p.plant(MoveToExtensions, "", me, "extensions.handoff: "+h.Session)

	other := p.otherEvent(h.SourceSeq, append(slices.Clone(userRoles), scenarios.RoleAssistant), matchesAny(h.Reason), h.SourceSeq)
	if other == 0 {
		p.skip(FabricateCitation, "no other event is covered to cite")
		return
	}
	fc := p.d.clone()
	fc.facts[i].seq = other
	p.plant(FabricateCitation, "", fc, fmt.Sprintf("handoff cites #%d for the restart at #%d", other, h.SourceSeq))
}

// handoffLists plants a handoff whose lists lie: an artifact no approval
// covers listed as approved, an unresolved operation said to have
// finished.
func (p *planter) handoffLists(h *scenarios.Handoff, i int) {
	var kin []string
	for _, a := range h.Artifacts {
		for j, e := range p.ev.list {
			if p.covered(e.Seq) {
				kin = append(kin, meaning.Kin(a, p.ev.text[j])...)
			}
		}
	}
	if len(kin) == 0 {
		p.skip(Invert, "unapproved artifact listed: the history names no other artifact of an approved one's kind")
	} else {
		v := p.d.clone()
		st := stateOf(&v, i)
		st.artifacts = append(st.artifacts, kin[0])
		p.plant(Invert, "unapproved artifact listed", v, "handoff.approved_artifacts: "+strings.Join(st.artifacts, ", "))
	}
	if len(h.Operations) == 0 {
		p.skip(Invert, "operation said done: the handoff has no unresolved operation")
		return
	}
	op := h.Operations[0]
	v := p.d.clone()
	st := stateOf(&v, i)
	st.unresolved = slices.DeleteFunc(st.unresolved, func(u string) bool { return u == op })
	line := p.line(h.SourceSeq, "done", op)
	v.text = append(v.text, line)
	p.plant(Invert, "operation said done", v, "handoff.unresolved without "+op+"; text: "+line)
}

// otherID is an id of the same shape that is not id: its last letter or
// digit shifted ("sess-7f3a" → "sess-7f3b").
func otherID(id string) string {
	b := []byte(id)
	for k := len(b) - 1; k >= 0; k-- {
		switch c := b[k]; {
		case c >= '0' && c <= '8', c >= 'a' && c <= 'y', c >= 'A' && c <= 'Y':
			b[k]++
			return string(b)
		case c == '9':
			b[k] = '0'
			return string(b)
		case c == 'z' || c == 'Z':
			b[k] -= 25
			return string(b)
		}
	}
	return id + "-2"
}
