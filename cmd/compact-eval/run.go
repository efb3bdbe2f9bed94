package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/providers"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/verdict"
	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/judges"
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

// levelFlag is a significance level (--alpha): a finite number in (0, 1).
type levelFlag float64

func (l *levelFlag) String() string { return strconv.FormatFloat(float64(*l), 'g', -1, 64) }

func (l *levelFlag) Set(v string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(f > 0 && f < 1) { // NaN and ±Inf too
		return errors.New("want a level in (0, 1), e.g. 0.05")
	}
	*l = levelFlag(f)
	return nil
}

// envNamesFlag is --exec-env: names of environment variables, repeatable
// or comma-separated, that exec programs may see although they hold keys.
type envNamesFlag []string

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (e *envNamesFlag) String() string { return strings.Join(*e, ",") }

// Set refuses anything but a variable's name, without echoing it: a key
// pasted by mistake must not reach the console.
func (e *envNamesFlag) Set(v string) error {
	for _, n := range strings.Split(v, ",") {
		if !envNameRE.MatchString(n) {
			return errors.New("want the NAME of an environment variable (such as OPENAI_API_KEY), not a value")
		}
		*e = append(*e, n)
	}
	return nil
}

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

// judgeScopeFlag is --judge-scope: uncertain or all.
type judgeScopeFlag string

