package reports_test

import (
	"bytes"
	"encoding/xml"
	"html"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// baselinePair is a base and a new run with one change of every kind: a
// decision regression, an invariant regression, a fix, a pass no longer
// judged and a skip newly judged.
func baselinePair() (base, next *result.Result) {
	base = handResult(unitSpec{scenario: "a", summarizer: "ours",
		checks: map[string]result.Status{"constraint/ro": pass, "constraint/fixed": fail, "references/refs": pass, "correction/port": skip},
		probes: map[string]string{"p": result.Kept}})
	next = handResult(unitSpec{scenario: "a", summarizer: "ours",
		checks: map[string]result.Status{"constraint/ro": fail, "constraint/fixed": pass, "references/refs": skip, "correction/port": pass},
		probes: map[string]string{"p": result.CompactionRegression}})
	return base, next
}

// TestBaselineCountsAgree: the gate, compare, Markdown, HTML and JUnit give
// one set of counts, and the step summary opens with them.
func TestBaselineCountsAgree(t *testing.T) {
	base, next := baselinePair()
	g := reports.Gate(next, reports.GateOptions{Baseline: base})
	c := g.Comparison
	const want = "2 regressions (1 decision, 1 invariant), 1 fix, 1 no longer judged, 1 newly judged"
	if got := c.NewAgainstBaseline(); got != want {
		t.Fatalf("NewAgainstBaseline = %q, want %q", got, want)
	}
	if !strings.Contains(strings.Join(g.Lines, "\n"), "note baseline: new against the baseline: "+want) {
		t.Errorf("gate lines lack the counts:\n%s", strings.Join(g.Lines, "\n"))
	}
	if !strings.HasPrefix(g.Reason(), "baseline: 2 outcomes went pass→fail (1 decision, 1 invariant;") {
		t.Errorf("gate reason %q", g.Reason())
	}
	var text bytes.Buffer
	c.WriteText(&text)
	if !strings.Contains(text.String(), "new against the baseline: "+want) {
		t.Errorf("compare text lacks the counts:\n%s", text.String())
	}
	opts := reports.Options{Gate: &g}
	md := render(t, next, "md", opts)
	verdict, rest, _ := strings.Cut(md, "\n\n")
	if !strings.HasPrefix(verdict, "**❌ FAIL") || !strings.HasPrefix(rest, "### New against the baseline\n\n"+strings.ReplaceAll(want, "(", "(")) {
		t.Errorf("the Markdown does not open with the verdict, then what is new against the baseline:\n%s", md[:min(len(md), 600)])
	}
	for _, row := range []string{"| regression | `a` | `ours` | 1 | probe | `decisions/p` | pass → fail |", "| regression | `a` | `ours` | 1 | g1 | `constraint/ro` | pass → fail |",
		"| fix | `a` | `ours` | 1 | g1 | `constraint/fixed` | fail → pass | `constraint/fixed pass` |", "| no longer judged | `a` | `ours` | 1 | g1 | `references/refs` | pass → skip |",
		"| newly judged | `a` | `ours` | 1 | g1 | `correction/port` | skip → pass |"} {
		if !strings.Contains(md, row) {
			t.Errorf("the Markdown lacks %q:\n%s", row, md)
		}
	}
	if strings.Index(md, "decisions/p") > strings.Index(md, "constraint/ro") {
		t.Errorf("the decision regression is not listed first:\n%s", md)
	}
	page := html.UnescapeString(render(t, next, "html", opts))
	if !strings.Contains(page, "New against the baseline</h2>\n<p id=\"baseline-summary\">"+want+"</p>") {
		t.Errorf("the HTML lacks the counts")
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Props    []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(render(t, next, "junit", opts)), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[0]
	if s.Name != "new against the baseline" || s.Tests != 5 || s.Failures != 2 || s.Skipped != 1 || s.Props[0].Value != want {
		t.Errorf("junit baseline suite: %+v", s)
	}
	plain := render(t, next, "junit", reports.Options{})
	var doc2 struct {
		Tests int `xml:"tests,attr"`
	}
	xml.Unmarshal([]byte(plain), &doc2)
	if doc.Tests != doc2.Tests+5 {
		t.Errorf("junit totals %d, want the run's %d plus the baseline suite's 5", doc.Tests, doc2.Tests)
	}
}

// A fix is listed with the message of the new run (why it passes now), not
// the base's old failure message.
func TestCompareFixHasTheCurrentMessage(t *testing.T) {
	base, next := baselinePair()
	c := reports.Compare(base, next, 0)
	if len(c.Fixes) != 1 || c.Fixes[0].Message != "constraint/fixed pass" {
		t.Errorf("fixes %+v, want constraint/fixed with the new run's message", c.Fixes)
	}
	var text bytes.Buffer
	c.WriteText(&text)
	if !strings.Contains(text.String(), "g1  constraint/fixed: constraint/fixed pass") || strings.Contains(text.String(), "constraint/fixed fail") {
		t.Errorf("compare text:\n%s", text.String())
	}
}
