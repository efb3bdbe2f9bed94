package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/importer"
	"github.com/compact-eval/compact-eval/internal/inputfile"
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

// cutFlag is the --cut value: a seq or a fraction of the session.
type cutFlag struct{ c importer.Cut }

func (f *cutFlag) String() string { return f.c.String() }

func (f *cutFlag) Set(s string) error {
	c, err := importer.ParseCut(s)
	if err != nil {
		return err
	}
	f.c = c
	return nil
}

func init() {
	register(&Command{
		Name:      "import",
		UsageLine: "import [--from FORMAT] [--messages-path POINTER] [--record N | --all] [--strict] [--max-event-chars N] [--cut SEQ|FRACTION] [--id ID] [-o FILE|DIR] FILE",
		Short:     "turn a recorded agent session into a scenario skeleton",
		Long: `Import reads a recorded agent session and writes a scenario (YAML) that
passes validate: the session's events in order, a compaction cut near two
thirds of the session that splits no tool call from its result, a probe
template, and suggested invariants written as comments for the author to
confirm (constraints, pending operations, near-twin paths, corrections,
refuted hypotheses, secrets, quantities).

Formats (--from): openai (Chat Completions messages: a JSON array, an object
with "messages", or JSONL), anthropic (Messages content blocks), claude-code
(Claude Code session logs), codex (Codex CLI rollout files), swe-agent
(SWE-agent .traj files), openhands (OpenHands event streams and evaluation
output), compactbench (CompactBench cases, imported as finished scenarios
with their invariants and probes active), otel (OpenTelemetry GenAI spans in
OTLP JSON, one trace a session), langsmith (LangSmith run exports, one thread
or trace a session), or auto (the default), which says on stderr what it
detected.

Any file that holds OpenAI or Anthropic messages elsewhere can be imported
with --messages-path, an RFC 6901 JSON pointer to the messages inside each
record (auto finds it when it can). A file of records (a JSON array or
JSONL of objects, such as {task_id, reward, traj: [...]}) holds several
sessions: --record N imports one (0 is the first), --all imports every one,
each to its own file in the folder given with -o. docs/import.md describes
every format, what detection looks at and how suggestions are made.

The cut (compaction.at: events up to it are compacted, the rest is the
kept tail) lands near two thirds of the session, moved earlier so that it
splits no tool call from its result; only what is said before it is
suggested. --cut places it: a seq (--cut 45, after event 45, exactly; a
seq that would split a call from its result is refused with the nearest
seqs that do not) or a fraction of the events (--cut 0.9 or --cut 90%,
moved as the default is; --cut 1.0 compacts the whole session). A log that
records its compactions, and a CompactBench case, are cut where they say,
and refuse --cut.

A malformed line is skipped with a warning that gives its line number, or is
an error with --strict. Timestamps and items with no place in a scenario are
dropped and counted in warnings on stderr. FILE "-" reads standard input.

	$ compact-eval import --from claude-code -o session.yaml ~/.claude/projects/x/abc.jsonl
	$ compact-eval import --messages-path /traj --all -o scenarios/ trajectories.json
	$ compact-eval validate session.yaml`,
		Flags: func(fs *flag.FlagSet, env *Env) func(context.Context, []string) error {
			from := formatFlag{importer.FormatAuto}
			fs.Var(&from, "from", "input format: auto, "+formatNames())
			record := fs.Int("record", 0, "record to import from a file of records (0 is the first)")
			fs.IntVar(record, "index", 0, "the same as --record (its former name)")
			all := fs.Bool("all", false, "import every record, one scenario each, into the folder given with -o")
			path := fs.String("messages-path", "", "JSON `POINTER` to the OpenAI or Anthropic messages inside each record")
			strict := fs.Bool("strict", false, "fail on a malformed line instead of skipping it")
			maxChars := fs.Int("max-event-chars", 0, "trim event texts longer than N characters, with a visible marker (0 keeps all)")
			var cut cutFlag
			fs.Var(&cut, "cut", "compact the events up to `SEQ` (45), or up to a FRACTION of the session (0.9, 90%); default near two thirds")
			id := fs.String("id", "", "scenario id (default: from the file name)")
			out := fs.String("o", "", "write the scenario to `FILE` instead of standard output (with --all, a folder)")
			return func(ctx context.Context, args []string) error {
				if len(args) != 1 {
					return usagef("import takes exactly one FILE")
				}
				if *record < 0 || *maxChars < 0 {
					return usagef("--record and --max-event-chars must not be negative")
				}
				if err := importer.ValidPointer(*path); err != nil {
					return usagef("--messages-path: %v", err)
				}
				opts := importer.Options{
					Format: from.f, Index: *record, Strict: *strict, MaxEventChars: *maxChars,
					ID: *id, Name: args[0], MessagesPath: *path, Cut: cut.c,
				}
				if *all {
					switch {
					case *out == "":
						return usagef("--all writes one scenario a record: name a folder with -o")
					case *record != 0:
						return usagef("--all and --record exclude each other")
					case *id != "":
						return usagef("--all takes each scenario's id from its record; --id names one scenario")
					}
					return runImportAll(env, args[0], opts, *out)
				}
				return runImport(env, args[0], opts, *out)
			}
		},
	})
}