func (j *judgeScopeFlag) String() string { return string(*j) }
func (j *judgeScopeFlag) Set(v string) error {
	switch v {
	case result.JudgeScopeUncertain, result.JudgeScopeAll:
		*j = judgeScopeFlag(v)
		return nil
	}
	return fmt.Errorf("%q: want uncertain (ask the judge only where a check cannot tell, the default) or all", v)
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

// gateFlags are the flags of the gates, shared by run and gate.
type gateFlags struct {
	minPass     reports.MinPass
	baseline    string
	baselineMap stringsFlag
	allowEmpty  bool
	alpha       levelFlag
	uncertain   reports.UncertainAs
	// failOnUnjudged makes a baseline pass no longer judged fail the gate.
	failOnUnjudged bool
	// acceptChanged lets the gate hold over scenarios that changed meaning.
	acceptChanged bool
	// allowUnjudged lets the baseline gate hold for a summarizer that no
	// longer gives the evidence the baseline had.
	allowUnjudged bool
	// requireBaseline fails the gates when the baseline file is missing.
	requireBaseline bool
}

func (g *gateFlags) register(fs *flag.FlagSet) {
	fs.Var(&g.minPass, "min-pass", "gate: minimum pass `rates` per check type, e.g. constraint=1,all=0.9 (exit 1 when one fails; errors and errored units count as misses)")
	fs.StringVar(&g.baseline, "baseline", "", "gate: a saved result.json `file`; exit 1 on a regression against it")
	fs.Var(&g.baselineMap, "baseline-map", "gate: pair baseline summarizer OLD with this run's NEW, as `OLD=NEW` (repeatable; OLD= or =NEW leaves one out on purpose)")
	fs.BoolVar(&g.allowEmpty, "allow-empty", false, "gate: let a gate hold when it has nothing to judge (by default it fails)")
	fs.Var(&g.uncertain, "uncertain", "gate: how --min-pass and --baseline count an outcome a check could not tell, `miss|skip|pass`: miss (not passed, the default), skip (left out, like a skipped outcome) or pass (counted as passed)")
	fs.BoolVar(&g.failOnUnjudged, "fail-on-unjudged", false, "gate: an outcome that passed in the baseline and is no longer judged (skipped) fails the baseline gate (by default it is counted apart)")
	fs.BoolVar(&g.allowUnjudged, "allow-unjudged", false, fmt.Sprintf("gate: let the baseline gate hold for a summarizer the run no longer judges as the baseline did (by default it fails when none of its outcomes, none of a kind, or fewer than %.0f%% of the outcomes the baseline judged are judged now)", 100*reports.DefaultMinJudgedShare))
	fs.BoolVar(&g.requireBaseline, "require-baseline", false, "gate: fail (exit 1, before anything runs) when the --baseline file does not exist, instead of creating it with --write-baseline; for pull requests")
	fs.BoolVar(&g.acceptChanged, "accept-changed", false, "gate: let the baseline gate hold over scenarios whose meaning changed since the baseline (their outcomes are listed, not compared; by default a changed scenario fails the gate)")
	g.alpha = reports.DefaultAlpha
	fs.Var(&g.alpha, "alpha", "significance `level` of the baseline gate when there are several trials, in (0, 1)")
}

// runFlags are the flags of `compact-eval run`.
type runFlags struct {
	summarizers   stringsFlag
	agent         string
	trials        int
	jobs          int
	out           string
	resume        string
	maxUnits      int
	repair        bool
	shard         shardFlag
	tokenizer     tokenizerFlag
	config        string
	execTimeout   time.Duration
	openai        providers.OpenAIOptions
	gates         gateFlags
	writeBaseline string
	run           string
	scenarios     stringsFlag
	judge         string
	judgeGate     bool
	judgeScope    judgeScopeFlag
	agentSamples  int
	agentSeed     uint64
	execEnv       envNamesFlag
	progress      progressFlag
	dryRun        bool
	recall        bool
	recallBudget  string
	maxTokens     maxTokensFlags
}

func setupRunFlags(fs *flag.FlagSet) *runFlags {
	f := &runFlags{tokenizer: tokenizerFlag(tokens.DefaultEncoding)}
	fs.Var(&f.summarizers, "summarizer", "summarizer under test, a `spec`, repeatable: builtin:NAME, exec:COMMAND, openai:MODEL, anthropic:MODEL, openai-responses:MODEL or recorded (the compactions kept in the scenario), or NAME=SPEC to give it a stable name (default: "+strings.Join(defaultSummarizers, ", ")+")")
	fs.StringVar(&f.agent, "agent", "builtin:reference", "agent that answers the probes, a `spec` as for --summarizer")
	fs.IntVar(&f.trials, "trials", 1, "trials per scenario and summarizer")
	fs.IntVar(&f.jobs, "j", runtime.NumCPU(), "units run at once (waiting on a model; an offline evaluation runs beside them)")
	fs.StringVar(&f.out, "out", "", "run `folder` (default compact-eval-out/<run id>: the UTC timestamp and a random suffix)")
	fs.IntVar(&f.maxUnits, "max-units", runner.DefaultMaxUnits, "refuse a run that plans more than this many `units` (scenarios × summarizers × trials)")
	fs.StringVar(&f.resume, "resume", "", "finish the interrupted run in this `folder`: its flags and paths are read from its run.json (a flag given again wins)")
	fs.BoolVar(&f.repair, "repair", false, "with --resume: drop the journal lines a crash or a second writer tore (the error names them); their units run again")
	fs.Var(&f.shard, "shard", "run only shard `i/n` of the scenarios (1 ≤ i ≤ n, split by a hash of the scenario id)")
	fs.StringVar(&f.run, "run", "", "run only the scenarios whose id matches this `regexp` (as go test -run)")
	fs.Var(&f.scenarios, "scenario", "run only the scenario with this `id` (repeatable, or comma-separated)")
	fs.Var(&f.tokenizer, "tokenizer", "token `encoding`: "+strings.Join(tokens.Encodings, ", "))
	fs.StringVar(&f.config, "config", "", "config `file` declaring summarizers, endpoints, agent, trials, scenarios and gates (default: ./"+config.DefaultFile+" when it exists)")
	fs.DurationVar(&f.execTimeout, "exec-timeout", providers.DefaultExecTimeout, "time limit of one exec summarizer or agent call")
	fs.Var(&f.execEnv, "exec-env", "let exec summarizers, agents and judges see this key `variable` (repeatable or comma-separated; by default no exec program sees an API key)")
	fs.IntVar(&f.agentSamples, "agent-samples", 1, "a model agent (openai:, anthropic:, openai-responses:) asks each choice probe this many `times` (options in a new order each time) and takes the majority; a tie is \"unsure\"")
	fs.Uint64Var(&f.agentSeed, "agent-seed", agents.DefaultSeed, "`seed` of the order in which a model agent sees a probe's options (per trial and sample; the same on both arms), recorded in the result")
	fs.StringVar(&f.judge, "judge", "", "model judge asked about the invariants a check cannot tell (every invariant with --judge-scope all), a `spec`: openai:MODEL or exec:COMMAND (default: judge: in the config file, else none)")
	fs.Var(&f.judgeScope, "judge-scope", "which invariants the judge is asked about, `uncertain|all`: uncertain (the default) only those a check cannot tell, and its verdict settles them; all every one, its verdict beside the check (default: judge_scope: in the config file, else uncertain)")
	fs.BoolVar(&f.judgeGate, "judge-gate", false, "gate: an invariant the judge calls contradicted fails (reason \"judge: contradicted\"), even when its check passed; one it gave no verdict on is an error")
	fs.BoolVar(&f.recall, "recall", false, "ask every probe a third time, on the recall arm: the compacted context plus a recall tool that returns stored events by seq (the ones the summary cites) or by search; reports say which compaction regressions it recovers, by citation or by search only, and which are lost")
	fs.StringVar(&f.recallBudget, "recall-budget", "", "limits of the recall tool, `CALLS[,EVENTS,TOKENS]`: calls per probe, events and tokens per call (default 4,5,1500; implies --recall)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the plan and send nothing: units, requests per target (those the response cache already answers apart), exec calls, tokens in and out estimated offline, and the cost when the config file gives prices:")
	fs.Var(&f.progress, "progress", "progress on stderr, `auto|tty|plain|none`: tty redraws one line in place (units done/total, errors, requests, retries, cache hits, time left) and clears it at the end; plain prints such a line every 10 s and one at the end, for CI logs; auto (the default) is tty when stderr is a terminal, plain otherwise (default: progress: in the config file, else auto)")
	f.openai.RegisterFlags(fs)
	f.maxTokens = registerMaxTokens(fs, roleSummarizer, roleAgent, roleJudge)
	f.gates.register(fs)
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "when the run finishes and every gate holds, copy its result to this `file`, the baseline of later runs (it may be the --baseline file itself)")
	return f
}

