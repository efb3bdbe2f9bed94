package selftest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/quantity"
	leaks "github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// planted is a variant before it is rendered: the defective document and
// what it says.
type planted struct {
	target Target
	class  Class
	detail string
	d      doc
	said   string
}

// Skipped is a class that could not be planted for a target, and why (the
// oracle has no fact to break, or the class does not apply).
type Skipped struct {
	Target Target `json:"target"`
	Class  Class  `json:"class,omitempty"`
	Reason string `json:"reason"`
}

// planter derives the variants of one generation's oracle.
type planter struct {
	sc  *scenarios.Scenario
	ev  *events
	d   doc // the oracle
	out []planted
	// skipped lists what could not be planted.
	skipped []Skipped
	// blind lists the probes no summary can affect.
	blind []Problem
	t     Target
}

func (p *planter) skip(c Class, format string, args ...any) {
	p.skipped = append(p.skipped, Skipped{Target: p.t, Class: c, Reason: fmt.Sprintf(format, args...)})
}

func (p *planter) plant(c Class, detail string, d doc, said string) {
	if c == MoveToText && d.summary(Structured).TextOnly() {
		// With nothing else structured left, the variant is a text-only
		// summary, which may carry anything in text.
		p.skip(c, "the oracle has no other structured entry: the variant would be a text-only summary, which may state it in text")
		return
	}
	said = clip.String(strings.Join(strings.Fields(said), " "), 240)
	p.out = append(p.out, planted{target: p.t, class: c, detail: detail, d: d, said: said})
}

// carriers returns the indexes of the facts written for key, in field
// (when given).
func carriers(d doc, key string, fields ...string) []int {
	var out []int
	for i, f := range d.facts {
		if f.isAbout(key) && (len(fields) == 0 || slices.Contains(fields, f.field)) {
			out = append(out, i)
		}
	}
	return out
}

// without returns d without the facts at idx.
func without(d doc, idx []int) doc {
	c := d.clone()
	c.facts = nil
	for i, f := range d.facts {
		if !slices.Contains(idx, i) {
			c.facts = append(c.facts, f)
		}
	}
	return c
}

// setExt parks v under extensions[key].
func setExt(d *doc, key string, v any) {
	if d.ext == nil {
		d.ext = map[string]any{}
	}
	d.ext[key] = v
}

// covered reports whether seq is in the range the oracle covers.
func (p *planter) covered(seq int) bool { return seq > 0 && seq <= p.d.cut }

// otherEvent returns a covered event of one of roles, other than the events
// in not, in which pred (on folded text) does not hold: the event a
// fabricated citation points at. It is the nearest such event before
// around, else after it; 0 when there is none.
func (p *planter) otherEvent(around int, roles []scenarios.Role, pred func(string) bool, not ...int) int {
	best, dist := 0, 0
	for i, e := range p.ev.list {
		if !p.covered(e.Seq) || e.Filler || !slices.Contains(roles, e.Role) || slices.Contains(not, e.Seq) {
			continue
		}
		if pred != nil && pred(p.ev.folded[i]) {
			continue
		}
		dd := around - e.Seq
		if dd < 0 {
			dd = -dd*2 + 1 // prefer an earlier event at the same distance
		} else {
			dd *= 2
		}
		if best == 0 || dd < dist {
			best, dist = e.Seq, dd
		}
	}
	return best
}

var (
	userRoles  = []scenarios.Role{scenarios.RoleUser, scenarios.RoleSystem}
	claimRoles = []scenarios.Role{scenarios.RoleUser, scenarios.RoleTool}
)

// plantAll derives every variant of the oracle d: for each invariant and
// each probe of sc, one variant per class that applies (some classes give
// several, told apart by their detail). It also returns what could not be
// planted, and the probes no summary can affect.
func plantAll(sc *scenarios.Scenario, ev *events, d doc) ([]planted, []Skipped, []Problem) {
	p := &planter{sc: sc, ev: ev, d: d}
	var all []planted
	for _, inv := range sc.Invariants {
		p.t = targetOf(inv)
		p.out = nil
		switch v := scenarios.Pointer(inv).(type) {
		case *scenarios.Constraint:
			p.constraint(v)
		case *scenarios.RefutedHypothesis:
			p.hypothesis(v)
		case *scenarios.Artifact:
			p.artifact(v)
		case *scenarios.PendingOperation:
			p.pending(v)
		case *scenarios.Correction:
			p.correction(v)
		case *scenarios.Quantity:
			p.quantity(v)
		case *scenarios.Secret:
			p.secret(v)
		default:
			p.typedState(inv)
		}
		if ev := scenarios.EvidenceSeqs(inv); len(ev) > 0 {
			p.removeCitation(ev)
		}
		all = append(all, p.out...)
	}
	for _, pr := range sc.Probes {
		p.t = probeTarget(pr)
		p.out = nil
		p.probe(pr)
		all = append(all, p.out...)
	}
	return all, p.skipped, p.blind
}

