package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/verdict"
	"github.com/compact-eval/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
)

// defaultSummarizers are run when no --summarizer is given.
var defaultSummarizers = []string{"builtin:none", "builtin:truncate", "builtin:mask", "builtin:extractive"}

// failpointEnv names the deterministic failpoint: stop-after:N stops
// scheduling after N finished units, as if interrupted.
const failpointEnv = "COMPACT_EVAL_FAILPOINT"

// stringsFlag is a repeatable string flag.
type stringsFlag []string

// String and Set make stringsFlag a flag.Value.
func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// shardFlag is --shard i/n.
type shardFlag struct{ runner.Shard }

// Set parses i/n.
func (s *shardFlag) Set(v string) error {
	sh, err := runner.ParseShard(v)
	if err != nil {
		return err
	}
	s.Shard = sh
	return nil
}

// tokenizerFlag is --tokenizer, one of tokens.Encodings.
type tokenizerFlag string

// String and Set make tokenizerFlag a flag.Value that lists the valid
// encodings when given another.
func (t *tokenizerFlag) String() string { return string(*t) }
func (t *tokenizerFlag) Set(v string) error {
	for _, e := range tokens.Encodings {
		if v == e {
			*t = tokenizerFlag(v)
			return nil
		}
	}
	return fmt.Errorf("unknown encoding %q (valid: %s)", v, strings.Join(tokens.Encodings, ", "))
}

// runFlags are the flags of `compact-eval run`.
type runFlags struct {
	summarizers stringsFlag
	agent       string
	trials      int
	jobs        int
	out         string
	resume      string
	shard       shardFlag
	tokenizer   tokenizerFlag
	config      string
	execTimeout time.Duration
	openai      summarizers.OpenAIOptions
	minPass     reports.MinPass
	baseline    string
	alpha       float64
}

func setupRunFlags(fs *flag.FlagSet) *runFlags {
	f := &runFlags{tokenizer: tokenizerFlag(tokens.DefaultEncoding)}
	fs.Var(&f.summarizers, "summarizer", "summarizer under test, a `spec`, repeatable: builtin:NAME, exec:COMMAND or openai:MODEL (default: "+strings.Join(defaultSummarizers, ", ")+")")
	fs.StringVar(&f.agent, "agent", "builtin:reference", "agent that answers the probes, a `spec` as for --summarizer")
	fs.IntVar(&f.trials, "trials", 1, "trials per scenario and summarizer")
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "units run at once")
	fs.StringVar(&f.out, "out", "", "run `folder` (default compact-eval-out/<UTC timestamp>)")
	fs.StringVar(&f.resume, "resume", "", "finish the interrupted run in this `folder` (give the same flags)")
	fs.Var(&f.shard, "shard", "run only shard `i/n` of the scenarios (1 ≤ i ≤ n, split by a hash of the scenario id)")
	fs.Var(&f.tokenizer, "tokenizer", "token `encoding`: "+strings.Join(tokens.Encodings, ", "))
	fs.StringVar(&f.config, "config", "", "config `file` declaring summarizers, endpoints, agent, trials and gates (default: ./"+config.DefaultFile+" when it exists)")
	fs.DurationVar(&f.execTimeout, "exec-timeout", summarizers.DefaultExecTimeout, "time limit of one exec summarizer or agent call")
	f.openai.RegisterFlags(fs)
	fs.Var(&f.minPass, "min-pass", "gate: minimum pass `rates` per check type, e.g. constraint=1,all=0.9 (exit 1 when one fails)")
	fs.StringVar(&f.baseline, "baseline", "", "gate: a saved result.json `file`; exit 1 on a regression against it")
	fs.Float64Var(&f.alpha, "alpha", 0.05, "significance level of the baseline gate when there are several trials")
	return f
}

func init() {
	register(&Command{
		Name:      "run",
		UsageLine: "run [flags] [paths…]",
		Short:     "run scenarios through summarizers and diff the agent's decisions",
		Long: `Run loads scenario files or folders (default: the suite built into the
binary), runs each through every summarizer (the compaction timeline of each
scenario: cuts, summaries, install), checks every summary, asks every probe
on the full and on the compacted context, and writes the run folder:
journal.jsonl (one line per finished unit), run.json and result.json.

It prints a one-line verdict, a table per summarizer (invariants kept,
structural checks passed, compaction regressions, mean compression ratio and
summary tokens), the worst failures and the path of result.json.

Summarizers, the agent, trials, endpoints and gates can be declared in
compact-eval.yaml (or --config FILE); flags given on the command line win.
Gates are asked for explicitly, with --min-pass, --baseline or gates: in the
config file; the gate verdict is then the first line printed. With
GITHUB_ACTIONS=true the step summary and ::error annotations are written.

Ctrl-C stops scheduling, lets the units in flight finish (a second Ctrl-C
abandons them), writes the result and prints the command that resumes the
run. Exit codes: 0 the run finished and every gate asked for holds, 1 a gate
failed, 2 bad usage or invalid scenarios, 3 the run could not finish (an
interrupt, or every unit errored so that nothing was evaluated). For tests,
COMPACT_EVAL_FAILPOINT=stop-after:N stops the run after N units exactly as an
interrupt would.

	$ compact-eval run
	$ compact-eval run --summarizer builtin:extractive ./my-scenarios
	$ compact-eval run --shard 2/4 --out out/shard-2
	$ compact-eval run --resume compact-eval-out/20261129T233000Z`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			f := setupRunFlags(fs)
			return func(ctx context.Context, args []string) error {
				return runRun(ctx, env, fs, f, args)
			}
		},
	})
}