// runLong is the manual of run.
const runLong = `Run loads scenario files or folders (default: scenarios: in the config file,
else the suite built into the binary), runs each through every summarizer
(the compaction timeline of each scenario: cuts, summaries, install), checks
every summary, asks every probe on the full and on the compacted context,
and writes the run folder: journal.jsonl (one line per finished unit),
run.json and result.json. --run REGEXP and --scenario ID select scenarios by
id.

It prints a one-line verdict, a table per summarizer (invariants kept,
structural checks passed, compaction regressions, median compression ratio
and mean summary tokens), the worst failures and the path of result.json.

Summarizers, the agent, trials, endpoints, scenario paths and gates can be
declared in compact-eval.yaml (or --config FILE); flags given on the command
line win. A summarizer's name is its spec unless given one (NAME=SPEC, or
name: in the config file): a baseline pairs summarizers by name, so give
stable names to summarizers whose command line or prompt changes. A NAME
(the part before the first =) starts with an ASCII letter or digit and
holds only ASCII letters, digits and . _ @ + / -: no colon, no space, no =.
A value whose part before the first = is not such a name is a spec as a
whole: 'exec:python3 sum.py --v2=builtin:mask' is one exec summarizer, not
a NAME=SPEC. In the config file, name: may be any string.

A model agent (openai:, anthropic:, openai-responses:) sees a choice
probe's options in an order drawn from
--agent-seed (per trial and sample, the same on both arms), labelled A, B,
C…; its answer is mapped back to the option's key. --agent-samples N asks N
times and takes the majority (a tie is "unsure"); orders and votes are
recorded with each decision.

Every model request carries an output limit: --summarizer-max-tokens,
--agent-max-tokens and --judge-max-tokens (defaults 8192, 2048, 2048),
else a target's params.max_tokens, else --max-tokens. A reply cut at its
limit is an error that says so and names the flag; it is neither retried
nor cached.

--judge openai:MODEL (or exec:COMMAND, or judge: in the config file) asks a
model judge about the invariants a check could not tell (uncertain), and its
verdict settles them (kept: pass; contradicted or missing: fail; no verdict:
still uncertain), recorded as such. --judge-scope all asks it about every
invariant of every generation (secrets never); its verdict on a pass or a
fail is recorded beside the check, never instead, and reports list where
check and judge disagree. Free-text probes are graded by the judge either
way. --judge-gate makes a contradicted verdict fail the
invariant ("judge: contradicted"), and a passed invariant the judge gave no
verdict on an error ("judge: no verdict"). docs/formats.md §4 has the exec
judge protocol.

--recall asks every probe a third time, on the recall arm: the
compacted context plus a recall tool that returns the events the summary
replaced, by seq (those it cites) or by search, within --recall-budget
CALLS[,EVENTS,TOKENS] (default 4,5,1500). Each compaction regression is then
recoverable by citation, by search only, or lost; the table below the main one
shows the split and the recall cost per probe (docs/formats.md, "The recall
arm").

Gates are asked for explicitly, with --min-pass, --baseline or gates: in the
config file; the gate verdict is then the first line printed. Gates fail
closed: a unit that errored counts as failed, an outcome a check could not
tell (uncertain) counts as not passed unless --uncertain skip or pass says
otherwise, a gate with nothing to judge fails (unless --allow-empty), and a
baseline summarizer with no counterpart in the run, or the reverse, fails
(unless paired with --baseline-map). What is new against a baseline is
counted by kind: regressions (decisions first), fixes, outcomes no longer
judged (skipped now) and newly judged; the last two fail nothing unless
--fail-on-unjudged, but a summarizer the run leaves with no evidence (no
outcome, or no outcome of a kind, judged in both runs, or fewer than half
of those the baseline judged) fails unless --allow-unjudged. The first
baseline is written with --write-baseline FILE; --require-baseline fails
(exit 1, before anything runs) when the baseline file is missing, for
pull requests. With
GITHUB_ACTIONS=true the step summary and annotations are written, at paths
relative to the repository root: ::error for what decided a failing gate,
::warning and ::notice for the rest.

Before anything is sent, every model target must have a well-formed
endpoint and its key (OPENAI_API_KEY or ANTHROPIC_API_KEY for a provider's
public API, a config endpoint's api_key_env), or run exits 2 naming the
variable. --dry-run prints the plan and sends nothing: units, requests per
target (those the cache holds, and repeats, apart), exec calls, tokens in and out, and
the cost from prices: in the config file (docs/providers.md). Progress goes
to stderr: units done/total, errors, requests, retries, cache hits, time
left; --progress tty redraws one line, plain prints one every 10 s and at
the end, auto (the default, or progress: in the config file) picks tty on
a terminal, none prints nothing.

Ctrl-C stops scheduling, lets the units in flight finish (a second Ctrl-C
abandons them), writes the result and prints the command that resumes the
run. One process writes a run folder at a time: a second run or resume on
it exits 2, naming the pid that holds it. A journal line a crash tore
stops --resume, naming the line; --resume DIR --repair drops it and runs
its unit again. --resume DIR reads the run's own flags from its run.json
(those not given again: after a kill -9, when no resume command was
printed, a bare --resume DIR finishes the run it names) and, with no paths,
the recorded ones; other paths, other flags or a changed suite are refused,
naming the difference. Exit codes: 0 the run finished and every gate asked for holds, 1 a gate
failed, 2 bad usage or invalid scenarios, 3 the run could not finish (an
interrupt, or every unit errored so that nothing was evaluated). For tests,
COMPACT_EVAL_FAILPOINT=stop-after:N stops the run after N units exactly as an
interrupt would.

	$ compact-eval run
	$ compact-eval run --summarizer builtin:extractive ./my-scenarios
	$ compact-eval run --summarizer 'ours=exec:python3 compact.py' --baseline base/result.json
	$ compact-eval run --run 'readonly|secret' --min-pass constraint=1
	$ compact-eval run --shard 2/4 --out out/shard-2
	$ compact-eval run --resume compact-eval-out/20261129T233000Z-4f9a01c3`

