package selftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/quantity"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// Summary fields a fact can live in, in the order a summary lists them.
const (
	fConstraint = "constraints"
	fDecision   = "decisions"
	fVerified   = "verified"
	fHypothesis = "hypotheses"
	fPending    = "pending"
	fArtifact   = "artifacts"
	fCorrection = "corrections"
	// The typed state of contract 1.3 (oracle_state.go).
	fApproval = "approvals"
	fHandoff  = "handoff"
	fNext     = "next_steps"
	fGoal     = "goal"
)

var fieldOrder = []string{fGoal, fConstraint, fDecision, fVerified, fHypothesis, fPending, fArtifact, fCorrection, fApproval, fHandoff, fNext}

var debugOracle = false

// fact is one entry of an oracle summary, with the targets it was written
// for.
type fact struct {
	field string
	// text is the constraint or decision text, the verified or hypothesis
	// claim, or the pending description.
	text       string
	seq        int
	status     string
	resolvedBy int
	opID       string
	path       string
	digest     string
	subject    string
	value      string
	supersedes string
	// about lists the targets (Target.key) the fact was written for.
	about []string
	// state holds what an approval or a handoff carries beyond these
	// (oracle_state.go).
	state *stateFact
}

func (f fact) isAbout(key string) bool { return slices.Contains(f.about, key) }

// doc is a summary under construction: the oracle's facts, and what a
// variant adds outside them.
type doc struct {
	cut   int
	goal  string
	facts []fact
	// text holds sentences a variant moved into the free text.
	text []string
	// ext holds what a variant parked under extensions.
	ext map[string]any
}

func (d doc) clone() doc {
	c := d
	c.facts = slices.Clone(d.facts)
	c.text = slices.Clone(d.text)
	if d.ext != nil {
		c.ext = map[string]any{}
		for k, v := range d.ext {
			c.ext[k] = v
		}
	}
	return c
}

// summary renders d in the given form.
func (d doc) summary(form Form) *summary.Summary {
	s := &summary.Summary{SchemaVersion: summary.SchemaVersion, CoversThrough: d.cut, Goal: d.goal}
	if len(d.ext) > 0 {
		s.Extensions = map[string]json.RawMessage{}
		for k, v := range d.ext {
			s.Extensions[k] = marshal(v)
		}
	}
	for _, f := range d.facts {
		if f.field == fGoal {
			s.Goal = f.text // the current objective, after a redirect
		}
	}
	if form == TextOnly {
		var parts []string
		for _, f := range d.facts {
			if f.field != fGoal {
				parts = append(parts, f.sentence())
			}
		}
		parts = append(parts, d.text...)
		s.Text = strings.Join(parts, " ")
		return s
	}
	for _, f := range d.facts {
		switch f.field {
		case fConstraint:
			s.Constraints = append(s.Constraints, summary.Constraint{Text: f.text, SourceSeq: f.seq})
		case fDecision:
			s.Decisions = append(s.Decisions, summary.Statement{Text: f.text, SourceSeq: f.seq})
		case fVerified:
			s.Verified = append(s.Verified, summary.Claim{Claim: f.text, SourceSeq: f.seq})
		case fHypothesis:
			s.Hypotheses = append(s.Hypotheses, summary.Hypothesis{Claim: f.text, SourceSeq: f.seq, Status: f.status, ResolvedBy: f.resolvedBy})
		case fPending:
			s.Pending = append(s.Pending, summary.Pending{OpID: f.opID, Description: f.text, Status: f.status, SourceSeq: f.seq})
		case fArtifact:
			s.Artifacts = append(s.Artifacts, summary.ArtifactRef{Path: f.path, Digest: f.digest, Status: f.status, SourceSeq: f.seq})
		case fCorrection:
			s.Corrections = append(s.Corrections, summary.Correction{Subject: f.subject, Value: f.value, Supersedes: f.supersedes, SourceSeq: f.seq})
		case fApproval, fHandoff:
			f.renderState(s)
		case fNext:
			s.NextSteps = append(s.NextSteps, f.text)
		}
	}
	s.Text = strings.Join(d.text, " ")
	return s
}

