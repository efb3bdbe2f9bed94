package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/summary"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// unit runs one scenario × summarizer × trial.
type unit struct {
	p     *prepared
	spec  string
	sum   summarizers.Summarizer
	agent agents.Agent
	trial int
	check func(*checks.Input) []result.CheckResult
	hard  context.Context // canceled only when in-flight work must stop
	// judge, when set, gives a second opinion on every invariant;
	// judgeGate lets a contradicted verdict fail it.
	judge     judges.Judge
	judgeGate bool
	// judgeAll asks the judge about every invariant, not only the
	// uncertain ones (--judge-scope all).
	judgeAll bool
	now      func() time.Time
	tokens   string
	// recall, when set, asks the recall arm with these limits (run
	// --recall).
	recall *agents.RecallLimits
}

// genRecord is a generation with what its checks need.
type genRecord struct {
	g         result.Generation
	cutIdx    int
	raw       []byte
	summary   *summary.Summary
	prevCover int
	previous  *summary.Summary
	declined  bool
}

// timeline is the state of one unit's walk through its history.
type timeline struct {
	u        *unit
	active   *Active
	coverIdx int // index of the last covered event, -1 when none
	hdr      int // header tokens with the active summary
	gens     []genRecord
	warnings []string
	stopped  bool  // no more compaction (declined or refused)
	err      error // summarizer failure: the unit ends in error
	// skip says why the summarizer does not apply to the scenario
	// (summarizers.Skipper): the unit is skipped, not run.
	skip string
}

// run runs the unit: its timeline (the summarizer calls), then its
// evaluation (checks, judge, probes).
func (u *unit) run() result.Unit {
	return u.evaluate(u.walk())
}

// walk walks the unit's history: every summarizer call and install, no
// check. took is how long it took.
func (u *unit) walk() (tl *timeline, took time.Duration) {
	start := u.now()
	tl = &timeline{u: u, coverIdx: -1, hdr: u.p.headerBase}
	tl.active = NewActive(u.boundary)
	if sk, ok := u.sum.(summarizers.Skipper); ok {
		tl.skip = sk.Skip(u.p.sc)
	}
	if tl.skip == "" {
		tl.walk()
	}
	return tl, u.now().Sub(start)
}

// evaluate checks every generation of the walked timeline tl (and asks the
// judge), asks every probe on the full and the compacted context, and
// returns the unit. Its duration is the walk's, walked, and the
// evaluation's: a unit that waited for an evaluator in between does not
// count the wait.
func (u *unit) evaluate(tl *timeline, walked time.Duration) result.Unit {
	start := u.now().Add(-walked)
	sc := u.p.sc
	out := result.Unit{
		Scenario:   result.ScenarioRef{ID: sc.ID, Title: sc.Title, File: sc.File, Digest: sc.Digest, FileDigest: sc.FileDigest, Tags: sc.Tags, Plan: u.p.plan()},
		Summarizer: u.spec, Trial: u.trial, Status: result.UnitOK,
	}

	out.Warnings = tl.warnings
	if tl.skip != "" {
		return u.skipped(out, tl.skip, start)
	}
	for i := range tl.gens {
		r := &tl.gens[i]
		last := i == len(tl.gens)-1
		if last && len(sc.Arrivals) > 0 {
			for _, a := range sc.Arrivals {
				r.g.Arrivals = append(r.g.Arrivals, a.Seq)
			}
			if r.g.Installed {
				r.g.TokensAfter += u.p.arrivalTokens
			}
		}
		switch {
		case r.declined:
			r.g.Checks = skipAll(sc, "the summarizer declined to compact (no compaction)")
		case r.g.Error != "" && r.raw == nil:
			// the summarizer failed: nothing to check
		default:
			r.g.Checks = u.runChecks(r, last)
			u.judgeChecks(r, r.g.Checks)
			if u.recall != nil && r.summary != nil {
				r.g.Citations = u.p.recallIndex().CitationFigures(r.raw, r.g.Cut, evidenceSeqs(sc))
			}
		}
		out.Generations = append(out.Generations, r.g)
	}
	if out.Generations == nil {
		out.Generations = []result.Generation{}
		if tl.err == nil {
			out.Warnings = append(out.Warnings, "no compaction happened: every summary check is skipped and the compacted context is the full context")
		}
	}
	out.Probes = []result.Probe{}
	if tl.err != nil {
		out.Status, out.Error = result.UnitError, tl.err.Error()
		if u.hard.Err() != nil {
			out.Status = result.UnitAbandoned
		}
		out.Duration = u.now().Sub(start)
		return out
	}
	out.Probes = u.decide(tl.active.Current())
	for _, p := range out.Probes {
		// An agent that failed fails the unit; a probe --judge-gate could
		// not grade is an error of that probe alone, as a check's is.
		agentFailed := p.Full.Error != "" || p.Compacted.Error != ""
		recallFailed := p.Recall != nil && p.Recall.Error != ""
		if (p.Class == result.ProbeErrored && agentFailed || recallFailed) && out.Status == result.UnitOK {
			out.Status = result.UnitError
			out.Error = "probe " + p.ID + ": " + p.ErrorText()
			if u.hard.Err() != nil {
				out.Status = result.UnitAbandoned
			}
		}
	}
	out.Duration = u.now().Sub(start)
	return out
}