func init() {
	register(&Command{
		Name:      "run",
		UsageLine: "run [flags] [paths…]",
		Short:     "run scenarios through summarizers and diff the agent's decisions",
		Long:      runLong,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			f := setupRunFlags(fs)
			return func(ctx context.Context, args []string) error {
				return runRun(ctx, env, fs, f, args)
			}
		},
	})
}

// runPlan is what a run will do, once flags, config and scenarios are read.
type runPlan struct {
	settings config.Settings
	sums     []runner.Summarizer
	// sumMaxTokens is each summarizer's output-token limit (a model
	// target's; the dry run caps its stand-in summaries with it).
	sumMaxTokens []int
	agent        agents.Agent
	judge        judges.Judge
	suite        runner.Suite
	run          *regexp.Regexp
	// gates are the gates asked for; notes are lines the gate verdict
	// adds (a baseline this run creates).
	gates reports.GateOptions
	notes []string
	// file is the config file read, nil when none.
	file *config.File
	// meter counts the model calls of every summarizer, agent and judge,
	// for the progress line.
	meter *llm.Meter
	// progress is the progress mode (--progress, else progress: in the
	// config file, else auto), printed every progressEvery when plain.
	progress      string
	progressEvery time.Duration
	// recall is the recall arm's budget (--recall, --recall-budget or
	// recall: in the config file); nil when the arm is off.
	recall *agents.RecallLimits
}

func runRun(ctx context.Context, env *Env, fs *flag.FlagSet, f *runFlags, args []string) error {
	// Build the token vocabulary while flags, config and scenarios load.
	tokens.Preload(string(f.tokenizer))
	if f.resume != "" && f.out != "" && f.out != f.resume {
		return usagef("--out and --resume name different folders; --resume is enough")
	}
	if f.repair && f.resume == "" {
		return usagef("--repair repairs the journal of a run being resumed: give --resume FOLDER")
	}
	stopAfter, err := failpoint(env)
	if err != nil {
		return err
	}
	if f.dryRun && f.resume != "" {
		return usagef("--dry-run plans a new run; it does not resume one (drop --resume)")
	}
	// A dry run's clients answer from the cache alone: they never send.
	f.openai.CacheOnly = f.dryRun
	if f.resume != "" {
		// Resume is the same run: its own flags (those not given again),
		// and with no paths the ones it recorded.
		if err := resumeFlags(fs, f.resume); err != nil {
			return err
		}
		if len(args) == 0 {
			args = runner.RecordedPaths(f.resume)
		}
	}
	p, err := planRun(env, fs, f, args)
	if err != nil {
		return err
	}
	if _, ok := p.agent.(agents.RecallUser); p.recall != nil && !ok {
		return usagef("--recall: the agent %s has no recall tool (builtin:reference, exec:, openai:, anthropic: and openai-responses: agents have one)", p.settings.Agent.Name)
	}
	if f.dryRun {
		return dryRun(ctx, env, f, p, p.file, p.recall)
	}
	out, resume, runID := f.out, false, ""
	if f.resume != "" {
		out, resume = f.resume, true
	}
	if out == "" {
		// A folder of its own, made at once: a run started in the same
		// second never shares it.
		if out, runID, err = runner.NewOut(runner.OutRoot, time.Now()); err != nil {
			return err
		}
	}

	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			fmt.Fprintln(env.Stderr, "\ninterrupted: finishing the units in flight (interrupt again to abandon them)")
		case <-finished:
		}
	}()
	abort := env.abort()

	opts := runner.Options{
		Summarizers: p.sums, Agent: p.agent, AgentName: p.settings.Agent.Name,
		Judge: p.judge, JudgeGate: p.settings.JudgeGate, JudgeName: p.judgeName(), JudgeScope: p.settings.JudgeScope,
		Trials: p.settings.Trials, MaxUnits: f.maxUnits, Jobs: p.settings.Jobs, Out: out, Resume: resume, Repair: f.repair, Shard: f.shard.Shard,
		Run: p.run, Scenarios: f.scenarios.split(),
		Tokenizer: string(f.tokenizer), StopAfter: stopAfter, Abort: abort,
		Paths: p.settings.Paths, ResumeCommand: resumeCommand(fs, out, args), RunID: runID, Flags: recordedFlags(fs),
		Git: gitState(ctx, "."),
	}
	if p.settings.Agent.Spec.Kind == providers.KindOpenAI {
		opts.AgentSeed, opts.AgentSamples = f.agentSeed, f.agentSamples
	}
	opts.Recall = p.recall
	prog := startProgress(env.Stderr, resolveProgress(p.progress, env.Terminal), terminalWidth(env), p.meter, p.progressEvery, time.Now)
	if prog != nil {
		opts.Progress = prog.update
	}
	vb := verdict.New()
	opts.OnUnit = vb.Add
	res, err := runner.RunSuite(ctx, p.suite, opts)
	prog.finish()
	if res == nil && runID != "" {
		os.Remove(out) // the folder this run made, if it stayed empty
	}
	if errors.Is(err, runner.ErrRunExists) || errors.Is(err, runner.ErrNotResumable) || errors.Is(err, runner.ErrFolderLocked) || errors.Is(err, runner.ErrTooManyUnits) {
		return usageError{err}
	}
	if res == nil {
		return err
	}
	return finishRun(env, f, p, vb, res, err)
}

