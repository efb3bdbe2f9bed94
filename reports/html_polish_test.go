package reports_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

// TestHTMLPolish checks what a reader of the HTML report relies on: whole
// summarizer names, every check explained, decisions in words (no Go
// values), trials from 1, failures grouped with a filter, no empty header
// line, and a head-to-head when the run has two summarizers.
func TestHTMLPolish(t *testing.T) {
	long := "exec:python3 summarizers/keep_constraints_and_pending.py --model qwen3-32b --v2"
	r := &result.Result{ResultVersion: 1, RunID: "r", Config: result.RunConfig{Summarizers: []string{"builtin:extractive", long}, Agent: "builtin:reference", Trials: 2, Tokenizer: "o200k_base"}}
	for _, sum := range r.Config.Summarizers {
		for trial := range 2 {
			status := result.Pass
			class := result.Kept
			compacted := "refuse"
			if sum == long {
				status, class, compacted = result.Fail, result.CompactionRegression, "proceed"
			}
			r.Units = append(r.Units, result.Unit{
				Scenario:   result.ScenarioRef{ID: "readonly", File: "sc/readonly.yaml", Digest: "sha256:00"},
				Summarizer: sum, Trial: trial, Status: result.UnitOK,
				Generations: []result.Generation{{N: 1, Cut: 4, From: 1, CoversThrough: 4, Installed: true, Summary: []byte(`{"schema_version":1,"covers_through":4,"text":"x"}`),
					Checks: []result.CheckResult{
						{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: status, Message: "constraint ro", Pos: result.Pos{Line: 12}},
						{Check: result.CheckCoverage, Kind: result.KindStructural, Status: result.Pass, Message: "coverage ok"},
					}}},
				Probes: []result.Probe{{ID: "restart", Expect: "refuse", Class: class, Pos: result.Pos{Line: 20},
					Full:      result.Decision{Choice: "refuse", Reason: "the run is read-only (seq 1)"},
					Compacted: result.Decision{Choice: compacted, Reason: "nothing forbids a restart"},
					Diff:      "  runner.answer{\n-\tChoice: \"refuse\",\n+\tChoice: \"proceed\",\n  }\n"}},
			})
		}
	}
	r.Aggregate()
	page := render(t, r, "html", reports.Options{MaxDrillDown: -1})

	for _, bad := range []string{"runner.answer", "reports.Decision{", "trial 0", "paths: <b></b>", "<b></b>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page shows %q", bad)
		}
	}
	for _, want := range []struct{ what, re string }{
		{"the built-in suite named instead of an empty paths line", `paths: <b>the built-in suite</b>`},
		{"the whole name in the legend", `<ul class="legend"><li><span class="sw" style="background:[^"]+"></span><code>builtin:extractive</code></li><li><span class="sw" style="background:[^"]+"></span><code>` + regexp.QuoteMeta(long) + `</code>`},
		{"the whole name in the heatmap's tooltip", `<title>` + regexp.QuoteMeta(long) + `</title>`},
		{"the decision in words", `full: <b>refuse</b> · compacted: <b>proceed</b> · expected: <b>refuse</b>`},
		{"the agent's reasons", `compacted context: nothing forbids a restart`},
		{"trials from 1", `trial 2 ·`},
		{"the filter box", `<input id="ffilter" type="search"`},
		{"failures grouped by scenario", `<details class="fgroup" open><summary><b>readonly</b> · 4 failures · decisions/restart ×2, constraint/ro ×2</summary>`},
		{"a check explained where it fails", `<tr class="fcheck" data-c="1"><td colspan="5">constraint/ro <span class="muted">— a rule given by the user or system`},
		{"the glossary", `<dt>coverage</dt><dd>covers_through is the cut`},
		{"the head-to-head", `<div class="h2h" id="h2h-0"><h3>A: <code>builtin:extractive</code> vs B: <code>` + regexp.QuoteMeta(long) + `</code></h3>`},
		{"its pair in the list", `<option value="h2h-0" selected>A: builtin:extractive vs B: ` + regexp.QuoteMeta(long) + `</option>`},
		{"its paired rows", `<td><abbr title="[^"]+">constraint</abbr></td><td class="num">100.0% \(2/2\)</td><td class="num">0.0% \(0/2\)</td>`},
	} {
		if !regexp.MustCompile(want.re).MatchString(page) {
			t.Errorf("the page lacks %s (%s)", want.what, want.re)
		}
	}
	// Every check type of the run is explained.
	for _, ck := range result.CheckTypes(r) {
		if !strings.Contains(page, "<dt>"+ck+"</dt>") {
			t.Errorf("the glossary does not explain %s", ck)
		}
	}
}

// TestCheckDocs: every check type compact-eval ships has its one-line
// explanation, so that a new check cannot reach a report unexplained.
func TestCheckDocs(t *testing.T) {
	all := append(append(append([]string(nil), result.InvariantTypes...), result.StructuralChecks...), result.CheckDecisions)
	for _, ck := range all {
		if reports.CheckDoc(ck) == "" {
			t.Errorf("check %q has no explanation (reports.CheckDoc)", ck)
		}
	}
}
