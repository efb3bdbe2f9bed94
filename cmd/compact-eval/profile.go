//go:build profile

package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Built with -tags profile, the command writes a CPU profile of the whole
// process to $COMPACT_EVAL_CPUPROFILE and a heap profile at exit to
// $COMPACT_EVAL_MEMPROFILE (scripts/bench-suite.sh and README "Measuring").
// The normal build has neither.
func init() {
	if path := os.Getenv("COMPACT_EVAL_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "compact-eval: cpu profile:", err)
			os.Exit(exitInfra)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "compact-eval: cpu profile:", err)
			os.Exit(exitInfra)
		}
		atExit = append(atExit, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if path := os.Getenv("COMPACT_EVAL_MEMPROFILE"); path != "" {
		atExit = append(atExit, func() {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, "compact-eval: heap profile:", err)
				return
			}
			runtime.GC()
			pprof.WriteHeapProfile(f)
			f.Close()
		})
	}
}