// recallLimits is the recall arm's budget: --recall-budget, else
// --recall (--recall=false turns off what the file turns on), else recall:
// in the config file; nil when the arm is off.
func (f *runFlags) recallLimits(set map[string]bool, file *config.File) (*agents.RecallLimits, error) {
	var l agents.RecallLimits
	switch {
	case f.recallBudget != "":
		var err error
		if l, err = agents.ParseRecallLimits(f.recallBudget); err != nil {
			return nil, fmt.Errorf("--recall-budget: %w", err)
		}
	case set["recall"]:
		if !f.recall {
			return nil, nil
		}
		l = agents.DefaultRecallLimits
	case file != nil && file.Recall != nil && file.Recall.On:
		l = agents.RecallLimits{Calls: file.Recall.Calls, Events: file.Recall.Events, Tokens: file.Recall.Tokens}.WithDefaults()
	default:
		return nil, nil
	}
	return &l, nil
}

// printJudge prints one line on the judge's verdicts: how many, and the
// disagreements with the checks, which the reports list.
func printJudge(env *Env, h *result.Result) {
	if h == nil || h.Config.Judge == "" {
		return
	}
	var judged, errs, pc, fk, gated, settled, graded, ungraded int
	for _, s := range h.Judge {
		judged, errs, pc, fk, gated = judged+s.Judged, errs+s.Errors, pc+s.PassContradicted, fk+s.FailKept, gated+s.Gated
		settled += s.Settled
		a := s.Answers
		graded, ungraded = graded+a.Correct+a.Incorrect+a.Unsure, ungraded+a.Errors
	}
	answers := ""
	if graded+ungraded > 0 {
		answers = fmt.Sprintf("; %s to grade, %d without a grade", validateCount(graded+ungraded, "free-text answer"), ungraded)
	}
	var line string
	if h.Config.JudgeScope == result.JudgeScopeUncertain {
		// The cascade: the judge was asked only where a check could not
		// tell; there is nothing to disagree with.
		line = fmt.Sprintf("judge %s: %s the checks could not tell judged, %d settled, %d without a verdict (left uncertain)%s",
			h.Config.Judge, validateCount(judged, "invariant"), settled, errs, answers)
		fmt.Fprintln(env.Stdout, line)
		return
	}
	switch {
	case judged > 0 && errs == judged:
		// Nothing to count: "disagreements: 0" would read as agreement.
		line = fmt.Sprintf("judge %s: %s judged, none with a verdict (%d without): no disagreement with the checks can be counted",
			h.Config.Judge, validateCount(judged, "invariant"), errs)
	case errs > 0:
		line = fmt.Sprintf("judge %s: %s judged, %d without a verdict; disagreements among the %d with one: %d check pass / judge contradicted, %d check fail / judge kept",
			h.Config.Judge, validateCount(judged, "invariant"), errs, judged-errs, pc, fk)
	default:
		line = fmt.Sprintf("judge %s: %s judged, 0 without a verdict; disagreements: %d check pass / judge contradicted, %d check fail / judge kept",
			h.Config.Judge, validateCount(judged, "invariant"), pc, fk)
	}
	line += answers
	if settled > 0 {
		line += fmt.Sprintf("; %d uncertain settled", settled)
	}
	if h.Config.JudgeGate {
		line += fmt.Sprintf("; --judge-gate failed %d", gated)
	}
	if judged > errs {
		line += " (compact-eval report lists them)"
	}
	fmt.Fprintln(env.Stdout, line)
}

// failpoint reads COMPACT_EVAL_FAILPOINT: the number of units after which
// the run stops as if interrupted, 0 when unset.
func failpoint(env *Env) (int, error) {
	fp := env.Getenv(failpointEnv)
	if fp == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(fp, "stop-after:"))
	if !strings.HasPrefix(fp, "stop-after:") || err != nil || n < 1 {
		return 0, usagef("%s=%q: want stop-after:N with N ≥ 1", failpointEnv, fp)
	}
	return n, nil
}

