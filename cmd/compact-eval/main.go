package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"
)

func main() {
	tuneGC(os.Getenv)
	code := mainExit()
	for _, f := range atExit {
		f()
	}
	os.Exit(code)
}

// gcPercent is the collector's target (GOGC) when the environment sets
// none. A run's live heap is small (under 10 MB for the built-in suite
// × 16 trials) and most of what it allocates is request bodies and lines
// that die at once, so the default of 100 collects every few milliseconds:
// at 150 the collector's CPU falls by a third, for about 4 MB more peak
// memory (README "Measuring").
const gcPercent = 150

// tuneGC sets the collector's target to gcPercent, unless GOGC is set.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// atExit runs after the command, before the process exits; the profile
// build (profile.go) hooks its profiles in here.
var atExit []func()

// exitGrace is how long the process may take to wind down after a second
// interrupt before it exits anyway.
const exitGrace = 5 * time.Second

// mainExit runs the command line with the process's streams and returns
// the exit code. Signals always end the process, whatever it is blocked on:
// the first Ctrl-C or SIGTERM cancels the command's context (a run stops
// scheduling and finishes the units in flight); the second abandons what is
// in flight (Env.Abort) and exits within exitGrace; a third exits at once.
// Tests use it as the "compact-eval" command so that signals behave as in
// the binary.
func mainExit() int {
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	abort, cancelAbort := context.WithCancel(context.Background())
	defer cancelAbort()
	go interrupts(sigs, cancel, cancelAbort, os.Stderr, os.Exit, exitGrace)
	env := newEnv(os.Stdin, os.Stdout, os.Stderr)
	env.Abort = abort
	return run(ctx, os.Args[1:], env)
}

// interrupts turns signals into the steps mainExit describes; exit ends the
// process with the contract's code for a run that could not finish.
func interrupts(sigs <-chan os.Signal, cancel, abort context.CancelFunc, stderr io.Writer, exit func(int), grace time.Duration) {
	<-sigs
	cancel()
	<-sigs
	abort()
	fmt.Fprintf(stderr, "\ncompact-eval: interrupted again: abandoning the work in flight (exiting within %v; interrupt once more to exit now)\n", grace)
	select {
	case <-sigs:
	case <-time.After(grace):
	}
	fmt.Fprintln(stderr, "compact-eval: exiting")
	exit(exitInfra)
}
