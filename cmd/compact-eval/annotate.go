package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// repoRoot is the root of the repository the annotations point into:
// $GITHUB_WORKSPACE when set (the checkout an Actions job works in), else
// the top level of the git checkout holding dir, else dir itself.
func repoRoot(ctx context.Context, env *Env, dir string) string {
	if w := env.Getenv("GITHUB_WORKSPACE"); w != "" {
		return w
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-toplevel")
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() == nil {
		if top := strings.TrimSpace(out.String()); top != "" {
			return top
		}
	}
	return dir
}

// annotationFiles maps the scenario files of r, as the run named them
// (relative to the folder it ran in, dir), to the paths an annotation
// gives: relative to root, with forward slashes. A file of the built-in
// suite (embedded in the binary: r read no path), a file outside root and
// a file that is not there are not in the repository (false).
func annotationFiles(r *result.Result, root, dir string) func(string) (string, bool) {
	builtin := len(r.Config.Paths) == 0
	root = resolved(root)
	return func(file string) (string, bool) {
		if file == "" || builtin && strings.HasPrefix(file, scenarios.BuiltinPrefix) {
			return "", false
		}
		abs := file
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, file)
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() {
			return "", false
		}
		rel, err := filepath.Rel(root, resolved(abs))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(rel), true
	}
}

// resolved is path absolute and with its symbolic links resolved (a
// workspace under a linked folder names the same files as the git top
// level), or path cleaned when it cannot be.
func resolved(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}