// removeCitation plants the oracle with every citation of the
// invariant's replaced evidence events dropped (source_seq, resolved_by),
// every word kept.
func (p *planter) removeCitation(evidence []int) {
	var replaced []int
	for _, s := range evidence {
		if p.covered(s) {
			replaced = append(replaced, s)
		}
	}
	if len(replaced) == 0 {
		p.skip(RemoveCitation, "its evidence (#%s) is after the cut: nothing stored to cite", joinSeqs(evidence))
		return
	}
	d := p.d.clone()
	var dropped []string
	for i := range d.facts {
		f := &d.facts[i]
		if slices.Contains(replaced, f.seq) {
			dropped = append(dropped, fmt.Sprintf("%s source_seq %d", f.field, f.seq))
			f.seq = 0
		}
		if slices.Contains(replaced, f.resolvedBy) {
			dropped = append(dropped, fmt.Sprintf("%s resolved_by %d", f.field, f.resolvedBy))
			f.resolvedBy = 0
		}
	}
	if len(dropped) == 0 {
		p.skip(RemoveCitation, "the oracle cites none of its evidence (#%s)", joinSeqs(replaced))
		return
	}
	p.plant(RemoveCitation, "", d, fmt.Sprintf("the same words; no entry cites #%s (dropped: %s)", joinSeqs(replaced), strings.Join(dropped, ", ")))
}

// joinSeqs is "1, #4".
func joinSeqs(seqs []int) string {
	parts := make([]string, len(seqs))
	for i, s := range seqs {
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, ", #")
}

// describe renders one fact as a short "field: text" for reports.
func describe(f fact) string {
	switch f.field {
	case fConstraint, fDecision, fVerified:
		return fmt.Sprintf("%s: %q (#%d)", f.field, f.text, f.seq)
	case fHypothesis:
		st := f.status
		if st == "" {
			st = "no status"
		}
		return fmt.Sprintf("hypotheses: %q %s, resolved_by %d", f.text, st, f.resolvedBy)
	case fPending:
		return fmt.Sprintf("pending: %s %s (#%d)", f.opID, orNone(f.status), f.seq)
	case fArtifact:
		s := "artifacts: " + f.path
		if f.digest != "" {
			s += " " + f.digest
		}
		return s
	case fCorrection:
		return fmt.Sprintf("corrections: %s value %q supersedes %q (#%d)", f.subject, f.value, f.supersedes, f.seq)
	}
	return f.text
}

func orNone(s string) string {
	if s == "" {
		return "(no status)"
	}
	return s
}

// invertRule states a rule as lifted, with the rule's own words: the
// negation a checker that only looks for words would take for the rule.
func invertRule(text string) string {
	return fmt.Sprintf("The rule that %s no longer applies, it was lifted", oneClause(text))
}

// negateClaim states the opposite of a claim with its own words.
func negateClaim(text string) string {
	return fmt.Sprintf("It is not true that %s", oneClause(text))
}

func (p *planter) constraint(c *scenarios.Constraint) {
	if !p.covered(c.SourceSeq) {
		p.skip("", "its rule (#%d) comes after the last cut #%d: no summary carries it", c.SourceSeq, p.d.cut)
		return
	}
	idx := carriers(p.d, p.t.key(), fConstraint)
	if len(idx) == 0 {
		p.skip("", "the oracle could not state the rule (see the satisfiability failure)")
		return
	}
	var texts []string
	for _, i := range idx {
		texts = append(texts, p.d.facts[i].text)
	}
	p.plant(Omit, "", without(p.d, idx), "the rule is left out")

	inv := p.d.clone()
	for _, i := range idx {
		inv.facts[i].text = invertRule(inv.facts[i].text)
	}
	p.plant(Invert, "", inv, describe(inv.facts[idx[0]]))

	p.classVariants(c)

	mt := without(p.d, idx)
	mt.text = append(mt.text, texts...)
	p.plant(MoveToText, "", mt, "text: "+strings.Join(texts, " "))

	ms := without(p.d, idx)
	for _, t := range texts {
		ms.facts = insertFact(ms.facts, fact{field: fCorrection, subject: "rule", value: fmt.Sprintf("rule from #%d", c.SourceSeq), supersedes: t, seq: c.SourceSeq})
	}
	p.plant(MoveToSupersedes, "", ms, "corrections[].supersedes: "+strings.Join(texts, " "))

	me := without(p.d, idx)
	setExt(&me, "constraints", texts)
	p.plant(MoveToExtensions, "", me, "extensions.constraints: "+strings.Join(texts, " "))

	other := p.otherEvent(c.SourceSeq, userRoles, matchesAny(c.Match), c.SourceSeq)
	if other == 0 {
		p.skip(FabricateCitation, "no other user or system event is covered to cite")
		return
	}
	fc := p.d.clone()
	for _, i := range idx {
		fc.facts[i].seq = other
	}
	p.plant(FabricateCitation, "", fc, fmt.Sprintf("constraints cite #%d for the rule of #%d", other, c.SourceSeq))
}

