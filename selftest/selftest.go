package selftest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/internal/version"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// Options configure Run. The zero value runs the reference agent on one
// worker per CPU with the default tokenizer.
type Options struct {
	// Agent answers the probes of the planted variants; nil means the
	// reference agent. Satisfiability is always judged with the reference
	// agent: a scenario defect does not depend on the agent under test.
	Agent agents.Agent
	// AgentName is the agent's name in the report; "" means
	// builtin:reference.
	AgentName string
	// Jobs bounds the variants evaluated at once; 0 means runtime.NumCPU().
	Jobs int
	// Tokenizer is the token encoding; "" means tokens.DefaultEncoding.
	Tokenizer string
	// Progress, if set, is called after each scenario with the scenarios
	// done and their number, from one goroutine at a time.
	Progress func(done, total int)
}

// Run selftests every scenario of list: it builds the oracle of every
// generation in both forms and checks that it passes every check and keeps
// every probe (satisfiability), then plants every variant in the last
// generation and runs the checks and the probes on it. A canceled ctx stops
// after the variants in flight; the report then covers the scenarios done
// and is marked interrupted, and Run returns ctx's error with it.
func Run(ctx context.Context, list []*scenarios.Scenario, opts Options) (*Report, error) {
	counter, err := tokens.Get(opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	r := &Report{SelftestVersion: ReportVersion, Harness: version.Harness(), Agent: opts.AgentName, Tokenizer: counter.Name(),
		Scenarios: []ScenarioReport{}}
	if r.Agent == "" {
		r.Agent = agents.ReferenceSpec
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	for i, sc := range list {
		if ctx.Err() != nil {
			r.Interrupted = true
			break
		}
		sr := selftest(ctx, sc, opts, jobs)
		checks.Forget(sc)
		if ctx.Err() != nil {
			r.Interrupted = true
			break
		}
		r.Scenarios = append(r.Scenarios, sr)
		r.probes += len(sc.Probes)
		if opts.Progress != nil {
			opts.Progress(i+1, len(list))
		}
	}
	r.finish()
	if r.Interrupted {
		return r, ctx.Err()
	}
	return r, nil
}

// Plan is one scenario's oracle timeline and planted variants, before any
// check or probe runs on them: the labelled data set a judge can be scored
// against.
type Plan struct {
	Scenario *scenarios.Scenario
	// Oracles holds the oracle document of each generation (structured
	// form), labelled LabelFaithful.
	Oracles []OracleDoc
	// Variants are the planted single-defect documents of the last
	// generation, labelled LabelDefect.
	Variants []Variant
	// Skipped lists what could not be planted, and why.
	Skipped []Skipped

	prepared *runner.Prepared
	// reference answers the probes of satisfiability, and of the variants
	// when no other agent is given: each full context once.
	reference *fullOnce
	// blind lists the probes whose answer no summary can change.
	blind []Problem
	ev    *events
	docs  *docCache
	units map[Form]result.Unit
}

// OracleDoc is the oracle of one generation.
type OracleDoc struct {
	Generation int             `json:"generation"`
	Cut        int             `json:"cut"`
	Form       Form            `json:"form"`
	Document   json.RawMessage `json:"document"`
	Label      string          `json:"label"`
	Problems   []Problem       `json:"problems,omitempty"`
}

// docCache builds each cut's oracle once and is safe for concurrent use.
type docCache struct {
	sc *scenarios.Scenario
	ev *events
	mu sync.Mutex
	m  map[int]cached
}

type cached struct {
	d        doc
	problems []Problem
}

func (c *docCache) at(cut int) cached {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[cut]; ok {
		return v
	}
	d, problems := buildDoc(c.sc, c.ev, cut)
	v := cached{d, problems}
	c.m[cut] = v
	return v
}

// oracleSummarizer answers every request with the oracle of its cut.
func (c *docCache) summarizer(form Form) runner.Summarizer {
	return runner.Summarizer{Name: "oracle:" + string(form), Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		raw := marshal(c.at(req.Cut).d.summary(form))
		return &summarizers.Response{Summary: raw, Call: result.Call{Spec: "oracle:" + string(form)}}, nil
	})}
}

// planting answers like the oracle, except from generation gen on, where it
// returns the variant document.
func (c *docCache) planting(gen int, variant json.RawMessage) runner.Summarizer {
	oracle := c.summarizer(Structured)
	return runner.Summarizer{Name: "variant", Summarizer: summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		if req.Generation >= gen {
			return &summarizers.Response{Summary: variant, Call: result.Call{Spec: "variant"}}, nil
		}
		return oracle.Summarizer.Summarize(ctx, req)
	})}
}

