package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestReadmeSampleOutput runs the command the README shows under "The
// output reads verdict first" and compares its output with the README's
// lines, by the rules of the package doc's examples (doc_test.go): the
// README's figures, summarizers and scenario names must be the real ones.
func TestReadmeSampleOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "The output reads verdict first")
	if !ok {
		t.Fatal(`README has no "The output reads verdict first" sample`)
	}
	_, rest, ok = strings.Cut(rest, "```\n$ compact-eval ")
	if !ok {
		t.Fatal("the README's sample output does not start with the command it shows ($ compact-eval …)")
	}
	block, _, _ := strings.Cut("$ compact-eval "+rest, "\n```")
	var doc strings.Builder
	for _, l := range strings.Split(block, "\n") {
		doc.WriteString("\t" + l + "\n")
	}
	examples, err := parseDocExamples(doc.String())
	if err != nil || len(examples) != 1 {
		t.Fatalf("the README's sample is not one example: %v, %d", err, len(examples))
	}
	ex := examples[0]
	work, cache := t.TempDir(), t.TempDir()
	t.Chdir(work)
	t.Setenv("XDG_CACHE_HOME", cache)
	var out, errb bytes.Buffer
	// The README shows a terminal session: the live progress line is
	// redrawn in place and blanked at the end, so what a reader is left
	// with on stderr is what each line shows after its last \r.
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Terminal: true}
	code := run(context.Background(), strings.Fields(ex.Args), env)
	if !strings.Contains(errb.String(), "\r") {
		t.Errorf("on a terminal, stderr holds no live progress line: %q", errb.String())
	}
	errb = *bytes.NewBufferString(onScreen(errb.String()))
	norm := outputNormalizer{tmpDirs: []string{work, cache}}
	if err := checkDocExample(ex, norm, out.String(), errb.String(), code); err != nil {
		t.Errorf("README sample output: %v", err)
	}
	for what, wrong := range wrongExamples(ex) {
		if checkDocExample(wrong, norm, out.String(), errb.String(), code) == nil {
			t.Errorf("the README sample with %s still matches: the comparison is blind", what)
		}
	}
}

// onScreen is what a terminal shows of s: each line as it stands after its
// last carriage return, blank lines dropped.
func onScreen(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		if strings.TrimSpace(l) != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