// classVariants plants the rule kept as it is, and contradicted in one
// more sentence in the words of its concept (internal/meaning,
// concepts.tsv and variants.tsv): its subject given the opposite state
// ("antonym"), and a permission on what it forbids ("modal").
func (p *planter) classVariants(c *scenarios.Constraint) {
	var res []*regexp.Regexp
	for _, m := range c.Match {
		if re, err := textmatch.Compile(m); err == nil {
			res = append(res, re)
		}
	}
	var stmt string
	for _, e := range p.ev.list {
		if e.Seq == c.SourceSeq {
			stmt = textmatch.Fold(e.Text)
		}
	}
	sub := meaning.RuleSubject(res, stmt, c.Target)
	lang := sub.SourceLang()
	if line, ok := sub.OppositeLine(lang); ok {
		v := p.d.clone()
		v.text = append(v.text, line)
		p.plant(Invert, "antonym", v, "text: "+line)
	} else {
		p.skip(Invert, "antonym: the rule sets no state the concept table holds")
	}
	if line, ok := sub.PermissionLine(lang); ok {
		v := p.d.clone()
		v.text = append(v.text, line)
		p.plant(Invert, "modal", v, "text: "+line)
	} else {
		p.skip(Invert, "modal: the rule forbids no action the reader finds")
	}
}

func (p *planter) hypothesis(h *scenarios.RefutedHypothesis) {
	if !p.covered(h.RefutedBySeq) {
		p.skip("", "its refutation (#%d) comes after the last cut #%d", h.RefutedBySeq, p.d.cut)
		return
	}
	hidx := carriers(p.d, p.t.key(), fHypothesis)
	cidx := carriers(p.d, p.t.key(), fVerified, fDecision)
	// Every entry that states the conclusion, whichever target it was
	// quoted for: the check finds the conclusion anywhere, so leaving one
	// of them in place loses nothing.
	if len(h.Conclusion) > 0 {
		concl := matchesAny(h.Conclusion)
		for i, f := range p.d.facts {
			if (f.field == fVerified || f.field == fDecision) && !slices.Contains(cidx, i) && concl(textmatch.Fold(f.leafText())) {
				cidx = append(cidx, i)
			}
		}
		slices.Sort(cidx)
	}
	all := append(slices.Clone(hidx), cidx...)
	if len(all) == 0 {
		p.skip("", "the oracle could not state the hypothesis or its conclusion")
		return
	}
	p.plant(Omit, "", without(p.d, all), "the hypothesis and its refutation are left out")
	if len(hidx) == 0 {
		p.skip(Invert, "the oracle could not list the hypothesis")
	} else {
		claim := p.d.facts[hidx[0]].text
		st := p.d.clone()
		st.facts[hidx[0]].status = summary.HypothesisConfirmed
		p.plant(Invert, "status confirmed", st, describe(st.facts[hidx[0]]))

		op := p.d.clone()
		op.facts[hidx[0]].status, op.facts[hidx[0]].resolvedBy = summary.HypothesisOpen, 0
		p.plant(Invert, "status open", op, describe(op.facts[hidx[0]]))

		for _, field := range []string{fVerified, fDecision} {
			v := without(p.d, hidx)
			v.facts = insertFact(v.facts, fact{field: field, text: claim, seq: h.HypothesisSeq})
			p.plant(Invert, "asserted in "+field, v, fmt.Sprintf("%s: %q", field, claim))
		}
		tx := without(p.d, hidx)
		tx.text = append(tx.text, claim+".")
		p.plant(Invert, "asserted in text", tx, "text: "+claim)

		// kept as refuted, and restated as likely in words of the
		// epistemic class
		hedge := strings.TrimRight(claim, ". ") + ", which remains likely."
		if meaning.Language(textmatch.Fold(claim)) == "es" {
			hedge = strings.TrimRight(claim, ". ") + ", lo cual sigue siendo probable."
		}
		hg := p.d.clone()
		hg.text = append(hg.text, hedge)
		p.plant(Invert, "hedge", hg, "text: "+hedge)

		mt := p.d.clone()
		mt.facts[hidx[0]].status, mt.facts[hidx[0]].resolvedBy = "", 0
		mt.text = append(mt.text, fmt.Sprintf("The hypothesis was refuted by #%d.", h.RefutedBySeq))
		p.plant(MoveToText, "status only in text", mt, "hypotheses entry with no status; text: refuted by #"+fmt.Sprint(h.RefutedBySeq))

		ol := p.d.clone()
		ol.facts = insertFact(ol.facts, fact{field: fHypothesis, text: claim, seq: h.HypothesisSeq, status: summary.HypothesisOpen})
		p.plant(OverList, "listed refuted and open", ol, "hypotheses: the claim twice, refuted and open")

		other := p.otherEvent(h.RefutedBySeq, claimRoles, nil, h.RefutedBySeq, h.HypothesisSeq)
		if other == 0 {
			p.skip(FabricateCitation, "no other user or tool event is covered to cite")
		} else {
			fc := p.d.clone()
			fc.facts[hidx[0]].resolvedBy = other
			p.plant(FabricateCitation, "resolved_by", fc, fmt.Sprintf("hypotheses[].resolved_by %d, refuted at #%d", other, h.RefutedBySeq))
		}
	}
	if len(cidx) == 0 {
		for _, c := range []Class{MoveToSupersedes, MoveToExtensions} {
			p.skip(c, "no conclusion to move (no conclusion patterns, or the oracle could not state one)")
		}
		return
	}
	var concl []string
	for _, i := range cidx {
		concl = append(concl, p.d.facts[i].text)
	}
	ms := without(p.d, cidx)
	for _, t := range concl {
		ms.facts = insertFact(ms.facts, fact{field: fCorrection, subject: "cause", value: "see the refutation", supersedes: t, seq: h.RefutedBySeq})
	}
	p.plant(MoveToSupersedes, "conclusion", ms, "corrections[].supersedes: "+strings.Join(concl, " "))
	me := without(p.d, cidx)
	setExt(&me, "conclusion", concl)
	p.plant(MoveToExtensions, "conclusion", me, "extensions.conclusion: "+strings.Join(concl, " "))

	pred := matchesAny(h.Conclusion)
	if f := p.d.facts[cidx[0]]; f.field == fVerified {
		other := p.otherEvent(f.seq, claimRoles, pred, f.seq)
		if other != 0 {
			fc := p.d.clone()
			fc.facts[cidx[0]].seq = other
			p.plant(FabricateCitation, "conclusion", fc, fmt.Sprintf("verified conclusion cites #%d, stated at #%d", other, f.seq))
		}
	}
}

