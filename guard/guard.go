package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summary"
)

// Options says what a boundary is checked against. The zero value checks
// only the invariants the log's import wrote active (none, for an agent's
// log): the verdict is then uncertain, since nothing earns a pass.
type Options struct {
	// Invariants is the project's invariants file; nil for none.
	Invariants *File
	// Suggested asks for the session's suggestions (Session.Suggestions)
	// whose confidence is at least MinConfidence to be checked too.
	Suggested     bool
	MinConfidence float64
}

// Status is a verdict: the whole boundary's or one invariant's.
type Status string

// The statuses of a verdict and of its findings.
const (
	// Kept: the summary keeps it, on a typed record or a plain,
	// subject-bound statement (the checks' pass).
	Kept Status = "kept"
	// Lost: the summary drops or contradicts it (the checks' fail).
	Lost Status = "lost"
	// Uncertain: the checks cannot tell (a clause they cannot read
	// plainly, a check that could not run), or, for a verdict, nothing
	// earned a pass: no invariant applies.
	Uncertain Status = "uncertain"
	// NotApplicable: the invariant does not bind this boundary (the
	// history before it never states it); never counted.
	NotApplicable Status = "not_applicable"
)

// Origins of a finding (Finding.Origin).
const (
	OriginProject    = "project"    // the invariants file
	OriginSuggested  = "suggested"  // the import's suggestion
	OriginScenario   = "scenario"   // active in the imported scenario
	OriginStructural = "structural" // a structural check of the summary
)

// Verdict is what the guard says of one boundary: verdict first, then each
// invariant with its status, where it comes from and why.
type Verdict struct {
	// Version is the version of this document (docs/guard.md).
	Version int `json:"guard_version"`
	// Status is Lost when an invariant is lost or a structural check
	// failed; else Uncertain when one is uncertain, or when no invariant
	// was kept; else Kept.
	Status Status `json:"verdict"`
	// Reason is the verdict in one line.
	Reason string `json:"reason"`
	// Boundary is the last seq the summary replaced.
	Boundary int `json:"boundary"`
	// Summary describes the summary checked.
	Summary SummaryInfo `json:"summary"`
	// Kept, Lost and Uncertain count the invariants checked.
	Kept      int `json:"kept"`
	Lost      int `json:"lost"`
	Uncertain int `json:"uncertain"`
	// Findings are the invariants (lost, uncertain, kept, then not
	// applicable, each in the order checked) and the structural checks
	// that failed or could not tell.
	Findings []Finding `json:"findings"`
	// Compression is the summary's size against what it replaced.
	Compression *Compression `json:"compression,omitempty"`
	// Warnings are the non-fatal problems met.
	Warnings []string `json:"warnings,omitempty"`
}

// VerdictVersion is Verdict.Version.
const VerdictVersion = 1

