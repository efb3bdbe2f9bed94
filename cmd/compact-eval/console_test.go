package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workflowCommand reports the first line of out that a GitHub Actions
// runner reads as a workflow command: "::" first after blanks; '\n' and
// '\r' both end a line.
func workflowCommand(out string) string {
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return l
		}
	}
	return ""
}

// The ninth finding: validate printed file names raw, so a file
// named with a newline and "::error::" wrote a workflow command line into
// a GitHub Actions log. The name prints escaped, on one line, and nothing
// printed starts a workflow command.
func TestValidateFileNameCannotCommand(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a\n::error::pwned.yaml")
	if err := os.WriteFile(name, []byte("version: 1\nid: x\n"), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	// A second file whose name starts a line by itself.
	if err := os.WriteFile(filepath.Join(dir, "::warning::b.yaml"), []byte("version: 1\nid: y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var out, errb bytes.Buffer
	env := newEnv(strings.NewReader(""), &out, &errb)
	env.Getenv = func(string) string { return "" }
	for _, args := range [][]string{{"validate", "."}, {"validate", "a\n::error::pwned.yaml", "::warning::b.yaml"}, {"run", "--out", "o", "."}} {
		out.Reset()
		errb.Reset()
		if code := run(context.Background(), args, env); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
		all := out.String() + errb.String()
		if l := workflowCommand(all); l != "" {
			t.Errorf("%q: line %q starts a workflow command; output:\n%s", args, l, all)
		}
		if !strings.Contains(all, `a\n::error::pwned.yaml:1:1: `) {
			t.Errorf("%q: the file name is not shown escaped, on its own problem line:\n%s", args, all)
		}
	}
}

// Names and texts from a config, a scenario or a summary reach the run's
// console (summarizer names in the table and the verdict, check messages
// in the worst failures, errors): none starts a workflow command.
func TestRunConsoleCannotCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// An exec summarizer that prints hostile text, and is named hostile.
	prog := "#!/bin/sh\necho 'crash\n::error::from the summarizer' >&2\nexit 3\n"
	if err := os.WriteFile("sum.sh", []byte(prog), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `summarizers:
  - name: "x\n::error::name"
    spec: builtin:truncate
  - name: "::warning::y"
    spec: exec:./sum.sh
`
	if err := os.WriteFile("compact-eval.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := newEnv(strings.NewReader(""), &out, &errb)
	env.Getenv = func(string) string { return "" }
	args := []string{"run", "--out", "o", "--scenario", "readonly-audit-no-push"}
	code := run(context.Background(), args, env)
	all := out.String() + errb.String()
	t.Logf("exit %d:\n%s", code, all)
	if l := workflowCommand(all); l != "" {
		t.Errorf("exit %d: line %q starts a workflow command; output:\n%s", code, l, all)
	}
	if !strings.Contains(all, `x\n::error::name`) {
		t.Errorf("exit %d: the summarizer's name is not shown escaped:\n%s", code, all)
	}
}