// evidenceSeqs lists, for each invariant of sc, the seqs its evidence is
// in (scenarios.EvidenceSeqs).
func evidenceSeqs(sc *scenarios.Scenario) [][]int {
	out := make([][]int, len(sc.Invariants))
	for i, inv := range sc.Invariants {
		out[i] = scenarios.EvidenceSeqs(inv)
	}
	return out
}

// skipped ends a unit whose summarizer does not apply to the scenario:
// no generation, every probe of class skip with the reason, and the
// reason in the unit's skipped. Nothing is passed and nothing failed.
func (u *unit) skipped(out result.Unit, why string, start time.Time) result.Unit {
	out.Generations = []result.Generation{}
	out.Probes = []result.Probe{}
	for _, pr := range u.p.sc.Probes {
		out.Probes = append(out.Probes, result.Probe{ID: pr.ID, Expect: pr.Expect, Answer: pr.Answer, Pos: pr.Pos,
			Class: result.ProbeSkipped, Skipped: "skipped: " + why})
	}
	out.Skipped = why
	out.Duration = u.now().Sub(start)
	return out
}

// boundary refuses a coverage that is not an event of the history or that
// splits a protocol unit.
func (u *unit) boundary(seq int) error {
	i := u.p.indexOf(seq)
	if i < 0 || u.p.sc.Events[i].Seq != seq {
		return fmt.Errorf("seq %d is not an event of the history: %w", seq, ErrBoundary)
	}
	if !u.p.safe[i] {
		return fmt.Errorf("seq %d splits a tool call from its result: %w", seq, ErrBoundary)
	}
	return nil
}

// place returns the index of the cut for a wanted cut index want while the
// history ends at index end: the largest safe index ≤ want that leaves
// keep_recent events after it. A result ≤ coverIdx means no cut is possible.
func (tl *timeline) place(want, end int) int {
	p := tl.u.p
	c := min(want, end-p.sc.Compaction.KeepRecent)
	for c > tl.coverIdx && !p.safe[c] {
		c--
	}
	return c
}

// MinFreed bounds token-triggered compaction: a generation whose compacted
// context keeps more than MinFreed of the tokens before it freed too little,
// and compaction stops after it (with a warning) instead of compacting again
// at every event.
const MinFreed = 0.9

// Threshold returns the token threshold of a compaction setting: threshold_tokens;
// else threshold_fraction × context_window; else 0.8 × context_window; else
// 50,000.
func Threshold(sc *scenarios.Scenario) int {
	c := sc.Compaction
	switch {
	case c.ThresholdTokens > 0:
		return c.ThresholdTokens
	case c.ThresholdFraction > 0 && sc.ContextWindow > 0:
		return int(c.ThresholdFraction * float64(sc.ContextWindow))
	case sc.ContextWindow > 0:
		return int(scenarios.DefaultThresholdFraction * float64(sc.ContextWindow))
	}
	return scenarios.DefaultThresholdTokens
}

