package config

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/providers"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// Flag names of `compact-eval run` that the file can also set; Merge reads
// them from the set given by FlagsSet.
const (
	FlagSummarizer  = "summarizer"
	FlagAgent       = "agent"
	FlagTrials      = "trials"
	FlagJobs        = "j"
	FlagExecTimeout = "exec-timeout"
	FlagMinPass     = "min-pass"
	FlagBaseline    = "baseline"
	FlagJudge       = "judge"
	FlagJudgeGate   = "judge-gate"
	FlagUncertain   = "uncertain"
	FlagJudgeScope  = "judge-scope"
)

// Flags are the values of the run flags that the file can also set, as
// parsed (defaults included).
type Flags struct {
	// Summarizers are the --summarizer values in order: a spec, or
	// NAME=SPEC to give it a stable name (ParseTarget).
	Summarizers []string
	// Agent is --agent.
	Agent string
	// Judge is --judge ("" when not given: no judge unless the file names
	// one); JudgeGate is --judge-gate.
	Judge     string
	JudgeGate bool
	// JudgeScope is --judge-scope (uncertain or all).
	JudgeScope string
	// Trials, Jobs and ExecTimeout are --trials, -j and --exec-timeout.
	Trials, Jobs int
	ExecTimeout  time.Duration
	// MinPass is --min-pass (check type → rate); Baseline is --baseline.
	MinPass  map[string]float64
	Baseline string
	// Uncertain is --uncertain: how the gates count an uncertain outcome.
	Uncertain reports.UncertainAs
	// Paths are the scenario paths given as arguments.
	Paths []string
}

// Settings are a run's settings once flags and file are merged.
type Settings struct {
	// Summarizers are the targets to run, in order: the --summarizer flags
	// when given, else the file's list, else nil (the caller's defaults).
	Summarizers []Target
	// Agent is --agent when given, else the file's agent, else --agent's
	// default.
	Agent Target
	// Judge is --judge when given, else the file's judge, else nil (no
	// judge); JudgeGate is --judge-gate when given, else gates.judge.
	Judge     *Target
	JudgeGate bool
	// JudgeScope is --judge-scope when given, else judge_scope, else
	// result.JudgeScopeAll with JudgeGate (the gate acts on passes), else
	// "" (result.JudgeScopeUncertain).
	JudgeScope string
	// Trials, Jobs and ExecTimeout follow Pick.
	Trials, Jobs int
	ExecTimeout  time.Duration
	// MinPass and Baseline are the gates: each flag replaces the file's.
	MinPass  map[string]float64
	Baseline string
	// Uncertain is --uncertain when given, else gates.uncertain, else
	// "" (reports.UncertainMiss: an uncertain outcome is a miss).
	Uncertain reports.UncertainAs
	// Paths are the scenario paths: the command line's when it names any,
	// else the file's scenarios, else nil (the built-in suite).
	Paths []string
}