// sentence is how the text-only form states a fact: one sentence that
// carries what the structured field would, status words included.
func (f fact) sentence() string {
	cite := ""
	if f.seq > 0 {
		cite = fmt.Sprintf(" (#%d)", f.seq)
	}
	switch f.field {
	case fConstraint:
		return fmt.Sprintf("Rule%s: %s.", cite, f.text)
	case fHypothesis:
		switch f.status {
		case summary.HypothesisRefuted:
			return fmt.Sprintf("Ruled out by #%d, refuted: %s.", f.resolvedBy, oneClause(f.text))
		case summary.HypothesisConfirmed:
			return fmt.Sprintf("Confirmed%s: %s.", cite, f.text)
		}
		return fmt.Sprintf("Open hypothesis%s: %s.", cite, f.text)
	case fPending:
		return fmt.Sprintf("Operation %s%s: %s; status %s.", f.opID, cite, f.text, f.status)
	case fArtifact:
		s := "File " + f.path
		if f.status != "" {
			s += " is " + f.status
		}
		if f.digest != "" {
			if f.status != "" {
				s += ","
			}
			s += " has digest " + f.digest
		}
		return s + cite + "."
	case fCorrection:
		if f.supersedes == "" {
			return fmt.Sprintf("The %s is %s%s.", f.subject, f.value, cite)
		}
		return fmt.Sprintf("The %s is now %s, which replaces %s%s.", f.subject, f.value, f.supersedes, cite)
	case fApproval, fHandoff:
		return f.stateSentence()
	case fNext:
		return nextSentence(f.text)
	}
	return f.text + cite + "."
}

// Oracle is the summary a perfect summarizer would write for one compaction
// of a scenario, built from the scenario alone, never by hand: the goal;
// every constraint with its source seq; every correction with its value
// and supersedes; every refuted hypothesis with status refuted, resolved_by
// and its conclusion; every unresolved operation under pending with its op
// id; every required artifact with its exact path and digest; every
// quantity with its unit; the facts each probe's expected answer rests on;
// no secret; covers_through equal to the cut.
//
// Facts are quoted from the event that states them, one sentence each,
// whitespace folded and quantities respelled canonically ("30 seconds" →
// "30 s"): the oracle paraphrases spelling, never meaning. A candidate
// sentence that would make a check fail that passed without it (a
// sentence that also states a corrected value, or names an unresolved
// operation as done) is not used; the next one is.
type Oracle struct {
	Scenario *scenarios.Scenario
	Cut      int
	Form     Form
	// Summary is the oracle document.
	Summary *summary.Summary
	// Problems lists what the builder could not state faithfully: the
	// reason behind a satisfiability failure the checks will report.
	Problems []Problem

	doc doc
}

// Problem is something the oracle builder could not do for a target.
type Problem struct {
	Target  Target `json:"target"`
	Message string `json:"message"`
}

// marshal encodes v as compact JSON without HTML escaping: an agent reads
// the summary as JSON text, and "\u003e= 4.8.0" is not what the session
// said.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// JSON returns the oracle document.
func (o *Oracle) JSON() json.RawMessage { return marshal(o.Summary) }

// BuildOracle builds the oracle of sc for a compaction at cut (covering
// events 1..cut) in the given form.
func BuildOracle(sc *scenarios.Scenario, cut int, form Form) *Oracle {
	d, problems := buildDoc(sc, eventsOf(sc), cut)
	return &Oracle{Scenario: sc, Cut: cut, Form: form, Summary: d.summary(form), Problems: problems, doc: d}
}

