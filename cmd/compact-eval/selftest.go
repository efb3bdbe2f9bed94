package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/judges"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/selftest"
)

// strengthFlag is --min-strength: a rate in [0, 1].
type strengthFlag struct {
	v   float64
	set bool
}

func (s *strengthFlag) String() string {
	if !s.set {
		return ""
	}
	return strconv.FormatFloat(s.v, 'f', -1, 64)
}

func (s *strengthFlag) Set(v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1) { // NaN and ±Inf too
		return fmt.Errorf("want a number in [0, 1], e.g. 0.95")
	}
	s.v, s.set = f, true
	return nil
}

// selftestFlags are the flags of `compact-eval selftest`.
type selftestFlags struct {
	agent       string
	minStrength strengthFlag
	json        string
	jobs        int
	tokenizer   tokenizerFlag
	config      string
	execTimeout time.Duration
	openai      providers.OpenAIOptions
	judge       string
	judgeJSON   string
	execEnv     envNamesFlag
	maxTokens   maxTokensFlags
}

func setupSelftestFlags(fs *flag.FlagSet) *selftestFlags {
	f := &selftestFlags{tokenizer: tokenizerFlag(tokens.DefaultEncoding)}
	fs.StringVar(&f.agent, "agent", agents.ReferenceSpec, "agent that answers the probes of the planted variants, a `spec`: builtin:reference, exec:COMMAND or openai:MODEL")
	fs.Var(&f.minStrength, "min-strength", "gate: the minimum share of planted defects caught, a `rate` in [0, 1] (exit 1 below it)")
	fs.StringVar(&f.json, "json", "", "also write the JSON document (see 'compact-eval schema selftest') to `FILE`; - writes it to standard output and the text to standard error")
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "variants evaluated at once")
	fs.Var(&f.tokenizer, "tokenizer", "token `encoding`: "+strings.Join(tokens.Encodings, ", "))
	fs.StringVar(&f.config, "config", "", "config `file` declaring the agent and its endpoint (default: ./"+config.DefaultFile+" when it exists)")
	fs.DurationVar(&f.execTimeout, "exec-timeout", providers.DefaultExecTimeout, "time limit of one exec agent call")
	fs.Var(&f.execEnv, "exec-env", "let exec agents and judges see this key `variable` (repeatable or comma-separated; by default no exec program sees an API key)")
	fs.StringVar(&f.judge, "judge", "", "also measure a model judge, a `spec` (openai:MODEL or exec:COMMAND; default: judge: in the config file, else none): its verdicts on the oracle and on every planted variant, as a confusion table per class")
	fs.StringVar(&f.judgeJSON, "judge-json", "", "with --judge, write the judge's table and every judgement as JSON to `FILE` (- for standard output)")
	f.openai.RegisterFlags(fs)
	f.maxTokens = registerMaxTokens(fs, roleAgent, roleJudge)
	return f
}

func init() {
	register(&Command{
		Name:      "selftest",
		UsageLine: "selftest [--agent SPEC] [--min-strength R] [--json FILE] [paths…]",
		Short:     "prove each scenario can tell a faithful summary from a broken one",
		Long: `Selftest tests the scenarios themselves (files or folders; default: the
suite built into the binary). For every generation of every scenario it
builds an oracle: the summary a perfect summarizer would write, from the
scenario alone, in a structured and a text-only form.

Satisfiability: every check and every probe must pass on the oracle. A
failure means no summary can pass the scenario; it is printed as
file:line:col of the invariant or probe, with why, and selftest exits 1.

Planted defects: from the oracle of the last generation it derives
single-defect variants for each invariant and probe, one per class (omit,
invert, move-to-text, move-to-supersedes, move-to-extensions, over-list,
fabricate-citation, remove-citation, relation-swap, leak-whole,
leak-part), and runs the checks and the probes on each. A variant is caught
when a check fails or a probe regresses that held on the oracle (for a
probe's own variants, only that probe counts; a remove-citation variant is
also caught when the recall figures no longer count its evidence as cited); otherwise it survived, and the invariant or probe is weak for that
class. Strength is caught / planted.

It prints the verdict, the scenario defects, the strength of each scenario,
every survivor (scenario · target · class · what the variant said · why
nothing caught it) and a table per class. --json writes the same figures as
a JSON document. With --agent, the probes of the variants are answered by
that agent (satisfiability is always judged with the reference agent), so
you measure how well your agent notices a broken summary.

With --judge SPEC the model judge of run --judge is measured on the same
labelled set, and so is the cascade of run --judge-scope uncertain (the
judge asked only where the check could not tell, its verdict settling it):
its judge calls, inversions caught, false alarms and doubts left.
The judge is measured on that set: every invariant of the oracle (label faithful: a right judge
says kept) and of each planted variant (label: its class; an inversion
should be contradicted, an omission missing). It prints first whether the
judge is usable, then its usable verdicts, inversions caught and false
alarms on the oracle with their 95% intervals, and a confusion table per
class; --judge-json FILE writes it with every judgement. A judge is
unusable, and selftest exits 1 saying why, when fewer than 90% of its
judgements have a verdict, or when its verdicts agree with the planted
labels no better than chance (an exact one-sided permutation test at 0.05,
per invariant: docs/selftest.md §7).

Exit codes: 0 every scenario is satisfiable, the gate asked for holds and
the judge (with --judge) is usable; 1 a scenario defect, strength below
--min-strength, or an unusable judge; 2 bad usage or
invalid scenarios; 3 selftest could not finish (an interrupt, or the agent
failed on every probe).

	$ compact-eval selftest
	$ compact-eval selftest --min-strength 0.9 ./my-scenarios
	$ compact-eval selftest --json selftest.json ./my-scenarios

Flags may come before or after the paths.`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			f := setupSelftestFlags(fs)
			return func(ctx context.Context, args []string) error {
				return runSelftest(ctx, env, fs, f, args)
			}
		},
	})
}

