package meaning

// The predicate stage for the next allowed step of a workflow. A clause
// that names a later step restates the workflow when it holds the step
// back (a negation, a prohibition, a need of approval) or puts it after
// its gate ("apply after CAB approval"), and goes against it when it
// presents the step as next, as allowed or as done, or leaves the gate
// out ("apply without CAB approval") or takes it as passed ("now that CAB
// approved"). A clause that names the allowed step restates it when it
// presents it as next (an order, "next", "only", "must"), goes against it
// when it leaves it out ("skip the dry-run"), and is unclear when it
// reports it done. In an ordered list (next_steps), an entry is an order
// by its place, and an entry that names the gate puts the entries after
// it behind the gate.

// Workflow is what ReadStep reads: the next allowed step, the steps that
// come only after it, and what they wait for (Gate; nil, the allowed step
// itself). Each is a subject of kind Step with its patterns; Allowed's
// Source is the statement that gives the workflow.
type Workflow struct {
	Allowed, Later, Gate *Subject
}

// StepReading is what a clause says of a workflow; Later is set when it
// is about a later step, not the allowed one.
type StepReading struct {
	Reading
	Later bool
}

// ReadStep reads every clause of t that names a step of w. list is set
// when t is an entry of an ordered list of steps, gated when an earlier
// entry of that list named the gate. open reports whether t names the
// gate as still to come, so that the entries after it are behind it.
func (t *Text) ReadStep(w *Workflow, list, gated bool) (rs []StepReading, open bool) {
	gate := w.Gate
	if gate == nil {
		gate = w.Allowed
	}
	for ci := range t.clauses {
		gs, why := t.gateState(ci, matchesOf(t.mentions(ci, gate)))
		switch {
		case gs == gateNone && t.approvalWaived(ci):
			gs, why = gateSkipped, "its approval waived" // "no sign-off needed", "sin aprobación"
		case gs == gateNone && t.approvalAhead(ci):
			gs = gateOpen // "after that sign-off", "tras esa aprobación": an approval still to come
		}
		open = open || gs == gateOpen
		var r StepReading
		var ok bool
		if later := matchesOf(t.mentions(ci, w.Later)); len(later) > 0 {
			r.Reading, r.Later, ok = t.laterStep(ci, later[0], gs, why, list, gated || gs == gateOpen), true, true
		} else if allowed := matchesOf(t.mentions(ci, w.Allowed)); len(allowed) > 0 {
			r.Reading, ok = t.allowedStep(ci, allowed[0], list)
		}
		if ok {
			t.modifyState(&r.Reading, ci, w.Allowed, append(t.withoutHits(ci), t.gateModifiers(ci, gate)...))
			rs = append(rs, r)
		}
	}
	return rs, open
}

// The states of a gate in a clause.
const (
	gateNone    = ""
	gateOpen    = "open"    // named as still to come
	gatePassed  = "passed"  // presented as passed: "now that CAB approved"
	gateSkipped = "skipped" // left out: "without CAB approval"
)

// laterStep reads the mention m of a later step in clause ci.
func (t *Text) laterStep(ci int, m Mention, gs, why string, list, gated bool) Reading {
	r := t.reading(ci)
	step := quote(t.words(m.T0, m.T1))
	d, governed := t.governing(ci, m.T0, m.T1, Permit, Next, Oblige)
	switch {
	case t.heldBack(ci, m):
		r.Verdict, r.Why = Restates, "a later step held back: "+step
	case gs == gateSkipped:
		r.Verdict, r.Why = Contradicts, "a later step without its gate: "+why
	case gs == gatePassed:
		r.Verdict, r.Why = Contradicts, "its gate presented as passed: "+why
	case t.reportedDone(ci, m):
		r.Verdict, r.Why = Contradicts, "a later step reported done: "+step
	case gated:
		r.Verdict, r.Why = Restates, "a later step after its gate: "+step
	case governed && !t.epistemic(ci, d):
		r.Verdict, r.Why = Contradicts, "a later step presented as "+stepCue[d.Class]+": "+quote(t.words(d.T0, d.T1))+" "+step
	case list || t.plan(ci, m.T0):
		r.Verdict, r.Why = Contradicts, "a later step presented as next: "+step
	default:
		r.Verdict, r.Why = Unclear, "names a later step "+step+" in words the reader does not know"
	}
	return r
}