func runRun(ctx context.Context, env *Env, fs *flag.FlagSet, f *runFlags, args []string) error {
	// Build the token vocabulary while flags, config and scenarios load.
	tokens.Preload(string(f.tokenizer))
	if f.resume != "" && f.out != "" && f.out != f.resume {
		return usagef("--out and --resume name different folders; --resume is enough")
	}
	stopAfter := 0
	if fp := env.Getenv(failpointEnv); fp != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(fp, "stop-after:"))
		if !strings.HasPrefix(fp, "stop-after:") || err != nil || n < 1 {
			return usagef("%s=%q: want stop-after:N with N ≥ 1", failpointEnv, fp)
		}
		stopAfter = n
	}
	file, err := loadConfig(f.config)
	if err != nil {
		return err
	}
	settings, err := config.Merge(file, config.Flags{
		Summarizers: f.summarizers, Agent: f.agent, Trials: f.trials, Jobs: f.jobs,
		ExecTimeout: f.execTimeout, MinPass: f.minPass.Rates, Baseline: f.baseline,
	}, config.FlagsSet(fs))
	if err != nil {
		return usageError{err}
	}
	if len(settings.Summarizers) == 0 {
		for _, raw := range defaultSummarizers {
			spec, _ := summarizers.ParseSpec(raw)
			settings.Summarizers = append(settings.Summarizers, config.Target{Name: raw, Spec: spec})
		}
	}
	if settings.Trials < 1 {
		return usagef("trials %d: want at least 1", settings.Trials)
	}
	if settings.Jobs < 1 {
		return usagef("jobs %d: want at least 1", settings.Jobs)
	}
	if err := f.openai.Validate(); err != nil {
		return usageError{err}
	}
	base := summarizers.Options{ExecTimeout: settings.ExecTimeout, OpenAI: f.openai}
	base.OpenAI.Getenv = env.Getenv
	base.OpenAI.Concurrency = settings.Jobs
	// One limiter for the whole run: rate limits and the slow-down on
	// repeated 429s apply to every model-backed summarizer and agent at once.
	base.OpenAI.Limiter = llm.NewLimiter(llm.Limits{RPM: f.openai.RPM, TPM: f.openai.TPM, Concurrency: settings.Jobs})
	build := func(t config.Target) (summarizers.Options, error) {
		if file == nil {
			return base, nil
		}
		return file.TargetOptions(t, base, env.Getenv)
	}
	var sums []runner.Summarizer
	var names []string
	for _, t := range settings.Summarizers {
		opts, err := build(t)
		if err != nil {
			return inputError{err}
		}
		s, err := summarizers.New(t.Spec, opts)
		if err != nil {
			return usagef("summarizer %s: %v", t.Name, err)
		}
		sums = append(sums, runner.Summarizer{Name: t.Name, Summarizer: s})
		names = append(names, t.Name)
	}
	aopts, err := build(settings.Agent)
	if err != nil {
		return inputError{err}
	}
	agent, err := agents.New(settings.Agent.Spec, aopts)
	if err != nil {
		return usagef("agent %s: %v", settings.Agent.Name, err)
	}
	var baseline *reports.Result
	if settings.Baseline != "" {
		if baseline, err = reports.Read(settings.Baseline); err != nil {
			return inputError{fmt.Errorf("--baseline: %w", err)}
		}
	}
	gates := reports.MinPass{Rates: settings.MinPass}

	suite, err := loadScenarios(args)
	if err != nil {
		var el scenarios.ErrorList
		if errors.As(err, &el) {
			for _, p := range el {
				fmt.Fprintln(env.Stderr, p)
			}
			if len(el) == 1 {
				return inputError{errors.New("1 problem in the scenarios")}
			}
			return inputError{fmt.Errorf("%d problems in the scenarios", len(el))}
		}
		return inputError{err}
	}
	if len(suite.Refs()) == 0 {
		return inputError{errors.New("no scenario found")}
	}

	out, resume := f.out, false
	if f.resume != "" {
		out, resume = f.resume, true
	}
	if out == "" {
		out = freshOut(time.Now())
	}

	abort, cancelAbort := context.WithCancel(context.Background())
	defer cancelAbort()
	go secondSignal(ctx, abort, cancelAbort, env)

	opts := runner.Options{
		Summarizers: sums, Agent: agent, AgentName: settings.Agent.Name,
		Trials: settings.Trials, Jobs: settings.Jobs, Out: out, Resume: resume, Shard: f.shard.Shard,
		Tokenizer: string(f.tokenizer), StopAfter: stopAfter, Abort: abort,
		Paths: args, ResumeCommand: resumeCommand(fs, out, args),
	}
	if env.Terminal {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(env.Stderr, "\r%d/%d units", done, total)
			if done == total {
				fmt.Fprintln(env.Stderr)
			}
		}
	}
	vb := verdict.New()
	opts.OnUnit = vb.Add
	res, err := runner.RunSuite(ctx, suite, opts)
	if errors.Is(err, runner.ErrRunExists) || errors.Is(err, runner.ErrNotResumable) {
		return usageError{err}
	}
	if res == nil {
		return err
	}
	// The gates' verdict comes first: it is what decides the exit code.
	// The run's header holds aggregates only; the baseline gate and the
	// GitHub annotations need every unit, so they read the result file.
	var g reports.GateReport
	asked := (len(gates.Rates) > 0 || baseline != nil) && err == nil && !res.Interrupted
	github := env.Getenv("GITHUB_ACTIONS") == "true" && err == nil
	full := res.Header
	if (asked && baseline != nil) || github {
		var rerr error
		if full, rerr = reports.Read(res.ResultPath); rerr != nil {
			return fmt.Errorf("reading %s for the gates: %w", res.ResultPath, rerr)
		}
	}
	if asked {
		g = reports.Gate(full, gates, baseline, f.alpha)
		if g.Failed {
			fmt.Fprintf(env.Stdout, "FAIL: %s\n", g.Reason())
		} else {
			fmt.Fprintln(env.Stdout, "PASS: every gate holds")
		}
	}
	if werr := vb.Write(env.Stdout, res.Header, res.Planned, res.ResultPath); werr != nil {
		return werr
	}
	if asked {
		fmt.Fprintln(env.Stdout, "\ngates:")
		for _, l := range g.Lines {
			fmt.Fprintln(env.Stdout, "  "+l)
		}
	}
	if res.Interrupted {
		fmt.Fprintf(env.Stderr, "resume with: %s\n", res.Resume)
	}
	if err != nil {
		return err
	}
	if github {
		opts := reports.Options{}
		if asked {
			opts.Gate = &g
		}
		// Annotations go to stdout, where the runner reads workflow commands.
		if werr := reports.WriteGitHub(full, opts, env.Getenv("GITHUB_STEP_SUMMARY"), env.Stdout); werr != nil {
			fmt.Fprintf(env.Stderr, "compact-eval run: writing the GitHub step summary: %v\n", werr)
		}
	}
	if vb.NothingEvaluated() {
		// A run that evaluated nothing must not pass a CI job that asked
		// for no gate: the endpoint was down, or every call failed.
		return errors.New("nothing was evaluated: every unit errored; the reasons are listed above")
	}
	if g.Failed {
		return errGate
	}
	return nil
}

