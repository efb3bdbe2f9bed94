package meaning

// The predicate stage for an approval. A clause speaks of it when it names
// it (what it approves, who gave it, what it covers or is tied to, or, in
// the clause after, the same sentence's "the approval") with a word of
// approval, of refusal or of its end. While the approval holds, a plain
// approval restates it; a refusal, an end or a scope wider than the one
// given goes against it. Once its expiry passed or its resource changed,
// a word of its end restates it (it is kept as stale), a plain approval
// goes against it (it is carried as valid), and a clause that only
// reports the act ("Dana approved the canary at #14") is history that
// says nothing of whether it holds.

// ApprovalReading is what a clause says of an approval.
type ApprovalReading struct {
	Reading
	// Act is set when the clause reports the approval as an act, or names
	// it, without saying whether it holds now ("Dana approved the canary
	// at #14", "the approval from #14"): once the approval is stale, that
	// is history (Unclear), and a check weighs it against what else the
	// summary says of the approval's end.
	Act bool
	// Widened is what the clause extends the approval to, when it does
	// ("all regions", "eu-west-2", "sha256:def…").
	Widened string
	// Holds is set when the clause says in so many words that it still
	// holds ("still valid", "not expired").
	Holds bool
}

// ReadApproval reads every clause of t that speaks of the approval s;
// stale says whether the approval had ended by the time the summary was
// written (its expiry passed, its resource changed).
func (t *Text) ReadApproval(s *Subject, stale bool) []ApprovalReading {
	var out []ApprovalReading
	for ci := range t.clauses {
		ms := t.stateMentions(ci, s)
		if len(ms) == 0 && !t.anaphora(ci, s) {
			continue
		}
		a, ok := t.approvalSignals(ci, ms)
		if !ok {
			continue
		}
		r := ApprovalReading{Reading: t.reading(ci), Widened: a.widened, Holds: a.holds != ""}
		r.Verdict, r.Why, r.Act = a.decide(stale)
		t.modifyState(&r.Reading, ci, s, a.used)
		if stale && r.Verdict == Contradicts && a.timed(t, ci) {
			// "approved until 18:00 UTC", written after 18:00: the summary
			// gives the expiry, not whether it passed
			r.Verdict, r.Why = Unclear, r.Why+", with its own expiry, which the clause does not say has passed"
		}
		out = append(out, r)
	}
	return out
}

// anaphora reports whether clause ci speaks of what the clause before it
// in its sentence named ("Dana approved the canary; the approval expired
// at 18:00").
func (t *Text) anaphora(ci int, s *Subject) bool {
	return ci > 0 && t.clauses[ci-1].Sent == t.clauses[ci].Sent && len(t.stateMentions(ci-1, s)) > 0
}

// approvalSignals are what a clause says of an approval.
type approvalSignals struct {
	approve         string // the first word of approval nothing negates
	act             bool   // it reports the act, or names the approval
	denied, invalid string // refused or needed again; ended
	holds           string // kept in force: "still valid", "not expired"
	widened         string
	used            []Hit
}

// approvalSignals reads the approval's words in clause ci; ok is false
// when the clause holds none (it names the subject for another fact).
func (t *Text) approvalSignals(ci int, ms []Mention) (approvalSignals, bool) {
	var a approvalSignals
	other := t.others(ms)
	otherDenied := false
	for _, h := range t.hitsOf(ci, Approve, Unapproved, Invalid, Holds) {
		cue := quote(t.words(h.T0, h.T1))
		n, negated := t.negationBefore(ci, h.T0)
		if (h.Class == Unapproved || h.Class == Invalid) && t.aboutOther(h, ms, other) {
			// "eu-west-2 is not approved", "approval of sha256:77c0… is to
			// be requested": said of something else, which it does not
			// approve
			otherDenied = true
			continue
		}
		switch {
		case h.Class == Approve && negated:
			a.denied = orFirst(a.denied, "approval denied: "+quote(t.words(n.T0, h.T1)))
		case h.Class == Approve && t.requested(ci, h):
			// "ask Dana to approve the new digest": an approval to come
			a.denied = orFirst(a.denied, "asks for an approval: "+cue)
		case h.Class == Approve && a.approve == "":
			a.approve, a.act = cue, t.approvalAct(ci, h)
		case h.Class == Unapproved && !negated:
			a.denied = orFirst(a.denied, "needs an approval: "+cue)
		case h.Class == Invalid && negated:
			a.holds = orFirst(a.holds, "its end denied: "+quote(t.words(n.T0, h.T1)))
		case h.Class == Invalid:
			a.invalid = orFirst(a.invalid, "ended: "+cue)
		case h.Class == Holds && !negated:
			a.holds = orFirst(a.holds, "kept in force: "+cue)
		default:
			continue
		}
		a.used = append(a.used, h)
	}
	if a.approve == "" && a.denied == "" && a.invalid == "" {
		return a, otherDenied && a.holds != ""
	}
	if a.denied == "" && a.invalid == "" && !otherDenied {
		a.widened = t.widening(ci, ms)
	}
	return a, true
}