func runSelftest(ctx context.Context, env *Env, fs *flag.FlagSet, f *selftestFlags, args []string) error {
	tokens.Preload(string(f.tokenizer))
	agent, name, jobs, judge, err := selftestAgent(env, fs, f)
	if err != nil {
		return err
	}
	if f.judgeJSON != "" && judge == nil {
		return usagef("--judge-json needs --judge SPEC")
	}
	list, err := loadSelftestScenarios(env, args)
	if err != nil {
		return err
	}
	opts := selftest.Options{Agent: agent, AgentName: name, Jobs: jobs, Tokenizer: string(f.tokenizer)}
	if env.Terminal {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(env.Stderr, "\r%d/%d scenarios", done, total)
			if done == total {
				fmt.Fprintln(env.Stderr)
			}
		}
	}
	rep, runErr := selftest.Run(ctx, list, opts)
	if rep == nil {
		return runErr
	}
	if f.minStrength.set {
		v := f.minStrength.v
		rep.MinStrength = &v
	}
	text := env.Stdout
	if f.json == "-" {
		text = env.Stderr
	}
	gateFailed := writeSelftest(text, rep, len(list))
	if judge != nil && runErr == nil {
		unusable, err := measureJudge(ctx, env, text, f, judge, list, jobs)
		if err != nil {
			return err
		}
		gateFailed = gateFailed || unusable
	}
	if f.json != "" {
		var b bytes.Buffer
		if err := selftest.WriteJSON(&b, rep); err != nil {
			return err
		}
		if err := writeOutput(env, f.json, b.Bytes()); err != nil {
			return err
		}
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("interrupted after %d of %d scenarios: %w", len(rep.Scenarios), len(list), runErr)
	case rep.Planted > 0 && rep.Errored == rep.Planted, rep.AgentFailed():
		return errors.New("nothing was evaluated: the agent failed on every probe; the reasons are listed above")
	case !rep.Satisfiable || gateFailed:
		return errGate
	}
	return nil
}

