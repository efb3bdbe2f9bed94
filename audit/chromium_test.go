package audit_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/audit"
	"github.com/compact-eval/compact-eval/guard"
	"github.com/compact-eval/compact-eval/internal/testkit/browser"
)

// TestHTMLChromium opens the audit's page in headless Chromium: the
// verdict, the totals, a row a session and the rows of what was lost,
// repeated and reopened render, the console shows no error, markup a log
// holds in a question stays text, and a screenshot is kept as an
// artifact.
func TestHTMLChromium(t *testing.T) {
	bin := browser.Path(t)
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.CopyFS(logs, os.DirFS("../testdata/audit/logs")); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(logs, "claude", "export-session.jsonl")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	marked := strings.ReplaceAll(string(data), "a semicolon or a comma", "a semicolon or a <b id=injected>comma</b>")
	if err := os.WriteFile(name, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := audit.Dir(logs, audit.Options{Guard: guard.Options{Suggested: true}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := audit.Write(&b, r, "html"); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "audit.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	dom, stderr := browser.Run(t, bin, "file://"+page, "--dump-dom")
	if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	for _, want := range []struct{ name, re string }{
		{"the verdict first", `<body>\s*<h1>compact-eval audit of <code>[^<]+</code></h1>\s*<p class="verdict">audit: 4 sessions in `},
		{"the totals", `<tr><td>tool calls repeated after a compaction</td><td>1</td></tr>`},
		{"a row a session", `(?s)(<tr><td><code>[^<]+\.jsonl</code></td><td class="l">(claude-code|codex)</td>.*){4}`},
		{"a compaction's figures", `<div>10 · lost · 0\.\d{4} · 1 lost · 1 repeated · 1 reopened · 33% \(1/3\) → 0% \(0/3\)</div>`},
		{"the lost rule, with its source seq", `<td class="l">constraint constraint-1 \(suggested\)</td><td>1</td><td class="l">no clause of text restates the rule from #1`},
		{"the repeated call", `<td>11</td><td class="l"><code>Read \{"file_path":"/home/ana/billing/config/export.yml"\}</code></td><td>2</td>`},
		{"the reopened question, its markup as text", `<td>13</td><td class="l">Which delimiter should the CSV use, a semicolon or a &lt;b id=injected&gt;comma&lt;/b&gt;\?</td><td>4</td><td>5</td>`},
		{"the skipped file", `<li><code>settings.json</code>: no events found`},
	} {
		if !regexp.MustCompile(want.re).MatchString(dom) {
			t.Errorf("DOM lacks %s (%s)", want.name, want.re)
		}
	}
	if strings.Contains(dom, `<b id="injected">`) {
		t.Error("a question's markup became an element of the page")
	}

	browser.Screenshot(t, bin, "file://"+page, "audit.png", "1400,1200")
}
