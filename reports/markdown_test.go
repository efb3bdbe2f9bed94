package reports_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

// injections are strings a summary, a scenario or a model may hold that
// would command a Markdown reader: the eighth finding (a tracking
// image, a link, a fake verdict) and the rest of the class.
var injections = []string{
	"![x](https://evil.example/px.png)",
	"[click here](https://evil.example/login)",
	"**LGTM: all gates passed**",
	"<img src=x onerror=alert(1)>",
	"<details open><summary>ok</summary>",
	"see https://evil.example/bare and www.evil.example",
	"ping @octocat",
	"_all_ ~~failures~~ $x^2$",
	"``` fence `tick` ``",
	"line one\n## ✅ every check passed\n<script>",
	"a | b | c",
	`a\| b \\| c \\\|`,
}

// live reports the first Markdown construct left live in md, outside code
// spans: what a renderer would turn into a link, an image, emphasis, HTML,
// an autolink or a mention.
func live(md string) string {
	cols := 0
	for i, line := range strings.Split(md, "\n") {
		// A table row has as many cells as its header.
		if strings.HasPrefix(line, "|") {
			n := cellPipes(line)
			if strings.HasPrefix(line, "|---") || cols == 0 {
				cols = n
			} else if n != cols {
				return "a table row with " + itoa(n-1) + " cells, not " + itoa(cols-1) + ": " + line
			}
		} else {
			cols = 0
		}
		text := stripCode(line)
		// Backslash-escaped characters are text.
		for _, esc := range []string{`\*`, `\[`, `\]`, `\<`, `\>`, `\_`, `\~`, `\@`, `\$`, `\://`, `www\.`, `\#`, `\&`, `\|`, "\\`", `\\`} {
			text = strings.ReplaceAll(text, esc, "")
		}
		// The writer's own markup.
		if i == 0 { // the verdict, in bold
			text = strings.TrimPrefix(strings.TrimSuffix(text, "**"), "**")
		}
		text = strings.TrimPrefix(text, "### ")
		text = strings.TrimPrefix(text, "> [!WARNING]")
		for _, bad := range []string{"![", "](", "**", "__", "<", "https://", "www.", "@octocat", "~~", "$x", "## "} {
			if strings.Contains(text, bad) {
				return bad + " in: " + line
			}
		}
	}
	return ""
}

// stripCode removes the code spans of one line, as CommonMark finds them:
// a run of n backticks up to the next run of exactly n.
func stripCode(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' || i > 0 && line[i-1] == '\\' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(line) && line[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			b.WriteString(line[i : i+n])
			i += n
			continue
		}
		b.WriteString("CODE")
		i = end
	}
	return b.String()
}

// hostile is a result whose every free string, from a summary, a scenario,
// a model or a config, is injection.
func hostile(inj string) *result.Result {
	sum := "exec:./sum " + inj
	r := &result.Result{
		ResultVersion: 1, RunID: "run " + inj, Harness: "v1 " + inj, Resume: "compact-eval run --resume " + inj,
		Interrupted: true, Warnings: []string{"run warning " + inj},
		Config: result.RunConfig{Summarizers: []string{sum}, Agent: "exec:agent " + inj, Tokenizer: "tok " + inj, Trials: 1},
		Units: []result.Unit{{
			Scenario:   result.ScenarioRef{ID: "s-" + inj, File: "a.yaml"},
			Summarizer: sum, Status: result.UnitError, Error: "crashed: " + inj, Warnings: []string{"unit warning " + inj},
			Generations: []result.Generation{{N: 1, Checks: []result.CheckResult{
				{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro-" + inj, Status: result.Fail,
					Message: "lost: the summary says " + inj, Pos: result.Pos{Line: 3, Col: 5},
					Evidence: []result.Evidence{{Pointer: "/text", Text: inj}}},
				{Check: "schema " + inj, Kind: result.KindStructural, Status: result.Fail, Message: inj},
			}}},
		}},
	}
	r.Aggregate()
	return r
}