// selftestAgent builds the agent of --agent (or the config file) and the
// number of jobs.
func selftestAgent(env *Env, fs *flag.FlagSet, f *selftestFlags) (agents.Agent, string, int, *namedJudge, error) {
	file, err := loadConfig(f.config)
	if err != nil {
		return nil, "", 0, nil, err
	}
	set := config.FlagsSet(fs)
	set[config.FlagJudgeGate] = true // selftest has no judge gate: off, whatever the file says
	settings, err := config.Merge(file, config.Flags{Agent: f.agent, Judge: f.judge, Jobs: f.jobs, ExecTimeout: f.execTimeout}, set)
	if err != nil {
		return nil, "", 0, nil, usageError{err}
	}
	if settings.Jobs < 1 {
		return nil, "", 0, nil, usagef("jobs %d: want at least 1", settings.Jobs)
	}
	if err := f.openai.Validate(); err != nil {
		return nil, "", 0, nil, usageError{err}
	}
	if err := f.maxTokens.validate(f.openai.MaxTokens); err != nil {
		return nil, "", 0, nil, err
	}
	base := providers.Options{ExecTimeout: settings.ExecTimeout, OpenAI: f.openai, PassEnv: f.execEnv}
	base.OpenAI.Getenv = env.Getenv
	base.OpenAI.Concurrency = settings.Jobs
	base.OpenAI.Limiter = llm.NewLimiter(llm.Limits{RPM: f.openai.RPM, TPM: f.openai.TPM, Concurrency: settings.Jobs})
	build := func(t config.Target) (providers.Options, error) {
		if file == nil {
			return base, nil
		}
		return file.TargetOptions(t, base, env.Getenv)
	}
	var judge *namedJudge
	if t := settings.Judge; t != nil {
		opts, err := build(*t)
		if err != nil {
			return nil, "", 0, nil, inputError{err}
		}
		f.maxTokens.apply(&opts.OpenAI, roleJudge)
		j, err := judges.New(t.Spec, opts)
		if err != nil {
			return nil, "", 0, nil, usagef("judge %s: %v", t.Name, err)
		}
		judge = &namedJudge{Judge: j, name: t.Name}
	}
	if settings.Agent.Spec.Kind == providers.KindBuiltin && settings.Agent.Spec.Name == "reference" {
		return nil, settings.Agent.Name, settings.Jobs, judge, nil
	}
	opts, err := build(settings.Agent)
	if err != nil {
		return nil, "", 0, nil, inputError{err}
	}
	f.maxTokens.apply(&opts.OpenAI, roleAgent)
	agent, err := agents.New(settings.Agent.Spec, opts)
	if err != nil {
		return nil, "", 0, nil, usagef("agent %s: %v", settings.Agent.Name, err)
	}
	return agent, settings.Agent.Name, settings.Jobs, judge, nil
}

// namedJudge is the judge of selftest --judge and its name.
type namedJudge struct {
	judges.Judge
	name string
}

// measureJudge scores the judge against the planted labels
// (selftest.MeasureJudge), prints its verdict (usable or not, and why),
// its rates with their intervals and its confusion table per class, and
// reports whether it is unusable.
func measureJudge(ctx context.Context, env *Env, w io.Writer, f *selftestFlags, j *namedJudge, list []*scenarios.Scenario, jobs int) (unusable bool, err error) {
	rep, err := selftest.MeasureJudge(ctx, list, j.Judge, selftest.JudgeOptions{Name: j.name, Jobs: jobs, Tokenizer: string(f.tokenizer)})
	if rep == nil {
		return false, err
	}
	share := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return rate(*v)
	}
	withCI := func(r selftest.Rate) string {
		if r.Of == 0 {
			return "— (0 of 0)"
		}
		return fmt.Sprintf("%s [%s, %s] (%d of %d)", rate(r.Rate), rate(r.Low), rate(r.High), r.N, r.Of)
	}
	l := rep.Labels
	if rep.Unusable != "" {
		fmt.Fprintf(w, "\njudge %s: UNUSABLE: %s\n", j.name, rep.Unusable)
	} else {
		fmt.Fprintf(w, "\njudge %s: usable: its verdicts agree with %d of %d planted labels, %.1f by chance (p %s, one-sided)\n",
			j.name, l.Correct, l.Of, l.Chance, pValue(l.P))
	}
	fmt.Fprintf(w, "usable verdicts %s, inversions caught %s, false alarms on the oracle %s, in %d judgements\n",
		withCI(rep.Usable), withCI(rep.Inversions), withCI(rep.FalseAlarmRate), len(rep.Judgements))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "label\tjudged\tkept\tcontradicted\tmissing\terrors\tcaught\texpected\tagree\t")
	for _, c := range rep.Classes {
		exp, caught := c.Expected, fmt.Sprint(c.Caught)
		if exp == "" {
			exp = "—"
		}
		if c.Class == selftest.FaithfulClass {
			caught = "—"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t\n", c.Class, c.Judged, c.Kept, c.Contradicted, c.Missing, c.Errors, caught, exp, c.Agree)
	}
	tw.Flush()
	c := rep.Cascade
	fmt.Fprintf(w, "cascade (run --judge-scope uncertain, the default): %d of %d judge calls; inversions caught %s, false alarms on the oracle %s, left uncertain %s\n",
		c.Calls, c.Of, share(c.InversionsCaught), share(c.FalseAlarms), share(c.Uncertain))
	if f.judgeJSON != "" {
		var b bytes.Buffer
		if err := selftest.WriteJudgeJSON(&b, rep); err != nil {
			return false, err
		}
		if err := writeOutput(env, f.judgeJSON, b.Bytes()); err != nil {
			return false, err
		}
	}
	if err != nil {
		return false, fmt.Errorf("measuring the judge: %w", err)
	}
	return rep.Unusable != "", nil
}

