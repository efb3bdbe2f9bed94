package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/console"

	"github.com/compact-eval/compact-eval/docs"
	"github.com/compact-eval/compact-eval/internal/redact"
)

// Env is what a command may touch of the outside world. Tests build their own.
type Env struct {
	Stdin io.Reader
	// Stdout and Stderr are for console lines: newEnv guards them so that
	// no line starts a workflow command (console.go).
	Stdout io.Writer
	Stderr io.Writer
	// Data is standard output unguarded, for the documents a command writes
	// there (a report, an imported scenario, a schema) and the workflow
	// commands it means to emit. Nil: Stdout.
	Data io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Terminal is true when Stderr is a terminal: progress lines are drawn
	// only then.
	Terminal bool
	// Abort is canceled by a second interrupt: work in flight is abandoned
	// (the command's context is canceled by the first). Nil: never.
	Abort context.Context
}

// abort is env.Abort, or a context never canceled.
func (env *Env) abort() context.Context {
	if env.Abort == nil {
		return context.Background()
	}
	return env.Abort
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) *Env {
	e := &Env{Stdin: stdin, Stdout: console.NewGuard(stdout), Stderr: console.NewGuard(stderr), Data: stdout, Getenv: os.Getenv}
	if f, ok := stderr.(*os.File); ok {
		e.Terminal = term.IsTerminal(int(f.Fd()))
	}
	return e
}

// data is env.Data, or env.Stdout when it is not set.
func (env *Env) data() io.Writer {
	if env.Data == nil {
		return env.Stdout
	}
	return env.Data
}

// Command is one subcommand.
type Command struct {
	Name      string
	UsageLine string // after "compact-eval "
	Short     string
	Long      string
	// Flags declares the command's flags on fs and returns a function that
	// runs the command with the remaining arguments.
	Flags func(fs *flag.FlagSet, env *Env) func(ctx context.Context, args []string) error
	// NeverTwo, when set, reports whether these arguments run the command
	// under a host whose contract reads exit 2 otherwise (a Claude Code
	// hook: 2 blocks the agent): such a run exits 3 where it would exit 2.
	NeverTwo func(args []string) bool
}

var commands []*Command

func register(c *Command) { commands = append(commands, c) }

func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// formatsURL is where docs/formats.md is read on the web.
const formatsURL = "https://github.com/compact-eval/compact-eval/blob/main/docs/formats.md"

// Exit codes (docs/formats.md §6).
const (
	exitOK    = 0 // the run finished and every gate asked for holds
	exitGate  = 1 // a gate failed
	exitUsage = 2 // bad usage or invalid input files
	exitInfra = 3 // the run could not finish
)

// errGate marks a gate failure; the verdict has already been printed.
var errGate = errors.New("gate failed")

// gateError is a gate that failed before anything ran (a baseline
// --require-baseline needs is missing): exit 1, the error printed once.
type gateError struct{ err error }

func (e gateError) Error() string { return e.err.Error() }
func (e gateError) Unwrap() error { return e.err }

// usageError is bad usage: unknown flag, wrong argument count, bad value.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// inputError is an invalid input file (scenario, config, result).
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// exitCode maps a command's error to the exit code: the one place that does.
func exitCode(err error) int {
	var ue usageError
	var ie inputError
	var ge gateError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errGate), errors.As(err, &ge):
		return exitGate
	case errors.As(err, &ue), errors.As(err, &ie), errors.Is(err, flag.ErrHelp):
		return exitUsage
	default:
		return exitInfra
	}
}

// run runs the command line args and returns the exit code. Every command
// takes its flags anywhere among its arguments ("--" ends them): the
// dispatcher parses them (parseArgs), so a command added later follows the
// same rules. Help asked for goes to stdout; errors go to stderr, once, and
// a usage error is one line plus where to find the usage.
func run(ctx context.Context, args []string, env *Env) int {
	if len(args) == 0 {
		printUsage(env.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(args[1:], env)
	case "-version", "--version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "compact-eval: unknown command %q%s\nrun 'compact-eval help' for the list of commands\n", name, suggestCommand(name))
		return exitUsage
	}
	fs := newFlagSet(cmd.Name)
	runFn := cmd.Flags(fs, env)
	code := func(c int) int {
		if c == exitUsage && cmd.NeverTwo != nil && cmd.NeverTwo(args[1:]) {
			return exitInfra
		}
		return c
	}
	pos, err := parseArgs(fs, args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		commandUsage(env.Stdout, cmd, fs)
		return exitOK
	case err != nil:
		printError(env, cmd.Name, err)
		return code(exitUsage)
	}
	err = runFn(ctx, pos)
	if err != nil && !errors.Is(err, errGate) {
		printError(env, cmd.Name, err)
	}
	return code(exitCode(err))
}

// newFlagSet is a command's flag set: it prints nothing itself, so that
// every error is printed once, by run.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printError prints a command's error on one line; a usage error gets a
// second line saying where the usage is.
func printError(env *Env, name string, err error) {
	// An error may quote a child's output or an endpoint's reply: never
	// print a key.
	fmt.Fprintf(env.Stderr, "compact-eval %s: %s\n", name, shownLines(redact.Keys().String(err.Error())))
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "run 'compact-eval help %s' for usage\n", name)
	}
}

// parseArgs parses flags that may come before, between or after the
// positional arguments (`report RESULT --format md`, as `go test ./...
// -run X`), which the standard flag package does not, and returns the
// positional arguments in order. Everything after "--" is positional. A
// lone "-" is positional (standard input). It returns flag.ErrHelp for -h
// or --help, and a usageError for anything else wrong.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{suggestFlag(fs, err)}
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, nil
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "compact-eval evaluates context compaction for LLM agents.\n\nUsage:\n\n\tcompact-eval <command> [arguments]\n\nCommands:\n\n")
	cs := append([]*Command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nRun 'compact-eval help <command>' for details, 'compact-eval help config' for every\nkey of compact-eval.yaml, and 'compact-eval help formats' for the formats (scenario,\nsummary, exec protocol, result, exit codes), also at\n%s\n\nFlags may come before or after arguments; -- ends them.\nExit codes: 0 ok, 1 a gate failed, 2 bad usage or invalid input, 3 the run could not finish.\n", formatsURL)
}

// commandUsage writes a command's usage line, its description and its
// flags.
func commandUsage(w io.Writer, c *Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: compact-eval %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintf(w, "\nFlags (before or after the arguments; -- ends them):\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// helpTopics are the documents help prints by name, besides the commands.
var helpTopics = map[string]func() []byte{"formats": docs.Formats, "config": docs.Config}

// help prints the list of commands, a command's usage, or a topic, to
// stdout: help was asked for.
func help(args []string, env *Env) int {
	if len(args) == 0 {
		printUsage(env.Stdout)
		return exitOK
	}
	if topic, ok := helpTopics[args[0]]; ok {
		_, err := env.data().Write(topic())
		if err != nil {
			return exitInfra
		}
		return exitOK
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(env.Stderr, "compact-eval help: unknown command %q%s\nrun 'compact-eval help' for the list of commands\n", args[0], suggestCommand(args[0], slices.Collect(maps.Keys(helpTopics))...))
		return exitUsage
	}
	fs := newFlagSet(c.Name)
	c.Flags(fs, env)
	commandUsage(env.Stdout, c, fs)
	return exitOK
}
