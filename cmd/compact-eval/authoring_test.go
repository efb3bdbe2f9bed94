package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

// TestAuthoringGuide keeps docs/authoring.md true: every complete scenario
// it shows (a yaml block that starts with "version: 1") validates with no
// problem and no warning and passes selftest with no scenario defect; the
// scenarios cover every invariant type and both probe kinds; and each
// common mistake, applied to the guide's first scenario, gets the message
// the guide quotes.
func TestAuthoringGuide(t *testing.T) {
	doc, err := os.ReadFile("../../docs/authoring.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	var scenarios []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(text, -1) {
		if strings.HasPrefix(m[1], "version: 1\n") {
			scenarios = append(scenarios, m[1])
		}
	}
	all := strings.Join(scenarios, "\n")
	for _, typ := range result.InvariantTypes {
		if !regexp.MustCompile(`type: ` + typ + `\b`).MatchString(all) {
			t.Errorf("the guide has no scenario with a %s invariant", typ)
		}
	}
	for kind, re := range map[string]string{"choice": `(?m)^    options:`, "free-text": `(?m)^    answer:`} {
		if !regexp.MustCompile(re).MatchString(all) {
			t.Errorf("the guide has no %s probe", kind)
		}
	}
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	os.Mkdir("guide", 0o755)
	for i, s := range scenarios {
		os.WriteFile(filepath.Join("guide", fmt.Sprintf("%02d.yaml", i+1)), []byte(s), 0o644)
	}
	cli := func(args ...string) (string, int) {
		var out bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		code := run(context.Background(), args, env)
		return out.String(), code
	}
	if out, code := cli("validate", "--strict", "guide"); code != 0 || !strings.Contains(out, fmt.Sprintf("%d scenarios OK", len(scenarios))) {
		t.Errorf("the guide's scenarios do not validate cleanly (exit %d):\n%s", code, out)
	}
	if out, code := cli("selftest", "guide"); code != 0 || strings.Contains(out, "SCENARIO DEFECTS") || !strings.Contains(out, "strength 1.00") {
		t.Errorf("selftest on the guide's scenarios (exit %d):\n%s", code, out)
	}

	// Common mistakes: <!-- mistake: NAME -->, a yaml block, "> message".
	base := scenarios[0]
	mistakes := regexp.MustCompile("(?s)<!-- mistake: ([^>]+) -->\n```yaml\n(.*?)```\n> ([^\n]+)").FindAllStringSubmatch(text, -1)
	if len(mistakes) < 5 {
		t.Fatalf("the guide shows %d common mistakes, want at least 5", len(mistakes))
	}
	for _, m := range mistakes {
		name, block, want := m[1], m[2], m[3]
		bad, err := applyMistake(base, block)
		if err != nil {
			t.Errorf("mistake %q: %v", name, err)
			continue
		}
		os.WriteFile("bad.yaml", []byte(bad), 0o644)
		out, code := cli("validate", "bad.yaml")
		if os.Getenv("GUIDE_SHOW") != "" {
			t.Logf("%s:\n%s", name, out)
		}
		if !strings.Contains(out, want) {
			t.Errorf("mistake %q: validate (exit %d) does not print %q:\n%s", name, code, want, out)
		}
		if code == 0 && !strings.Contains(out, "warning:") {
			t.Errorf("mistake %q: validate neither fails nor warns:\n%s", name, out)
		}
	}
}

// applyMistake replaces in scenario the part a mistake's block rewrites: a
// top-level key's whole entry (block starts with "key:"), or the one line
// that starts with the block's first line's indentation and key.
func applyMistake(scenario, block string) (string, error) {
	lines := strings.Split(strings.TrimSuffix(scenario, "\n"), "\n")
	first := strings.SplitN(block, "\n", 2)[0]
	key, _, ok := strings.Cut(first, ":")
	if !ok {
		return "", fmt.Errorf("block %q names no key", first)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, key+":") {
			continue
		}
		j := i + 1
		if !strings.HasPrefix(key, " ") {
			for j < len(lines) && (strings.HasPrefix(lines[j], " ") || strings.HasPrefix(lines[j], "-")) {
				j++
			}
		}
		out := append(append(append([]string(nil), lines[:i]...), strings.Split(strings.TrimSuffix(block, "\n"), "\n")...), lines[j:]...)
		return strings.Join(out, "\n") + "\n", nil
	}
	return "", fmt.Errorf("the scenario has no line %q", key+":")
}