// loadConfig reads --config, or ./compact-eval.yaml when it exists. No file
// is fine: nil.
func loadConfig(path string) (*config.File, error) {
	var (
		file *config.File
		err  error
	)
	if path != "" {
		file, err = config.Load(path)
	} else {
		file, err = config.LoadDefault(".")
	}
	if err != nil {
		return nil, inputError{err}
	}
	return file, nil
}

// loadScenarios checks the scenarios of paths and returns them as a suite
// loaded again file by file while the run goes (runner.LoadSuite). With no
// paths it is the built-in suite, which tests keep valid, loaded per
// scenario as its first unit starts, so the first request goes out early.
func loadScenarios(paths []string) (runner.Suite, error) {
	if len(paths) > 0 {
		return runner.LoadSuite(paths)
	}
	return runner.BuiltinSuite()
}

// freshOut is the default run folder, made unique if a run started in the
// same second.
func freshOut(now time.Time) string {
	base := runner.DefaultOut(now)
	out := base
	for i := 2; ; i++ {
		if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
			return out
		}
		out = fmt.Sprintf("%s-%d", base, i)
	}
}

// resumeCommand is the command line that finishes this run: the flags that
// were set, except --out and --resume, then --resume OUT and the paths.
func resumeCommand(fs *flag.FlagSet, out string, args []string) string {
	words := []string{"compact-eval", "run"}
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "out", "resume":
			return
		case "summarizer":
			for _, v := range *fl.Value.(*stringsFlag) {
				words = append(words, "--summarizer", shellQuote(v))
			}
			return
		}
		dash := "--"
		if len(fl.Name) == 1 {
			dash = "-"
		}
		words = append(words, dash+fl.Name, shellQuote(fl.Value.String()))
	})
	words = append(words, "--resume", shellQuote(out))
	for _, a := range args {
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// secondSignal abandons in-flight units when a second interrupt comes after
// the first one canceled ctx.
func secondSignal(ctx, abort context.Context, cancel context.CancelFunc, env *Env) {
	select {
	case <-ctx.Done():
	case <-abort.Done():
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(ch)
	fmt.Fprintln(env.Stderr, "\ninterrupted: finishing the units in flight (interrupt again to abandon them)")
	select {
	case <-ch:
		cancel()
	case <-abort.Done():
	}
}