// The eighth finding: summary text such as an image, a link or
// "**LGTM: all gates passed**" stayed live in the md report and the step
// summary. Every string from a result is now fenced or escaped, in both,
// with and without a gate (whose verdict quotes summarizer names).
func TestMarkdownCannotCommandItsReader(t *testing.T) {
	for _, inj := range injections {
		r := hostile(inj)
		gate := reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "all=1")})
		for _, opts := range []reports.Options{{}, {Gate: &gate}} {
			var b bytes.Buffer
			if err := reports.WriteMarkdown(&b, r, opts); err != nil {
				t.Fatal(err)
			}
			if bad := live(b.String()); bad != "" {
				t.Errorf("%q (gate %v): live Markdown: %s", inj, opts.Gate != nil, bad)
			}
			if !strings.Contains(b.String(), strings.SplitN(inj, "\n", 2)[0][:6]) {
				t.Errorf("%q: the text is gone from the report, not shown as text", inj)
			}
			summary := filepath.Join(t.TempDir(), "summary.md")
			if err := reports.WriteGitHub(r, opts, summary, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(summary)
			if bad := live(string(got)); bad != "" {
				t.Errorf("%q: step summary: live Markdown: %s", inj, bad)
			}
		}
	}
}

// The checker itself sees each injection when it is written raw.
func TestLiveFindsEachInjection(t *testing.T) {
	for _, inj := range injections {
		if strings.HasPrefix(inj, "```") {
			continue // breaks a code span: shown by the injections after it
		}
		if strings.Contains(inj, "|") {
			inj = "| a |\n|---|\n| " + inj + " |"
		}
		if live("verdict\n"+inj) == "" {
			t.Errorf("live(%q) = \"\": the test would prove nothing", inj)
		}
	}
}

// cellPipes counts the pipes of a table row that end a cell, as cmark-gfm
// scans them: a backslash escapes the character after it, pairs from the
// left.
func cellPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// A Markdown report is often printed to a CI log, where the runner reads
// its legacy "##[command]" form anywhere in a line: no string from a result
// can write one, in the report or in the step summary.
func TestMarkdownHoldsNoRunnerCommand(t *testing.T) {
	for _, inj := range []string{"##[add-mask]hunter2", "x ##[stop-commands]tok", "##[error]boom", "###[ok"} {
		r := hostile(inj)
		var b bytes.Buffer
		if err := reports.WriteMarkdown(&b, r, reports.Options{}); err != nil {
			t.Fatal(err)
		}
		summary := filepath.Join(t.TempDir(), "summary.md")
		if err := reports.WriteGitHub(r, reports.Options{}, summary, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(summary)
		for name, out := range map[string]string{"report": b.String(), "step summary": string(got)} {
			if strings.Contains(out, "##[") {
				t.Errorf("%q: the %s holds a runner command", inj, name)
			}
		}
	}
}

// TestFormatCharactersShown (issue 26, finding 7): a bidi override or a
// zero-width character from a summary or a scenario reaches neither the md
// report, the step summary nor an annotation raw: each is shown as an
// escape, so "…fails" cannot be made to read "…passes".
func TestFormatCharactersShown(t *testing.T) {
	for _, c := range []rune{'\u202e', '\u2066', '\u200b', '\ufeff', '\u061c'} {
		inj := "kept" + string(c) + "deliaf"
		r := hostile(inj)
		var md bytes.Buffer
		if err := reports.WriteMarkdown(&md, r, reports.Options{}); err != nil {
			t.Fatal(err)
		}
		summary := filepath.Join(t.TempDir(), "summary.md")
		var ann bytes.Buffer
		if err := reports.WriteGitHub(r, reports.Options{}, summary, &ann); err != nil {
			t.Fatal(err)
		}
		step, _ := os.ReadFile(summary)
		want := fmt.Sprintf(`\u%04x`, c)
		for name, out := range map[string]string{"markdown": md.String(), "step summary": string(step), "annotations": ann.String()} {
			if strings.ContainsRune(out, c) {
				t.Errorf("U+%04X: the %s holds it raw", c, name)
			}
			if !strings.Contains(out, "kept"+want+"deliaf") {
				t.Errorf("U+%04X: the %s does not show it as %s:\n%s", c, name, want, out)
			}
		}
	}
	// The writer's own zero-width space that breaks "##[" stays.
	var md bytes.Buffer
	reports.WriteMarkdown(&md, hostile("##[error]x"), reports.Options{})
	if !strings.Contains(md.String(), "##\u200b[") {
		t.Error(`"##[" is not broken by a zero-width space`)
	}
}