// buildDoc builds the oracle's facts for a compaction at cut. The facts
// are chosen once, in the structured form, and rendered in either form.
func buildDoc(sc *scenarios.Scenario, ev *events, cut int) (doc, []Problem) {
	b := &builder{sc: sc, ev: ev, cut: cut}
	b.d = doc{cut: cut, goal: sc.Goal}
	// The invariants' own facts first, then what is quoted to support
	// them and the probes, each checked against what is already there.
	b.corrections()
	b.constraints()
	b.hypotheses()
	b.pending()
	b.artifacts()
	b.typedState()
	b.conclusions()
	b.quantities()
	b.probes()
	return b.d, b.problems
}

// events is the text of each event of a scenario as the oracle reads it.
type events struct {
	list   []scenarios.Event
	text   []string // text, call name and arguments, result text
	folded []string

	mu    sync.Mutex
	first map[string]int // pattern -> firstMatch
}

func eventsOf(sc *scenarios.Scenario) *events {
	e := &events{list: sc.Events}
	for _, ev := range sc.Events {
		t := eventText(ev)
		e.text = append(e.text, t)
		e.folded = append(e.folded, textmatch.Fold(t))
	}
	return e
}

// eventText is an event's text as the oracle quotes it: its text, its tool
// call (id, name, arguments) and its result's text, one per line.
func eventText(ev scenarios.Event) string {
	var parts []string
	if ev.Text != "" {
		parts = append(parts, ev.Text)
	}
	if c := ev.ToolCall; c != nil {
		parts = append(parts, c.ID+" "+c.Name+" "+transcript.Args(c.Args))
	}
	if r := ev.ToolResult; r != nil && r.Text != "" {
		parts = append(parts, r.Text)
	}
	return strings.Join(parts, "\n")
}

// firstMatch returns the index of the first event whose text pattern
// matches, -1 if none. It is computed once per pattern: every generation's
// oracle asks it of every probe pattern, over histories of thousands of
// events.
func (e *events) firstMatch(pattern string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i, ok := e.first[pattern]; ok {
		return i
	}
	i := slices.IndexFunc(e.folded, func(f string) bool {
		_, ok := textmatch.Find(pattern, f)
		return ok
	})
	if e.first == nil {
		e.first = map[string]int{}
	}
	e.first[pattern] = i
	return i
}

// index returns the index of the event with seq, -1 if none.
func (e *events) index(seq int) int {
	i, ok := slices.BinarySearchFunc(e.list, seq, func(ev scenarios.Event, s int) int { return ev.Seq - s })
	if !ok {
		return -1
	}
	return i
}

// builder builds one oracle.
type builder struct {
	sc       *scenarios.Scenario
	ev       *events
	cut      int
	d        doc
	problems []Problem
	// missed is why the last quote that matched in the session's words
	// failed in the oracle's ("" when none did).
	missed string
}

func (b *builder) problem(t Target, format string, args ...any) {
	b.problems = append(b.problems, Problem{Target: t, Message: fmt.Sprintf(format, args...)})
}

// covered reports whether seq is in the summary's range.
func (b *builder) covered(seq int) bool { return seq > 0 && seq <= b.cut }

// acceptChecks are the checks a candidate fact must not break: every
// invariant check and the structural checks that read content (schema,
// coverage, tail and compression judge the document as a whole and run
// when the oracle is done).
func (b *builder) acceptChecks() []checks.Check {
	var out []checks.Check
	for _, c := range checks.Structural {
		switch c.(type) {
		case checks.SchemaCheck, checks.CoverageCheck, checks.TailCheck, checks.CompressionCheck:
			continue
		}
		out = append(out, c)
	}
	for _, inv := range b.sc.Invariants {
		out = append(out, checks.ForInvariant(inv))
	}
	return out
}