// NewPlan builds sc's oracle timeline (by running the oracle through the
// runner's timeline, cuts, install and checks, with the reference agent)
// and plants every variant in its last generation.
func NewPlan(ctx context.Context, sc *scenarios.Scenario, tokenizer string) (*Plan, error) {
	pr, err := runner.Prepare(sc, tokenizer)
	if err != nil {
		return nil, err
	}
	ev := eventsOf(sc)
	p := &Plan{Scenario: sc, prepared: pr, ev: ev, docs: &docCache{sc: sc, ev: ev, m: map[int]cached{}}, units: map[Form]result.Unit{},
		reference: &fullOnce{Agent: reference{}}}
	for _, form := range Forms {
		p.units[form] = pr.Unit(ctx, p.docs.summarizer(form), p.reference, 0, nil)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	var last *result.Generation
	for i, g := range p.units[Structured].Generations {
		if !g.Installed {
			continue
		}
		last = &p.units[Structured].Generations[i]
		c := p.docs.at(g.Cut)
		raw := marshal(c.d.summary(Structured))
		p.Oracles = append(p.Oracles, OracleDoc{Generation: g.N, Cut: g.Cut, Form: Structured, Document: raw, Label: LabelFaithful, Problems: c.problems})
	}
	if last == nil {
		for _, t := range allTargets(sc) {
			p.Skipped = append(p.Skipped, Skipped{Target: t, Reason: "no compaction happens in this scenario: there is no summary to plant a defect in"})
		}
		return p, nil
	}
	planted, skipped, blind := plantAll(sc, ev, p.docs.at(last.Cut).d)
	p.Skipped, p.blind = skipped, blind
	for _, v := range planted {
		raw := marshal(v.d.summary(Structured))
		p.Variants = append(p.Variants, Variant{Scenario: sc.ID, Target: v.target, Class: v.class, Detail: v.detail,
			Generation: last.N, Cut: last.Cut, Said: redact(v.said, sc), Document: raw, Label: LabelDefect})
	}
	return p, nil
}

func allTargets(sc *scenarios.Scenario) []Target {
	var out []Target
	for _, inv := range sc.Invariants {
		out = append(out, targetOf(inv))
	}
	for _, p := range sc.Probes {
		out = append(out, probeTarget(p))
	}
	return out
}

// redact hides every leak of a secret of sc in s, as every output does.
func redact(s string, sc *scenarios.Scenario) string {
	return checks.SecretRedactor(sc).String(s)
}

// selftest runs one scenario.
func selftest(ctx context.Context, sc *scenarios.Scenario, opts Options, jobs int) ScenarioReport {
	sr := ScenarioReport{ID: sc.ID, File: sc.File, Digest: sc.Digest, Defects: []Defect{}, Skipped: []Skipped{}, Variants: []VariantResult{}}
	plan, err := NewPlan(ctx, sc, opts.Tokenizer)
	if err != nil {
		sr.Error = err.Error()
		return sr
	}
	for _, g := range plan.units[Structured].Generations {
		sr.Generations = append(sr.Generations, Generation{N: g.N, Cut: g.Cut, Trigger: g.Trigger})
	}
	sr.Defects = plan.defects()
	sr.Skipped = append(sr.Skipped, plan.Skipped...)

	var agent agents.Agent = plan.reference
	if opts.Agent != nil {
		agent = &fullOnce{Agent: opts.Agent}
	}
	base := plan.units[Structured]
	if opts.Agent != nil {
		// The agent under test answers on the oracle first: that is what
		// its answers on the variants are compared with.
		base = plan.prepared.Unit(ctx, plan.docs.summarizer(Structured), agent, 0, nil)
		base.Generations = plan.units[Structured].Generations
	}
	unusable := map[string]bool{}
	// ungraded holds the probes no one can grade here (a free-text probe
	// with no judge): not measured, never a defect of the scenario.
	ungraded := map[string]string{}
	for _, p := range base.Probes {
		if p.Class == result.Kept {
			continue
		}
		unusable[p.ID] = true
		if p.Class == result.ProbeSkipped {
			ungraded[p.ID] = "a free-text probe is graded only by a judge, and none grades it here: " + clip.String(p.Skipped, 160)
			continue
		}
		var what string
		switch p.Class {
		case result.AgentError:
			what = "the agent is wrong on both contexts already"
		case result.CompactionRegression:
			what = "the agent is right on the full context but not on the oracle"
		default:
			what = "the agent is wrong on the full context"
		}
		reason := fmt.Sprintf("on the oracle %s (%s: full %q, compacted %q, expected %q)", what, p.Class, p.Full.Choice, p.Compacted.Choice, p.Expect)
		if p.Class == result.ProbeErrored {
			reason = "the agent failed on the oracle: " + clip.String(p.ErrorText(), 200)
		}
		if opts.Agent != nil {
			sr.Unmeasured = append(sr.Unmeasured, Unmeasured{Probe: p.ID, Reason: reason, Errored: p.Class == result.ProbeErrored})
		}
	}

	// A target that fails on the oracle, or a probe the agent cannot be
	// measured with, gets no variant: a survivor would only repeat the
	// defect.
	broken := map[string]string{}
	for _, d := range sr.Defects {
		if d.Target != nil {
			broken[d.Target.key()] = "it fails on the oracle (see the scenario defects): fix that first"
		}
	}
	for id, why := range ungraded {
		if _, ok := broken[KindProbe+":"+id]; !ok {
			broken[KindProbe+":"+id] = why
		}
	}
	if opts.Agent != nil {
		for id := range unusable {
			if _, ok := broken[KindProbe+":"+id]; !ok {
				broken[KindProbe+":"+id] = "the agent under test cannot be measured with it (see not evaluated)"
			}
		}
	}
	var todo []*Variant
	skippedFor := map[string]bool{}
	for i := range plan.Variants {
		v := &plan.Variants[i]
		if why, ok := broken[v.Target.key()]; ok {
			if !skippedFor[v.Target.key()] {
				skippedFor[v.Target.key()] = true
				sr.Skipped = append(sr.Skipped, Skipped{Target: v.Target, Reason: why})
			}
			continue
		}
		todo = append(todo, v)
	}

	results := make([]VariantResult, len(todo))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, v := range todo {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = plan.evaluate(ctx, v, agent, base, unusable)
		}()
	}
	wg.Wait()
	sr.Variants = results
	return sr
}

