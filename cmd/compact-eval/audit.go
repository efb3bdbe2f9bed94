package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/compact-eval/compact-eval/audit"
)

func init() {
	register(&Command{
		Name:      "audit",
		UsageLine: "audit [--format table|json|html] [-o FILE] [--invariants FILE] [--suggested MIN] [--window N] [-j N] [--progress auto|tty|plain|none] DIR",
		Short:     "watch real sessions: compactions, compression, invariants lost, repeated calls, reopened questions",
		Long: `Audit reads every agent log under DIR (files ending in .jsonl, .json or .traj,
in any format import reads; a file of records is one session a record) and
prints the figures production should watch, per session and in total:
compactions per session and per 100k tokens of history; compression,
against the log's own count of the context before each compaction where
the log records one (Claude Code's preTokens, Codex's token_count), else
on the excerpt of it the log shows, and said so; the invariants each
compaction lost, checked by the guard; the tool calls repeated after a
compaction (the same tool, arguments and result as a call before it); the
questions reopened (one the agent asks again after the boundary that the
user had answered before it); and the tool errors after each boundary
against before it, over --window calls on each side (default 20).
docs/guard.md defines each figure.

The invariants are the project's (--invariants FILE, else
.compact-eval/invariants.yaml when it exists) and the import's suggestions
of a class measured at confidence MIN or more (--suggested MIN; 0, the
default, checks every suggestion the import kept; off checks none).

The verdict line comes first, then a row a session, then what was lost,
repeated and reopened, and where. --format json and html write the same
figures for machines and for a browser (-o FILE writes to a file). On a
terminal a live line says how far it is; elsewhere a plain line every 10 s.
A file no format reads is skipped and named; audit exits 0 once it has
read the folder (the figures are a measurement, not a gate), 2 when the
folder holds no log it can read.

	$ compact-eval audit ~/.claude/projects/billing
	$ compact-eval audit --format html -o audit.html logs/`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			format := choiceFlag{v: "table", what: "format", valid: audit.Formats}
			fs.Var(&format, "format", "output format: "+strings.Join(audit.Formats, ", "))
			out := fs.String("o", "", "write the report to `FILE` instead of standard output")
			invariants := fs.String("invariants", "", "the invariants `FILE` (default: .compact-eval/invariants.yaml when it exists)")
			suggested := confidenceFlag{strengthFlag{set: true}}
			fs.Var(&suggested, "suggested", "check the import's suggestions of confidence `MIN` or more (0 to 1; 0 checks all), or off")
			window := fs.Int("window", audit.DefaultWindow, "tool calls compared on each side of a boundary for the error rates")
			jobs := fs.Int("j", 0, "logs read at once (default: one per CPU)")
			var prog progressFlag = progressAuto
			fs.Var(&prog, "progress", "progress on stderr: auto (a live line on a terminal, plain lines otherwise), tty, plain or none")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("audit takes exactly one DIR (a folder of logs, or one log)")
				}
				if *window < 1 || *jobs < 0 {
					return usagef("--window must be 1 or more, -j 0 or more")
				}
				opts, err := guardOptions(guardArgs{invariants: *invariants, suggested: suggested}, "")
				if err != nil {
					return err
				}
				return runAudit(env, args[0], audit.Options{Guard: opts, Window: *window, Jobs: *jobs}, format.v, *out, string(prog))
			}
		},
	})
}

func runAudit(env *Env, dir string, opts audit.Options, format, out, mode string) error {
	period, err := progressPeriod(env)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var last audit.Progress
	text := func(elapsed time.Duration, final bool) string {
		mu.Lock()
		p := last
		mu.Unlock()
		line := fmt.Sprintf("progress: %d/%d logs, %s, %s", p.Done, p.Files, plural(p.Sessions, "session", "sessions"), plural(p.Compactions, "compaction", "compactions"))
		switch {
		case final:
			return line + fmt.Sprintf(", %s elapsed", roundDuration(elapsed))
		case p.Done == 0:
			return line + ", time left unknown"
		}
		left := time.Duration(float64(elapsed) / float64(p.Done) * float64(p.Files-p.Done))
		return line + fmt.Sprintf(", about %s left", roundDuration(left))
	}
	prog := startTextProgress(env.Stderr, resolveProgress(mode, env.Terminal), terminalWidth(env), nil, period, time.Now, text)
	opts.Progress = func(p audit.Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
		prog.touched()
	}
	rep, err := audit.Dir(dir, opts)
	prog.finish()
	if err != nil {
		return guardError(err)
	}
	w := env.data()
	if format == "table" && out == "" {
		w = env.Stdout
	}
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := audit.Write(w, rep, format); err != nil {
		return err
	}
	if out != "" {
		fmt.Fprintf(env.Stdout, "%s\nreport: %s\n", audit.Verdict(rep), out)
	}
	return nil
}