// pValue prints p as "= 0.012", or "< 0.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return fmt.Sprintf("= %.3f", p)
}

// loadSelftestScenarios loads and lints the scenarios of paths (the
// built-in suite when there are none), as validate does: a scenario that
// is not valid cannot be selftested.
func loadSelftestScenarios(env *Env, paths []string) ([]*scenarios.Scenario, error) {
	var list []*scenarios.Scenario
	var err error
	if len(paths) == 0 {
		list, err = scenarios.Builtin()
	} else {
		list, err = scenarios.LoadPaths(paths)
	}
	var problems scenarios.ErrorList
	if err != nil {
		var el scenarios.ErrorList
		if !errors.As(err, &el) {
			return nil, inputError{err}
		}
		problems = append(problems, el...)
	}
	problems = append(problems, scenarios.Lint(list)...)
	for _, s := range list {
		problems = append(problems, agents.CheckProbes(s)...)
	}
	if len(problems) > 0 {
		problems.Sort()
		for _, p := range problems {
			fmt.Fprintln(env.Stderr, problem(p))
		}
		return nil, inputError{fmt.Errorf("%s in the scenarios; 'compact-eval validate' lists them too", validateCount(len(problems), "problem"))}
	}
	if len(list) == 0 {
		return nil, inputError{errors.New("no scenario found")}
	}
	return list, nil
}

// writeSelftest prints the verdict, the defects, the strength per scenario,
// the survivors and the table per class; it reports whether the
// --min-strength gate failed.
func writeSelftest(w io.Writer, r *selftest.Report, total int) (gateFailed bool) {
	if r.MinStrength != nil {
		min := *r.MinStrength
		switch {
		case r.Strength == nil:
			gateFailed = true
			fmt.Fprintf(w, "FAIL: nothing was planted, so strength is unknown (--min-strength %s)\n", rate(min))
		case *r.Strength < min:
			gateFailed = true
			fmt.Fprintf(w, "FAIL: strength %s is below --min-strength %s\n", rate(*r.Strength), rate(min))
		default:
			fmt.Fprintf(w, "PASS: strength %s ≥ --min-strength %s\n", rate(*r.Strength), rate(min))
		}
	}
	fmt.Fprintln(w, selftestVerdict(r, total))

	if defective := r.Defective(); len(defective) > 0 {
		fmt.Fprintln(w, "\nscenario defects (file:line:col · form · generation · check · what fails on the oracle · why):")
		for _, s := range defective {
			if s.Error != "" {
				fmt.Fprintf(w, "  %s · %s\n", shown(s.File), shown(s.Error))
			}
			for _, d := range s.Defects {
				where := s.File
				if d.Pos.Line > 0 {
					where = fmt.Sprintf("%s:%d:%d", s.File, d.Pos.Line, d.Pos.Col)
				}
				check := d.Check
				if d.Target != nil {
					check += " " + d.Target.ID
				}
				gen := "-"
				if d.Generation > 0 {
					gen = fmt.Sprintf("g%d", d.Generation)
				}
				line := fmt.Sprintf("  %s · %s · %s · %s · %s", where, d.Form, gen, check, firstLine(d.Message))
				if d.Why != "" {
					line += " · " + d.Why
				}
				fmt.Fprintln(w, line)
			}
		}
	}

	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tplanted\tcaught\tuncertain\tsurvived\terrors\tstrength\tdefects\t")
	for _, s := range r.Scenarios {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t\n", s.ID, s.Planted, s.Caught, s.Uncertain, s.Survived, s.Errored, strength(s.Strength), len(s.Defects))
	}
	tw.Flush()

	writeUncertainVariants(w, r)

	if surv := r.Survivors(); len(surv) > 0 {
		fmt.Fprintln(w, "\nsurvivors (scenario · target · class · what the variant said · why nothing caught it):")
		for _, v := range surv {
			class := string(v.Class)
			if v.Detail != "" {
				class += " (" + v.Detail + ")"
			}
			fmt.Fprintf(w, "  %s · %s %s · %s · %s · %s\n", shown(v.Scenario), v.Target.Type, shown(v.Target.ID), class, shown(v.Said), shown(v.Why))
		}
	}
	var errs []string
	for _, s := range r.Scenarios {
		for _, v := range s.Variants {
			if v.Outcome == selftest.Errored {
				errs = append(errs, fmt.Sprintf("  %s · %s %s · %s · %s", v.Scenario, v.Target.Type, v.Target.ID, v.Class, firstLine(v.Error)))
			}
		}
		for _, u := range s.Unmeasured {
			errs = append(errs, fmt.Sprintf("  %s · probe %s · not measured: %s", s.ID, u.Probe, u.Reason))
		}
	}
	if len(errs) > 0 {
		fmt.Fprintln(w, "\nnot evaluated (scenario · target · class · why):")
		for _, e := range errs {
			fmt.Fprintln(w, e)
		}
	}

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tplanted\tcaught\tuncertain\tsurvived\terrors\tstrength\t")
	for _, c := range r.Classes {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", c.Class, c.Planted, c.Caught, c.Uncertain, c.Survived, c.Errored, strength(c.Strength))
	}
	tw.Flush()
	return gateFailed
}