func (tl *timeline) walk() {
	p := tl.u.p
	sc := p.sc
	n := len(sc.Events)
	if n == 0 {
		return
	}
	if len(sc.Compaction.At) > 0 {
		for _, a := range sc.Compaction.At {
			if tl.stopped {
				return
			}
			ai := p.indexOf(a)
			if ai < 0 {
				tl.warnings = append(tl.warnings, fmt.Sprintf("cut at %d: before the first event, ignored", a))
				continue
			}
			end := min(ai+sc.Compaction.KeepRecent, n-1)
			c := tl.place(ai, end)
			if c <= tl.coverIdx {
				tl.warnings = append(tl.warnings, fmt.Sprintf("cut at %d: no safe boundary after the active coverage leaves keep_recent %d events; no compaction", a, sc.Compaction.KeepRecent))
				continue
			}
			if sc.Events[c].Seq != a {
				tl.warnings = append(tl.warnings, fmt.Sprintf("cut at %d moved to %d (keep_recent %d, protocol units)", a, sc.Events[c].Seq, sc.Compaction.KeepRecent))
			}
			trigger := fmt.Sprintf("at:%d", a)
			if sc.Compaction.FromRecorded {
				trigger = fmt.Sprintf("recorded:%d", a)
			}
			tl.generation(c, end, trigger, tl.hdr+p.sum(tl.coverIdx, end))
		}
		return
	}
	threshold := Threshold(sc)
	reserve := sc.Compaction.ReserveTokens
	warned := false
	for i := 0; i < n && !tl.stopped; i++ {
		size := tl.hdr + p.sum(tl.coverIdx, i)
		if size+reserve < threshold {
			continue
		}
		c := tl.place(i, i)
		if c <= tl.coverIdx {
			if !warned {
				tl.warnings = append(tl.warnings, fmt.Sprintf("threshold %d reached at seq %d but no safe cut leaves keep_recent %d events after the active coverage", threshold, sc.Events[i].Seq, sc.Compaction.KeepRecent))
				warned = true
			}
			continue
		}
		tl.generation(c, i, fmt.Sprintf("tokens:%d+%d>=%d", size, reserve, threshold), size)
		if g := tl.gens[len(tl.gens)-1].g; g.Installed && float64(g.TokensAfter) > MinFreed*float64(g.TokensBefore) {
			tl.warnings = append(tl.warnings, fmt.Sprintf("generation %d freed only %d of %d tokens (less than %.0f%%): compaction stopped (it would thrash)",
				g.N, g.TokensBefore-g.TokensAfter, g.TokensBefore, 100*(1-MinFreed)))
			tl.stopped = true
		}
	}
}

// request builds the request of generation n through event cutIdx on the
// active summary cur; from is the index of the first event it sends.
func (tl *timeline) request(n, cutIdx int, cur Installed) (req *summarizers.Request, from int) {
	u, p := tl.u, tl.u.p
	sc := p.sc
	req = summarizers.NewRequest()
	req.ScenarioID, req.Generation, req.Cut = sc.ID, n, sc.Events[cutIdx].Seq
	req.Goal, req.Rules, req.Trial = sc.Goal, sc.Rules, u.trial
	req.ContextWindow, req.MaxRatio = sc.ContextWindow, sc.Compaction.EffectiveMaxRatio()
	req.ReplacedTokens = p.prefix[cutIdx+1]
	if sc.Compaction.FromRecorded {
		req.Recorded, _ = sc.RecordedAt(req.Cut)
	}
	from = tl.coverIdx + 1
	if sc.Compaction.EffectiveRebuild() == scenarios.RebuildFromSource {
		from = 0
	} else {
		req.PreviousSummary = cur.Summary
	}
	req.Events = sc.Events[from : cutIdx+1]
	req.SetEventsText(func() string { return p.texts.get(sc.Events, from, cutIdx) })
	return req, from
}