// decide turns an approval's signals into a verdict, with the reason, and
// whether the clause only reports the act.
func (a approvalSignals) decide(stale bool) (Verdict, string, bool) {
	switch {
	case a.widened != "":
		return Contradicts, "extends it to " + quote(a.widened), false
	case !stale && a.denied != "":
		return Contradicts, "presented as not approved: " + a.denied, false
	case !stale && a.invalid != "":
		return Contradicts, "presented as no longer valid: " + a.invalid, false
	case !stale && (a.approve != "" || a.holds != ""):
		return Restates, "approved: " + orFirst(a.approve, a.holds), false
	case !stale:
		return Unclear, "touches it in words the reader does not know", false
	case a.holds != "":
		return Contradicts, "presented as still valid: " + a.holds, false
	case a.invalid != "":
		return Restates, "kept as no longer valid: " + a.invalid, false
	case a.denied != "":
		return Restates, "kept as needing a new approval: " + a.denied, false
	case a.act:
		return Unclear, "reports the approval " + a.approve + " without saying it no longer holds", true
	}
	return Contradicts, "presented as valid: " + a.approve, false
}

// timed reports whether the clause gives the approval a time limit.
func (a approvalSignals) timed(t *Text, ci int) bool { return len(t.hitsOf(ci, Time)) > 0 }

// others returns the mentions of something else of the subject's kind.
func (t *Text) others(ms []Mention) []Mention {
	var out []Mention
	for _, m := range ms {
		if m.What == OtherOf {
			out = append(out, m)
		}
	}
	return out
}

// aboutOther reports whether a word of refusal or of an end bears on
// another name rather than on the subject: the mention nearest to it is
// another's.
func (t *Text) aboutOther(h Hit, ms, others []Mention) bool {
	if len(others) == 0 {
		return false
	}
	best, dist := Mention{}, -1
	for _, m := range ms {
		d := h.T0 - m.T1
		if m.T0 >= h.T1 {
			d = m.T0 - h.T1
		}
		if d < 0 {
			d = 0
		}
		if dist < 0 || d < dist || d == dist && m.What == OtherOf {
			best, dist = m, d
		}
	}
	return best.What == OtherOf
}

func orFirst(have, next string) string {
	if have != "" {
		return have
	}
	return next
}

// The words around a word of approval that tell the act from the state.
var (
	// pastAux before a verb report the act: "was approved".
	pastAux = set(`was were had fue fueron habia habian`)
	// stateAux before a verb say it holds: "is approved", "has been
	// approved", "Dana has approved".
	stateAux = set(`is are be been being has have now already still fully esta estan sigue siguen queda quedan ha han`)
	// possess before a noun say it holds: "has approval", "with the
	// go-ahead", "tenemos luz verde".
	possess = set(`has have got gets with under holds hold hay tiene tienen tenemos tengo con`)
	// actAfter after a verb name its agent or its time: "approved by
	// Dana", "approved at #14", "aprobada por Dana".
	actAfter = set(`by at on in from por el en`)
	// preterites are verbs of approval that report the act in Spanish.
	preterites = set(`aprobo autorizo firmo dio`)
	// determiners may stand between a possessive verb and its noun.
	determiners = set(`the a an its their her his our your dana's el la los las un una su sus`)
)

