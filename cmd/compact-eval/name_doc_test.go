package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/cmd/compact-eval/internal/config"
)

// TestNameRuleDoc: the rule for NAME in --summarizer NAME=SPEC, as
// docs/formats.md and 'help run' state it, is the rule config.ParseTarget
// enforces, character by character.
func TestNameRuleDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	var help bytes.Buffer
	run(context.Background(), []string{"help", "run"}, &Env{Stdout: &help, Stderr: &help, Getenv: func(string) string { return "" }})

	const rule = "starts with an ASCII letter or digit and holds only ASCII letters, digits and "
	// extras returns the characters the text allows besides letters and
	// digits: the list after rule, up to the colon that ends it.
	extras := func(where, text string) string {
		t.Helper()
		text = strings.Join(strings.Fields(text), " ")
		i := strings.Index(text, rule)
		if i < 0 {
			t.Fatalf("%s does not state the NAME rule (%q…)", where, rule)
		}
		rest := text[i+len(rule):]
		end := strings.Index(rest, ": no colon")
		if end < 0 {
			t.Fatalf("%s: the NAME rule's list does not end with \": no colon\": %q", where, rest)
		}
		var set []string
		for _, f := range strings.Fields(rest[:end]) {
			set = append(set, strings.Trim(f, "`"))
		}
		return strings.Join(set, "")
	}
	docSet := extras("docs/formats.md", string(doc))
	helpSet := extras("help run", help.String())
	if docSet != helpSet {
		t.Errorf("formats.md allows %q in a NAME, help run %q", docSet, helpSet)
	}
	alnum := regexp.MustCompile(`^[A-Za-z0-9]$`)
	named := func(name string) bool {
		tg, err := config.ParseTarget(name + "=builtin:none")
		return err == nil && tg.Name == name
	}
	for r := rune(' '); r <= '~'; r++ {
		ch := string(r)
		inside := alnum.MatchString(ch) || strings.Contains(docSet, ch)
		if got := named("a" + ch + "b"); got != inside {
			t.Errorf("NAME %q: ParseTarget names it %v, the docs say %v", "a"+ch+"b", got, inside)
		}
		if got := named(ch + "b"); got != alnum.MatchString(ch) {
			t.Errorf("NAME %q: ParseTarget names it %v, the docs say a NAME starts with a letter or digit", ch+"b", got)
		}
	}
	if named("é") {
		t.Error("a non-ASCII NAME is accepted; the docs say ASCII")
	}
	// The example the docs give: an = inside an exec command line.
	tg, err := config.ParseTarget("exec:python3 sum.py --v2=builtin:mask")
	if err != nil || tg.Name != "exec:python3 sum.py --v2=builtin:mask" {
		t.Errorf("ParseTarget(exec:… --v2=builtin:mask) = %q, %v; the docs say it is one exec spec", tg.Name, err)
	}
}