// generation asks the summarizer for a summary through event cutIdx while
// the history ends at end, and installs it.
func (tl *timeline) generation(cutIdx, end int, trigger string, before int) {
	u := tl.u
	p := u.p
	sc := p.sc
	cur := tl.active.Current()
	n := len(tl.gens) + 1
	req, from := tl.request(n, cutIdx, cur)
	rec := genRecord{cutIdx: cutIdx, prevCover: cur.CoversThrough}
	if cur.Summary != nil {
		rec.previous = decode(cur.Summary)
	}
	g := &rec.g
	g.N, g.Trigger, g.Cut, g.From = n, trigger, req.Cut, sc.Events[from].Seq
	g.TokensBefore, g.TokensAfter = before, before
	g.SummaryID, g.BaseID = fmt.Sprintf("g%d", n), cur.ID
	g.ReplacedTokens = p.prefix[cutIdx+1]
	g.Checks = []result.CheckResult{}

	resp, err := callSummarizer(u.hard, u.sum, req)
	if resp != nil {
		g.Call, g.Recorded = resp.Call, resp.Recorded
		if r := resp.Recorded; r != nil && r.PreTokens > 0 {
			// the agent compacted its whole context, which the log
			// counts; the scenario's events may be an excerpt of it
			g.ReplacedTokens = r.PreTokens
		}
	}
	if g.Call.Spec == "" {
		g.Call.Spec = u.spec
	}
	switch {
	case err != nil:
		g.Error = err.Error()
		tl.err = fmt.Errorf("generation %d: summarizer: %w", n, err)
		tl.stopped = true
		tl.gens = append(tl.gens, rec)
		return
	case resp.NoCompaction:
		rec.declined = true
		g.InstallError = "the summarizer declined to compact"
		tl.stopped = true
		tl.gens = append(tl.gens, rec)
		return
	}
	if berr := summary.Bounds(resp.Summary); berr != nil && len(bytes.TrimSpace(resp.Summary)) > 0 {
		// Too large or too deep to read anywhere: an error of this
		// generation, never stored, so that every command that reads
		// the result (gate, report, resume) reads it.
		g.Error = berr.Error()
		g.SummaryTokens = 0
		tl.err = fmt.Errorf("generation %d: summarizer: %w", n, berr)
		tl.stopped = true
		tl.gens = append(tl.gens, rec)
		return
	}
	rec.raw = resp.Summary
	var compact bytes.Buffer
	if json.Compact(&compact, resp.Summary) == nil {
		g.Summary = json.RawMessage(compact.Bytes())
		g.SummaryTokens = p.counter.Count(compact.String())
	} else {
		g.Error = "the summary is not JSON: " + clip.String(string(resp.Summary), 200)
		g.SummaryTokens = p.counter.Count(string(resp.Summary))
	}
	rec.summary = decode(resp.Summary)
	if pc := checks.OpaqueCompaction(g.Call, resp.Summary); pc != nil && pc.Tokens > 0 {
		// ciphertext is no measure of context: the provider's figure is
		g.SummaryTokens = pc.Tokens
	}
	ierr := error(nil)
	switch {
	case rec.summary == nil:
		ierr = errors.New("not a valid summary document")
	case rec.summary.CoversThrough != req.Cut:
		g.CoversThrough = rec.summary.CoversThrough
		ierr = fmt.Errorf("covers_through %d is not the cut %d the runtime chose", rec.summary.CoversThrough, req.Cut)
	default:
		g.CoversThrough = rec.summary.CoversThrough
		ierr = tl.active.Install(Installed{ID: g.SummaryID, BaseID: cur.ID, CoversThrough: req.Cut, Summary: g.Summary})
	}
	if ierr != nil {
		g.InstallError = ierr.Error()
		tl.stopped = true
		tl.warnings = append(tl.warnings, fmt.Sprintf("generation %d refused (%v): compaction stopped", n, ierr))
	} else {
		g.Installed = true
		tl.coverIdx = cutIdx
		tl.hdr = p.headerBase + summaryLabelTokens + g.SummaryTokens
		g.TokensAfter = tl.hdr + p.sum(cutIdx, end)
	}
	tl.gens = append(tl.gens, rec)
}