// writeUncertainVariants lists the variants caught but not settled: a
// check that could not tell, a probe the agent was unsure of.
func writeUncertainVariants(w io.Writer, r *selftest.Report) {
	var doubts []string
	for _, s := range r.Scenarios {
		for _, v := range s.Variants {
			if v.Outcome != selftest.Uncertain || len(v.UncertainBy) == 0 {
				continue
			}
			class := string(v.Class)
			if v.Detail != "" {
				class += " (" + v.Detail + ")"
			}
			by := v.UncertainBy[0]
			what := "probe " + by.Probe
			if by.Probe == "" {
				what = by.Check + " " + by.Invariant
			}
			doubts = append(doubts, fmt.Sprintf("  %s · %s %s · %s · %s · %s: %s", shown(v.Scenario), v.Target.Type, shown(v.Target.ID), class, shown(v.Said), what, shown(firstLine(by.Message))))
		}
	}
	if len(doubts) > 0 {
		fmt.Fprintln(w, "\nuncertain, caught but not settled (scenario · target · class · what the variant said · what could not tell it):")
		for _, d := range doubts {
			fmt.Fprintln(w, d)
		}
	}
}

// selftestVerdict is the one-line verdict.
func selftestVerdict(r *selftest.Report, total int) string {
	var b strings.Builder
	n := len(r.Scenarios)
	switch {
	case r.Interrupted:
		fmt.Fprintf(&b, "verdict: INTERRUPTED after %s of %d", validateCount(n, "scenario"), total)
	case r.Planted == 0:
		fmt.Fprintf(&b, "verdict: NOTHING PLANTED in %s", validateCount(n, "scenario"))
	default:
		caught := fmt.Sprintf("%d of %s caught", r.Caught, validateCount(r.Planted, "planted defect"))
		if r.Uncertain > 0 {
			// caught but not settled: noticed, never a survivor
			caught += fmt.Sprintf(", %d uncertain", r.Uncertain)
		}
		fmt.Fprintf(&b, "verdict: strength %s (%s) in %s", rate(*r.Strength), caught, validateCount(n, "scenario"))
		if r.Survived > 0 {
			fmt.Fprintf(&b, "; %d survived", r.Survived)
		}
		if r.Errored > 0 {
			fmt.Fprintf(&b, "; %d not evaluated", r.Errored)
		}
	}
	defective := len(r.Defective())
	if defective > 0 {
		fmt.Fprintf(&b, "; SCENARIO DEFECTS: %s cannot be passed by a perfect summary", validateCount(defective, "scenario"))
	} else if n > 0 {
		b.WriteString("; the oracle passes every check and probe in both forms")
	}
	return b.String()
}

// selftestHint is the sentence import and validate print to send an author
// to selftest.
func selftestHint(paths string) string {
	if strings.HasPrefix(paths, "(") {
		return "'compact-eval selftest' shows which invariants and probes a broken summary gets past " + paths
	}
	return "'compact-eval selftest " + shellQuote(paths) + "' shows which invariants and probes a broken summary gets past"
}

func strength(s *float64) string {
	if s == nil {
		return "—"
	}
	return rate(*s)
}

// rate prints a rate with two decimals (1.00, 0.87).
func rate(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