// planRun reads the config, merges it with the flags, builds the
// summarizers and the agent, reads the baseline and loads the scenarios:
// everything that can be refused before the first unit runs.
func planRun(env *Env, fs *flag.FlagSet, f *runFlags, args []string) (*runPlan, error) {
	file, err := loadConfig(f.config)
	if err != nil {
		return nil, err
	}
	settings, err := config.Merge(file, config.Flags{
		Summarizers: f.summarizers, Agent: f.agent, Judge: f.judge, JudgeGate: f.judgeGate, JudgeScope: string(f.judgeScope), Trials: f.trials, Jobs: f.jobs,
		ExecTimeout: f.execTimeout, MinPass: f.gates.minPass.Rates, Baseline: f.gates.baseline, Uncertain: f.gates.uncertain, Paths: args,
	}, config.FlagsSet(fs))
	if err != nil {
		return nil, usageError{err}
	}
	if len(settings.Summarizers) == 0 {
		for _, raw := range defaultSummarizers {
			spec, _ := providers.ParseSpec(raw)
			settings.Summarizers = append(settings.Summarizers, config.Target{Name: raw, Spec: spec})
		}
	}
	if settings.Trials < 1 {
		return nil, usagef("trials %d: want at least 1", settings.Trials)
	}
	if f.maxUnits < 1 {
		return nil, usagef("--max-units %d: want at least 1", f.maxUnits)
	}
	if settings.Jobs < 1 {
		return nil, usagef("jobs %d: want at least 1", settings.Jobs)
	}
	// Before anything is built or sent: every model target has its key
	// and a well-formed endpoint.
	if err := preflight(file, settings, env.Getenv); err != nil {
		return nil, err
	}
	if err := f.openai.Validate(); err != nil {
		return nil, usageError{err}
	}
	p := &runPlan{settings: settings, file: file, meter: &llm.Meter{}, progress: string(f.progress)}
	if p.progress == "" && file != nil {
		p.progress = file.Progress
	}
	if p.progressEvery, err = progressPeriod(env); err != nil {
		return nil, err
	}
	if f.run != "" {
		if p.run, err = regexp.Compile(f.run); err != nil {
			return nil, usagef("--run %q: %v", f.run, err)
		}
	}
	if err := p.build(env, file, f); err != nil {
		return nil, err
	}
	if p.gates, p.notes, err = runGates(settings, &f.gates, f.writeBaseline, p.names()); err != nil {
		return nil, err
	}
	if p.recall, err = f.recallLimits(config.FlagsSet(fs), file); err != nil {
		return nil, usageError{err}
	}
	if p.suite, err = loadScenarios(env, settings.Paths, p.recall != nil); err != nil {
		return nil, err
	}
	if err := checkSelection(p.suite, f.shard.Shard, p.run, f.scenarios.split()); err != nil {
		return nil, err
	}
	return p, nil
}

// build makes the summarizers and the agent of the plan's settings.
func (p *runPlan) build(env *Env, file *config.File, f *runFlags) error {
	if err := f.maxTokens.validate(f.openai.MaxTokens); err != nil {
		return err
	}
	base := providers.Options{ExecTimeout: p.settings.ExecTimeout, OpenAI: f.openai, PassEnv: f.execEnv}
	base.OpenAI.Getenv = env.Getenv
	base.OpenAI.Concurrency = p.settings.Jobs
	// One limiter for the whole run: rate limits and the slow-down on
	// repeated 429s apply to every model-backed summarizer and agent at once.
	base.OpenAI.Limiter = llm.NewLimiter(llm.Limits{RPM: f.openai.RPM, TPM: f.openai.TPM, Concurrency: p.settings.Jobs})
	base.OpenAI.Meter = p.meter
	build := func(t config.Target) (providers.Options, error) {
		if file == nil {
			return base, nil
		}
		return file.TargetOptions(t, base, env.Getenv)
	}
	for _, t := range p.settings.Summarizers {
		if err := providers.CheckAgentReads(t.Spec, p.settings.Agent.Spec); err != nil {
			return usageError{err}
		}
		opts, err := build(t)
		if err != nil {
			return inputError{err}
		}
		f.maxTokens.apply(&opts.OpenAI, roleSummarizer)
		p.sumMaxTokens = append(p.sumMaxTokens, opts.OpenAI.MaxTokens)
		s, err := summarizers.New(t.Spec, opts)
		if err != nil {
			return usagef("summarizer %s: %v", t.Name, err)
		}
		p.sums = append(p.sums, runner.Summarizer{Name: t.Name, Summarizer: s})
	}
	aopts, err := build(p.settings.Agent)
	if err != nil {
		return inputError{err}
	}
	f.maxTokens.apply(&aopts.OpenAI, roleAgent)
	if f.agentSamples < 1 || f.agentSamples > agents.MaxSamples {
		return usagef("--agent-samples %d: want 1 to %d", f.agentSamples, agents.MaxSamples)
	}
	sampling := agents.Sampling{Seed: f.agentSeed, Samples: f.agentSamples}
	if p.agent, err = agents.NewSampled(p.settings.Agent.Spec, aopts, sampling); err != nil {
		return usagef("agent %s: %v", p.settings.Agent.Name, err)
	}
	if t := p.settings.Judge; t != nil {
		jopts, err := build(*t)
		if err != nil {
			return inputError{err}
		}
		f.maxTokens.apply(&jopts.OpenAI, roleJudge)
		if p.judge, err = judges.New(t.Spec, jopts); err != nil {
			return usagef("judge %s: %v", t.Name, err)
		}
	}
	return nil
}

// judgeName is the judge's name in reports, "" without a judge.
func (p *runPlan) judgeName() string {
	if p.settings.Judge == nil {
		return ""
	}
	return p.settings.Judge.Name
}