func (u *unit) runChecks(r *genRecord, last bool) []result.CheckResult {
	sc := u.p.sc
	tail := sc.Events[r.cutIdx+1:]
	if last && len(sc.Arrivals) > 0 {
		tail = append(append([]scenarios.Event(nil), tail...), sc.Arrivals...)
	}
	in := &checks.Input{
		Scenario: sc,
		Gen: checks.Generation{
			N: r.g.N, Cut: r.g.Cut, PrevCoversThrough: r.prevCover, Previous: r.previous,
			Tail: tail, ReplacedTokens: r.g.ReplacedTokens,
		},
		Raw:     r.raw,
		Summary: r.summary,
	}
	if pc := checks.OpaqueCompaction(r.g.Call, r.raw); pc != nil {
		return checks.OpaqueResults(in, pc, safeCheck(u.check, in))
	}
	return safeCheck(u.check, in)
}

// safeCheck runs check, turning a panic into one error result so that the
// run goes on.
func safeCheck(check func(*checks.Input) []result.CheckResult, in *checks.Input) (res []result.CheckResult) {
	defer func() {
		if p := recover(); p != nil {
			res = []result.CheckResult{{Check: "harness", Kind: result.KindStructural, Status: result.Error,
				Message: fmt.Sprintf("the checks panicked: %v", p)}}
		}
	}()
	res = check(in)
	if res == nil {
		res = []result.CheckResult{}
	}
	return res
}

// skipAll is every check skipped, for a generation without a summary.
func skipAll(sc *scenarios.Scenario, why string) []result.CheckResult {
	var out []result.CheckResult
	for _, name := range result.StructuralChecks {
		out = append(out, result.CheckResult{Check: name, Kind: result.KindStructural, Status: result.Skip, Message: why})
	}
	for _, inv := range sc.Invariants {
		out = append(out, result.CheckResult{Check: inv.Type(), Kind: result.KindInvariant, Invariant: inv.InvariantID(), Status: result.Skip, Message: why, Pos: inv.Position()})
	}
	return out
}

// decode reads a summary document; nil when it has no usable shape (not
// JSON, too large, or a field of the wrong type). Schema violations are the
// schema check's business, not the install's: the runtime needs only the
// coverage, and the checks judge the rest.
func decode(raw []byte) *summary.Summary {
	if len(raw) > summary.MaxSummaryBytes {
		return nil
	}
	var s summary.Summary
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	return &s
}

// callSummarizer calls s, turning a panic into an error.
func callSummarizer(ctx context.Context, s summarizers.Summarizer, req *summarizers.Request) (resp *summarizers.Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, fmt.Errorf("panic: %v\n%s", p, firstLines(string(debug.Stack()), 12))
		}
	}()
	resp, err = s.Summarize(ctx, req)
	if err == nil && resp == nil {
		err = errors.New("no response and no error")
	}
	return resp, err
}

// Contexts returns the full context (rules, goal, every event, arrivals)
// and the compacted context (rules, goal, the summary active as the agent
// sees it, that is without its extensions (summary.ForAgent), every
// event after its coverage, arrivals) of sc. With no active summary (nil
// active) the compacted context is the full context.
func Contexts(sc *scenarios.Scenario, active json.RawMessage, coversThrough int) (full, compacted agents.Context) {
	full = agents.Context{Rules: sc.Rules, Goal: sc.Goal, Events: withArrivals(sc.Events, sc.Arrivals)}
	if active == nil {
		return full, full
	}
	i := sort.Search(len(sc.Events), func(i int) bool { return sc.Events[i].Seq > coversThrough })
	compacted = agents.Context{Rules: sc.Rules, Goal: sc.Goal, Summary: summary.ForAgent(active), Events: withArrivals(sc.Events[i:], sc.Arrivals)}
	// provider agents replay the provider's own item (docs/providers.md)
	compacted.Compaction, compacted.FullSummary = summary.ProviderCompactionOf(active), active
	return full, compacted
}

