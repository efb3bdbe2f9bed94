package main

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestDocExamples runs the `$ compact-eval …` lines of the package doc, in
// order, in one folder: the manual must not lie.
func TestDocExamples(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(f.Doc.Text(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "$ compact-eval "); ok {
			lines = append(lines, rest)
		}
	}
	if len(lines) < 5 {
		t.Fatalf("found %d examples in the package doc, want at least 5", len(lines))
	}
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, l := range lines {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		if code := run(context.Background(), strings.Fields(l), env); code != 0 {
			t.Errorf("compact-eval %s: exit %d\nstdout:\n%s\nstderr:\n%s", l, code, out.String(), errb.String())
		}
	}
	for _, f := range []string{"base/result.json", "pr/result.json", "base.md", "base.html", "junit.xml"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the examples should have written %s: %v", f, err)
		}
	}
}

// TestReadmeScenario validates and runs the scenario the README teaches with.
func TestReadmeScenario(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```yaml\nversion: 1\n")
	if !ok {
		t.Fatal("README has no scenario example (a ```yaml block starting with version: 1)")
	}
	body, _, _ := strings.Cut(rest, "```")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("example.yaml", []byte("version: 1\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"validate", "example.yaml"},
		{"run", "--summarizer", "builtin:truncate", "--out", "out", "example.yaml"},
	} {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		if code := run(context.Background(), args, env); code != 0 {
			t.Fatalf("compact-eval %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
		// The README shows truncate losing the read-only rule.
		if args[0] != "run" {
			continue
		}
		// The README shows these two failure lines of this run verbatim.
		for _, line := range []string{
			`readonly-then-restart · builtin:truncate · g1 · constraint ro · 1 · no text entry matches read[- ]?only (rule from #1)`,
			`readonly-then-restart · builtin:truncate · probe · decisions restart · - · full context chose "refuse", compacted chose "proceed" (expected "refuse")`,
		} {
			if !strings.Contains(out.String(), line) || !strings.Contains(string(readme), line) {
				t.Errorf("the run and the README should both show %q\nrun:\n%s", line, out.String())
			}
		}
	}
}