// names are the summarizers' names, in run order.
func (p *runPlan) names() []string {
	out := make([]string, len(p.sums))
	for i, s := range p.sums {
		out[i] = s.Name
	}
	return out
}

// runGates reads the gates of a run from its settings and flags: the
// baseline file (a missing one is an error that says how to create it,
// unless --write-baseline names it: this run then creates it) and the
// pairing of its summarizers with the run's names.
func runGates(s config.Settings, g *gateFlags, writeBaseline string, names []string) (reports.GateOptions, []string, error) {
	opts := reports.GateOptions{MinPass: reports.MinPass{Rates: s.MinPass}, Alpha: float64(g.alpha), AllowEmpty: g.allowEmpty, Uncertain: s.Uncertain, FailOnUnjudged: g.failOnUnjudged,
		AcceptChanged: g.acceptChanged, JudgeGate: s.JudgeGate, AllowUnjudged: g.allowUnjudged}
	if !(g.alpha > 0 && g.alpha < 1) {
		return opts, nil, usagef("--alpha %g: want a level in (0, 1), e.g. 0.05", g.alpha)
	}
	if s.Baseline == "" {
		switch {
		case len(g.baselineMap) > 0:
			return opts, nil, usagef("--baseline-map needs a baseline (--baseline FILE or gates.baseline in the config file)")
		case g.requireBaseline:
			return opts, nil, usagef("--require-baseline needs a baseline (--baseline FILE or gates.baseline in the config file)")
		}
		return opts, nil, nil
	}
	if _, err := os.Stat(s.Baseline); errors.Is(err, os.ErrNotExist) {
		if g.requireBaseline {
			// No green without evidence: a pull request whose baseline is
			// missing is not gated on the other gates alone.
			return opts, nil, gateError{fmt.Errorf("baseline %s does not exist, and --require-baseline asks for one: nothing to gate this change against (the run that writes it with --write-baseline, on main, has not published it, or it expired)", s.Baseline)}
		}
		if writeBaseline != "" && sameFile(writeBaseline, s.Baseline) {
			return opts, []string{fmt.Sprintf("note baseline: %s does not exist yet: this run creates it (--write-baseline), so there is nothing to compare with", s.Baseline)}, nil
		}
		return opts, nil, inputError{fmt.Errorf("baseline %s does not exist. Create the first baseline with the same flags plus --write-baseline %s (for example on the main branch), then gate later runs with --baseline %s", s.Baseline, s.Baseline, s.Baseline)}
	}
	base, err := reports.Read(s.Baseline)
	if err != nil {
		return opts, nil, inputError{fmt.Errorf("baseline: %w", err)}
	}
	opts.Baseline = base
	if opts.Pairing, err = reports.ParsePairing(g.baselineMap, result.Summarizers(base), names); err != nil {
		return opts, nil, usagef("--baseline-map %v", err)
	}
	return opts, nil, nil
}

// sameFile reports whether two paths name the same file, existing or not.
func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// finishRun applies the gates to a run that ended, prints the verdict,
// writes the GitHub outputs and the baseline, and returns what decides the
// exit code.
func finishRun(env *Env, f *runFlags, p *runPlan, vb *verdict.Builder, res *runner.Outcome, runErr error) error {
	// The gates' verdict comes first: it is what decides the exit code.
	// The run's header holds aggregates only; the gates and the GitHub
	// annotations need every unit, so they read the result file.
	asked := p.gates.Asked() && runErr == nil && !res.Interrupted
	github := env.Getenv("GITHUB_ACTIONS") == "true" && runErr == nil
	full := res.Header
	if asked || github {
		var rerr error
		if full, rerr = reports.Read(res.ResultPath); rerr != nil {
			return fmt.Errorf("reading %s for the gates: %w", res.ResultPath, rerr)
		}
	}
	var g *reports.GateReport
	switch {
	case asked:
		g = applyGates(full, p.gates, p.notes)
		printGateVerdict(env, g)
	case len(p.notes) > 0 && runErr == nil && !res.Interrupted:
		// A gate was asked for that cannot apply yet (the first baseline):
		// say so first, where a PASS would be.
		fmt.Fprintf(env.Stdout, "NOT GATED: %s\n", strings.Join(notGated(p.gates, p.notes, []string{"min-pass (no rate asked)"}), "; "))
	}
	if err := vb.Write(env.Stdout, res.Header, res.Planned, res.ResultPath); err != nil {
		return err
	}
	printJudge(env, res.Header)
	switch {
	case g != nil:
		printGateLines(env, g)
	case len(p.notes) > 0 && runErr == nil:
		printGateLines(env, &reports.GateReport{Lines: p.notes})
	}
	if res.Interrupted {
		fmt.Fprintf(env.Stderr, "resume with: %s\n", res.Resume)
	}
	if runErr != nil {
		return runErr
	}
	if github {
		writeGitHub(env, full, g)
	}
	failed := g != nil && g.Failed
	if f.writeBaseline != "" {
		switch {
		case vb.NothingEvaluated():
			fmt.Fprintf(env.Stderr, "baseline not written: nothing was evaluated\n")
		case failed:
			fmt.Fprintf(env.Stderr, "baseline not written: a gate failed\n")
		default:
			if err := copyFile(res.ResultPath, f.writeBaseline); err != nil {
				return fmt.Errorf("writing the baseline: %w", err)
			}
			fmt.Fprintf(env.Stdout, "baseline: %s\n", f.writeBaseline)
		}
	}
	if vb.NothingEvaluated() {
		// A run that evaluated nothing must not pass a CI job that asked
		// for no gate: the endpoint was down, or every call failed.
		return errors.New("nothing was evaluated: every unit errored; the reasons are listed above")
	}
	if failed {
		return errGate
	}
	return nil
}