func formatNames() string {
	var names []string
	for _, f := range importer.Formats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

func openInput(env *Env, path string, opts *importer.Options) (io.Reader, func(), error) {
	if path == "-" {
		opts.Name = ""
		return env.Stdin, func() {}, nil
	}
	f, err := inputfile.Open(path)
	if err != nil {
		var nr *inputfile.NotRegularError
		if errors.As(err, &nr) {
			err = fmt.Errorf("%w (to import from a pipe, give - and pipe the session to standard input)", err)
		}
		return nil, nil, inputError{err}
	}
	return f, func() { f.Close() }, nil
}

func runImport(env *Env, path string, opts importer.Options, out string) error {
	in, done, err := openInput(env, path, &opts)
	if err != nil {
		return err
	}
	defer done()
	if out != "" {
		opts.TempDir = filepath.Dir(out)
		// As --all creates its folder, -o creates the scenario's.
		if err := os.MkdirAll(opts.TempDir, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", opts.TempDir, err)
		}
	}
	w := env.data()
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
		fmt.Fprintf(env.Stderr, "import: detected format %s\n", rep.Detection)
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
	fmt.Fprintf(env.Stderr, "import: %s\n", importSummary(rep))
	if rep.Format != importer.FormatCompactBench {
		fmt.Fprintf(env.Stderr, "import: %s\n", rep.Tally.Line())
	}
	target := out
	if target == "" {
		target = "SCENARIO.yaml"
	}
	fmt.Fprintf(env.Stderr, "import: next: %s\n", nextHint(rep.Format, target, rep.Suggestions))
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

// runImportAll writes one scenario a record into dir; a record that cannot
// be imported is reported and skipped, and the command fails (exit 2) at the
// end if any was.
func runImportAll(env *Env, path string, opts importer.Options, dir string) error {
	in, done, err := openInput(env, path, &opts)
	if err != nil {
		return err
	}
	defer done()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	opts.TempDir = dir
	written, failed := 0, 0
	format := opts.Format
	used := map[string]bool{}
	announced := false
	n, err := importer.ImportEach(in, opts, func(rep *importer.Report, write func(io.Writer) error, rerr error) error {
		if rep.Detected && !announced {
			fmt.Fprintf(env.Stderr, "import: detected format %s\n", rep.Detection)
			announced = true
		}
		if rerr != nil {
			failed++
			fmt.Fprintf(env.Stderr, "import: %s: %v (skipped)\n", path, rerr)
			return nil
		}
		name := rep.ID
		if used[name] {
			name = fmt.Sprintf("%s-%d", name, rep.Record)
		}
		used[name] = true
		file := filepath.Join(dir, name+".yaml")
		f, err := os.CreateTemp(dir, ".import-*.yaml")
		if err != nil {
			return fmt.Errorf("writing %s: %w", file, err)
		}
		defer os.Remove(f.Name())
		defer f.Close()
		if err := write(f); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.Chmod(f.Name(), 0o644); err != nil {
			return err
		}
		if err := os.Rename(f.Name(), file); err != nil {
			return err
		}
		written++
		for _, w := range rep.Warnings {
			fmt.Fprintf(env.Stderr, "import: record %d: warning: %s\n", rep.Record, w)
		}
		format = rep.Format
		fmt.Fprintf(env.Stderr, "import: record %d -> %s: %s\n", rep.Record, file, importSummary(rep))
		if rep.Format != importer.FormatCompactBench {
			fmt.Fprintf(env.Stderr, "import: record %d: %s\n", rep.Record, rep.Tally.Line())
		}
		return nil
	})
	var ie *importer.InputError
	if errors.As(err, &ie) {
		return inputError{fmt.Errorf("%s: %w", path, err)}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "import: %d of %d records written to %s\n", written, n, dir)
	if written > 0 {
		fmt.Fprintf(env.Stderr, "import: next: %s\n", nextHint(format, dir, -1))
	}
	if failed > 0 {
		return inputError{fmt.Errorf("%s: %d of %d records could not be imported", path, failed, n)}
	}
	return nil
}

// importSummary is the one-line account of an import.
func importSummary(rep *importer.Report) string {
	if rep.Format == importer.FormatCompactBench {
		return fmt.Sprintf("%d events, cut at %d, %d invariants and %d probes from the case's ground truth and evaluation items",
			rep.Events, rep.Cut, rep.Invariants, rep.Probes)
	}
	if n := len(rep.Recorded); n > 0 {
		cuts := make([]string, n)
		for i, c := range rep.Recorded {
			cuts[i] = strconv.Itoa(c)
		}
		kept := fmt.Sprintf("%d recorded compactions kept, cut at their boundaries %s", n, strings.Join(cuts, ", "))
		if n == 1 {
			kept = "1 recorded compaction kept, cut at its boundary " + cuts[0]
		}
		return fmt.Sprintf("%d events, %s (audit: run --summarizer recorded), %d unresolved calls, %d suggested invariants",
			rep.Events, kept, rep.Unresolved, rep.Suggestions)
	}
	return fmt.Sprintf("%d events, cut at %d, %d unresolved calls, %d suggested invariants",
		rep.Events, rep.Cut, rep.Unresolved, rep.Suggestions)
}

// nextHint says what to do with what was written: a CompactBench case is a
// finished scenario, any other import a skeleton with its suggestions
// (suggestions is how many; -1 when several records were written).
func nextHint(f importer.Format, target string, suggestions int) string {
	if f == importer.FormatCompactBench {
		return "'compact-eval run --summarizer SPEC " + shellQuote(target) + "' judges a summarizer on it; " + selftestHint(target)
	}
	if suggestions == 0 {
		return "write the invariants that matter (none were found to suggest), then " + selftestHint(target)
	}
	return "confirm the suggestions, then " + selftestHint(target)
}
