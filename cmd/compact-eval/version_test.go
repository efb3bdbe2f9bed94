package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionFromCheckout builds the command as a user who cloned the
// repository does (go build, VCS stamping on) and requires --version to
// name the commit checked out, not "devel". It needs git and a checkout
// whose .git is a folder (the go command does not stamp from a linked
// worktree); elsewhere it skips, saying why.
func TestVersionFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(root, ".git")); err != nil || !st.IsDir() {
		t.Skip("not a git checkout with a .git folder: the go command records no VCS information")
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("git rev-parse HEAD:", err)
	}
	bin := filepath.Join(t.TempDir(), "compact-eval")
	build := exec.Command(gobin, "build", "-buildvcs=true", "-o", bin, "./cmd/compact-eval")
	build.Dir = root
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if rev := strings.TrimSpace(string(head))[:12]; !strings.Contains(got, rev) || strings.Contains(got, "compact-eval devel ") {
		t.Errorf("--version printed %q; want the commit %s", got, rev)
	}
}
