package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeSetup returns the commands of the README's "Setup on a fresh
// machine" block, comments dropped.
func readmeSetup(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Setup on a fresh machine\n")
	if !ok {
		t.Fatal(`README has no "## Setup on a fresh machine" section`)
	}
	m := regexp.MustCompile("(?s)```sh\n(.*?)\n```").FindStringSubmatch(sec)
	if m == nil {
		t.Fatal("the README's setup section has no ```sh block")
	}
	return shellCommands(m[1])
}

// shellCommands returns the lines of a script that are commands: trimmed,
// with comments and blank lines dropped.
func shellCommands(script string) []string {
	var cmds []string
	for _, line := range strings.Split(script, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// TestCIRunsTheREADMESetupFirst holds .ci/run to the README: its first go
// commands after `go version` are the setup section's commands, in its
// order, run after GOMODCACHE points at an empty folder, so a step the
// README leaves out fails CI on a fresh machine (issue 35).
func TestCIRunsTheREADMESetupFirst(t *testing.T) {
	want := readmeSetup(t)
	if len(want) != 2 {
		t.Fatalf("the README's setup is %d commands, want two (the main job, the tests): %q", len(want), want)
	}
	b, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	var goCmds []string
	emptyCache := -1
	for i, line := range shellCommands(string(b)) {
		if strings.HasPrefix(line, "export GOMODCACHE=") && emptyCache < 0 {
			emptyCache = i
		}
		if strings.HasPrefix(line, "go ") && line != "go version" {
			if emptyCache < 0 && len(goCmds) < len(want) {
				t.Errorf(".ci/run runs %q before it empties the module cache", line)
			}
			goCmds = append(goCmds, line)
		}
	}
	if len(goCmds) < len(want) {
		t.Fatalf(".ci/run runs %d go commands, fewer than the README's %d", len(goCmds), len(want))
	}
	for i, w := range want {
		if goCmds[i] != w {
			t.Errorf(".ci/run's go command %d is %q; the README's setup says %q", i+1, goCmds[i], w)
		}
	}
}

// TestLayeringOnAnEmptyModuleCache runs the layering test as a fresh
// machine would, with an empty module cache and no way to fill it: the
// test must read the package graph without the module graph (issue 35).
func TestLayeringOnAnEmptyModuleCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with an empty module cache")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH:", err)
	}
	cache := t.TempDir()
	cmd := exec.Command(gobin, "test", "-count=1", "-run", "^TestLayering$", "./internal/layers")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOPROXY=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	// The go command writes read-only module files; none should be here,
	// but a test must not leave an undeletable folder behind.
	_ = filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("go test ./internal/layers with an empty module cache: %v\n%s", err, out)
	}
}