// defects lists what the oracle fails, in both forms, and what the oracle
// builder could not state at all (a pattern that matches nothing its own
// event says blinds its check even when no check fails).
func (p *Plan) defects() []Defect {
	type problem struct {
		gen int
		msg string
	}
	problems := map[string][]problem{}
	p.docs.mu.Lock()
	for _, g := range p.units[Structured].Generations {
		for _, pb := range p.docs.m[g.Cut].problems {
			k := pb.Target.key()
			if !slices.ContainsFunc(problems[k], func(x problem) bool { return x.msg == pb.Message }) {
				problems[k] = append(problems[k], problem{g.N, pb.Message})
			}
		}
	}
	p.docs.mu.Unlock()
	targets := map[string]Target{}
	for _, t := range allTargets(p.Scenario) {
		targets[t.key()] = t
	}
	explained := map[string]bool{}
	why := func(key string) string {
		explained[key] = true
		var msgs []string
		for _, pb := range problems[key] {
			msgs = append(msgs, pb.msg)
		}
		return strings.Join(msgs, "; ")
	}
	out := []Defect{}
	for _, form := range Forms {
		u := p.units[form]
		if u.Status == result.UnitError && u.Error != "" {
			out = append(out, Defect{Form: form, Check: "run", Message: redact(u.Error, p.Scenario)})
		}
		for _, g := range u.Generations {
			if g.InstallError != "" {
				out = append(out, Defect{Form: form, Generation: g.N, Check: "install", Message: "the runtime refused the oracle: " + g.InstallError})
			}
			for _, c := range g.Checks {
				if c.Status != result.Fail && c.Status != result.Error {
					continue
				}
				d := Defect{Form: form, Generation: g.N, Check: c.Check, Message: redact(c.Message, p.Scenario)}
				if c.Invariant != "" {
					t := targets[KindInvariant+":"+c.Invariant]
					d.Target, d.Pos, d.Why = &t, t.Pos, why(t.key())
				}
				out = append(out, d)
			}
		}
		for _, pr := range u.Probes {
			if pr.Class == result.Kept || pr.Class == result.ProbeSkipped {
				continue
			}
			t := targets[KindProbe+":"+pr.ID]
			msg := fmt.Sprintf("%s: on the oracle the full context chose %q and the compacted one %q (expected %q)", pr.Class, pr.Full.Choice, pr.Compacted.Choice, pr.Expect)
			if pr.Class == result.ProbeErrored {
				msg = "the reference agent failed: " + pr.ErrorText()
			} else if pr.Compacted.Reason != "" {
				msg += ": " + pr.Compacted.Reason
			}
			out = append(out, Defect{Form: form, Check: "probe", Target: &t, Pos: t.Pos, Message: redact(clip.String(msg, 400), p.Scenario), Why: why(t.key())})
		}
	}
	for _, pb := range p.blind {
		t := pb.Target
		out = append(out, Defect{Form: Structured, Check: "probe", Target: &t, Pos: t.Pos, Message: pb.Message})
	}
	for _, t := range allTargets(p.Scenario) {
		if explained[t.key()] {
			continue
		}
		for _, pb := range problems[t.key()] {
			check := t.Type
			if t.Kind == KindProbe {
				check = "probe"
			}
			out = append(out, Defect{Form: Structured, Generation: pb.gen, Check: check, Target: &t, Pos: t.Pos,
				Message: "the oracle cannot state it: " + redact(pb.msg, p.Scenario)})
		}
	}
	return out
}