var stepCue = map[Class]string{Permit: "allowed", Next: "next", Oblige: "required"}

// heldBack reports whether a later step is held back: negated, forbidden,
// a permission on it denied, or said to need an approval.
func (t *Text) heldBack(ci int, m Mention) bool {
	if _, negated := t.negationBefore(ci, m.T0); negated {
		return true
	}
	if d, ok := t.governing(ci, m.T0, m.T1, Forbid, Reluctance, Permit); ok {
		_, dNegated := t.negationBefore(ci, d.T0)
		if d.Class != Permit && !dNegated || d.Class == Permit && (dNegated || t.holdsNegation(d)) {
			return true
		}
	}
	c := t.clauses[ci]
	for _, h := range t.hitsOf(ci, Unapproved) {
		waived := waiverOpen[t.toks[h.T0].W] || h.T1 < c.T1 && waiverClose[t.toks[h.T1].W]
		if t.within(m, h, 4) && !waived {
			return true // "apply needs CAB approval"; not "no approval needed"
		}
	}
	return false
}

// allowedStep reads the mention m of the allowed step in clause ci; ok is
// false when the clause names it for another fact.
func (t *Text) allowedStep(ci int, m Mention, list bool) (Reading, bool) {
	r := t.reading(ci)
	step := quote(t.words(m.T0, m.T1))
	_, ordered := t.governing(ci, m.T0, m.T1, Next, Oblige, Permit, Restrict)
	switch {
	case t.skipped(ci, m):
		r.Verdict, r.Why = Contradicts, "the next step left out: "+step
	case t.reportedDone(ci, m):
		r.Verdict, r.Why = Unclear, "the next step reported done: "+step
	case list || ordered || t.plan(ci, m.T0):
		r.Verdict, r.Why = Restates, "stated as the next step: "+step
	default:
		return r, false
	}
	return r, true
}

// skipped reports whether a step is left out: negated, or governed by a
// word that skips it or cancels it, or by "without".
func (t *Text) skipped(ci int, m Mention) bool {
	if _, negated := t.negationBefore(ci, m.T0); negated {
		return true
	}
	if d, ok := t.governing(ci, m.T0, m.T1, Skip, Cancel); ok {
		_, dNegated := t.negationBefore(ci, d.T0)
		return !dNegated
	}
	return t.without(ci, m.T0)
}

// reportedDone reports whether a step is reported done: in a past form
// ("terraform apply was run", "applied the plan"), or with a word of
// completion nothing negates at most three words after it ("the dry-run
// completed").
func (t *Text) reportedDone(ci int, m Mention) bool {
	if t.doneForm(ci, m) {
		return true
	}
	for _, h := range t.hitsOf(ci, Done) {
		if _, negated := t.negationBefore(ci, h.T0); h.T0 >= m.T1 && t.within(m, h, 3) && !negated {
			return true
		}
	}
	return false
}

// gateModifiers are the conditions and time limits of clause ci that
// govern the gate ("only when the CAB approves", "hasta que el CAB
// apruebe"): the workflow's own condition, which the step's reading read,
// never a modifier of it.
func (t *Text) gateModifiers(ci int, gate *Subject) []Hit {
	var out []Hit
	for _, g := range matchesOf(t.mentions(ci, gate)) {
		for _, h := range t.hitsOf(ci, Condition, Time, Presupposition) {
			if h.T1 <= g.T0 && t.within(g, h, 4) || h.T0 >= g.T1 && t.within(g, h, 1) {
				out = append(out, h)
			}
		}
	}
	return out
}

// withoutHits are the words "without" and "sin" of clause ci, which the
// step's reading reads as leaving a step out, never as a condition.
func (t *Text) withoutHits(ci int) []Hit {
	var out []Hit
	c := t.clauses[ci]
	for k := c.T0; k < c.T1; k++ {
		if w := t.toks[k].W; w == "without" || w == "sin" {
			out = append(out, Hit{T0: k, T1: k + 1})
		}
	}
	return out
}