// Merge applies the precedence rule (flag given > file > flag default) to
// every setting. f may be nil (no config file); set holds the names of the
// flags given on the command line (FlagsSet). Flag specs that do not parse
// are an error naming the flag.
func Merge(f *File, flags Flags, set map[string]bool) (Settings, error) {
	if f == nil {
		f = &File{}
	}
	var s Settings
	if set[FlagSummarizer] || len(f.Summarizers) == 0 {
		seen := map[string]string{}
		for _, raw := range flags.Summarizers {
			t, err := ParseTarget(raw)
			if err != nil {
				return Settings{}, fmt.Errorf("--summarizer: %w", err)
			}
			if prev, dup := seen[t.Name]; dup {
				return Settings{}, fmt.Errorf("--summarizer %q: the name %q is already used by --summarizer %q; give each summarizer its own name (NAME=SPEC)", redact.CommandLine(raw), t.Name, redact.CommandLine(prev))
			}
			seen[t.Name] = raw
			s.Summarizers = append(s.Summarizers, t)
		}
	} else {
		s.Summarizers = append([]Target(nil), f.Summarizers...)
	}
	if set[FlagAgent] || f.Agent == nil {
		spec, err := providers.ParseSpec(flags.Agent)
		if err != nil {
			return Settings{}, fmt.Errorf("--agent: %w", err)
		}
		s.Agent = Target{Name: spec.Raw, Spec: spec}
	} else {
		s.Agent = *f.Agent
	}
	switch {
	case set[FlagJudge] && flags.Judge != "":
		t, err := ParseTarget(flags.Judge)
		if err != nil {
			return Settings{}, fmt.Errorf("--judge: %w", err)
		}
		if t.Spec.Kind == providers.KindBuiltin {
			return Settings{}, fmt.Errorf("--judge %q: there is no builtin judge (valid: openai:MODEL, exec:COMMAND)", flags.Judge)
		}
		s.Judge = &t
	case set[FlagJudge]:
		// --judge "" turns off the file's judge.
	case f.Judge != nil:
		t := *f.Judge
		s.Judge = &t
	}
	s.JudgeGate = Pick(set[FlagJudgeGate], flags.JudgeGate, f.Gates.Judge)
	if s.JudgeGate && s.Judge == nil {
		return Settings{}, fmt.Errorf("--judge-gate (or gates.judge) needs a judge: give --judge openai:MODEL or --judge exec:COMMAND, or judge: in the config file")
	}
	s.JudgeScope = Pick(set[FlagJudgeScope], flags.JudgeScope, f.JudgeScope)
	if set[FlagJudgeScope] && s.Judge == nil {
		return Settings{}, fmt.Errorf("--judge-scope needs a judge: give --judge openai:MODEL or --judge exec:COMMAND, or judge: in the config file")
	}
	// --judge-gate acts on the passes the judge contradicts: it asks about
	// every invariant, unless told to ask only where a check cannot tell,
	// where it would gate nothing.
	switch {
	case s.JudgeGate && s.JudgeScope == "":
		s.JudgeScope = result.JudgeScopeAll
	case s.JudgeGate && s.JudgeScope == result.JudgeScopeUncertain:
		return Settings{}, fmt.Errorf("--judge-gate (or gates.judge) fails the passes the judge contradicts, and --judge-scope uncertain (or judge_scope: uncertain) asks it about no pass: give --judge-scope all, or drop the gate")
	}
	s.Trials = Pick(set[FlagTrials], flags.Trials, f.Trials)
	s.Jobs = Pick(set[FlagJobs], flags.Jobs, f.Jobs)
	s.ExecTimeout = Pick(set[FlagExecTimeout], flags.ExecTimeout, f.ExecTimeout)
	s.MinPass = flags.MinPass
	if !set[FlagMinPass] && f.Gates.MinPass != nil {
		s.MinPass = f.Gates.MinPass
	}
	s.Baseline = Pick(set[FlagBaseline], flags.Baseline, f.Gates.Baseline)
	s.Uncertain = Pick(set[FlagUncertain], flags.Uncertain, f.Gates.Uncertain)
	s.Paths = flags.Paths
	if len(flags.Paths) == 0 {
		s.Paths = f.Scenarios
	}
	return s, nil
}

// targetName is a stable summarizer name given on the command line, as in
// NAME=SPEC: no colon, no space, so that a spec is never read as a name.
var targetName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@+/-]*$`)

// ParseTarget reads a --summarizer value: a spec (builtin:NAME,
// exec:COMMAND…, openai:MODEL), named by itself, or NAME=SPEC, named NAME.
// A stable name lets a baseline pair the summarizer across runs while its
// spec, arguments or prompt change.
func ParseTarget(raw string) (Target, error) {
	if name, spec, ok := strings.Cut(raw, "="); ok && targetName.MatchString(name) {
		sp, err := providers.ParseSpec(spec)
		var keyErr *providers.KeyInCommandError
		if errors.As(err, &keyErr) {
			return Target{}, err // without the spec, which holds a key
		}
		if err != nil {
			return Target{}, fmt.Errorf("%q: the name %s names %w", redact.CommandLine(raw), name, err)
		}
		return Target{Name: name, Spec: sp}, nil
	}
	sp, err := providers.ParseSpec(raw)
	if err != nil {
		return Target{}, err
	}
	return Target{Name: sp.Raw, Spec: sp}, nil
}
