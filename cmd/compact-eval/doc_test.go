// The examples of the package doc (doc.go) are run by TestDocExamples, in
// order, in one temporary folder, and each must print what it shows. The
// convention, for whoever edits doc.go:
//
// An example is a code-block line "$ compact-eval ARGS". The code-block
// lines under it, up to the next example or the end of the code block, are
// what it shows; blank lines that end them are not part of it, blank lines
// inside are. Every example shows something: its first output lines, or the
// line "(no output)" when it prints nothing at all.
//
//   - Shown lines are compared with standard output, line for line, on
//     consecutive lines, from its first line to its last.
//   - A line "…" (U+2026 alone) stands for any number of output lines left
//     out, none included: "…" last means the output goes on, "…" first that
//     the shown lines need not begin it, "…" between two runs of lines that
//     something may come between them. Without any "…" the shown lines are
//     the whole output.
//   - A shown line that ends in "…" matches an output line that starts with
//     the text before the "…": for lines too long to show whole.
//   - Standard error must be empty unless the example shows a line
//     "(stderr)": the lines after it are compared with standard error by the
//     same rules, so a warning that starts appearing breaks the example.
//   - The exit code must be 0 unless the last shown line is "(exit N)", and
//     then it must be N.
//   - Trailing spaces and trailing blank lines are not compared. What
//     changes from one run to the next is replaced with a placeholder, in
//     the real output and in the shown lines alike (so the doc shows the
//     placeholder, and a literal value in the doc matches any other):
//     <version>  compact-eval's own version after "compact-eval ", and any
//     semantic version such as v1.2.3 or v1.2.3-rc.1;
//     <time>  a timestamp, 2006-01-02T15:04:05Z07:00 and its shorter forms,
//     and run IDs such as 20060102T150405Z;
//     <duration>  a Go duration such as 1.3s, 250ms or 1m2s: a number and
//     a unit with no space between them ("30 s" is a quantity, kept);
//     <tmp>  the temporary folders the test runs in (work folder, cache).
//     Nothing else is normalised: counts, rates and names are compared as
//     they are, so adding a built-in scenario means updating doc.go.
//
// The streams are captured apart, so an example shows standard output
// first and standard error after "(stderr)", not as a terminal would
// interleave them. A mismatch prints the example as doc.go has it, what did
// not match (the first differing line where it can tell), and the whole
// real output, normalised, with line numbers. Each example that matches is
// checked again made wrong, and TestMatchShown and TestDocExampleCheck feed
// the comparison wrong expectations, so that it cannot pass trivially.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
// order, in one folder, and compares what each prints and its exit code
// with what the doc shows under it: the manual must not lie. Each example
// that matches is then checked against itself made wrong (another exit
// code, a shown line changed), so that a comparison that cannot fail is
// caught here, on the real output.
func TestDocExamples(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := parseDocExamples(f.Doc.Text())
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) < 5 {
		t.Fatalf("found %d examples in the package doc, want at least 5", len(examples))
	}
	work, cache := t.TempDir(), t.TempDir()
	t.Chdir(work)
	t.Setenv("XDG_CACHE_HOME", cache)
	norm := outputNormalizer{tmpDirs: []string{work, cache}}
	for _, ex := range examples {
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		code := run(context.Background(), strings.Fields(ex.Args), env)
		if err := checkDocExample(ex, norm, out.String(), errb.String(), code); err != nil {
			t.Error(err)
			continue
		}
		for what, wrong := range wrongExamples(ex) {
			if checkDocExample(wrong, norm, out.String(), errb.String(), code) == nil {
				t.Errorf("compact-eval %s: the example with %s still matches the real output: the comparison is blind", ex.Args, what)
			}
		}
	}
	for _, f := range []string{"base/result.json", "pr/result.json", "base.md", "base.html", "junit.xml"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the examples should have written %s: %v", f, err)
		}
	}
}

// wrongExamples returns the example made wrong in ways the comparison must
// notice, by what was made wrong.
func wrongExamples(ex docExample) map[string]docExample {
	wrong := map[string]docExample{}
	otherExit := ex
	otherExit.Exit = ex.Exit + 1
	wrong["another exit code"] = otherExit
	for i := len(ex.Stdout) - 1; i >= 0; i-- {
		if l := ex.Stdout[i]; l != elided && l != "" {
			changed := ex
			changed.Stdout = append(append(append([]string(nil), ex.Stdout[:i]...), l+" (changed)"), ex.Stdout[i+1:]...)
			wrong[fmt.Sprintf("shown line %q changed", l)] = changed
			break
		}
	}
	if len(ex.Stdout) == 0 {
		printing := ex
		printing.Stdout = []string{"a line the command does not print"}
		wrong["a line where it shows no output"] = printing
	}
	return wrong
}