// decide asks every probe on the full and the compacted context. A
// free-text probe's answers are graded by the judge (judgeAnswers).
func (u *unit) decide(active Installed) []result.Probe {
	sc := u.p.sc
	full, compacted := u.p.fullContext(), u.p.fullContext()
	if active.Summary != nil {
		_, compacted = Contexts(sc, active.Summary, active.CoversThrough)
		compacted.ReadOnce() // every probe reads the same compacted context
	}
	cover, digest := contextKey(active.Summary, active.CoversThrough)
	_, memo := u.agent.(agents.Memoizable)
	memo = memo && u.p.memo.serves(u.agent)
	var store *agents.RecallStore
	if _, ok := u.agent.(agents.RecallUser); ok && u.recall != nil && active.Summary != nil {
		store = u.p.recallIndex().Store(active.Summary, active.CoversThrough)
	}
	ask := func(i int, pr scenarios.Probe, arm string, c agents.Context) result.Decision {
		if !memo {
			return u.ask(pr, arm, c, store)
		}
		k := memoKey{probe: i, arm: arm, cover: -1}
		if arm != agents.ArmFull {
			k.cover, k.summary = cover, digest
		}
		if arm == agents.ArmRecall {
			k.recall = *u.recall
		}
		return u.p.memo.do(k, func() result.Decision { return u.ask(pr, arm, c, store) })
	}
	out := make([]result.Probe, 0, len(sc.Probes))
	for i, pr := range sc.Probes {
		rp := result.Probe{ID: pr.ID, Expect: pr.Expect, Pos: pr.Pos}
		if pr.FreeText() {
			rp.Answer = pr.Answer
			if u.judge == nil {
				rp.Class, rp.Skipped = result.ProbeSkipped, "a free-text probe is graded by a model judge: give --judge"
				out = append(out, rp)
				continue
			}
		}
		rp.Full = ask(i, pr, agents.ArmFull, full)
		rp.Compacted = ask(i, pr, agents.ArmCompacted, compacted)
		if pr.FreeText() {
			u.judgeAnswers(pr, &rp)
			if store != nil {
				d := ask(i, pr, agents.ArmRecall, compacted)
				u.judgeRecallAnswer(pr, &rp, &d)
				rp.Recall = &d
				if rp.Class == result.CompactionRegression {
					rp.Recovery = RecoveryOfAnswer(d)
				}
			}
			if rp.Full.Error == "" && rp.Compacted.Error == "" && rp.Full.Answer != rp.Compacted.Answer {
				rp.Diff = AnswerDiff(rp.Full, rp.Compacted)
			}
			out = append(out, rp)
			continue
		}
		rp.Class = Classify(pr.Expect, rp.Full, rp.Compacted)
		if store != nil {
			d := ask(i, pr, agents.ArmRecall, compacted)
			rp.Recall = &d
			if rp.Class == result.CompactionRegression {
				rp.Recovery = Recovery(pr.Expect, d)
			}
		}
		if rp.Full.Error == "" && rp.Compacted.Error == "" && rp.Full.Choice != rp.Compacted.Choice {
			if memo {
				rp.Diff = u.p.memo.diff(rp.Full, rp.Compacted)
			} else {
				rp.Diff = Diff(rp.Full, rp.Compacted)
			}
		}
		out = append(out, rp)
	}
	return out
}

func withArrivals(events, arrivals []scenarios.Event) []scenarios.Event {
	if len(arrivals) == 0 {
		return events
	}
	return append(append(make([]scenarios.Event, 0, len(events)+len(arrivals)), events...), arrivals...)
}

