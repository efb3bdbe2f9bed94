package main

import (
	"bytes"
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/docs"
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

// TestFormatsDoc: docs/formats.md is the contract users read, and the
// binary prints it. Every JSON Schema it names is printable with schema,
// every command it shows exists, the version line it shows has the form
// version prints, and no file of the repository points at the contract
// file of the original design, which users never had.
func TestFormatsDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, docs.Formats()) {
		t.Error("docs.Formats() differs from docs/formats.md")
	}
	for _, m := range regexp.MustCompile("compact-eval schema ([a-z-]+)").FindAllSubmatch(doc, -1) {
		var out bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		if code := run(context.Background(), []string{"schema", string(m[1])}, env); code != 0 || !json.Valid(out.Bytes()) {
			t.Errorf("formats.md names schema %q, which compact-eval schema does not print (exit %d):\n%s", m[1], code, out.String())
		}
	}
	for _, m := range regexp.MustCompile("(?m)(?:^|`)compact-eval ([a-z]+)(?:[ `]|$)").FindAllSubmatch(doc, -1) {
		if name := string(m[1]); name != "help" && lookup(name) == nil {
			t.Errorf("formats.md shows compact-eval %s, which is no command", name)
		}
	}
	var out bytes.Buffer
	run(context.Background(), []string{"version"}, &Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }})
	shape := regexp.MustCompile(`\(scenario v\d+, summary v\d+\.\d+, protocol v\d+, result v\d+\)`)
	if want := shape.FindString(out.String()); want == "" || !strings.Contains(string(doc), want) {
		t.Errorf("formats.md should show the versions as version prints them, %q", want)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "](docs/formats.md") {
		t.Error("the README does not link docs/formats.md")
	}
	var help bytes.Buffer
	run(context.Background(), []string{"help"}, &Env{Stdout: &help, Stderr: &help, Getenv: func(string) string { return "" }})
	if !strings.Contains(help.String(), "compact-eval help formats") || !strings.Contains(help.String(), "docs/formats.md") {
		t.Errorf("help does not point at the formats:\n%s", help.String())
	}
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "compact-eval-out") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte("FORMATS"+".md")) {
			t.Errorf("%s points at FORMATS"+".md, which is not in the repository: point at docs/formats.md", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
