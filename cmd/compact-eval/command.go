package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/term"

	"github.com/compact-eval/compact-eval/internal/redact"
)

// Env is what a command may touch of the outside world. Tests build their own.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
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
	e := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	if f, ok := stderr.(*os.File); ok {
		e.Terminal = term.IsTerminal(int(f.Fd()))
	}
	return e
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

// Exit codes (FORMATS.md §5).
const (
	exitOK    = 0 // the run finished and every gate asked for holds
	exitGate  = 1 // a gate failed
	exitUsage = 2 // bad usage or invalid input files
	exitInfra = 3 // the run could not finish
)

// errGate marks a gate failure; the verdict has already been printed.
var errGate = errors.New("gate failed")

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
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errGate):
		return exitGate
	case errors.As(err, &ue), errors.As(err, &ie), errors.Is(err, flag.ErrHelp):
		return exitUsage
	default:
		return exitInfra
	}
}

func run(ctx context.Context, args []string, env *Env) int {
	if len(args) == 0 {
		printUsage(env.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(args[1:], env)
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "compact-eval: unknown command %q\nRun 'compact-eval help' for usage.\n", name)
		return exitUsage
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { commandUsage(env.Stderr, cmd, fs) }
	runFn := cmd.Flags(fs, env)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	err := runFn(ctx, fs.Args())
	code := exitCode(err)
	if err != nil && !errors.Is(err, errGate) {
		// An error may quote a child's output or an endpoint's reply:
		// never print a key.
		fmt.Fprintf(env.Stderr, "compact-eval %s: %s\n", name, redact.Keys().String(err.Error()))
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(env.Stderr, "usage: compact-eval %s\n", cmd.UsageLine)
		}
	}
	return code
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "compact-eval evaluates context compaction for LLM agents.\n\nUsage:\n\n\tcompact-eval <command> [arguments]\n\nCommands:\n\n")
	cs := append([]*Command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	for _, c := range cs {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nRun 'compact-eval help <command>' for details.\nExit codes: 0 ok, 1 a gate failed, 2 bad usage or invalid input, 3 the run could not finish.\n")
}

func commandUsage(w io.Writer, c *Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: compact-eval %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintf(w, "\nFlags:\n")
		fs.PrintDefaults()
	}
}

func help(args []string, env *Env) int {
	if len(args) == 0 {
		printUsage(env.Stdout)
		return exitOK
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(env.Stderr, "compact-eval help: unknown command %q\n", args[0])
		return exitUsage
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(env.Stdout)
	c.Flags(fs, env)
	commandUsage(env.Stdout, c, fs)
	return exitOK
}
