package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/guard"
	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/inputfile"
)

// confidenceFlag is --suggested: off, or the lowest confidence of an
// import suggestion to check, from 0 to 1.
type confidenceFlag struct{ strengthFlag }

func (c *confidenceFlag) String() string {
	if !c.set {
		return "off"
	}
	return c.strengthFlag.String()
}

func (c *confidenceFlag) Set(s string) error {
	if s == "off" {
		c.set = false
		return nil
	}
	if err := c.strengthFlag.Set(s); err != nil {
		return fmt.Errorf("%q: want off, or a confidence from 0 to 1 (0 checks every suggestion the import kept)", s)
	}
	return nil
}

// historyFormatFlag is guard's --from: an import format, or events.
type historyFormatFlag string

func (f *historyFormatFlag) String() string { return string(*f) }

func (f *historyFormatFlag) Set(s string) error {
	if s == guard.FormatEvents {
		*f = historyFormatFlag(s)
		return nil
	}
	if _, err := importer.ParseFormat(s); err != nil {
		return fmt.Errorf("%w, or %s (events in the scenario syntax, as JSON)", err, guard.FormatEvents)
	}
	*f = historyFormatFlag(s)
	return nil
}

// guardArgs are guard's flags.
type guardArgs struct {
	from          historyFormatFlag
	summary       string
	boundary      int
	invariants    string
	suggested     confidenceFlag
	json          bool
	failUncertain bool
	hook, block   bool
}

func init() {
	register(&Command{
		Name:      "guard",
		UsageLine: "guard [--summary FILE] [--boundary SEQ] [--invariants FILE] [--suggested MIN] [--json] [--fail-uncertain] HISTORY | guard --claude-code-hook [--block] [--invariants FILE] [--suggested MIN]",
		Short:     "check a live compaction at its boundary: kept, lost or uncertain",
		Long: `Guard checks one compaction the way run checks a generation, for an agent
in production: the history before the boundary (HISTORY: a log in any
format import reads, or events in the scenario syntax as JSON; - reads
standard input), the summary that replaced it, and the project's
invariants. It prints the verdict first, then each invariant lost,
uncertain or kept, with its source event and the check's reason.

The summary is --summary FILE (a summary document, or text), else the last
compaction the log records (--boundary SEQ picks another). The boundary is
--boundary, else the summary document's covers_through, the recorded
compaction's, or for text the history's last event.

The invariants are .compact-eval/invariants.yaml (or --invariants FILE):
invariants in the scenario syntax whose source seqs may be left out, to be
found in each session's history (docs/guard.md). --suggested MIN also checks
the invariants import suggests from the history whose class has a measured
confidence of at least MIN (0 to 1; off by default, or as the file's
suggestions.min_confidence says).

Exit codes: 0 when nothing is lost, 1 when an invariant is lost or a
structural check failed (--fail-uncertain: or the verdict is uncertain), 2
for bad input, 3 when it could not finish. --json prints the verdict as JSON.

--claude-code-hook answers a Claude Code hook: it reads the hook's JSON on
standard input and finds the transcript there. On SessionStart after a
compaction it checks the latest compaction and, when something is lost or
uncertain, prints the invariants restated from their source events as
additionalContext (and, with --block, stops the session on a loss); on
PreCompact it prints the invariants for the compaction to keep; on
PostCompact it tells the user the verdict. Under --claude-code-hook the exit
code is never 2, which Claude Code reads as "block": a guard that cannot
read exits 3, and the agent goes on. compact-eval init --claude-code writes
the settings.

	$ compact-eval guard session.jsonl
	$ compact-eval guard --suggested 0.5 --json session.jsonl
	$ compact-eval guard --summary summary.json events.json`,
		NeverTwo: func(args []string) bool {
			return slices.Contains(args, "--claude-code-hook") || slices.Contains(args, "-claude-code-hook")
		},
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			var a guardArgs
			fs.Var(&a.from, "from", "history format: auto, events, "+formatNames())
			fs.StringVar(&a.summary, "summary", "", "the summary to check: a summary document or text `FILE` (default: the log's last compaction)")
			fs.IntVar(&a.boundary, "boundary", 0, "the last `SEQ` the summary replaced (default: see above)")
			fs.StringVar(&a.invariants, "invariants", "", "the invariants `FILE` (default: "+guard.DefaultInvariantsFile+" when it exists)")
			fs.Var(&a.suggested, "suggested", "also check the import's suggestions of confidence `MIN` or more (0 to 1), or off")
			fs.BoolVar(&a.json, "json", false, "print the verdict as JSON")
			fs.BoolVar(&a.failUncertain, "fail-uncertain", false, "exit 1 on an uncertain verdict too")
			fs.BoolVar(&a.hook, "claude-code-hook", false, "answer a Claude Code hook: its JSON on standard input")
			fs.BoolVar(&a.block, "block", false, "with --claude-code-hook: stop the session after a compaction that lost an invariant")
			return func(ctx context.Context, args []string) error {
				if a.hook {
					if len(args) > 0 || a.summary != "" || a.boundary != 0 || a.json || a.from != "" {
						return usagef("--claude-code-hook reads the transcript the hook names: it takes no HISTORY, --summary, --boundary, --from or --json")
					}
					return runGuardHook(env, a)
				}
				if a.block {
					return usagef("--block stops a Claude Code session: it goes with --claude-code-hook")
				}
				if len(args) != 1 {
					return usagef("guard takes exactly one HISTORY (a log, or - for standard input)")
				}
				if a.boundary < 0 {
					return usagef("--boundary must be a seq (1 or more)")
				}
				return runGuard(env, a, args[0])
			}
		},
	})
}

