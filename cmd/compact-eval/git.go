package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/result"
)

// gitTimeout bounds each git command gitState runs: a run never waits on a
// slow or hung checkout.
const gitTimeout = 5 * time.Second

// gitState is the state of the git checkout holding dir: HEAD's commit, the
// branch ("" when HEAD is detached) and whether a tracked file differs from
// HEAD. It is nil when dir is not in a checkout, HEAD has no commit yet, or
// git is not installed: a run records what it can and never fails on it.
func gitState(ctx context.Context, dir string) *result.Git {
	git := func(args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(ctx, gitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			return "", false
		}
		return strings.TrimSpace(out.String()), true
	}
	commit, ok := git("rev-parse", "--verify", "--quiet", "HEAD")
	if !ok || commit == "" {
		return nil
	}
	g := &result.Git{Commit: commit}
	if b, ok := git("symbolic-ref", "--quiet", "--short", "HEAD"); ok {
		g.Branch = b
	}
	if st, ok := git("status", "--porcelain", "--untracked-files=no"); ok && st != "" {
		g.Dirty = true
	}
	return g
}
