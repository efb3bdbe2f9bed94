package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// The scenario loader skips the config file by its name: the same name.
func TestConfigFileSkippedByName(t *testing.T) {
	if config.DefaultFile != scenarios.ConfigFile {
		t.Errorf("config.DefaultFile %q, scenarios.ConfigFile %q: a folder walk would read the config as a scenario", config.DefaultFile, scenarios.ConfigFile)
	}
}

// An annotation names a file relative to the repository root, from
// wherever the run was: the inputs that would fool the rule (a path out of
// the root through "..", an absolute path elsewhere, a built-in scenario
// whose name a real folder could also hold, a file that is not there, a
// symlinked root) and the honest ones it must not refuse.
func TestAnnotationFiles(t *testing.T) {
	root := t.TempDir()
	elsewhere := t.TempDir()
	for _, f := range []string{"sc/a.yaml", "sub/x", "builtin/b.yaml"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(elsewhere, "o.yaml"), []byte("x"), 0o644)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	paths := &result.Result{Config: result.RunConfig{Paths: []string{"sc"}}}
	builtin := &result.Result{}
	for _, tc := range []struct {
		name      string
		r         *result.Result
		root, dir string
		file      string
		want      string
		ok        bool
	}{
		{"from the root", paths, root, root, "sc/a.yaml", "sc/a.yaml", true},
		{"from a subfolder", paths, root, filepath.Join(root, "sub"), "../sc/a.yaml", "sc/a.yaml", true},
		{"absolute, inside", paths, root, filepath.Join(root, "sub"), filepath.Join(root, "sc/a.yaml"), "sc/a.yaml", true},
		{"the root through a symlink", paths, link, filepath.Join(root, "sub"), "../sc/a.yaml", "sc/a.yaml", true},
		{"a real folder named builtin", paths, root, root, "builtin/b.yaml", "builtin/b.yaml", true},
		{"out of the root through ..", paths, filepath.Join(root, "sub"), filepath.Join(root, "sub"), "../sc/a.yaml", "", false},
		{"absolute, elsewhere", paths, root, root, filepath.Join(elsewhere, "o.yaml"), "", false},
		{"the built-in suite", builtin, root, root, "builtin/b.yaml", "", false},
		{"not there", paths, root, root, "sc/gone.yaml", "", false},
		{"a folder", paths, root, root, "sc", "", false},
		{"no file", paths, root, root, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := annotationFiles(tc.r, tc.root, tc.dir)(tc.file)
			if got != tc.want || ok != tc.ok {
				t.Errorf("annotationFiles(%q) = %q, %v; want %q, %v", tc.file, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// The root is GITHUB_WORKSPACE when set, else git's top level, else the
// folder itself.
func TestRepoRoot(t *testing.T) {
	dir := t.TempDir()
	env := &Env{Getenv: func(k string) string {
		if k == "GITHUB_WORKSPACE" {
			return "/ws"
		}
		return ""
	}}
	if got := repoRoot(t.Context(), env, dir); got != "/ws" {
		t.Errorf("with GITHUB_WORKSPACE: %q", got)
	}
	env.Getenv = func(string) string { return "" }
	if got := repoRoot(t.Context(), env, dir); got != dir {
		t.Errorf("outside a checkout: %q, want %q", got, dir)
	}
}