func runGuard(env *Env, a guardArgs, path string) error {
	opts, err := guardOptions(a, "")
	if err != nil {
		return err
	}
	s, err := readHistory(env, path, string(a.from))
	if err != nil {
		return err
	}
	b, err := pickBoundary(s, a, path)
	if err != nil {
		return err
	}
	v, err := guard.Check(s, b, opts)
	if err != nil {
		return guardError(err)
	}
	if a.json {
		err = guard.WriteJSON(env.data(), v)
	} else {
		err = guard.WriteText(env.Stdout, v)
		if v.Kept+v.Lost+v.Uncertain == 0 && err == nil {
			fmt.Fprintf(env.Stdout, "hint: write the project's invariants in %s (or give --invariants), or check the import's suggestions with --suggested MIN\n", guard.DefaultInvariantsFile)
		}
		for _, w := range v.Warnings {
			fmt.Fprintf(env.Stderr, "guard: warning: %s\n", w)
		}
	}
	if err != nil {
		return err
	}
	if v.Status == guard.Lost || v.Status == guard.Uncertain && a.failUncertain {
		return errGate
	}
	return nil
}

// guardOptions loads the invariants (--invariants, else the project's
// file in dir when it exists) and resolves --suggested against the
// file's suggestions.min_confidence.
func guardOptions(a guardArgs, dir string) (guard.Options, error) {
	var opts guard.Options
	var err error
	if a.invariants != "" {
		opts.Invariants, err = guard.LoadInvariants(a.invariants)
	} else {
		opts.Invariants, err = guard.FindInvariants(dir)
	}
	if err != nil {
		return opts, guardError(err)
	}
	switch {
	case a.suggested.set:
		opts.Suggested, opts.MinConfidence = true, a.suggested.v
	case opts.Invariants != nil && opts.Invariants.MinConfidence != nil:
		opts.Suggested, opts.MinConfidence = true, *opts.Invariants.MinConfidence
	}
	return opts, nil
}

// readHistory reads HISTORY, a file or - for standard input.
func readHistory(env *Env, path, format string) (*guard.Session, error) {
	ro := guard.ReadOptions{Format: format}
	var s *guard.Session
	var err error
	if path == "-" {
		ro.Name = "stdin"
		s, err = guard.Read(env.Stdin, ro)
	} else {
		if _, serr := os.Stat(path); serr != nil {
			return nil, inputError{fmt.Errorf("%s: %s", path, inputfile.Reason(serr))}
		}
		s, err = guard.ReadFile(path, ro)
	}
	return s, guardError(err)
}

// pickBoundary is the summary to check and its boundary.
func pickBoundary(s *guard.Session, a guardArgs, path string) (guard.Boundary, error) {
	if a.summary != "" {
		data, err := readSmall(a.summary)
		if err != nil {
			return guard.Boundary{}, err
		}
		b, err := s.NewBoundary(data, a.boundary, a.summary)
		return b, guardError(err)
	}
	if a.boundary > 0 {
		b, ok := s.At(a.boundary)
		if !ok {
			return b, inputError{fmt.Errorf("%s records no compaction after seq %d (its compactions: %s); give the summary with --summary", path, a.boundary, boundaryList(s))}
		}
		return b, nil
	}
	b, ok := s.Latest()
	if !ok {
		return b, inputError{fmt.Errorf("%s records no compaction: give the summary that replaced it with --summary", path)}
	}
	return b, nil
}

func boundaryList(s *guard.Session) string {
	var seqs []string
	for _, b := range s.Compactions() {
		seqs = append(seqs, strconv.Itoa(b.Seq))
	}
	if len(seqs) == 0 {
		return "none"
	}
	return "after seq " + strings.Join(seqs, ", ")
}

// readSmall reads a summary file, up to 8 MiB.
func readSmall(path string) ([]byte, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, inputError{fmt.Errorf("%s: %s", path, inputfile.Reason(err))}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 8<<20+1))
	if err != nil {
		return nil, inputError{fmt.Errorf("%s: %w", path, err)}
	}
	if len(data) > 8<<20 {
		return nil, inputError{fmt.Errorf("%s: a summary of more than 8 MiB", path)}
	}
	return data, nil
}

// guardError maps the guard's input errors to bad input (exit 2).
func guardError(err error) error {
	var ie *guard.InputError
	if errors.As(err, &ie) {
		return inputError{err}
	}
	return err
}

// runGuardHook answers a Claude Code hook (guard.Hook): its JSON or text
// on standard output, one line on standard error.
func runGuardHook(env *Env, a guardArgs) error {
	in, err := guard.ReadHookInput(env.Stdin)
	if err != nil {
		return err
	}
	dir := env.Getenv("CLAUDE_PROJECT_DIR")
	if dir == "" {
		dir = in.Cwd
	}
	opts, err := guardOptions(a, dir)
	if err != nil {
		return err
	}
	resp, err := guard.Hook(in, guard.HookOptions{Options: opts, Block: a.block, FailUncertain: a.failUncertain})
	if err != nil {
		return err
	}
	if resp.Note != "" {
		fmt.Fprintf(env.Stderr, "guard: %s: %s\n", in.HookEventName, strings.TrimPrefix(resp.Note, "guard: "))
	}
	switch {
	case resp.JSON != nil:
		enc := json.NewEncoder(env.data())
		enc.SetEscapeHTML(false)
		return enc.Encode(resp.JSON)
	case resp.Text != "":
		_, err := io.WriteString(env.data(), resp.Text+"\n")
		return err
	}
	return nil
}