// SummaryInfo says which summary was checked.
type SummaryInfo struct {
	Source string `json:"source"`
	Form   string `json:"form"`
	// The compaction's provenance, as the log records it.
	Tool      string `json:"tool,omitempty"`
	Trigger   string `json:"trigger,omitempty"`
	PreTokens int    `json:"pre_tokens,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
}

// Compression is the compression check's figures: summary tokens over the
// tokens it replaced, the log's own count before the compaction where the
// log records one (Excerpt false), else the history's events before the
// boundary, an excerpt of the context the agent held (Excerpt true).
type Compression struct {
	SummaryTokens  int     `json:"summary_tokens"`
	ReplacedTokens int     `json:"replaced_tokens"`
	Ratio          float64 `json:"ratio"`
	Excerpt        bool    `json:"excerpt"`
}

// Finding is one invariant's verdict, or a structural check's.
type Finding struct {
	Status Status `json:"status"`
	// Invariant is the invariant's id; Check its type, or the structural
	// check's name.
	Invariant string `json:"invariant,omitempty"`
	Check     string `json:"check"`
	// Origin is OriginProject, OriginSuggested, OriginScenario or
	// OriginStructural; Confidence a suggestion's (Confidence).
	Origin     string   `json:"origin"`
	Confidence *float64 `json:"confidence,omitempty"`
	// SourceSeq is the history event the invariant comes from (0 when
	// its type names none); Source quotes it, Role is its role.
	SourceSeq int    `json:"source_seq,omitempty"`
	Role      string `json:"source_role,omitempty"`
	Source    string `json:"source,omitempty"`
	// Message is why, in the check's words; DecidedBy what decided it
	// (typed, statement, judge) when the check says.
	Message   string            `json:"message"`
	DecidedBy string            `json:"decided_by,omitempty"`
	Evidence  []result.Evidence `json:"evidence,omitempty"`
	// Restatement is the invariant restated from its source, for an
	// agent to read back after the compaction (lost and uncertain only).
	Restatement string `json:"restatement,omitempty"`
}

// Check checks the summary at b against the invariants opts gives, with
// the same checks `compact-eval run` runs (checks.Run): the structural
// checks and one check per invariant, on the session's events.
func Check(s *Session, b Boundary, opts Options) (*Verdict, error) {
	if s == nil || s.Scenario == nil {
		return nil, inputErrorf("no history")
	}
	groups, unbound, err := invariantsFor(s, opts)
	if err != nil {
		return nil, err
	}
	sc := *s.Scenario
	var na []Finding
	for _, u := range unbound {
		na = append(na, Finding{Status: NotApplicable, Invariant: u.ID, Check: u.Type, Origin: OriginProject, Message: u.Why})
	}
	var all []scenarios.Invariant
	origin := map[string]origined{}
	for _, g := range groups {
		keep, dropped := lintGroup(&sc, g)
		na = append(na, dropped...)
		for _, o := range keep {
			if _, dup := origin[o.inv.InvariantID()]; dup {
				continue
			}
			origin[o.inv.InvariantID()] = o
			all = append(all, o.inv)
		}
	}
	sc.Invariants = all
	defer checks.Forget(&sc)

	raw := b.Summary
	doc, _, _ := summary.Decode(raw)
	gen := checks.Generation{N: 1, Cut: b.Seq, Tail: tailAfter(s.Scenario, b.Seq)}
	if prev := s.previous(b.Seq); prev != nil {
		gen.N = 2
		gen.PrevCoversThrough = prev.Boundary
		gen.Previous, _, _ = summary.Decode(textDoc(prev.Boundary, prev.Summary))
	}
	if b.Recorded != nil && b.Recorded.PreTokens > 0 {
		gen.ReplacedTokens = b.Recorded.PreTokens
	}
	results := safeRun(&checks.Input{Scenario: &sc, Gen: gen, Raw: raw, Summary: doc})

	v := &Verdict{Version: VerdictVersion, Boundary: b.Seq, Summary: infoOf(b), Warnings: slices.Clone(s.Warnings)}
	red := redactor(s, &sc)
	v.Findings = findings(&sc, results, origin, red)
	v.Findings = append(v.Findings, na...)
	v.Compression = compressionOf(results, b)
	v.conclude(b)
	return v, nil
}

// origined is an invariant with where it comes from.
type origined struct {
	inv        scenarios.Invariant
	origin     string
	confidence *float64
}

// invariantsFor gathers the invariants to check, in groups of one origin:
// the scenario's own, the project file's bound to the session, the
// suggestions at or above the confidence asked for.
func invariantsFor(s *Session, opts Options) ([][]origined, []Unbound, error) {
	var groups [][]origined
	var own []origined
	for _, inv := range s.Scenario.Invariants {
		own = append(own, origined{inv: inv, origin: OriginScenario})
	}
	groups = append(groups, own)
	bound, unbound, err := opts.Invariants.bind(s)
	if err != nil {
		return nil, nil, err
	}
	var proj []origined
	for _, inv := range bound {
		proj = append(proj, origined{inv: inv, origin: OriginProject})
	}
	groups = append(groups, proj)
	if opts.Suggested {
		var sug []origined
		for _, sg := range s.Suggestions {
			if sg.Confidence < opts.MinConfidence || duplicates(sg.Invariant, bound) {
				continue
			}
			c := sg.Confidence
			sug = append(sug, origined{inv: sg.Invariant, origin: OriginSuggested, confidence: &c})
		}
		groups = append(groups, sug)
	}
	return groups, unbound, nil
}

// duplicates reports whether a suggestion restates a project invariant:
// the same type from the same events, so that one rule is judged once.
func duplicates(inv scenarios.Invariant, project []scenarios.Invariant) bool {
	seqs := scenarios.EvidenceSeqs(inv)
	for _, p := range project {
		if p.Type() == inv.Type() && len(seqs) > 0 && slices.Equal(seqs, scenarios.EvidenceSeqs(p)) {
			return true
		}
	}
	return false
}

// lintGroup lints a group of invariants on the session (scenarios.
// LintScenario): one that does not fit the session's events (a required
// path no event names, a source that is not a user's turn) does not
// apply to it, and is returned as not applicable with lint's reason.
func lintGroup(sc *scenarios.Scenario, g []origined) ([]origined, []Finding) {
	if len(g) == 0 {
		return nil, nil
	}
	cp := *sc
	cp.Invariants = nil
	for _, o := range g {
		cp.Invariants = append(cp.Invariants, o.inv)
	}
	why := map[result.Pos]string{}
	for _, e := range scenarios.LintScenario(&cp) {
		if _, seen := why[e.Pos]; !seen {
			why[e.Pos] = e.Msg
		}
	}
	var keep []origined
	var na []Finding
	for _, o := range g {
		if msg, bad := why[o.inv.Position()]; bad && o.inv.Position().Line > 0 {
			msg = strings.TrimPrefix(msg, fmt.Sprintf("invariant %q (%s): ", o.inv.InvariantID(), o.inv.Type()))
			na = append(na, Finding{Status: NotApplicable, Invariant: o.inv.InvariantID(), Check: o.inv.Type(), Origin: o.origin, Confidence: o.confidence, Message: msg})
			continue
		}
		keep = append(keep, o)
	}
	return keep, na
}

func tailAfter(sc *scenarios.Scenario, seq int) []scenarios.Event {
	for i, e := range sc.Events {
		if e.Seq > seq {
			return sc.Events[i:]
		}
	}
	return nil
}

// safeRun is checks.Run, a panic turned into one error result.
func safeRun(in *checks.Input) (res []result.CheckResult) {
	defer func() {
		if p := recover(); p != nil {
			res = []result.CheckResult{{Check: "harness", Kind: result.KindStructural, Status: result.Error, Message: fmt.Sprintf("the checks panicked: %v", p)}}
		}
	}()
	return checks.Run(in)
}

func infoOf(b Boundary) SummaryInfo {
	i := SummaryInfo{Source: b.Source, Form: b.Form}
	if r := b.Recorded; r != nil {
		i.Tool, i.Trigger, i.PreTokens, i.Timestamp = r.Tool, r.Trigger, r.PreTokens, r.Timestamp
	}
	return i
}

// rank orders check statuses from worst to best, for an invariant with
// several results.
var rank = map[result.Status]int{result.Fail: 0, result.Uncertain: 1, result.Error: 2, result.Pass: 3, result.Skip: 4}

// findings turns the checks' results into findings: one per invariant
// (its worst result), then each structural check that failed or could
// not tell. Compression is reported apart.
func findings(sc *scenarios.Scenario, results []result.CheckResult, origin map[string]origined, red *redact.Redactor) []Finding {
	worst := map[string]result.CheckResult{}
	for _, r := range results {
		if r.Kind != result.KindInvariant {
			continue
		}
		if w, ok := worst[r.Invariant]; !ok || rank[r.Status] < rank[w.Status] {
			worst[r.Invariant] = r
		}
	}
	var out []Finding
	for _, inv := range sc.Invariants {
		r, ok := worst[inv.InvariantID()]
		if !ok {
			continue
		}
		o := origin[inv.InvariantID()]
		f := Finding{Status: statusOf(r.Status), Invariant: inv.InvariantID(), Check: inv.Type(), Origin: o.origin, Confidence: o.confidence,
			Message: r.Message, DecidedBy: r.DecidedBy, Evidence: r.Evidence}
		if r.Status == result.Error {
			f.Message = "the check could not run: " + r.Message
		}
		f.SourceSeq = sourceSeq(inv, r)
		if ev, ok := eventAt(sc, f.SourceSeq); ok {
			f.Role, f.Source = string(ev.Role), red.String(quote(inv, ev))
		}
		if f.Status == Lost || f.Status == Uncertain {
			f.Restatement = red.String(restate(sc, inv))
		}
		f.Message = red.String(f.Message)
		out = append(out, f)
	}
	for _, r := range results {
		if r.Kind != result.KindStructural || r.Check == result.CheckCompression {
			continue
		}
		switch r.Status {
		case result.Fail, result.Uncertain, result.Error:
			out = append(out, Finding{Status: statusOf(r.Status), Check: r.Check, Origin: OriginStructural, Message: red.String(r.Message), Evidence: r.Evidence})
		}
	}
	order := map[Status]int{Lost: 0, Uncertain: 1, Kept: 2, NotApplicable: 3}
	slices.SortStableFunc(out, func(a, b Finding) int { return order[a.Status] - order[b.Status] })
	return out
}

func statusOf(s result.Status) Status {
	switch s {
	case result.Pass:
		return Kept
	case result.Fail:
		return Lost
	case result.Skip:
		return NotApplicable
	}
	return Uncertain
}

// sourceSeq is the event an invariant comes from: its first evidence
// seq, else the first seq the check's evidence names.
func sourceSeq(inv scenarios.Invariant, r result.CheckResult) int {
	if seqs := scenarios.EvidenceSeqs(inv); len(seqs) > 0 {
		return seqs[0]
	}
	for _, e := range r.Evidence {
		if e.Seq > 0 {
			return e.Seq
		}
	}
	return 0
}

func eventAt(sc *scenarios.Scenario, seq int) (scenarios.Event, bool) {
	if seq <= 0 {
		return scenarios.Event{}, false
	}
	for _, e := range sc.Events {
		if e.Seq == seq {
			return e, true
		}
	}
	return scenarios.Event{}, false
}

func compressionOf(results []result.CheckResult, b Boundary) *Compression {
	for _, r := range results {
		if r.Check != result.CheckCompression || r.Metrics == nil {
			continue
		}
		c := &Compression{SummaryTokens: int(r.Metrics["summary_tokens"]), ReplacedTokens: int(r.Metrics["replaced_tokens"]), Ratio: r.Metrics["ratio"]}
		c.Excerpt = b.Recorded == nil || b.Recorded.PreTokens == 0
		return c
	}
	return nil
}

// Redactor hides what a verdict of s hides: every secret the session is
// known to hold (its own and the project's secret invariants, every
// secret the import suggested, checked or not) and every API key the
// process knows. A caller that quotes the session beside a verdict (the
// audit's repeated calls and reopened questions) redacts with it.
func Redactor(s *Session, opts Options) *redact.Redactor {
	sc := *s.Scenario
	sc.Invariants = slices.Clone(sc.Invariants)
	if groups, _, err := invariantsFor(s, opts); err == nil {
		for _, g := range groups {
			for _, o := range g {
				sc.Invariants = append(sc.Invariants, o.inv)
			}
		}
	}
	return redactor(s, &sc)
}

// redactor hides every secret the session is known to hold (the
// invariants checked and every secret the import suggested, checked or
// not) and every API key the process knows, in all that the verdict
// quotes.
func redactor(s *Session, sc *scenarios.Scenario) *redact.Redactor {
	var secrets []redact.Secret
	add := func(inv scenarios.Invariant) {
		if sec, ok := scenarios.Pointer(inv).(*scenarios.Secret); ok && sec.Value != "" {
			secrets = append(secrets, redact.Secret{ID: sec.ID, Value: sec.Value})
		}
	}
	for _, inv := range sc.Invariants {
		add(inv)
	}
	for _, sg := range s.Suggestions {
		add(sg.Invariant)
	}
	return redact.Join(redact.New(secrets), redact.Keys())
}

// conclude sets the counts, the status and the reason.
func (v *Verdict) conclude(b Boundary) {
	structural := 0
	for _, f := range v.Findings {
		switch {
		case f.Origin == OriginStructural && f.Status == Lost:
			structural++
		case f.Origin == OriginStructural:
		case f.Status == Kept:
			v.Kept++
		case f.Status == Lost:
			v.Lost++
		case f.Status == Uncertain:
			v.Uncertain++
		}
	}
	n := v.Kept + v.Lost + v.Uncertain
	at := b.String()
	switch {
	case v.Lost > 0 || structural > 0:
		v.Status = Lost
		v.Reason = fmt.Sprintf("%s lost %d of %d invariants", at, v.Lost, n)
		if structural > 0 {
			v.Reason += fmt.Sprintf(", and %s", plural(structural, "structural check failed", "structural checks failed"))
		}
	case n == 0:
		v.Status = Uncertain
		v.Reason = fmt.Sprintf("no invariant applies to %s: nothing was checked, so nothing is known kept", at)
	case v.Uncertain > 0 || hasUncertainStructural(v.Findings):
		v.Status = Uncertain
		v.Reason = fmt.Sprintf("%s kept %d of %d invariants; the checks cannot tell the other %d", at, v.Kept, n, n-v.Kept)
		if v.Uncertain == 0 {
			v.Reason = fmt.Sprintf("%s kept %d of %d invariants; a structural check cannot tell", at, v.Kept, n)
		}
	default:
		v.Status = Kept
		v.Reason = fmt.Sprintf("%s kept %d of %d invariants", at, v.Kept, n)
	}
}

func hasUncertainStructural(fs []Finding) bool {
	for _, f := range fs {
		if f.Origin == OriginStructural && f.Status == Uncertain {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