// failures runs the acceptance checks on d and returns the failing
// results.
func (b *builder) failures(d doc) []result.CheckResult {
	in := &checks.Input{Scenario: b.sc, Gen: checks.Generation{Cut: b.cut}, Summary: d.summary(Structured)}
	var out []result.CheckResult
	for _, c := range b.acceptChecks() {
		for _, r := range c.Check(in) {
			if r.Status == result.Fail || r.Status == result.Error {
				out = append(out, r)
			}
		}
	}
	return out
}

// add inserts an invariant's own fact: it is stated whatever it breaks (a
// rule stated with its conflict is better than a rule left out; the checks
// of the finished oracle report the conflict).
func (b *builder) add(f fact) { b.d.facts = insertFact(b.d.facts, f) }

// try adds the first candidate that breaks nothing, and reports whether one
// did. A candidate breaks something when a check that passed without it
// fails with it, or when a failing check points at it (a quoted sentence
// that also states a corrected value, or asserts a refuted hypothesis). A
// near miss a quantity check notes is not a failure of the candidate.
func (b *builder) try(candidates ...fact) bool {
	before := map[string]bool{}
	for _, r := range b.failures(b.d) {
		before[r.Check+"\x00"+r.Invariant] = true
	}
	for _, f := range candidates {
		d := b.d.clone()
		d.facts = insertFact(d.facts, f)
		at := pointerOf(d.facts, f)
		ok := true
		for _, r := range b.failures(d) {
			if !before[r.Check+"\x00"+r.Invariant] || pointsAt(r, at) {
				ok = false
				if debugOracle {
					fmt.Printf("reject #%d %q: %s %s: %s\n", f.seq, f.text, r.Check, r.Invariant, r.Message)
				}
				break
			}
		}
		if ok {
			b.d = d
			return true
		}
	}
	return false
}

// pointerOf is the JSON pointer prefix of f, the last fact of its field in
// facts ("/verified/3/").
func pointerOf(facts []fact, f fact) string {
	n := -1
	for _, g := range facts {
		if g.field == f.field {
			n++
		}
	}
	return fmt.Sprintf("/%s/%d/", f.field, n)
}

// pointsAt reports whether a failing result blames the entry at ptr.
func pointsAt(r result.CheckResult, ptr string) bool {
	for _, e := range r.Evidence {
		if e.Note != "near miss" && strings.HasPrefix(e.Pointer+"/", ptr) {
			return true
		}
	}
	return false
}

// insertFact adds f after the last fact of its field, keeping fields in
// summary order.
func insertFact(facts []fact, f fact) []fact {
	rank := slices.Index(fieldOrder, f.field)
	i := len(facts)
	for j, g := range facts {
		if slices.Index(fieldOrder, g.field) > rank {
			i = j
			break
		}
	}
	return slices.Insert(facts, i, f)
}

// quote returns the sentences of event seq that satisfy pred, ready to
// quote: secrets removed, quantities respelled.
//
// A quote that matches in the session's words but no longer once its
// quantities are respelled is refused, and b.missed says so: the pattern
// accepts only one spelling of a number, and a faithful paraphrase fails it.
func (b *builder) quote(seq int, pred func(string) bool) (string, bool) {
	i := b.ev.index(seq)
	if i < 0 {
		return "", false
	}
	s, ok := window(b.ev.text[i], pred)
	if !ok {
		return "", false
	}
	q := respell(b.redact(s))
	if !pred(textmatch.Fold(q)) {
		if b.missed == "" {
			b.missed = fmt.Sprintf("#%d says %q, but the same words with the quantity respelled (%q) do not match: the pattern accepts one spelling only", seq, clip.String(s, 120), clip.String(q, 120))
		}
		return "", false
	}
	return q, true
}

// problemMissed records a problem for t, with what quote found out.
func (b *builder) problemMissed(t Target, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if b.missed != "" {
		msg += "; " + b.missed
	}
	b.problems = append(b.problems, Problem{Target: t, Message: msg})
}

