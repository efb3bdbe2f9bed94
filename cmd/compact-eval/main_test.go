package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/internal/testkit/exectest"
	"github.com/compact-eval/compact-eval/reports"
)

func TestMain(m *testing.M) {
	commands := map[string]func(){
		"compact-eval": func() { os.Exit(mainExit()) },
	}
	// exec-summarizer-good, exec-agent-good, ...: exec-protocol programs
	// for the exec_*.txtar scripts.
	for name, f := range exectest.Commands() {
		commands[name] = f
	}
	testscript.Main(m, commands)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus, "aggregates": cmdAggregates,
			"providerfake": cmdProviderFake, "fakerequests": cmdFakeRequests, "nocanary": cmdNoCanary, "ghactions": cmdGHActions,
			"openaifake": cmdOpenAIFake, "openairequests": cmdOpenAIRequests, "planmatches": cmdPlanMatches, "openaimaxtokens": cmdOpenAIMaxTokens,
			"fixture": cmdFixture, "fixturedir": cmdFixtureDir, "accept": cmdAccept, "deloutcomes": cmdDelOutcomes, "noskeleton": cmdNoSkeleton, "viewpages": cmdViewPages},
		Setup: func(e *testscript.Env) error {
			// Keep the response cache inside the test's work dir.
			e.Setenv("XDG_CACHE_HOME", e.WorkDir+"/.cache")
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
	})
}

// cmdStatus is the script command "status N PROGRAM ARGS…": it runs
// PROGRAM as exec does (stdout and stderr kept for the next commands) and
// fails unless it exits with status N. Exit codes are a contract: CI jobs
// tell a failed gate (1) from bad usage (2) and a run that could not finish
// (3), so the scripts pin them exactly.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("status does not take !: give the expected exit status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N PROGRAM [ARGS…]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status %q: not a number", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdAggregates is the script command "aggregates RESULT": it prints the
// aggregates and per-summarizer figures of a result file, recomputed from
// its units, without the latencies (which vary from run to run), so that a
// script can compare two runs' figures with cmp.
func cmdAggregates(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: aggregates RESULT")
	}
	r, err := reports.Read(ts.MkAbs(args[0]))
	ts.Check(err)
	for i := range r.Summaries {
		r.Summaries[i].MeanLatency, r.Summaries[i].MedianLatency = 0, 0
	}
	b, err := json.MarshalIndent(struct {
		A []result.Aggregate         `json:"aggregates"`
		S []result.SummarizerSummary `json:"summaries"`
	}{r.Aggregates, r.Summaries}, "", "  ")
	ts.Check(err)
	ts.Stdout().Write(append(b, '\n'))
}

// The command collects at gcPercent unless GOGC says otherwise.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: GC percent %d, want %d", got, gcPercent)
	}
	tuneGC(func(k string) string {
		if k == "GOGC" {
			return "300"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: GC percent changed to %d", got)
	}
}
