package reports_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/browser"
	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// TestHTMLChromium opens the HTML report in headless Chromium: the charts
// and a drill-down render, the inline script runs, the console shows no
// error, and a screenshot is kept as an artifact.
func TestHTMLChromium(t *testing.T) {
	bin := browser.Path(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(render(t, small(t), "html", reports.Options{})), 0o644); err != nil {
		t.Fatal(err)
	}

	// The error detector must see a broken page's error, or a clean
	// console would prove nothing.
	bad := filepath.Join(dir, "bad.html")
	if err := os.WriteFile(bad, []byte(`<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr := browser.Run(t, bin, "file://"+bad, "--dump-dom"); len(browser.ConsoleErrors(stderr)) == 0 {
		t.Fatalf("the console capture did not report a deliberate script error; stderr:\n%s", stderr)
	}

	dom, stderr := browser.Run(t, bin, "file://"+page, "--dump-dom")
	if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	for _, want := range []struct{ name, re string }{
		{"the inline script ran", `<html lang="en" data-ready="1">`},
		{"heatmap chart", `<svg class="chart" id="heatmap"`},
		{"heatmap cells", `<rect class="cell"`},
		{"scatter chart", `<svg class="chart" id="scatter"`},
		{"scatter points", `<circle class="pt"`},
		{"drift chart", `<svg class="chart" id="drift"`},
		{"drift lines", `<polyline class="line"`},
		{"an open drill-down", `<details class="unit" id="u-[0-9a-f]{12}" open="">`},
		{"a summary with highlighted evidence", `<span class="l fail" title="[^"]+">`},
		{"a decision in words", `<div class="decision">full: <b>[^<]+</b> · compacted: <b>[^<]*</b> · expected: <b>[^<]+</b></div>`},
		{"the agent's reasons", `<div class="reason">compacted context: `},
		{"legends as HTML, names whole", `<ul class="legend"><li><span class="sw" style="[^"]+"></span><code>[^<]+</code></li><li><span class="sw" style="[^"]+"></span><code>builtin:truncate</code></li>`},
		{"the glossary of check names", `<dl class="glossary" id="glossary"><dt>constraint</dt><dd>`},
		{"a check name explained on hover", `<abbr title="summary tokens are at most max_ratio`},
		{"the head-to-head section", `<div class="h2h" id="h2h-0"><h3>A: <code>builtin:truncate</code> vs B: <code>builtin:extractive</code></h3>`},
		{"the other pairs hidden by the script", `<div class="h2h" id="h2h-1" hidden="">`},
		{"the summary as sections", `<div class="sum"><h4>`},
		{"its paired table", `<table class="h2h-rows"><tbody><tr><th>check</th>`},
		{"failures grouped by scenario", `<details class="fgroup" open=""><summary><b>scn-000</b> · 22 failures · `},
		{"the filter script ran", `<span class="muted" id="fcount">47 failures</span>`},
	} {
		if !regexp.MustCompile(want.re).MatchString(dom) {
			t.Errorf("DOM lacks %s (%s)", want.name, want.re)
		}
	}

	for _, bad := range []string{"runner.answer", "reports.Decision{", "· trial 0 ·"} {
		if strings.Contains(dom, bad) {
			t.Errorf("the page shows %q", bad)
		}
	}

	// The filter box, given by the link (#filter=…), hides the failures
	// that do not match every word, and the groups left empty.
	filtered, stderr := browser.Run(t, bin, "file://"+page+"#filter=scn-001%20secret", "--dump-dom")
	if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
		t.Errorf("console errors with a filter:\n%s", strings.Join(errs, "\n"))
	}
	if !strings.Contains(filtered, `<span class="muted" id="fcount">3 of 47 shown</span>`) {
		t.Errorf("the filter did not narrow the failures to scn-001's 3 secret failures: %s", regexp.MustCompile(`<span class="muted" id="fcount">[^<]*</span>`).FindString(filtered))
	}
	if n := len(regexp.MustCompile(`<details class="fgroup"[^>]* hidden=""`).FindAllString(filtered, -1)); n != 2 {
		t.Errorf("%d scenario groups hidden by the filter, want 2 (scn-000, scn-002)", n)
	}

	browser.Screenshot(t, bin, "file://"+page, "report-small.png", "1400,2000")
}

// TestHTMLTrialsChromium: in Chromium, a run with flaky trials shows its
// spread across trials per summarizer, one with identical trials the one
// line that says so, and the head-to-head counts scenarios.
func TestHTMLTrialsChromium(t *testing.T) {
	bin := browser.Path(t)
	dir := t.TempDir()
	flaky := fake.Result(fake.Config{Scenarios: 6, Trials: 3, Seed: 5})
	identical := copiedTrials(fake.Result(fake.Config{Scenarios: 6, Seed: 5}), 3)
	for _, tc := range []struct {
		name string
		r    *result.Result
		want []string
	}{
		{"flaky", flaky, []string{`<h3>Across the 3 trials</h3>`, `<table id="trials"><tbody><tr><th>summarizer</th><th>changed between trials</th><th>pass^3</th><th>passed in one trial</th></tr>`,
			`<th>p</th><th>scenarios</th></tr>`}},
		{"identical", identical, []string{`<p id="trials-identical">trials identical: every summarizer gave the same outcomes in all 3 trials (deterministic)`}},
	} {
		page := filepath.Join(dir, tc.name+".html")
		if err := os.WriteFile(page, []byte(render(t, tc.r, "html", reports.Options{})), 0o644); err != nil {
			t.Fatal(err)
		}
		dom, stderr := browser.Run(t, bin, "file://"+page, "--dump-dom")
		if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
			t.Errorf("%s: console errors:\n%s", tc.name, strings.Join(errs, "\n"))
		}
		for _, w := range tc.want {
			if !strings.Contains(dom, w) {
				t.Errorf("%s: the DOM lacks %s", tc.name, w)
			}
		}
		if got := strings.Count(dom, "trials identical: "); (tc.name == "identical") != (got == 1) || got > 1 {
			t.Errorf("%s: 'trials identical' shown %d times", tc.name, got)
		}
	}
}