// redact removes every secret of the scenario from s: a faithful summary
// says a key leaked, never the key.
func (b *builder) redact(s string) string {
	for _, v := range b.sc.Secrets() {
		s = strings.ReplaceAll(s, v, "[secret removed]")
	}
	return s
}

// claimField is where a quoted fact goes: verified for what a user or a
// tool said, decisions for the assistant's and the system's words.
func (b *builder) claimField(seq int) string {
	if i := b.ev.index(seq); i >= 0 {
		switch b.ev.list[i].Role {
		case scenarios.RoleUser, scenarios.RoleTool:
			return fVerified
		}
	}
	return fDecision
}

func targetOf(inv scenarios.Invariant) Target {
	return Target{Kind: KindInvariant, ID: inv.InvariantID(), Type: inv.Type(), Pos: inv.Position()}
}

func probeTarget(p scenarios.Probe) Target {
	return Target{Kind: KindProbe, ID: p.ID, Type: KindProbe, Pos: p.Pos}
}

func (b *builder) corrections() {
	for _, inv := range b.sc.Invariants {
		c, ok := scenarios.Pointer(inv).(*scenarios.Correction)
		if !ok || !b.covered(c.SourceSeq) {
			continue
		}
		subject := c.Subject
		if subject == "" {
			subject = "value"
		}
		b.add(fact{field: fCorrection, subject: subject, value: c.New, supersedes: c.Old, seq: c.SourceSeq, about: []string{targetOf(c).key()}})
	}
}

func (b *builder) constraints() {
	for _, inv := range b.sc.Invariants {
		c, ok := scenarios.Pointer(inv).(*scenarios.Constraint)
		if !ok || !b.covered(c.SourceSeq) {
			continue
		}
		t := targetOf(c)
		b.missed = ""
		text, ok := b.quote(c.SourceSeq, matchesAny(c.Match))
		if !ok {
			b.problemMissed(t, "no sentence of its source event #%d matches %s: a summary that quotes the rule fails", c.SourceSeq, strings.Join(c.Match, " | "))
			continue
		}
		b.add(fact{field: fConstraint, text: text, seq: c.SourceSeq, about: []string{t.key()}})
	}
}

func (b *builder) hypotheses() {
	for _, inv := range b.sc.Invariants {
		h, ok := scenarios.Pointer(inv).(*scenarios.RefutedHypothesis)
		if !ok || !b.covered(h.HypothesisSeq) {
			continue
		}
		t := targetOf(h)
		b.missed = ""
		claim, ok := b.quote(h.HypothesisSeq, matchesAny(h.Match))
		if !ok {
			b.problemMissed(t, "no sentence of event #%d, where the hypothesis is stated, matches %s", h.HypothesisSeq, strings.Join(h.Match, " | "))
			continue
		}
		f := fact{field: fHypothesis, text: claim, seq: h.HypothesisSeq, status: summary.HypothesisOpen, about: []string{t.key()}}
		if b.covered(h.RefutedBySeq) {
			f.status, f.resolvedBy = summary.HypothesisRefuted, h.RefutedBySeq
		}
		b.add(f)
	}
}

// conclusions quotes the conclusion of every refuted hypothesis: from the
// refuting event first, else from the latest covered event that states it.
func (b *builder) conclusions() {
	for _, inv := range b.sc.Invariants {
		h, ok := scenarios.Pointer(inv).(*scenarios.RefutedHypothesis)
		if !ok || !b.covered(h.RefutedBySeq) || len(h.Conclusion) == 0 {
			continue
		}
		if !b.tryQuote(targetOf(h), h.RefutedBySeq, matchesAny(h.Conclusion)) {
			b.problemMissed(targetOf(h), "no covered event states the conclusion %s in one sentence that breaks no check", strings.Join(h.Conclusion, " | "))
		}
	}
}