func (p *planter) artifact(a *scenarios.Artifact) {
	idx := carriers(p.d, p.t.key(), fArtifact)
	if len(idx) == 0 {
		p.skip("", "no required path is named by the events the last summary covers")
		return
	}
	p.plant(Omit, "", without(p.d, idx), "the required paths are left out")

	listed := map[string]bool{}
	for _, i := range idx {
		listed[p.d.facts[i].path] = true
	}
	var twins, lookalikes []string
	for _, path := range a.Paths {
		if listed[path] || slices.Contains(a.Required, path) {
			continue
		}
		if s := firstNamingIn(p.ev, path); s > 0 && s <= p.d.cut {
			twins = append(twins, path)
		} else {
			lookalikes = append(lookalikes, path)
		}
	}
	if len(twins) > 0 {
		// The twin the history names is marked live, the live path stale.
		inv := p.d.clone()
		f := &inv.facts[idx[0]]
		f.status = summary.ArtifactStale
		inv.facts = insertFact(inv.facts, fact{field: fArtifact, path: twins[0], status: summary.ArtifactCurrent, seq: firstNamingIn(p.ev, twins[0])})
		p.plant(Invert, "twin marked live", inv, fmt.Sprintf("artifacts: %s current, %s stale", twins[0], f.path))
	} else if len(lookalikes) > 0 {
		inv := p.d.clone()
		f := &inv.facts[idx[0]]
		old := f.path
		f.path = lookalikes[0]
		p.plant(Invert, "lookalike named", inv, fmt.Sprintf("artifacts: %s in place of %s", lookalikes[0], old))
	} else {
		p.skip(Invert, "the group has no other path to mark live")
	}
	var withDigest []int
	for _, i := range idx {
		if p.d.facts[i].digest != "" {
			withDigest = append(withDigest, i)
		}
	}
	if len(withDigest) >= 2 {
		sw := p.d.clone()
		i, j := withDigest[0], withDigest[1]
		sw.facts[i].digest, sw.facts[j].digest = sw.facts[j].digest, sw.facts[i].digest
		p.plant(Invert, "digests swapped", sw, fmt.Sprintf("artifacts: the digests of %s and %s swapped", sw.facts[i].path, sw.facts[j].path))
	}

	var paths []string
	var lines []string
	for _, i := range idx {
		f := p.d.facts[i]
		paths = append(paths, f.path)
		line := f.path
		if f.digest != "" {
			line += " " + f.digest
		}
		lines = append(lines, line)
	}
	mt := without(p.d, idx)
	mt.text = append(mt.text, "Files: "+strings.Join(lines, ", ")+".")
	p.plant(MoveToText, "", mt, "text: "+strings.Join(lines, ", "))
	me := without(p.d, idx)
	setExt(&me, "artifacts", lines)
	p.plant(MoveToExtensions, "", me, "extensions.artifacts: "+strings.Join(lines, ", "))

	if len(twins) == 0 {
		p.skip(OverList, "no other path of the group is named by the covered history")
	} else {
		ol := p.d.clone()
		for _, i := range idx {
			ol.facts[i].status = ""
		}
		for _, tw := range twins {
			ol.facts = insertFact(ol.facts, fact{field: fArtifact, path: tw, seq: firstNamingIn(p.ev, tw)})
		}
		p.plant(OverList, "", ol, "artifacts: "+strings.Join(append(paths, twins...), ", ")+", none marked live")
	}
}

// firstNamingIn is the seq of the first event naming path as a whole token.
func firstNamingIn(ev *events, path string) int {
	for i, t := range ev.text {
		if hasToken(t, path) {
			return ev.list[i].Seq
		}
	}
	return 0
}