// without reports whether "without" or "sin" stands at most two words
// before token i of clause ci.
func (t *Text) without(ci, i int) bool {
	for k := i - 1; k >= t.clauses[ci].T0 && k >= i-3; k-- {
		if w := t.toks[k].W; w == "without" || w == "sin" {
			return true
		}
	}
	return false
}

// gateState is what clause ci says of the gate it names at gm: left out
// (negated, skipped, "without"), presented as passed (a word of
// completion or of approval after it that no condition governs, "the CAB
// already approved", or a presupposition before it, "now that the CAB
// approved"), or still to come.
func (t *Text) gateState(ci int, gm []Mention) (string, string) {
	for _, g := range gm {
		cue := quote(t.words(g.T0, g.T1))
		if t.skipped(ci, g) {
			return gateSkipped, "the gate " + cue + " left out"
		}
		for _, h := range t.hitsOf(ci, Done, Presupposition, Approve) {
			_, negated := t.negationBefore(ci, h.T0)
			after := h.T0 >= g.T1 && t.within(g, h, 3) && !negated
			passed := h.Class == Done && after ||
				h.Class == Approve && h.Sense == "verb" && after && !t.conditioned(ci, g) ||
				h.Class == Presupposition && h.T1-h.T0 > 1 && h.T1 <= g.T0 && t.within(g, h, 4)
			if passed {
				return gatePassed, cue + " " + quote(t.words(h.T0, h.T1))
			}
		}
	}
	if len(gm) > 0 {
		return gateOpen, ""
	}
	return gateNone, ""
}

// conditionWords before a gate make its passing a condition, not a fact:
// "until the CAB approves", "once the CAB approves", "hasta que el CAB
// apruebe".
var conditionWords = set(`until till once when whenever after if before unless hasta cuando tras si antes despues una_vez en_cuanto`)

// conditioned reports whether a word of condition stands at most three
// words before the gate at g.
func (t *Text) conditioned(ci int, g Mention) bool { return t.conditionedAt(ci, g.T0) }

func (t *Text) conditionedAt(ci, i int) bool {
	for k := i - 1; k >= t.clauses[ci].T0 && k >= i-4; k-- {
		if conditionWords[t.toks[k].W] {
			return true
		}
	}
	return false
}

// waivers open or close a phrase that waives an approval: "no sign-off
// needed", "without approval", "sin aprobación".
var (
	waiverOpen  = set(`no without sin`)
	waiverClose = set(`needed required necessary necesaria necesario hace`)
)

// approvalWaived reports whether clause ci waives an approval: a phrase
// of the unapproved class that opens with "no", "without" or "sin", or is
// followed by "needed", or a word that skips a word of approval ("skip
// the sign-off").
func (t *Text) approvalWaived(ci int) bool {
	c := t.clauses[ci]
	for _, h := range t.hitsOf(ci, Unapproved) {
		if waiverOpen[t.toks[h.T0].W] || h.T1 < c.T1 && waiverClose[t.toks[h.T1].W] {
			return true
		}
	}
	for _, h := range t.hitsOf(ci, Approve) {
		if d, ok := t.governing(ci, h.T0, h.T1, Skip); ok && d.T1 <= h.T0 {
			return true
		}
	}
	return false
}

// approvalAhead reports whether clause ci names an approval still to
// come, with no name of the gate: a word of approval under a word of
// condition ("after that approval", "después de ese visto bueno"). An
// approval is what a workflow's later steps most often wait for.
func (t *Text) approvalAhead(ci int) bool {
	for _, h := range t.hitsOf(ci, Approve) {
		if t.conditionedAt(ci, h.T0) {
			return true
		}
	}
	return false
}

// matchesOf returns the mentions that are matches of the patterns.
func matchesOf(ms []Mention) []Mention {
	var out []Mention
	for _, m := range ms {
		if m.What == MatchOf {
			out = append(out, m)
		}
	}
	return out
}