// only asks the agent the probes in ask and answers the others as the
// agent did on the oracle.
type only struct {
	agents.Agent
	ask  map[string]bool
	base result.Unit
}

func (o *only) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	if o.ask[req.Probe.ID] {
		return o.Agent.Decide(ctx, req)
	}
	for _, pr := range o.base.Probes {
		if pr.ID == req.Probe.ID {
			d := pr.Compacted
			if req.Arm == agents.ArmFull {
				d = pr.Full
			}
			if d.Error != "" {
				return nil, errors.New(d.Error)
			}
			return &agents.Decision{Choice: d.Choice, Reason: d.Reason, Call: d.Call}, nil
		}
	}
	return o.Agent.Decide(ctx, req)
}

// reference is the reference agent, with one difference: where it finds
// no option whose requires all match and every option has requires, it
// answers "" (no option) instead of failing. A compacted context that
// supports no answer has lost the evidence: a regression, not an error.
type reference struct{}

func (reference) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	d, err := agents.Reference{}.Decide(ctx, req)
	if err != nil && ctx.Err() == nil {
		return &agents.Decision{Choice: "", Reason: err.Error(), Call: result.Call{Spec: agents.ReferenceSpec}}, nil
	}
	return d, err
}

// fullOnce asks the agent each probe on the full context once: the full
// context is the same for the oracle and every variant.
type fullOnce struct {
	agents.Agent
	mu   sync.Mutex
	full map[string]*fullAnswer
}

type fullAnswer struct {
	once sync.Once
	d    *agents.Decision
	err  error
}

func (f *fullOnce) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	if req.Arm != agents.ArmFull {
		return f.Agent.Decide(ctx, req)
	}
	f.mu.Lock()
	if f.full == nil {
		f.full = map[string]*fullAnswer{}
	}
	a := f.full[req.Probe.ID]
	if a == nil {
		a = &fullAnswer{}
		f.full[req.Probe.ID] = a
	}
	f.mu.Unlock()
	a.once.Do(func() { a.d, a.err = f.Agent.Decide(ctx, req) })
	return a.d, a.err
}

