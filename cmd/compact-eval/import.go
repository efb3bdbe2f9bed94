package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compact-eval/compact-eval/importer"
)

// formatFlag is the --from value; Set lists the valid names.
type formatFlag struct{ f importer.Format }

func (f *formatFlag) String() string { return string(f.f) }

func (f *formatFlag) Set(s string) error {
	v, err := importer.ParseFormat(s)
	if err != nil {
		return err
	}
	f.f = v
	return nil
}

func init() {
	register(&Command{
		Name:      "import",
		UsageLine: "import [--from FORMAT] [--index N] [--strict] [--max-event-chars N] [--id ID] [-o FILE] FILE",
		Short:     "turn a recorded agent session into a scenario skeleton",
		Long: `Import reads a recorded agent session and writes a scenario (YAML) that
passes validate: the session's events in order, a compaction cut near two
thirds of the session that splits no tool call from its result, a probe
template, and suggested invariants written as comments for the author to
confirm (constraints, pending operations, near-twin paths, corrections,
secrets, quantities).

Formats (--from): openai (Chat Completions messages: a JSON array, an object
with "messages", or JSONL), anthropic (Messages content blocks), claude-code
(Claude Code session logs), codex (Codex CLI rollout files), or auto (the
default), which names the format it chose on stderr.

A malformed line is skipped with a warning that gives its line number, or is
an error with --strict. Timestamps and items with no place in a scenario are
dropped and counted in warnings on stderr. FILE "-" reads standard input.

	$ compact-eval import --from claude-code -o session.yaml ~/.claude/projects/x/abc.jsonl
	$ compact-eval validate session.yaml`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			from := formatFlag{importer.FormatAuto}
			fs.Var(&from, "from", "input format: auto, openai, anthropic, claude-code or codex")
			index := fs.Int("index", 0, "conversation to import from a JSONL file with one conversation a line (0 is the first)")
			strict := fs.Bool("strict", false, "fail on a malformed line instead of skipping it")
			maxChars := fs.Int("max-event-chars", 0, "trim event texts longer than N characters, with a visible marker (0 keeps all)")
			id := fs.String("id", "", "scenario id (default: from the file name)")
			out := fs.String("o", "", "write the scenario to `FILE` instead of standard output")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("import takes exactly one FILE")
				}
				if *index < 0 || *maxChars < 0 {
					return usagef("--index and --max-event-chars must not be negative")
				}
				return runImport(env, args[0], importer.Options{
					Format: from.f, Index: *index, Strict: *strict, MaxEventChars: *maxChars,
					ID: *id, Name: args[0],
				}, *out)
			}
		},
	})
}

func runImport(env *Env, path string, opts importer.Options, out string) error {
	in := env.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return inputError{err}
		}
		defer f.Close()
		in = f
	} else {
		opts.Name = ""
	}
	if out != "" {
		opts.TempDir = filepath.Dir(out)
	}
	w := env.Stdout
	var tmp *os.File
	if out != "" {
		// Write next to the target and rename, so a failed import leaves no
		// half-written scenario behind.
		f, err := os.CreateTemp(filepath.Dir(out), ".import-*.yaml")
		if err != nil {
			return fmt.Errorf("writing %s: %w", out, err)
		}
		tmp = f
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		w = tmp
	}
	rep, err := importer.Import(in, w, opts)
	if rep != nil && rep.Detected {
		fmt.Fprintf(env.Stderr, "import: detected format %s\n", rep.Format)
	}
	var ie *importer.InputError
	if errors.As(err, &ie) {
		return inputError{fmt.Errorf("%s: %w", path, err)}
	}
	if err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(env.Stderr, "import: warning: %s\n", w)
	}
	fmt.Fprintf(env.Stderr, "import: %d events, cut at %d, %d unresolved calls, %d suggested invariants\n",
		rep.Events, rep.Cut, rep.Unresolved, rep.Suggestions)
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			return err
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp.Name(), out); err != nil {
			return err
		}
	}
	return nil
}