// tryQuote adds a quote satisfying pred from the covered events as a claim
// about t, and reports whether one fit. Candidates come in this order: the
// event seq (when given, e.g. the refuting event for a conclusion), then
// the shortest quote, then what a user or a tool said before the
// assistant's words, then the latest event.
func (b *builder) tryQuote(t Target, seq int, pred func(string) bool) bool {
	b.missed = ""
	type cand struct {
		f     fact
		pref  bool
		parts int
	}
	var cands []cand
	for i := len(b.ev.list) - 1; i >= 0; i-- {
		e := b.ev.list[i]
		if !b.covered(e.Seq) || !pred(b.ev.folded[i]) {
			continue
		}
		q, ok := b.quote(e.Seq, pred)
		if !ok {
			continue
		}
		cands = append(cands, cand{f: fact{field: b.claimField(e.Seq), text: q, seq: e.Seq, about: []string{t.key()}},
			pref: e.Seq == seq, parts: strings.Count(q, "; ") + 1})
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		switch {
		case x.pref != y.pref:
			if x.pref {
				return -1
			}
			return 1
		case x.parts != y.parts:
			return x.parts - y.parts
		case (x.f.field == fVerified) != (y.f.field == fVerified):
			if x.f.field == fVerified {
				return -1
			}
			return 1
		}
		return 0 // the latest first: cands are built from the end
	})
	fs := make([]fact, len(cands))
	for i, c := range cands {
		fs[i] = c.f
	}
	return b.try(fs...)
}

// pending lists every operation of the covered range with no result, or a
// timeout result, as docs/formats.md §2's unresolved check asks.
func (b *builder) pending() {
	results := map[string]scenarios.Event{}
	for _, e := range b.ev.list {
		if r := e.ToolResult; r != nil && b.covered(e.Seq) {
			if _, dup := results[r.CallID]; !dup {
				results[r.CallID] = e
			}
		}
	}
	for _, e := range b.ev.list {
		c := e.ToolCall
		if c == nil || !b.covered(e.Seq) {
			continue
		}
		outcome := "no result was recorded, so its outcome is unknown"
		if r, ok := results[c.ID]; ok {
			if r.ToolResult.Status != scenarios.StatusTimeout {
				continue
			}
			outcome = fmt.Sprintf("it timed out at #%d, so its outcome is unknown", r.Seq)
		}
		var about []string
		for _, inv := range b.sc.Invariants {
			if p, ok := scenarios.Pointer(inv).(*scenarios.PendingOperation); ok && p.OpID == c.ID {
				about = append(about, targetOf(p).key())
			}
		}
		desc := fmt.Sprintf("%s %s: %s", c.Name, clip.String(transcript.Args(c.Args), 120), outcome)
		b.add(fact{field: fPending, opID: c.ID, text: b.redact(desc), status: summary.PendingUnknown, seq: e.Seq, about: about})
	}
}

func (b *builder) artifacts() {
	named := map[string]bool{}
	for _, inv := range b.sc.Invariants {
		a, ok := scenarios.Pointer(inv).(*scenarios.Artifact)
		if !ok {
			continue
		}
		t := targetOf(a)
		for _, p := range a.Required {
			seq := b.firstNaming(p)
			if !b.covered(seq) {
				continue
			}
			if named[p] {
				for i := range b.d.facts {
					if b.d.facts[i].field == fArtifact && b.d.facts[i].path == p {
						b.d.facts[i].about = append(b.d.facts[i].about, t.key())
					}
				}
				continue
			}
			named[p] = true
			b.add(fact{field: fArtifact, path: p, digest: a.Digests[p], status: summary.ArtifactCurrent, seq: seq, about: []string{t.key()}})
		}
	}
}

// firstNaming is the seq of the first event naming path as a whole token,
// 0 if none.
func (b *builder) firstNaming(path string) int {
	for i, t := range b.ev.text {
		if hasToken(t, path) {
			return b.ev.list[i].Seq
		}
	}
	return 0
}

