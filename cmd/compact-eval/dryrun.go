package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/summarizers"
	openai "github.com/sashabaranov/go-openai"
)

// A dry run (run --dry-run) walks the run exactly as it would go (the same
// scenarios, cuts, trials, probes, samples and judge scope, through the
// runner itself) with every model target's client answering from the
// response cache alone (llm.Config.CacheOnly) and no exec program started.
// A call the cache answers is counted as cached and its real reply goes
// on; a call it cannot answer (llm.ErrNotCached, or any other failure: a
// provider agent cannot replay a stand-in summary) is counted as a request
// the run would send,
// its prompt tokens counted offline, and the walk goes on with a stand-in
// reply: a text summary of the size the scenario allows (max_ratio of what
// it replaces, capped by the summarizer's output-token limit), the first option, a judge's
// "missing". A request identical to one counted before (the full-context
// arm, the same for every summarizer of a scenario) is counted once, and
// the others apart as repeats: the cache does not hold them yet, and
// answers them in the run only once the first reply is stored (never with
// --no-cache, which sends them all). "cached" counts only what the cache
// holds now.

// Output tokens the stand-in replies are counted as: a decision
// ({"choice": …, "reason": one sentence}) and a judge's verdict.
const (
	decisionOutTokens = 40
	verdictOutTokens  = 60
)

// planRow is one target of the plan: what the run would ask of it.
type planRow struct {
	role, name, kind string
	// requests the run would send; cached the calls the cache answers
	// now; repeats the calls identical to a request counted before, which
	// the cache answers once the run has stored its reply.
	requests, cached, repeats int
	// execCalls are the exec processes the run would start.
	execCalls int
	// tokensIn and tokensOut are estimated for the requests to send.
	tokensIn, tokensOut int
	// approx is set for a judge asked only where a check cannot tell
	// while some summaries are stand-ins: its count depends on them.
	approx bool
	price  *config.Price
	// recallFirst counts the agent's requests (or exec calls) that open a
	// probe on the recall arm; recallMore and recallMoreIn bound the
	// further rounds those probes may take, one per recall call, and
	// their prompt tokens.
	recallFirst, recallMore, recallMoreIn int
}

// cost is the row's cost in USD, and whether a price was given.
func (r *planRow) cost() (float64, bool) {
	if r.price == nil {
		return 0, false
	}
	return (float64(r.tokensIn)*r.price.Input + float64(r.tokensOut)*r.price.Output) / 1e6, true
}

// planner wraps the targets of a run for a dry run and counts their calls.
type planner struct {
	counter *tokens.Counter
	noCache bool

	mu        sync.Mutex
	rows      []*planRow
	seen      map[string]bool // requests counted, by row and request digest
	estimated bool            // some summary is a stand-in
}

// add counts one call of row: a request (or an exec call), or a repeat
// when an identical one was counted before (the run's cache answers it
// once the first reply is stored).
func (pl *planner) add(row *planRow, digest string, n, in, out int) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	k := row.role + "\x00" + row.name + "\x00" + digest
	if !pl.noCache && row.kind != providers.KindExec && pl.seen[k] {
		row.repeats += n
		return
	}
	pl.seen[k] = true
	if row.kind == providers.KindExec {
		row.execCalls += n
		return
	}
	row.requests += n
	row.tokensIn += in
	row.tokensOut += out
}

// addRecall counts n probes opened on the recall arm with a prompt of in
// tokens: each may take up to lim.Calls further rounds, round i resending
// the prompt with at most i calls' worth of recalled events.
func (pl *planner) addRecall(row *planRow, n, in int, lim agents.RecallLimits) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	k := lim.Calls
	row.recallFirst += n
	row.recallMore += n * k
	row.recallMoreIn += n * (k*in + lim.Tokens*k*(k+1)/2)
}

func (pl *planner) hit(row *planRow, n int) {
	pl.mu.Lock()
	row.cached += n
	pl.mu.Unlock()
}

