package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(mainExit()) }

// mainExit runs the command line with the process's streams, Ctrl-C and
// SIGTERM canceling the run's context; it returns the exit code. Tests use
// it as the "compact-eval" command so that signals behave as in the binary.
func mainExit() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args[1:], newEnv(os.Stdin, os.Stdout, os.Stderr))
}