// TestMatchShown feeds the comparison wrong expectations of a known output
// (a line changed, lines out of order, a line missing, a line too many)
// and requires each to fail, and faithful ones to pass.
func TestMatchShown(t *testing.T) {
	output := []string{
		"verdict: finished 4 units; 2 compaction regressions",
		"",
		"  summarizer  units",
		"  builtin:mask  2",
		"  builtin:none  2",
		"",
		"result: out/result.json",
	}
	for _, c := range []struct {
		name  string
		shown []string
		ok    bool
	}{
		{"the whole output", output, true},
		{"first lines, then elided", []string{output[0], "", output[2], elided}, true},
		{"first line, elided, last line", []string{output[0], elided, output[6]}, true},
		{"elided, a middle run, elided", []string{elided, output[3], output[4], elided}, true},
		{"elided first, last lines", []string{elided, "", output[6]}, true},
		{"a long line cut with …", []string{"verdict: finished …", elided}, true},
		{"two runs in order", []string{output[0], elided, output[3], elided, output[6]}, true},

		{"a line changed", []string{output[0], "", "  summarizer  unit", elided}, false},
		{"a number changed", []string{"verdict: finished 5 units; 2 compaction regressions", elided}, false},
		{"lines out of order", []string{output[0], elided, output[4], elided, output[3], elided}, false},
		{"runs out of order", []string{elided, output[6], elided, output[0], elided}, false},
		{"a line missing from the output", []string{output[0], elided, "  builtin:truncate  2", elided}, false},
		{"a line left out of a run", []string{output[0], output[2], elided}, false},
		{"the whole output with a line too few, no …", output[:6], false},
		{"the whole output with a line too many", append(append([]string(nil), output...), "extra"), false},
		{"not the first line, no leading …", []string{output[2], elided}, false},
		{"not the last line, no trailing …", []string{elided, output[4]}, false},
		{"a cut line whose prefix differs", []string{"verdict: failed …", elided}, false},
		{"nothing shown for some output", nil, false},
		{"one line shown as the whole output", []string{output[0]}, false},
	} {
		err := matchShown(c.shown, output)
		if (err == nil) != c.ok {
			t.Errorf("%s: matchShown(%q) = %v, want ok=%v", c.name, c.shown, err, c.ok)
		}
	}
	if err := matchShown(nil, nil); err != nil {
		t.Errorf("no lines shown, none printed: %v", err)
	}
	if err := matchShown([]string{"x"}, nil); err == nil {
		t.Error("a line shown and nothing printed matches")
	}
}

// TestDocExampleCheck: exit codes, stderr and the normalisations, through
// the parsing of a doc text as doc.go has it.
func TestDocExampleCheck(t *testing.T) {
	text := strings.Join([]string{
		"A session:",
		"",
		"\t$ compact-eval version",
		"\tcompact-eval <version> (scenario v1)",
		"",
		"\t$ compact-eval run",
		"\trun <time> took <duration>",
		"\t…",
		"\t(stderr)",
		"\twarning: <tmp>/x.yaml is old",
		"\t(exit 1)",
		"",
		"\t$ compact-eval report -o x.md",
		"\t(no output)",
		"",
		"Exit codes:",
	}, "\n")
	examples, err := parseDocExamples(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) != 3 {
		t.Fatalf("parsed %d examples, want 3: %+v", len(examples), examples)
	}
	norm := outputNormalizer{tmpDirs: []string{"/tmp/TestX123"}}
	version, runEx, report := examples[0], examples[1], examples[2]
	for _, c := range []struct {
		name           string
		ex             docExample
		stdout, stderr string
		code           int
		ok             bool
	}{
		{"the version, normalised", version, "compact-eval v1.4.0-rc.1 (scenario v1)\n", "", 0, true},
		{"the version, another scenario version", version, "compact-eval v1.4.0 (scenario v2)\n", "", 0, false},
		{"the version with a warning on stderr", version, "compact-eval v1.4.0 (scenario v1)\n", "warning\n", 0, false},
		{"a run, normalised", runEx, "run 20261202T184233Z took 1m2.5s\nmore\n", "warning: /tmp/TestX123/x.yaml is old\n", 1, true},
		{"a run with an RFC 3339 time", runEx, "run 2026-12-02T18:42:33+01:00 took 250ms\n", "warning: /tmp/TestX123/x.yaml is old\n", 1, true},
		{"a run that exits 0", runEx, "run 20261202T184233Z took 1.3s\n", "warning: /tmp/TestX123/x.yaml is old\n", 0, false},
		{"a run without its warning", runEx, "run 20261202T184233Z took 1.3s\n", "", 1, false},
		{"a run whose duration has a space", runEx, "run 20261202T184233Z took 1.3 s\n", "warning: /tmp/TestX123/x.yaml is old\n", 1, false},
		{"a run with another folder", runEx, "run 20261202T184233Z took 1.3s\n", "warning: /home/x/x.yaml is old\n", 1, false},
		{"a report that prints nothing", report, "", "", 0, true},
		{"a report that prints a line", report, "wrote x.md\n", "", 0, false},
		{"a report that exits 2", report, "", "", 2, false},
	} {
		err := checkDocExample(c.ex, norm, c.stdout, c.stderr, c.code)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), c.ex.String()) {
			t.Errorf("%s: the error does not show the example:\n%v", c.name, err)
		}
	}

	for _, bad := range []string{
		"\t$ compact-eval validate\n\nText.",                          // shows nothing
		"\t$ compact-eval validate\n\t(exit 0)",                       // exit 0 is the default
		"\t$ compact-eval validate\n\t(exit 1)\n\tok",                 // exit line not last
		"\t$ compact-eval validate\n\t(no output)\n\tok",              // no output and a line
		"\t$ compact-eval validate\n\tok\n\t(stderr)",                 // empty stderr section
		"\t$ compact-eval validate\n\t(stderr)\n\ta\n\t(stderr)\n\tb", // two stderr sections
	} {
		if _, err := parseDocExamples(bad); err == nil {
			t.Errorf("parseDocExamples(%q) accepts it", bad)
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
			`readonly-then-restart · builtin:truncate · g1 · constraint ro · 1 · no clause of text restates the rule from #1 (read[- ]?only)`,
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