func (p *planter) pending(op *scenarios.PendingOperation) {
	if !p.covered(op.CallSeq) {
		p.skip("", "its call (#%d) comes after the last cut #%d", op.CallSeq, p.d.cut)
		return
	}
	var idx []int
	for i, f := range p.d.facts {
		if f.field == fPending && f.opID == op.OpID {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		p.skip("", "the oracle does not list %s (its call has an ok result in the covered range?)", op.OpID)
		return
	}
	f := p.d.facts[idx[0]]
	p.plant(Omit, "", without(p.d, idx), "operation "+op.OpID+" is left out")

	done := p.d.clone()
	done.facts[idx[0]].status = summary.PendingDone
	p.plant(Invert, "marked done", done, describe(done.facts[idx[0]]))
	ok := without(p.d, idx)
	claim := fmt.Sprintf("%s completed successfully", op.OpID)
	ok.facts = insertFact(ok.facts, fact{field: fVerified, text: claim, seq: op.CallSeq})
	p.plant(Invert, "claimed to have succeeded", ok, "verified: "+claim)
	// kept as pending, and said to have gone through in a completion
	// synonym elsewhere
	syn := p.d.clone()
	went := fmt.Sprintf("%s went through.", op.OpID)
	syn.text = append(syn.text, went)
	p.plant(Invert, "completion synonym", syn, "text: "+went)

	line := fmt.Sprintf("Operation %s: %s.", op.OpID, f.text)
	mt := without(p.d, idx)
	mt.text = append(mt.text, line)
	p.plant(MoveToText, "", mt, "text: "+line)
	me := without(p.d, idx)
	setExt(&me, "pending", []map[string]string{{"op_id": op.OpID, "status": f.status, "description": f.text}})
	p.plant(MoveToExtensions, "", me, "extensions.pending: "+op.OpID)

	var finished []fact
	for _, e := range p.ev.list {
		if c := e.ToolCall; c != nil && p.covered(e.Seq) && !slices.ContainsFunc(p.d.facts, func(g fact) bool { return g.field == fPending && g.opID == c.ID }) {
			finished = append(finished, fact{field: fPending, opID: c.ID, text: c.Name + " call", status: summary.PendingUnknown, seq: e.Seq})
		}
	}
	if len(finished) == 0 {
		p.skip(OverList, "every call of the covered range is unresolved")
	} else {
		ol := p.d.clone()
		for _, g := range finished {
			ol.facts = insertFact(ol.facts, g)
		}
		p.plant(OverList, "every call unknown", ol, fmt.Sprintf("pending: every call listed as unknown (%d finished ones included)", len(finished)))
	}

	other := p.otherEvent(op.CallSeq, []scenarios.Role{scenarios.RoleAssistant}, func(folded string) bool {
		return strings.Contains(folded, op.OpID)
	}, op.CallSeq)
	if other == 0 {
		p.skip(FabricateCitation, "no other assistant event is covered to cite")
		return
	}
	fc := p.d.clone()
	fc.facts[idx[0]].seq = other
	p.plant(FabricateCitation, "", fc, fmt.Sprintf("pending %s cites #%d, called at #%d", op.OpID, other, op.CallSeq))
}

func (p *planter) correction(c *scenarios.Correction) {
	if !p.covered(c.SourceSeq) {
		p.skip("", "the correction (#%d) comes after the last cut #%d", c.SourceSeq, p.d.cut)
		return
	}
	idx := carriers(p.d, p.t.key(), fCorrection)
	if len(idx) == 0 {
		p.skip("", "the oracle could not state the correction")
		return
	}
	newF := newValueIn(c.New)
	var stating []int
	for i, f := range p.d.facts {
		if slices.Contains(idx, i) || newF(f.leafText()) {
			stating = append(stating, i)
		}
	}
	p.plant(Omit, "", without(p.d, stating), "the corrected value "+c.New+" is left out")

	rev := p.d.clone()
	rev.facts[idx[0]].value, rev.facts[idx[0]].supersedes = c.Old, c.New
	p.plant(Invert, "reversed", rev, describe(rev.facts[idx[0]]))

	// Moving the correction loses the new value only when no other entry
	// states it (a corrected path may also be listed as an artifact).
	var elsewhere []string
	for _, i := range stating {
		if !slices.Contains(idx, i) {
			elsewhere = append(elsewhere, describe(p.d.facts[i]))
		}
	}
	f := p.d.facts[idx[0]]
	if len(elsewhere) > 0 {
		for _, cl := range []Class{MoveToSupersedes, MoveToExtensions, MoveToText} {
			p.skip(cl, "the new value %s is also stated elsewhere (%s): moving the correction loses nothing", c.New, strings.Join(elsewhere, "; "))
		}
	} else {
		ms := p.d.clone()
		ms.facts[idx[0]].value, ms.facts[idx[0]].supersedes = "corrected", c.Old+", now "+c.New
		p.plant(MoveToSupersedes, "", ms, describe(ms.facts[idx[0]]))

		me := without(p.d, idx)
		setExt(&me, "corrections", []map[string]string{{"subject": f.subject, "value": f.value, "supersedes": f.supersedes}})
		p.plant(MoveToExtensions, "", me, fmt.Sprintf("extensions.corrections: %s %s", f.subject, c.New))

		// A correction stated in text as "now NEW instead of OLD" is
		// faithful (text carries facts, and the correction check reads
		// it): the defect is the correction moved to text in a form that
		// no longer says which value is current, both values named alike.
		line := fmt.Sprintf("The %s came up at #%d: %s, %s.", f.subject, c.SourceSeq, c.Old, c.New)
		mt := without(p.d, idx)
		mt.text = append(mt.text, line)
		p.plant(MoveToText, "direction lost", mt, "text: "+line)
	}

	ol := p.d.clone()
	ol.facts[idx[0]].value = c.New + " or " + c.Old
	p.plant(OverList, "both values current", ol, describe(ol.facts[idx[0]]))

	other := p.otherEvent(c.SourceSeq, userRoles, func(folded string) bool { return newF(folded) }, c.SourceSeq)
	if other == 0 {
		p.skip(FabricateCitation, "no other user or system event is covered to cite")
		return
	}
	fc := p.d.clone()
	fc.facts[idx[0]].seq = other
	p.plant(FabricateCitation, "", fc, fmt.Sprintf("corrections cite #%d for the correction of #%d", other, c.SourceSeq))
}

// newValueIn returns a test for a correction value in text, as the checks
// read it: a whole token of folded text, or any spelling of the same
// quantity.
func newValueIn(v string) func(string) bool {
	lit := strings.ToLower(textmatch.Fold(v))
	qs := quantity.Parse(v)
	return func(text string) bool {
		if hasToken(strings.ToLower(textmatch.Fold(text)), lit) {
			return true
		}
		if len(qs) == 1 && qs[0].Unit != "" {
			for _, q := range quantity.Parse(text) {
				if quantity.Equal(q.Value, q.Unit, qs[0].Value, qs[0].Unit) {
					return true
				}
			}
		}
		return false
	}
}

// swappedUnit is the unit a swapped quantity is written in: another unit of
// the same dimension where there is one (s ↔ ms, MB ↔ GB), else a unit of
// another kind.
func swappedUnit(unit string) string {
	switch quantity.Canon(unit) {
	case "s":
		return "ms"
	case "ms", "us", "ns":
		return "s"
	case "min":
		return "s"
	case "h":
		return "min"
	case "d":
		return "h"
	case "%":
		return "‰"
	case "tokens":
		return "characters"
	case "B", "KB", "KiB":
		return "MB"
	case "MB", "MiB":
		return "GB"
	case "GB", "GiB", "TB":
		return "MB"
	}
	if a, b, ok := strings.Cut(unit, "/"); ok {
		if b == "s" {
			return a + "/min"
		}
		return a + "/s"
	}
	return "per " + unit
}

func (p *planter) quantity(q *scenarios.Quantity) {
	states := func(text string) bool {
		folded := textmatch.Fold(text)
		if len(q.Match) > 0 && !matchesAny(q.Match)(folded) {
			return false
		}
		return quantitySpan(text, q) != nil
	}
	var idx []int
	for i, f := range p.d.facts {
		if states(f.leafText()) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		p.skip("", "the oracle states no %s (not in the covered history, or see the satisfiability failure)", quantity.Format(q.Value, q.Unit))
		return
	}
	var texts []string
	for _, i := range idx {
		texts = append(texts, p.d.facts[i].leafText())
	}
	p.plant(Omit, "", without(p.d, idx), quantity.Format(q.Value, q.Unit)+" is left out")

	sw := p.d.clone()
	var swapped string
	for _, i := range idx {
		f := &sw.facts[i]
		for _, field := range []*string{&f.text, &f.value, &f.supersedes} {
			*field = swapUnits(*field, q)
		}
		if swapped == "" {
			swapped = describe(*f)
		}
	}
	p.plant(Invert, "unit swapped", sw, swapped)

	ms := without(p.d, idx)
	for _, t := range texts {
		ms.facts = insertFact(ms.facts, fact{field: fCorrection, subject: "value", value: "unchanged", supersedes: t})
	}
	p.plant(MoveToSupersedes, "", ms, "corrections[].supersedes: "+strings.Join(texts, " "))
	me := without(p.d, idx)
	setExt(&me, "notes", texts)
	p.plant(MoveToExtensions, "", me, "extensions.notes: "+strings.Join(texts, " "))

	p.relationSwap(q, idx)

	for _, i := range idx {
		f := p.d.facts[i]
		if f.field != fVerified {
			continue
		}
		other := p.otherEvent(f.seq, claimRoles, func(folded string) bool { return figureIn(folded, q) }, f.seq)
		if other == 0 {
			break
		}
		fc := p.d.clone()
		fc.facts[i].seq = other
		p.plant(FabricateCitation, "", fc, fmt.Sprintf("verified: %q cites #%d, stated at #%d", f.text, other, f.seq))
		break
	}
}

// relationSwap plants RelationSwap for quantity q: in a cited entry that
// states q (a verified claim or a constraint, which grounding judges), q's
// figure trades places with another figure of the same sentence, in a unit
// of its own kind, so both figures stay in the summary and in the cited
// event, each now standing in the other's relation.
func (p *planter) relationSwap(q *scenarios.Quantity, idx []int) {
	for _, i := range idx {
		f := p.d.facts[i]
		if (f.field != fVerified && f.field != fConstraint) || f.seq == 0 {
			continue
		}
		at := quantitySpan(f.text, q)
		if at == nil {
			continue
		}
		for _, o := range quantity.Parse(f.text) {
			if o.Start == at.Start || o.Unit == "" || !quantity.Known(o.Unit) || !quantity.SameDimension(o.Unit, at.Unit) || o.Is(q.Value, q.Unit) {
				continue
			}
			a, b := *at, o
			if b.Start < a.Start {
				a, b = b, a
			}
			sw := p.d.clone()
			sw.facts[i].text = f.text[:a.Start] + b.Text + f.text[a.End:b.Start] + a.Text + f.text[b.End:]
			p.plant(RelationSwap, "figures swapped", sw, fmt.Sprintf("%s: %q cites #%d", f.field, sw.facts[i].text, f.seq))
			return
		}
	}
	p.skip(RelationSwap, "no cited entry states %s beside another figure of its kind", quantity.Format(q.Value, q.Unit))
}

// swapUnits rewrites every quantity of text equal to q's with the same
// number in another unit (30 s → 30 ms).
func swapUnits(text string, q *scenarios.Quantity) string {
	var b strings.Builder
	last := 0
	for _, f := range quantity.Parse(text) {
		if !quantity.Equal(f.Value, f.Unit, q.Value, q.Unit) {
			continue
		}
		b.WriteString(text[last:f.Start])
		b.WriteString(strconv.FormatFloat(f.Value, 'f', -1, 64) + " " + swappedUnit(f.Unit))
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// quantitySpan returns the first quantity of text equal to q's, nil if none.
func quantitySpan(text string, q *scenarios.Quantity) *quantity.Quantity {
	for _, f := range quantity.Parse(text) {
		if quantity.Equal(f.Value, f.Unit, q.Value, q.Unit) {
			return &f
		}
	}
	return nil
}

// figureIn reports whether text holds quantity q in a writing the
// grounding check accepts: as written, in another unit of its dimension,
// or as a bare number that is q, within a tenth, in a unit a tool writes
// figures in (0.41 in a column of seconds for 400 ms). An event that holds
// it supports a claim of it, and citing it fabricates nothing.
func figureIn(text string, q *scenarios.Quantity) bool {
	if quantitySpan(text, q) != nil {
		return true
	}
	base := quantity.Base(q.Value, q.Unit)
	near := func(v float64) bool { return v >= 0.9*base && v <= 1.1*base }
	for _, f := range quantity.Parse(text) {
		if f.Unit != "" && quantity.Known(f.Unit) {
			if quantity.SameDimension(f.Unit, q.Unit) && near(quantity.Base(f.Value, f.Unit)) {
				return true
			}
			continue
		}
		for _, u := range quantity.ToolUnits {
			if quantity.SameDimension(u, q.Unit) && near(quantity.Base(f.Value, u)) {
				return true
			}
		}
	}
	return false
}

// PartialSecret is the part of a secret the leak-part class copies: the
// first run of 8 of its characters (the whole secret when shorter) that is
// not public in sc's session, the smallest part the secret check refuses
// (checks.SecretCheck). A secret whose every run is public gives its first
// 8 characters.
func PartialSecret(sc *scenarios.Scenario, value string) string {
	rs := []rune(value)
	n := min(leaks.MinRun, len(rs))
	rd := checks.SecretRedactor(sc)
	for i := 0; i+n <= len(rs); i++ {
		if part := string(rs[i : i+n]); rd.Contains(part) {
			return part
		}
	}
	return string(rs[:n])
}

func (p *planter) secret(s *scenarios.Secret) {
	// The sentence of the first covered event that holds the secret: what
	// a summarizer copying the session would copy.
	seq, sentence := 0, ""
	for i, e := range p.ev.list {
		if !p.covered(e.Seq) || !strings.Contains(p.ev.text[i], s.Value) {
			continue
		}
		for _, snt := range sentences(p.ev.text[i]) {
			if strings.Contains(snt, s.Value) {
				seq, sentence = e.Seq, snt
				break
			}
		}
		if seq != 0 {
			break
		}
	}
	if seq == 0 {
		sentence = "the key is " + s.Value
	}
	tag := "[redacted:" + s.ID + "]"
	whole := p.d.clone()
	whole.facts = insertFact(whole.facts, fact{field: fVerified, text: sentence, seq: seq})
	p.plant(LeakWhole, "", whole, "verified: "+strings.ReplaceAll(sentence, s.Value, tag))

	part := PartialSecret(p.sc, s.Value)
	ps := strings.ReplaceAll(sentence, s.Value, part+"…")
	pd := p.d.clone()
	pd.facts = insertFact(pd.facts, fact{field: fVerified, text: ps, seq: seq})
	p.plant(LeakPart, "", pd, "verified: "+strings.ReplaceAll(ps, part, tag+" (part)"))
}

// evidenceOf returns the indexes of the facts an agent finds patterns in:
// every fact whose JSON matches one of them, then, while the summary as a
// whole still matches one (a pattern spanning entries), every fact the
// match touches.
func evidenceOf(d doc, patterns []string) []int {
	var idx []int
	for i := range d.facts {
		raw := marshal(doc{facts: d.facts[i : i+1]}.summary(Structured))
		if matchesAny(patterns)(textmatch.Fold(string(raw))) {
			idx = append(idx, i)
		}
	}
	for range len(d.facts) {
		rest := without(d, idx)
		raw := marshal(doc{facts: rest.facts}.summary(Structured))
		if !matchesAny(patterns)(textmatch.Fold(string(raw))) {
			break
		}
		// Drop the remaining facts one at a time, last first, until the
		// pattern no longer matches across them.
		for i := len(d.facts) - 1; i >= 0; i-- {
			if !slices.Contains(idx, i) {
				idx = append(idx, i)
				break
			}
		}
	}
	slices.Sort(idx)
	return idx
}

// fieldsOf lists the fields of the facts at idx.
func fieldsOf(d doc, idx []int) string {
	var out []string
	for _, i := range idx {
		if !slices.Contains(out, d.facts[i].field) {
			out = append(out, d.facts[i].field)
		}
	}
	return strings.Join(out, ", ")
}

func (p *planter) probe(pr scenarios.Probe) {
	if pr.FreeText() {
		// Only a model judge grades an answer in words; the reference
		// agent answers nothing a variant could change.
		p.skip("", "a free-text probe is graded only by a judge, and selftest plants its defects against the reference agent")
		return
	}
	want := pr.RequiresFor(pr.Expect)
	if len(want) == 0 {
		p.skip("", "its expected option %q has no requires: no summary defect can take its evidence away", pr.Expect)
		return
	}
	// A pattern is in play when a covered event states it, or when the
	// oracle does: a pattern spanning a call and its timed-out result
	// ("deploy_cgw_214 … timed out") matches no single event, yet the
	// summary carries it and can lose it.
	var covered []string
	for _, pat := range want {
		if i := p.ev.firstMatch(pat); i >= 0 && p.covered(p.ev.list[i].Seq) || len(evidenceOf(p.d, []string{pat})) > 0 {
			covered = append(covered, pat)
		}
	}
	if len(covered) == 0 {
		fixed := func(pat string) bool {
			return matchesAny([]string{pat})(textmatch.Fold(p.sc.Rules)) || matchesAny([]string{pat})(textmatch.Fold(p.sc.Goal))
		}
		if !slices.ContainsFunc(want, func(pat string) bool { return !fixed(pat) }) {
			p.blind = append(p.blind, Problem{Target: p.t, Message: fmt.Sprintf(
				"every requires.%s pattern matches the rules or the goal and no event: no summary can change the answer, so the probe tests nothing", pr.Expect)})
			return
		}
		p.skip("", "no requires.%s pattern matches an event before the last cut: the answer rests on the tail, which compaction keeps", pr.Expect)
		return
	}
	idx := evidenceOf(p.d, covered)
	var texts []string
	for _, i := range idx {
		texts = append(texts, describe(p.d.facts[i]))
	}
	what := "nothing"
	if len(texts) > 0 {
		what = strings.Join(texts, "; ")
	}
	p.plant(Omit, "", without(p.d, idx), "the evidence is left out: "+what)

	if len(idx) == 0 {
		p.skip(Invert, "the oracle carries none of its evidence")
		p.skip(MoveToExtensions, "the oracle carries none of its evidence")
		return
	}
	// Inverting a probe's evidence is a negation in the words an agent
	// reads; evidence held by a structured field (a pending status, a
	// correction) is inverted by the variants of the invariant that owns
	// it, which its check judges.
	inv := p.d.clone()
	var inverted []string
	for _, i := range idx {
		f := &inv.facts[i]
		switch f.field {
		case fConstraint:
			f.text = invertRule(f.text)
		case fVerified, fDecision:
			f.text = negateClaim(f.text)
		default:
			continue
		}
		inverted = append(inverted, describe(*f))
	}
	if len(inverted) == 0 {
		p.skip(Invert, "its evidence is held by structured fields only (%s); the variants of the invariants that own them invert it", fieldsOf(p.d, idx))
	} else {
		p.plant(Invert, "", inv, strings.Join(inverted, "; "))
	}

	me := without(p.d, idx)
	var ext []string
	for _, i := range idx {
		ext = append(ext, p.d.facts[i].leafText())
	}
	setExt(&me, "evidence", ext)
	p.plant(MoveToExtensions, "", me, "extensions.evidence: "+strings.Join(ext, "; "))
}