func (b *builder) quantities() {
	for _, inv := range b.sc.Invariants {
		q, ok := scenarios.Pointer(inv).(*scenarios.Quantity)
		if !ok {
			continue
		}
		t := targetOf(q)
		pred := func(folded string) bool {
			if len(q.Match) > 0 && !matchesAny(q.Match)(folded) {
				return false
			}
			for _, f := range quantity.Parse(folded) {
				if f.Is(q.Value, q.Unit) {
					return true
				}
			}
			return false
		}
		first := 0
		for i, e := range b.ev.list {
			if b.covered(e.Seq) && pred(b.ev.folded[i]) {
				first = e.Seq
				break
			}
		}
		if first == 0 {
			if !slices.ContainsFunc(b.ev.folded, pred) {
				b.problem(t, "no event states %s%s: a summary that quotes the session cannot carry it, yet the check wants it from the first generation",
					quantity.Format(q.Value, q.Unit), matchNote(q.Match))
			}
			continue // not stated in the covered history yet
		}
		if b.states(b.d, pred) {
			b.tag(pred, t)
			continue
		}
		if !b.tryQuote(t, 0, pred) {
			b.problemMissed(t, "no covered event states %s in one sentence that breaks no check", quantity.Format(q.Value, q.Unit))
		}
	}
}

func matchNote(patterns []string) string {
	if len(patterns) == 0 {
		return ""
	}
	return " where " + strings.Join(patterns, " | ") + " matches"
}

// states reports whether some fact of d, as the checks read it, satisfies
// pred.
func (b *builder) states(d doc, pred func(string) bool) bool {
	for _, f := range d.facts {
		if pred(textmatch.Fold(f.leafText())) {
			return true
		}
	}
	return false
}

// tag records that the facts satisfying pred carry t.
func (b *builder) tag(pred func(string) bool, t Target) {
	for i := range b.d.facts {
		if pred(textmatch.Fold(b.d.facts[i].leafText())) && !b.d.facts[i].isAbout(t.key()) {
			b.d.facts[i].about = append(b.d.facts[i].about, t.key())
		}
	}
}

// leafText is the text of a fact's fields, as one string.
func (f fact) leafText() string {
	return strings.Join(slices.DeleteFunc([]string{f.text, f.opID, f.path, f.digest, f.subject, f.value, f.supersedes}, func(s string) bool { return s == "" }), " ")
}

// probes adds, for each probe, the facts its expected answer rests on:
// for every requires pattern of the expected option that the summary does
// not match yet, the sentences of a covered event that match it (one
// sentence matching them all, if there is one).
func (b *builder) probes() {
	for _, p := range b.sc.Probes {
		t := probeTarget(p)
		var missing []string
		for _, pat := range p.RequiresFor(p.Expect) {
			if !b.inCovered(pat) && !b.inPair(pat) {
				continue // the evidence is in the tail, or nowhere
			}
			if b.inDoc(pat) {
				b.tag(matchesAny([]string{pat}), t)
				b.tagJSON(pat, t)
				continue
			}
			missing = append(missing, pat)
		}
		if len(missing) == 0 {
			continue
		}
		all := func(folded string) bool {
			for _, pat := range missing {
				if !matchesAny([]string{pat})(folded) {
					return false
				}
			}
			return true
		}
		if len(missing) > 1 && b.tryQuote(t, 0, all) {
			continue
		}
		for _, pat := range missing {
			if b.inDoc(pat) {
				continue
			}
			if !b.tryQuote(t, 0, matchesAny([]string{pat})) && !b.tryPair(t, matchesAny([]string{pat})) {
				b.problemMissed(t, "requires.%s pattern %q: no sentence of a covered event, nor of two neighbouring ones, matches it without breaking a check", p.Expect, pat)
			}
		}
	}
}

// pairReach is how many non-filler events apart two events may be for a
// fact to be quoted from both.
const pairReach = 3