func (u *unit) ask(pr scenarios.Probe, arm string, c agents.Context, store *agents.RecallStore) (d result.Decision) {
	req := agents.ProbeRequest(u.p.sc, pr, arm, c)
	req.Trial = u.trial
	if arm == agents.ArmRecall {
		req.Recall = store.Session(*u.recall)
	}
	defer func() {
		if p := recover(); p != nil {
			d = result.Decision{Error: fmt.Sprintf("agent panic: %v", p)}
		}
	}()
	dec, err := u.agent.Decide(u.hard, req)
	switch {
	case err != nil:
		d = result.Decision{Error: err.Error()}
		if dec != nil {
			// A failed call still has provenance: spec, latency, stderr.
			d.Call, d.RecallCalls = dec.Call, dec.RecallCalls
		}
		return d
	case dec == nil:
		return result.Decision{Error: "agent returned no decision"}
	case pr.FreeText() && strings.TrimSpace(dec.Answer) == "":
		return result.Decision{Error: "agent gave no answer to a free-text probe", Call: dec.Call}
	}
	d = result.Decision{Choice: dec.Choice, Answer: dec.Answer, Reason: dec.Reason, Call: dec.Call, RecallCalls: dec.RecallCalls}
	if s := dec.Sampling; s != nil {
		d.Sampling = &result.Sampling{Seed: s.Seed, Orders: s.Orders, Votes: s.Votes}
	}
	return d
}

// Classify compares both arms' choices with expect: kept (both right),
// compaction_regression (full right, compacted wrong), uncertain (full
// right, compacted agents.Unsure: the agent could not tell), agent_error
// (both wrong), compacted_only (only compacted right), or error when an
// agent call failed.
func Classify(expect string, full, compacted result.Decision) string {
	switch {
	case full.Error != "" || compacted.Error != "":
		return result.ProbeErrored
	case full.Choice == expect && compacted.Choice == expect:
		return result.Kept
	case full.Choice == expect && compacted.Choice == agents.Unsure && expect != agents.Unsure:
		return result.ProbeUncertain
	case full.Choice == expect:
		return result.CompactionRegression
	case compacted.Choice == expect:
		return result.CompactedOnly
	}
	return result.AgentError
}

// Recovery says how the recall arm's decision d fared on a compaction
// regression whose expected choice is expect: result.RecallFailed when
// the call failed, result.RecallLost when it did not choose expect,
// or chose it with no event recalled (noise, not a recovery),
// result.RecoveredBySearch when it did after a search returned events,
// result.RecoveredByCitation when only calls by seq returned events (the
// reference agent asks by seq only what the summary cites).
func Recovery(expect string, d result.Decision) string {
	return recovery(d, d.Error == "", d.Choice == expect)
}

// RecoveryOfAnswer is Recovery for a free-text probe's recall answer d,
// graded by the judge: right when graded correct; failed when the call
// or its grading failed; an unsure grade is lost.
func RecoveryOfAnswer(d result.Decision) string {
	ok := d.Error == "" && graded(d.Judge)
	return recovery(d, ok, ok && d.Judge.Verdict == judges.Correct)
}

// recovery is the recovery of recall decision d: failed unless ok, lost
// unless right and events came back, else by search or by citation.
func recovery(d result.Decision, ok, right bool) string {
	switch {
	case !ok:
		return result.RecallFailed
	case !right:
		return result.RecallLost
	case result.Recalled(d.RecallCalls, result.RecallBySearch):
		return result.RecoveredBySearch
	case result.Recalled(d.RecallCalls, result.RecallBySeq):
		return result.RecoveredByCitation
	}
	return result.RecallLost
}

// Diff is the go-cmp diff (-full +compacted) of two decisions' choice and
// reason. go-cmp randomises its spacing between processes on purpose; the
// non-breaking spaces it may use are turned into spaces so that results are
// byte-identical across runs.
func Diff(full, compacted result.Decision) string {
	type answer struct{ Choice, Reason string }
	d := cmp.Diff(answer{full.Choice, full.Reason}, answer{compacted.Choice, compacted.Reason})
	return strings.ReplaceAll(d, "\u00a0", " ")
}

// AnswerDiff is Diff for a free-text probe: the two answers and reasons.
func AnswerDiff(full, compacted result.Decision) string {
	type answer struct{ Answer, Reason string }
	d := cmp.Diff(answer{full.Answer, full.Reason}, answer{compacted.Answer, compacted.Reason})
	return strings.ReplaceAll(d, "\u00a0", " ")
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