func (pl *planner) row(role string, t config.Target, prices map[string]config.Price) *planRow {
	r := &planRow{role: role, name: t.Name, kind: t.Spec.Kind}
	if p, ok := prices[t.Name]; ok {
		r.price = &p
	} else if p, ok := prices[t.Spec.Raw]; ok {
		r.price = &p
	}
	pl.rows = append(pl.rows, r)
	return r
}

func digest(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		b, _ := json.Marshal(p)
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// summarizer wraps a model or exec summarizer; builtins run as they are.
// promptFile is the target's prompt template file ("" for the built-in
// one).
func (pl *planner) summarizer(row *planRow, t config.Target, real summarizers.Summarizer, promptFile string, maxTokens int) (summarizers.Summarizer, error) {
	var prompt *summarizers.Prompt
	if t.Spec.Kind == providers.KindOpenAI {
		name, text := "builtin:summarize.tmpl", summarizers.DefaultPrompt()
		if promptFile != "" {
			b, err := inputfile.ReadFile(promptFile)
			if err != nil {
				return nil, err
			}
			name, text = promptFile, string(b)
		}
		var err error
		if prompt, err = summarizers.ParsePrompt(name, text); err != nil {
			return nil, err
		}
	}
	return summarizers.Func(func(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
		if row.kind != providers.KindExec {
			if resp, err := real.Summarize(ctx, req); err == nil {
				pl.hit(row, 1)
				return resp, nil
			}
		}
		in := 0
		if prompt != nil {
			system, user, err := prompt.Render(req)
			if err != nil {
				return nil, err
			}
			in = 8 + pl.counter.Count(system) + pl.counter.Count(user)
		} else {
			in = 8 + pl.counter.Count(req.Rules) + pl.counter.Count(req.Goal) + pl.counter.Count(string(req.PreviousSummary)) + pl.counter.Count(req.EventsText())
		}
		size := max(int(req.MaxRatio*float64(req.ReplacedTokens)), 1)
		if providers.ModelKind(t.Spec.Kind) && maxTokens > 0 {
			// the request's output limit (--max-tokens and the like)
			size = min(size, maxTokens)
		}
		pl.add(row, digest(t.Spec.Raw, req.ScenarioID, req.Trial, req.Cut, req.PreviousSummary), 1, in, size)
		pl.mu.Lock()
		pl.estimated = true
		pl.mu.Unlock()
		// The stand-in names its summarizer: two summarizers' summaries
		// are never the same request to the agent or the judge.
		text := "summary by " + t.Name + strings.Repeat(" estimated", max(size-pl.counter.Count("summary by "+t.Name), 0))
		doc, _ := json.Marshal(map[string]any{"schema_version": 1, "covers_through": req.Cut, "text": text})
		return &summarizers.Response{Summary: doc, Call: result.Call{Spec: t.Spec.Raw}}, nil
	}), nil
}

// agent wraps a model or exec agent; the reference agent runs as it is.
func (pl *planner) agent(row *planRow, real agents.Agent, samples int) agents.Agent {
	return agentFunc(func(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
		n := samples
		if req.FreeText() {
			n = 1
		}
		if row.kind != providers.KindExec {
			// Its context may hold a stand-in summary, which a provider
			// agent cannot replay: any failure is a request to send.
			if d, err := real.Decide(ctx, req); err == nil {
				pl.hit(row, n)
				return d, nil
			}
		}
		msgs, _ := agents.ChatMessages(req)
		in := llm.EstimateTokens(&openai.ChatCompletionRequest{Messages: msgs})
		if req.Recall != nil {
			pl.addRecall(row, n, in, req.Recall.Limits())
		}
		pl.add(row, digest(req.ScenarioID, req.Trial, req.Kind, req.Recall != nil, req.Probe, req.Context), n, n*in, n*decisionOutTokens)
		d := &agents.Decision{Answer: "estimated", Reason: "dry run"}
		if !req.FreeText() && len(req.Probe.Options) > 0 {
			d.Answer = ""
			d.Choice = req.Probe.Options[0].Key
		}
		return d, nil
	})
}

// judge wraps the judge.
func (pl *planner) judge(row *planRow, real judges.Judge) judges.Judge {
	return judges.Func(func(ctx context.Context, req *judges.Request) (*judges.Verdict, error) {
		if row.kind != providers.KindExec {
			if v, err := real.Judge(ctx, req); err == nil {
				pl.hit(row, 1)
				return v, nil
			}
		}
		system, _ := judges.Prompt(req.Kind)
		in := 8 + pl.counter.Count(system) + pl.counter.Count(judges.UserMessage(req))
		pl.add(row, digest(req), 1, in, verdictOutTokens)
		v := &judges.Verdict{Verdict: judges.Missing, Reason: "dry run"}
		if req.Kind == judges.KindAnswer {
			v.Verdict = judges.Unsure
		}
		return v, nil
	})
}

// agentFunc adapts a function to agents.Agent. It stands for a model or
// exec agent, every one of which has a recall tool: it is a RecallUser.
type agentFunc func(ctx context.Context, req *agents.Request) (*agents.Decision, error)

func (f agentFunc) Decide(ctx context.Context, req *agents.Request) (*agents.Decision, error) {
	return f(ctx, req)
}

func (agentFunc) UsesRecall() {}

// wrapForDryRun replaces the plan's model and exec targets by the
// planner's counting ones.
func (p *runPlan) wrapForDryRun(pl *planner, file *config.File, f *runFlags) error {
	var prices map[string]config.Price
	if file != nil {
		prices = file.Prices
	}
	for i, t := range p.settings.Summarizers {
		if t.Spec.Kind == providers.KindBuiltin || t.Spec.Kind == providers.KindRecorded {
			// Runs as it is: no request, no exec call.
			pl.row("summarizer", t, prices)
			continue
		}
		prompt := f.openai.PromptFile
		if t.Prompt != "" {
			prompt = t.Prompt
		}
		s, err := pl.summarizer(pl.row("summarizer", t, prices), t, p.sums[i].Summarizer, prompt, p.sumMaxTokens[i])
		if err != nil {
			return inputError{err}
		}
		p.sums[i].Summarizer = s
	}
	a := p.settings.Agent
	if a.Spec.Kind == providers.KindBuiltin {
		pl.row("agent", a, prices)
	} else {
		p.agent = pl.agent(pl.row("agent", a, prices), p.agent, f.agentSamples)
	}
	if j := p.settings.Judge; j != nil {
		r := pl.row("judge", *j, prices)
		r.approx = p.settings.JudgeScope != result.JudgeScopeAll
		p.judge = pl.judge(r, p.judge)
	}
	return nil
}

// dryRun walks the run through the planner in a scratch folder and prints
// the plan: nothing is sent and no exec program starts.
func dryRun(ctx context.Context, env *Env, f *runFlags, p *runPlan, file *config.File, recall *agents.RecallLimits) error {
	counter, err := tokens.Get(string(f.tokenizer))
	if err != nil {
		return err
	}
	pl := &planner{counter: counter, noCache: f.openai.NoCache, seen: map[string]bool{}}
	if err := p.wrapForDryRun(pl, file, f); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "compact-eval-dry-run-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	ids := map[string]bool{}
	opts := runner.Options{
		Summarizers: p.sums, Agent: p.agent, AgentName: p.settings.Agent.Name,
		Judge: p.judge, JudgeGate: p.settings.JudgeGate, JudgeName: p.judgeName(), JudgeScope: p.settings.JudgeScope,
		Trials: p.settings.Trials, MaxUnits: f.maxUnits, Jobs: p.settings.Jobs, Out: scratch, Shard: f.shard.Shard,
		Run: p.run, Scenarios: f.scenarios.split(), Tokenizer: string(f.tokenizer),
		OnUnit: func(u *result.Unit) { ids[u.Scenario.ID] = true },
		Recall: recall,
	}
	res, err := runner.RunSuite(ctx, p.suite, opts)
	if errors.Is(err, runner.ErrTooManyUnits) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for _, r := range pl.rows {
		if r.role == "judge" && !pl.estimated {
			r.approx = false // every summary is real: the checks' doubts are too
		}
	}
	return writePlan(env.Stdout, res.Planned, len(ids), len(p.sums), p.settings.Trials, pl.rows)
}

// writePlan prints the plan: a verdict line, then one row per target.
func writePlan(w io.Writer, units, scenarios, sums, trials int, rows []*planRow) error {
	var req, cached, repeats, execs, in, out int
	var cost float64
	priced := false
	for _, r := range rows {
		req, cached, repeats, execs, in, out = req+r.requests, cached+r.cached, repeats+r.repeats, execs+r.execCalls, in+r.tokensIn, out+r.tokensOut
		if c, ok := r.cost(); ok {
			cost, priced = cost+c, true
		}
	}
	line := fmt.Sprintf("dry run: %s (%s × %s × %s); %s to send, %d answered by the cache, %s, %d exec calls; about %s tokens in, %s out",
		plural(units, "unit", "units"), plural(scenarios, "scenario", "scenarios"), plural(sums, "summarizer", "summarizers"), plural(trials, "trial", "trials"),
		plural(req, "request", "requests"), cached, plural(repeats, "repeat", "repeats"), execs, humanCount(in), humanCount(out))
	if priced {
		line += fmt.Sprintf("; about $%.2f for the priced targets", cost)
	}
	fmt.Fprintln(w, line+"; nothing was sent")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "role\ttarget\trequests\tcached\trepeats\texec calls\ttokens in\ttokens out\tcost\t")
	for _, r := range rows {
		n := fmt.Sprint(r.requests)
		if r.approx {
			n = "~" + n
		}
		if r.recallFirst > 0 && r.kind != providers.KindExec {
			n += "+"
		}
		c := "—"
		if v, ok := r.cost(); ok {
			c = fmt.Sprintf("$%.2f", v)
		}
		ec := fmt.Sprint(r.execCalls)
		if r.recallFirst > 0 && r.kind == providers.KindExec {
			ec += "+"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t\n", r.role, shown(r.name), n, r.cached, r.repeats, ec, r.tokensIn, r.tokensOut, c)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var notes []string
	execSum, modelAfter := false, false
	for _, r := range rows {
		if r.approx {
			notes = append(notes, "~ the judge is asked only where a check cannot tell, which depends on summaries not written yet: its count is a guess")
		}
		execSum = execSum || r.role == "summarizer" && r.kind == providers.KindExec
		modelAfter = modelAfter || r.role != "summarizer" && providers.ModelKind(r.kind)
	}
	if repeats > 0 {
		notes = append(notes, "repeats: requests identical to one counted above (such as the full context's arm, which every summarizer of a scenario shares): the cache holds none yet; the run sends the first and answers the rest from its stored reply, unless that reply is not cached (an error, a leak) or --no-cache")
	}
	if execSum && modelAfter {
		notes = append(notes, "a dry run starts no exec program: what the agent and the judge are asked about an exec summarizer's summaries is counted as new")
	}
	for _, r := range rows {
		if r.recallFirst == 0 {
			continue
		}
		what := "requests"
		if r.kind == providers.KindExec {
			what = "exec calls"
		}
		notes = append(notes, fmt.Sprintf("+ recall arm: %d of %s's %s above open a probe on it, as if the agent answered at once; each recall call adds one: up to %d more, about %s more tokens in, if every call is spent",
			r.recallFirst, shown(r.name), what, r.recallMore, humanCount(r.recallMoreIn)))
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// humanCount is n with a k or M suffix above ten thousand.
func humanCount(n int) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%.0fM", float64(n)/1e6)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