// tryPair adds a fact stated across two neighbouring events ("Finding B:
// csv.go writes full card numbers" at #46, "That one goes first" at #47):
// one sentence of each, joined, as a decision citing the later event. It
// reports whether one fit.
func (b *builder) tryPair(t Target, pred func(string) bool) bool {
	var idx []int
	for i, e := range b.ev.list {
		if b.covered(e.Seq) && !e.Filler {
			idx = append(idx, i)
		}
	}
	var cands []fact
	for x := len(idx) - 1; x >= 0; x-- {
		j := idx[x]
		for y := x - 1; y >= 0 && y >= x-pairReach; y-- {
			i := idx[y]
			if !pred(b.ev.folded[i] + "; " + b.ev.folded[j]) {
				continue
			}
			for _, si := range sentences(b.ev.text[i]) {
				for _, sj := range sentences(b.ev.text[j]) {
					q := respell(b.redact(si + "; " + sj))
					if pred(textmatch.Fold(q)) {
						cands = append(cands, fact{field: fDecision, text: q, seq: b.ev.list[j].Seq, about: []string{t.key()}})
					}
				}
			}
		}
	}
	slices.SortStableFunc(cands, func(x, y fact) int { return len(x.text) - len(y.text) })
	return b.try(cands...)
}

// inCovered reports whether pattern matches some covered event.
func (b *builder) inCovered(pattern string) bool {
	first := b.ev.firstMatch(pattern)
	return first >= 0 && b.covered(b.ev.list[first].Seq)
}

// inPair reports whether pattern matches two neighbouring covered events
// taken together.
func (b *builder) inPair(pattern string) bool {
	prev := []int{}
	for i, e := range b.ev.list {
		if !b.covered(e.Seq) || e.Filler {
			continue
		}
		for _, j := range prev {
			if _, ok := textmatch.Find(pattern, b.ev.folded[j]+"; "+b.ev.folded[i]); ok {
				return true
			}
		}
		prev = append(prev, i)
		if len(prev) > pairReach {
			prev = prev[1:]
		}
	}
	return false
}

// inDoc reports whether pattern matches the oracle's facts as an agent
// reads them (the goal aside: the agent sees the goal anyway, and a probe
// whose evidence is the goal must be found out, not carried).
func (b *builder) inDoc(pattern string) bool {
	raw := marshal(doc{facts: b.d.facts}.summary(Structured))
	_, ok := textmatch.Find(pattern, textmatch.Fold(string(raw)))
	return ok
}

// tagJSON records that the facts whose JSON rendering matches pattern
// carry t (a pattern such as `op_id.{0,200}unknown` matches across the
// fields of one pending entry).
func (b *builder) tagJSON(pattern string, t Target) {
	for i := range b.d.facts {
		raw := marshal(doc{facts: b.d.facts[i : i+1]}.summary(Structured))
		if _, ok := textmatch.Find(pattern, textmatch.Fold(string(raw))); ok && !b.d.facts[i].isAbout(t.key()) {
			b.d.facts[i].about = append(b.d.facts[i].about, t.key())
		}
	}
}

// hasToken reports whether hay names needle as a whole token, as the
// checks read paths: not inside a longer name (db.yaml is not in
// db.yaml.bak nor in old-db.yaml), a full stop ending a sentence aside.
func hasToken(hay, needle string) bool {
	for off := 0; ; {
		i := strings.Index(hay[off:], needle)
		if i < 0 {
			return false
		}
		i += off
		j := i + len(needle)
		before := i == 0 || !wordByte(hay[i-1]) && !joinByte(hay[i-1])
		after := j == len(hay) || !wordByte(hay[j]) && !(joinByte(hay[j]) && j+1 < len(hay) && wordByte(hay[j+1]))
		if before && after {
			return true
		}
		off = i + 1
	}
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func joinByte(c byte) bool { return c == '.' || c == '-' || c == '/' }