// applyGates gates r and adds the plan's notes to the verdict lines: a
// baseline this run creates is said not gated, and why.
func applyGates(r *result.Result, opts reports.GateOptions, notes []string) *reports.GateReport {
	g := reports.Gate(r, opts)
	g.Lines = append(g.Lines, notes...)
	g.NotGated = notGated(opts, notes, g.NotGated)
	return &g
}

// notGated is the gates not applied (reports.GateReport.NotGated), with
// a baseline this run creates (a note of runGates) said as such.
func notGated(opts reports.GateOptions, notes, not []string) []string {
	for _, n := range notes {
		if why, ok := strings.CutPrefix(n, "note baseline: "); ok && opts.Baseline == nil {
			why, _, _ = strings.Cut(why, " (--write-baseline)") // the gate lines say the rest
			not = slices.DeleteFunc(slices.Clone(not), func(s string) bool { return strings.HasPrefix(s, "baseline ") })
			not = append(not, "baseline ("+why+")")
		}
	}
	return not
}

// printGateVerdict prints the first line of a gated run: PASS or FAIL.
func printGateVerdict(env *Env, g *reports.GateReport) {
	if g.Failed {
		fmt.Fprintf(env.Stdout, "FAIL: %s\n", g.Reason())
	} else {
		fmt.Fprintln(env.Stdout, "PASS: "+g.Held())
	}
}

// printGateLines prints the gate verdict lines under "gates:".
func printGateLines(env *Env, g *reports.GateReport) {
	fmt.Fprintln(env.Stdout, "\ngates:")
	for _, l := range g.Lines {
		fmt.Fprintln(env.Stdout, "  "+l)
	}
}

// writeGitHub writes the step summary and the annotations of r; a failure
// to write them is reported, never fatal.
func writeGitHub(env *Env, r *result.Result, g *reports.GateReport) {
	opts := reports.Options{Gate: g}
	if dir, err := os.Getwd(); err == nil {
		opts.AnnotationFile = annotationFiles(r, repoRoot(context.Background(), env, dir), dir)
	}
	// Annotations go to stdout, where the runner reads workflow commands.
	if err := reports.WriteGitHub(r, opts, env.Getenv("GITHUB_STEP_SUMMARY"), env.data()); err != nil {
		fmt.Fprintf(env.Stderr, "compact-eval: writing the GitHub step summary: %v\n", err)
	}
}

// copyFile copies src to dst through a temporary file in dst's folder, so
// that a reader never sees half a baseline.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(dst); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".baseline-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// split returns the values of a repeatable flag, each also split at commas.
func (s stringsFlag) split() []string {
	var out []string
	for _, v := range s {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// checkSelection refuses --run and --scenario filters that select no
// scenario of the suite: a typo must not pass a CI job by running nothing.
func checkSelection(suite runner.Suite, shard runner.Shard, run *regexp.Regexp, ids []string) error {
	refs := suite.Refs()
	have := map[string]bool{}
	for _, r := range refs {
		have[r.ID] = true
	}
	var unknown []string
	for _, id := range ids {
		if !have[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return usagef("--scenario: no scenario %s among the %d of the suite (list them with compact-eval validate --show)", strings.Join(unknown, ", "), len(refs))
	}
	if run == nil && len(ids) == 0 {
		return nil
	}
	n := 0
	for _, r := range refs {
		if (run == nil || run.MatchString(r.ID)) && (len(ids) == 0 || slices.Contains(ids, r.ID)) {
			n++
		}
	}
	if n == 0 {
		return usagef("--run %q and --scenario select none of the %d scenarios", run, len(refs))
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
// loaded again file by file while the run goes (runner.LoadSuite), printing
// every problem. With no paths it is the built-in suite, which tests keep
// valid, loaded per scenario as its first unit starts, so the first request
// goes out early. With recall (run --recall) the built-in suite includes
// the scenarios that measure the recall arm.
func loadScenarios(env *Env, paths []string, recall bool) (runner.Suite, error) {
	var suite runner.Suite
	var err error
	switch {
	case len(paths) > 0:
		suite, err = runner.LoadSuite(paths)
	case recall:
		suite, err = runner.BuiltinRecallSuite()
	default:
		suite, err = runner.BuiltinSuite()
	}
	if err != nil {
		var el scenarios.ErrorList
		if errors.As(err, &el) {
			for _, p := range el {
				fmt.Fprintln(env.Stderr, problem(p))
			}
			if len(el) == 1 {
				return nil, inputError{errors.New("1 problem in the scenarios")}
			}
			return nil, inputError{fmt.Errorf("%d problems in the scenarios", len(el))}
		}
		return nil, inputError{err}
	}
	if len(suite.Refs()) == 0 {
		return nil, inputError{errors.New("no scenario found")}
	}
	return suite, nil
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
