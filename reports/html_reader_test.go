package reports_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// readerRun is a run of three summarizers on one scenario: a structured
// summary whose constraint check fails (evidence on the constraint), a
// text-only summary whose text has line breaks and HTML-special
// characters, and a summary that is not a summary document at all.
func readerRun() *result.Result {
	structured := `{"schema_version":1,"covers_through":4,"goal":"fix the deploy","constraints":[{"text":"staging is read-only","source_seq":1}],` +
		`"verified":[{"claim":"port 8080 is closed","source_seq":3}],"decisions":[{"text":"use blue/green"}],` +
		`"pending":[{"op_id":"op-7","description":"migration 42","status":"in_flight","source_seq":2}],` +
		`"artifacts":[{"path":"deploy/prod.yaml","status":"current"},{"path":"deploy/prod.yaml.bak","status":"stale"}]}`
	text := `{"schema_version":1,"covers_through":4,"text":"line one <b>\nline two > three"}`
	r := &result.Result{ResultVersion: 1, RunID: "reader", Config: result.RunConfig{Summarizers: []string{"builtin:extractive", "builtin:truncate", "exec:./odd.sh"}, Trials: 1}}
	for _, s := range []struct{ name, summary string }{{"builtin:extractive", structured}, {"builtin:truncate", text}, {"exec:./odd.sh", `["not", "a", "summary"]`}} {
		status := result.Pass
		var ev []result.Evidence
		if s.name == "builtin:extractive" {
			status = result.Fail
			ev = []result.Evidence{{Pointer: "/constraints/0/text", Text: "read-only"}}
		}
		r.Units = append(r.Units, result.Unit{
			Scenario: result.ScenarioRef{ID: "deploy", File: "sc/deploy.yaml"}, Summarizer: s.name, Status: result.UnitOK,
			Generations: []result.Generation{{N: 1, Cut: 4, CoversThrough: 4, Installed: true, Summary: []byte(s.summary), Checks: []result.CheckResult{
				{Check: "tail", Kind: result.KindStructural, Status: result.Pass},
				{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: status, Message: "constraint ro", Evidence: ev},
			}}},
			Probes: []result.Probe{{ID: "push", Expect: "refuse", Class: result.CompactionRegression, Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "proceed"}}},
		})
	}
	r.Aggregate()
	return r
}

// TestHTMLSummarySections: the summary reads as sections, items the
// failing evidence points at marked, text as text; the raw JSON is one
// click away, and a document that is not a summary is shown raw and open.
func TestHTMLSummarySections(t *testing.T) {
	page := render(t, readerRun(), "html", reports.Options{MaxDrillDown: -1})
	for _, want := range []struct{ what, re string }{
		{"the goal", `<h4>Goal</h4><ul><li>fix the deploy</li></ul>`},
		{"the failing constraint marked, its evidence highlighted", `<h4>Constraints</h4><ul><li class="fail" title="constraint/ro: fail">staging is <mark>read-only</mark><span class="meta">#1</span></li></ul>`},
		{"verified facts", `<h4>Verified facts</h4><ul><li>port 8080 is closed<span class="meta">#3</span></li></ul>`},
		{"decisions", `<h4>Decisions</h4><ul><li>use blue/green</li></ul>`},
		{"pending operations with their status", `<h4>Pending operations</h4><ul><li>op-7: migration 42<span class="meta">in_flight · #2</span></li></ul>`},
		{"artifacts with their status", `<h4>Artifacts</h4><ul><li>deploy/prod.yaml<span class="meta">current</span></li><li>deploy/prod.yaml.bak<span class="meta">stale</span></li></ul>`},
		{"text as text, its line break kept and its characters escaped once", "<h4>Text</h4><div class=\"pre\">line one &lt;b&gt;\nline two &gt; three</div>"},
		{"the raw JSON behind a click", `<details class="raw"><summary>raw JSON</summary><pre class="json summary">`},
		{"a document that is not a summary shown raw, open", `<details class="raw" open><summary>raw JSON</summary><pre class="json summary"><span class="l">\[</span>`},
	} {
		if !regexp.MustCompile(want.re).MatchString(page) {
			t.Errorf("the page lacks %s (%s)", want.what, want.re)
		}
	}
	if strings.Contains(page, `\u003e`) || regexp.MustCompile(`<div class="pre[^"]*"[^>]*>[^<]*\\n`).MatchString(page) {
		t.Error("the summary's text is shown JSON-escaped")
	}
}