// evaluate runs one variant through the runner and compares it with the
// oracle.
func (p *Plan) evaluate(ctx context.Context, v *Variant, agent agents.Agent, base result.Unit, unusable map[string]bool) VariantResult {
	res := VariantResult{Variant: *v}
	// Ask the agent only the probes that can catch this variant: the
	// target probe for a probe's variant, every measurable probe for an
	// invariant's. The others keep their answers on the oracle.
	ask := map[string]bool{}
	for _, pr := range p.Scenario.Probes {
		ask[pr.ID] = !unusable[pr.ID] && (v.Target.Kind != KindProbe || v.Target.ID == pr.ID)
	}
	u := p.prepared.Unit(ctx, p.docs.planting(v.Generation, v.Document), &only{Agent: agent, ask: ask, base: base}, 0, nil)
	baseline := map[string]result.Status{}
	for _, g := range p.units[Structured].Generations {
		for _, c := range g.Checks {
			baseline[fmt.Sprintf("%d\x00%s\x00%s", g.N, c.Check, c.Invariant)] = c.Status
		}
	}
	for _, g := range u.Generations {
		for _, c := range g.Checks {
			b := baseline[fmt.Sprintf("%d\x00%s\x00%s", g.N, c.Check, c.Invariant)]
			if c.Status == result.Uncertain && b == result.Pass {
				// noticed, not settled: the check could not tell what
				// it told on the oracle
				res.UncertainBy = append(res.UncertainBy, Catch{Check: c.Check, Invariant: c.Invariant, Generation: g.N, Message: redact(c.Message, p.Scenario)})
				continue
			}
			if c.Status != result.Fail && c.Status != result.Error {
				continue
			}
			if b == result.Fail || b == result.Error {
				continue // failed on the oracle too: a defect of the scenario, not a catch
			}
			res.CaughtBy = append(res.CaughtBy, Catch{Check: c.Check, Invariant: c.Invariant, Generation: g.N, Message: redact(c.Message, p.Scenario)})
		}
	}
	if v.Target.Kind == KindProbe {
		// A probe proves itself: only its own answer counts.
		res.CaughtBy, res.UncertainBy = nil, nil
	}
	if v.Class == RemoveCitation {
		// What this class breaks is what the recall figures measure.
		if c, ok := p.citationLost(v); ok {
			res.CaughtBy = append(res.CaughtBy, c)
		}
	}
	kept := map[string]bool{}
	for _, pr := range base.Probes {
		kept[pr.ID] = pr.Class == result.Kept && !unusable[pr.ID]
	}
	var agentErr string
	for _, pr := range u.Probes {
		if v.Target.Kind == KindProbe && pr.ID != v.Target.ID || unusable[pr.ID] {
			continue
		}
		switch {
		case pr.Class == result.ProbeErrored:
			agentErr = "probe " + pr.ID + ": " + pr.ErrorText()
		case kept[pr.ID] && pr.Class == result.CompactionRegression:
			res.CaughtBy = append(res.CaughtBy, Catch{Probe: pr.ID, Message: redact(fmt.Sprintf("compacted context chose %q, expected %q", pr.Compacted.Choice, pr.Expect), p.Scenario)})
		case kept[pr.ID] && pr.Class == result.ProbeUncertain:
			res.UncertainBy = append(res.UncertainBy, Catch{Probe: pr.ID, Message: redact(clip.String(fmt.Sprintf("the agent could not tell on the compacted context (expected %q): %s", pr.Expect, pr.Compacted.Reason), 400), p.Scenario)})
		}
	}
	switch {
	case len(res.CaughtBy) > 0:
		res.Outcome = Caught
		res.UncertainBy = nil
	case len(res.UncertainBy) > 0 && agentErr == "":
		res.Outcome = Uncertain
	case agentErr != "" || u.Status == result.UnitError && len(u.Generations) == 0:
		res.Outcome = Errored
		res.Error = agentErr
		if res.Error == "" {
			res.Error = u.Error
		}
		res.Error = redact(clip.String(res.Error, 400), p.Scenario)
	default:
		res.Outcome = Survived
		res.Why = redact(p.why(v, u, unusable), p.Scenario)
		res.Summary = json.RawMessage(checks.SecretRedactor(p.Scenario).JSON(v.Document))
	}
	if ctx.Err() != nil && res.Outcome != Caught && res.Outcome != Uncertain {
		res.Outcome, res.Error = Errored, "interrupted"
	}
	return res
}

// citationLost tells whether the recall figures see v's invariant lose
// the citation of its evidence: counted as cited ("evidence cited", run
// --recall) on the oracle of v's generation and not on v.
func (p *Plan) citationLost(v *Variant) (Catch, bool) {
	var inv scenarios.Invariant
	for _, i := range p.Scenario.Invariants {
		if i.InvariantID() == v.Target.ID {
			inv = i
		}
	}
	if inv == nil {
		return Catch{}, false
	}
	ev := [][]int{scenarios.EvidenceSeqs(inv)}
	x := p.prepared.RecallIndex()
	oracle := x.CitationFigures(marshal(p.docs.at(v.Cut).d.summary(Structured)), v.Cut, ev)
	got := x.CitationFigures(v.Document, v.Cut, ev)
	if oracle.EvidenceCited == 0 || got.EvidenceCited > 0 {
		return Catch{}, false
	}
	return Catch{Check: CitationsCheck, Invariant: inv.InvariantID(), Generation: v.Generation,
		Message: fmt.Sprintf("the recall figures: no entry cites the evidence of %s %s (#%s) any more; evidence cited 1/1 on the oracle, 0/1 here",
			inv.Type(), inv.InvariantID(), joinSeqs(ev[0]))}, true
}

