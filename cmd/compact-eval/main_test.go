package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/internal/execproc/exectest"
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
		Setup: func(e *testscript.Env) error {
			// Keep the response cache inside the test's work dir.
			e.Setenv("XDG_CACHE_HOME", e.WorkDir+"/.cache")
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
	})
}