// TestHTMLFailureLinks: every failure row links to an element of the page,
// its check's row (or its probe's) when the unit has a drill-down, its
// unit's row when it has none.
func TestHTMLFailureLinks(t *testing.T) {
	r := readerRun()
	for _, drill := range []int{-1, 1} {
		page := render(t, r, "html", reports.Options{MaxDrillDown: drill})
		links := regexp.MustCompile(`<a class="flink" href="#([^"]+)"`).FindAllStringSubmatch(page, -1)
		if len(links) != len(reports.Findings(r)) {
			t.Fatalf("drill %d: %d failure links, want one per failure (%d)", drill, len(links), len(reports.Findings(r)))
		}
		for _, l := range links {
			if !strings.Contains(page, ` id="`+l[1]+`"`) {
				t.Errorf("drill %d: link #%s leads nowhere", drill, l[1])
			}
		}
		unit := reports.UnitAnchor("deploy", "builtin:extractive", 0)
		if drill < 0 {
			// The constraint is the second check of generation 1; the
			// probe the first of the unit.
			for _, want := range []string{unit + "-g1-c1", unit + "-p0"} {
				if !strings.Contains(page, `href="#`+want+`"`) {
					t.Errorf("no failure links to %s", want)
				}
				if !regexp.MustCompile(`<tr id="` + want + `"><td class="name">`).MatchString(page) {
					t.Errorf("no row %s in the drill-down", want)
				}
			}
		}
	}
	if reports.UnitAnchor("a", "b c", 0) == reports.UnitAnchor("a b", "c", 0) || reports.UnitAnchor("a", "b", 0) == reports.UnitAnchor("a", "b", 1) {
		t.Error("two units share an anchor")
	}
}

// TestHTMLHeadToHeadList: every pair is in the list, one shown at a time.
func TestHTMLHeadToHeadList(t *testing.T) {
	page := render(t, readerRun(), "html", reports.Options{})
	opts := regexp.MustCompile(`<option value="h2h-\d+"[^>]*>([^<]+)</option>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, o := range opts {
		got = append(got, o[1])
	}
	want := []string{"A: builtin:extractive vs B: builtin:truncate", "A: builtin:extractive vs B: exec:./odd.sh", "A: builtin:truncate vs B: exec:./odd.sh"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("pairs listed %q, want %q", got, want)
	}
	if n := len(regexp.MustCompile(`<div class="h2h" id="h2h-\d+">`).FindAllString(page, -1)); n != 1 {
		t.Errorf("%d pairs shown at first, want 1", n)
	}
}

// TestHTMLNamesWhole: no style lets a name break inside a word.
func TestHTMLNamesWhole(t *testing.T) {
	page := render(t, readerRun(), "html", reports.Options{})
	style := regexp.MustCompile(`(?s)<style>(.*)</style>`).FindStringSubmatch(page)[1]
	rules := regexp.MustCompile(`([^{}]+)\{([^}]*)\}`).FindAllStringSubmatch(style, -1)
	if len(rules) < 20 {
		t.Fatalf("%d style rules read: the test reads the style wrong", len(rules))
	}
	for _, r := range rules {
		sel, body := r[1], r[2]
		names := strings.Contains(sel, "code") || strings.Contains(sel, "name") || strings.Contains(sel, "legend") || strings.Contains(sel, "summary")
		if names && (strings.Contains(body, "break-all") || strings.Contains(body, "anywhere")) {
			t.Errorf("the style lets names break inside a word: %s{%s}", strings.TrimSpace(sel), body)
		}
	}
	if !strings.Contains(style, "code,.name{white-space:nowrap") {
		t.Error("names are not kept on one line")
	}
}

// TestHTMLDriftN: the drift chart writes n beside each point and says when
// a point rests on one outcome or one scenario.
func TestHTMLDriftN(t *testing.T) {
	page := render(t, readerRun(), "html", reports.Options{})
	drift := regexp.MustCompile(`(?s)<svg class="chart" id="drift".*?</svg>.*?</ul>(<p class="muted thin">[^<]*</p>)?`).FindString(page)
	if !strings.Contains(drift, `>n=1</text>`) {
		t.Errorf("the drift chart does not write n per point:\n%s", drift)
	}
	if !strings.Contains(drift, "Hollow points rest on one outcome (n = 1)") || !strings.Contains(drift, "builtin:extractive at g1 (n = 1)") {
		t.Errorf("the drift chart does not say its points rest on one outcome:\n%s", drift)
	}
	many := small(t)
	page = render(t, many, "html", reports.Options{})
	if !regexp.MustCompile(`>n=\d+</text>`).MatchString(page) {
		t.Error("the small run's drift chart writes no n")
	}
}