// why explains a survivor: what the target's own check saw, and what the
// probes answered.
func (p *Plan) why(v *Variant, u result.Unit, unusable map[string]bool) string {
	var parts []string
	if v.Target.Kind == KindInvariant {
		for _, g := range u.Generations {
			if g.N != v.Generation {
				continue
			}
			for _, c := range g.Checks {
				if c.Invariant == v.Target.ID {
					parts = append(parts, checkWhy(c))
				}
			}
		}
	}
	var probes []string
	for _, pr := range u.Probes {
		if v.Target.Kind == KindProbe && pr.ID != v.Target.ID {
			continue
		}
		if unusable[pr.ID] {
			continue // listed as a defect or as not measured already
		}
		if v.Target.Kind == KindProbe {
			probes = append(probes, p.probeWhy(pr, v, u))
		}
	}
	if v.Target.Kind == KindInvariant {
		if len(u.Probes) == 0 {
			probes = append(probes, "the scenario has no probe")
		} else if len(probes) == 0 {
			probes = append(probes, "no probe changed its answer")
		}
	}
	return strings.Join(append(parts, probes...), "; ")
}

// checkWhy says what a check that did not fail saw.
func checkWhy(c result.CheckResult) string {
	name := c.Check
	if c.Invariant != "" {
		name += " " + c.Invariant
	}
	if c.Status == result.Skip {
		return fmt.Sprintf("%s is skipped: %s", name, c.Message)
	}
	for _, e := range c.Evidence {
		if e.Pattern != "" && e.Text != "" && e.Pointer != "" {
			return fmt.Sprintf("%s passes: pattern `%s` matches %s %q", name, e.Pattern, e.Pointer, clip.String(e.Text, 120))
		}
	}
	return fmt.Sprintf("%s passes: %s", name, c.Message)
}

// probeWhy says why a probe kept its answer on a variant: for the
// reference agent, where each pattern of the option it chose matched; for
// another agent, its reason.
func (p *Plan) probeWhy(pr result.Probe, v *Variant, u result.Unit) string {
	if pr.Compacted.Call.Spec != agents.ReferenceSpec {
		return fmt.Sprintf("probe %s still chose %q: %s", pr.ID, pr.Compacted.Choice, clip.String(pr.Compacted.Reason, 200))
	}
	var where []string
	cov := 0
	if n := len(u.Generations); n > 0 {
		cov = u.Generations[n-1].CoversThrough
	}
	for _, sp := range p.Scenario.Probes {
		if sp.ID != pr.ID {
			continue
		}
		for _, pat := range sp.RequiresFor(pr.Compacted.Choice) {
			where = append(where, fmt.Sprintf("requires.%s `%s` matches %s", pr.Compacted.Choice, pat, locate(pat, p.Scenario, v.Document, cov)))
		}
	}
	if len(where) == 0 {
		return fmt.Sprintf("probe %s still chose %q: %s", pr.ID, pr.Compacted.Choice, clip.String(pr.Compacted.Reason, 160))
	}
	return fmt.Sprintf("probe %s still chose %q: %s", pr.ID, pr.Compacted.Choice, strings.Join(where, ", "))
}

// locate says where pattern matches in the compacted context: the rules,
// the goal, a field of the summary, or an event after the cut.
func locate(pattern string, sc *scenarios.Scenario, summary json.RawMessage, cut int) string {
	hit := func(s string) bool { return matchesAny([]string{pattern})(textmatch.Fold(s)) }
	switch {
	case hit(sc.Rules):
		return "the rules"
	case hit(sc.Goal):
		return "the goal"
	}
	var v any
	if json.Unmarshal(summary, &v) == nil {
		found := ""
		walk(v, "", func(ptr, s string) {
			if found == "" && hit(s) {
				found = ptr
			}
		})
		if found == "/goal" {
			return "the goal"
		}
		if found != "" {
			return "the summary at " + found
		}
		if hit(string(summary)) {
			return "the summary (across fields)"
		}
	}
	for _, e := range append(slices.Clone(sc.Events), sc.Arrivals...) {
		if e.Seq > cut && hit(eventText(e)) {
			return fmt.Sprintf("event #%d after the cut", e.Seq)
		}
	}
	return "the context"
}

// walk calls f for every string of a decoded JSON value with its pointer.
func walk(v any, ptr string, f func(ptr, s string)) {
	switch x := v.(type) {
	case string:
		f(ptr, x)
	case []any:
		for i, e := range x {
			walk(e, fmt.Sprintf("%s/%d", ptr, i), f)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			walk(x[k], ptr+"/"+k, f)
		}
	}
}