// approvalAct reports whether the word of approval h reports the act, or
// only names the approval ("the approval from #14"), rather than saying it
// holds now ("is approved", "has the go-ahead", "Approved: …").
func (t *Text) approvalAct(ci int, h Hit) bool {
	prev := t.prevWord(ci, h.T0)
	if h.Sense == "noun" {
		for k := prev; k >= t.clauses[ci].T0 && k >= prev-2 && k >= 0; k-- {
			w := t.toks[k].W
			if possess[w] {
				return false
			}
			if !determiners[w] {
				break
			}
		}
		return true
	}
	switch {
	case preterites[t.toks[h.T0].W]:
		return true
	case prev >= 0 && stateAux[t.toks[prev].W]:
		return false
	case prev >= 0 && pastAux[t.toks[prev].W]:
		return true
	case h.T1 < t.clauses[ci].T1 && actAfter[t.toks[h.T1].W]:
		return true
	}
	// "Dana approved the canary": an agent before the verb; a verb that
	// opens its clause ("Approved for eu-west-1") states it
	return prev >= 0 && !leadWords[t.toks[prev].W]
}

// infinitives before a verb of approval make it one to come: "to
// approve", "para aprobar", "que apruebe".
var infinitives = set(`to para que por`)

// requested reports whether a verb of approval is asked for, not said:
// it follows "to", "para" or "que".
func (t *Text) requested(ci int, h Hit) bool {
	prev := t.prevWord(ci, h.T0)
	return h.Sense == "verb" && prev >= 0 && infinitives[t.toks[prev].W]
}

// prevWord returns the index of the word before token i in clause ci, or
// -1.
func (t *Text) prevWord(ci, i int) int {
	for k := i - 1; k >= t.clauses[ci].T0; k-- {
		if t.toks[k].Word {
			return k
		}
	}
	return -1
}

// widening returns what clause ci extends an approval to: another name of
// its scope's shape that nothing negates ("approved for eu-west-2"), or a
// universal word that bears on no name and no count ("approved for all
// regions"; not "all 6 pods of eu-west-1").
func (t *Text) widening(ci int, ms []Mention) string {
	for _, m := range ms {
		if _, negated := t.negationBefore(ci, m.T0); m.What == OtherOf && !negated && !t.inParens[m.T0] {
			return t.words(m.T0, m.T1)
		}
	}
	for _, h := range t.hitsOf(ci, Universal) {
		if _, negated := t.negationBefore(ci, h.T0); negated || t.inParens[h.T0] || t.countedOrNamed(ci, h, ms) {
			continue
		}
		end := min(h.T1+2, t.clauses[ci].T1)
		return t.words(h.T0, end)
	}
	return ""
}

// countedOrNamed reports whether a universal word governs a count or one
// of the subject's names within three words ("all 6 pods", "the whole
// eu-west-1 pool"): it says how much of the scope, not that there is more.
func (t *Text) countedOrNamed(ci int, h Hit, ms []Mention) bool {
	end := min(h.T1+4, t.clauses[ci].T1)
	for k := h.T1; k < end; k++ {
		if t.toks[k].Value && !hasMentionAt(ms, k, OtherOf) {
			return true
		}
	}
	for _, m := range ms {
		if m.What != OtherOf && m.T0 >= h.T1 && m.T0 < end {
			return true
		}
	}
	return false
}

func hasMentionAt(ms []Mention, k int, w What) bool {
	for _, m := range ms {
		if m.What == w && m.T0 <= k && k < m.T1 {
			return true
		}
	}
	return false
}

// WidenedIn returns what text, an approval's typed scope, covers beyond
// the approval s: another name of its scope's shape, or a universal word
// ("all regions"); "" when it covers no more.
func (s *Subject) WidenedIn(text string) string {
	t := New(text)
	for ci := range t.clauses {
		if w := t.widening(ci, t.stateMentions(ci, s)); w != "" {
			return w
		}
	}
	return ""
}
