package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/result"
)

// TestGitState builds a checkout and reads it in each state a run may meet:
// not a checkout, no commit yet, clean on a branch, an untracked file
// (still clean), a tracked file changed (dirty), and a detached HEAD.
func TestGitState(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if g := gitState(ctx, dir); g != nil {
		t.Fatalf("not a checkout: got %+v, want nil", g)
	}
	git("init", "-q", "-b", "trunk")
	if g := gitState(ctx, dir); g != nil {
		t.Fatalf("no commit yet: got %+v, want nil", g)
	}
	file := filepath.Join(dir, "a.txt")
	os.WriteFile(file, []byte("one\n"), 0o644)
	git("add", "a.txt")
	git("commit", "-q", "-m", "one")
	head := func() string { t.Helper(); return trimNL(git("rev-parse", "HEAD")) }
	check := func(name string, want *result.Git) {
		t.Helper()
		if diff := cmp.Diff(want, gitState(ctx, dir)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	check("clean", &result.Git{Commit: head(), Branch: "trunk"})
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x"), 0o644)
	check("untracked file", &result.Git{Commit: head(), Branch: "trunk"})
	os.WriteFile(file, []byte("two\n"), 0o644)
	check("tracked file changed", &result.Git{Commit: head(), Branch: "trunk", Dirty: true})
	git("checkout", "-q", "--", "a.txt")
	git("checkout", "-q", "--detach")
	check("detached", &result.Git{Commit: head()})
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if diff := cmp.Diff(&result.Git{Commit: head()}, gitState(ctx, sub)); diff != "" {
		t.Errorf("from a subfolder of the checkout (-want +got):\n%s", diff)
	}
}

func trimNL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
