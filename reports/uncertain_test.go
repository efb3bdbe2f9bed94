package reports_test

import (
	"bytes"
	"encoding/xml"
	"github.com/google/go-cmp/cmp"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// doubtResult: exec:doubt keeps ro on trial 0 and cannot tell on trial 1
// (so a case that passed once must still not read as passed), and cannot
// tell about pin; builtin:extractive keeps both.
func doubtResult() *result.Result {
	return handResult(
		unitSpec{scenario: "a", summarizer: "exec:doubt", checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": result.Uncertain, "schema": pass}},
		unitSpec{scenario: "a", summarizer: "exec:doubt", trial: 1, checks: map[string]result.Status{"constraint/ro": result.Uncertain, "constraint/pin": result.Uncertain, "schema": pass}},
		unitSpec{scenario: "a", summarizer: "builtin:extractive", checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": pass, "schema": pass}},
		unitSpec{scenario: "a", summarizer: "builtin:extractive", trial: 1, checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": pass, "schema": pass}},
	)
}

// Nothing failed and not everything passed: the verdict never says ✅, and
// every uncertain check is a finding whose message says so.
func TestVerdictAndFindingsUncertain(t *testing.T) {
	r := doubtResult()
	if got, want := reports.Verdict(r, nil), "⚠️ 3 uncertain checks, nothing failed (1 scenario × 2 summarizers, 4 units)"; got != want {
		t.Errorf("Verdict = %q; want %q", got, want)
	}
	fs := reports.Findings(r)
	if len(fs) != 3 {
		t.Fatalf("%d findings; want the 3 uncertain checks: %+v", len(fs), fs)
	}
	for _, f := range fs {
		if f.Severity != reports.SevUncertain || !strings.HasPrefix(f.Message, "uncertain: ") || f.Summarizer != "exec:doubt" {
			t.Errorf("finding %+v; want severity SevUncertain, message starting \"uncertain: \", summarizer exec:doubt", f)
		}
	}
	if c := reports.Count(r); c.Uncertain != 3 || c.Errors != 0 || c.InvariantFail != 0 {
		t.Errorf("Count = %+v; want 3 uncertain, no error, no failure", c)
	}

	// With a failure too, the verdict names both, failures first.
	r2 := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": fail, "constraint/pin": result.Uncertain}})
	if got, want := reports.Verdict(r2, nil), "❌ 1 invariant failure, 1 uncertain check (1 scenario × 1 summarizer, 1 unit)"; got != want {
		t.Errorf("Verdict = %q; want %q", got, want)
	}
	// Uncertain findings come after errors: worst first.
	r3 := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Error, "constraint/pin": result.Uncertain}})
	if fs := reports.Findings(r3); len(fs) != 2 || fs[0].Severity != reports.SevError || fs[1].Severity != reports.SevUncertain {
		t.Errorf("findings %+v; want the error, then the uncertain", fs)
	}
}

// The Markdown report shows uncertain in the leaderboard headline, in the
// rate cell, in the rate's definition and in the findings.
func TestMarkdownUncertain(t *testing.T) {
	var b bytes.Buffer
	if err := reports.Write(&b, doubtResult(), "md", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"25% (1/4, 3 uncertain)",           // leaderboard: invariants kept by exec:doubt
		"(1/4, 3 uncertain) |",             // the constraint rate cell
		"pass / (pass + fail + uncertain)", // the rate's definition
		"| `constraint/pin` | – | `uncertain: constraint/pin uncertain` |",
		"**⚠️ 3 uncertain checks, nothing failed",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "✅") {
		t.Errorf("markdown shows ✅ with uncertain checks:\n%s", md)
	}
}

// The HTML report: the headline, a badge on each unit with uncertain
// checks (never "ok"), a bad verdict.
func TestHTMLUncertain(t *testing.T) {
	var b bytes.Buffer
	if err := reports.Write(&b, doubtResult(), "html", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	for _, want := range []string{"25% (1/4, 3 uncertain)", `<span class="badge u">2 uncertain</span>`, `<span class="badge u">1 uncertain</span>`, `class="verdict bad"`} {
		if !strings.Contains(h, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if n := strings.Count(h, `<span class="badge ok">ok</span>`); n != 2 {
		t.Errorf("%d units badged ok; want 2 (builtin:extractive's), never one with an uncertain check", n)
	}
}

// JUnit: an uncertain case is a <failure type="uncertain">, even when
// another trial of it passed; a case that only passed has none.
func TestJUnitUncertain(t *testing.T) {
	var b bytes.Buffer
	if err := reports.Write(&b, doubtResult(), "junit", reports.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	got := map[string]string{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				got[c.Name] = c.Failure.Type + " | " + c.Failure.Message
			} else {
				got[c.Name] = "pass"
			}
		}
	}
	want := map[string]string{
		"exec:doubt/constraint/pin":         "uncertain | trial 1 g1 (cut 4): uncertain: constraint/pin uncertain (and 1 more)",
		"exec:doubt/constraint/ro":          "uncertain | trial 2 g1 (cut 4): uncertain: constraint/ro uncertain",
		"exec:doubt/schema":                 "pass",
		"builtin:extractive/constraint/pin": "pass",
		"builtin:extractive/constraint/ro":  "pass",
		"builtin:extractive/schema":         "pass",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("case %s: %q; want %q", k, got[k], w)
		}
	}
	if doc.Failures != 2 {
		t.Errorf("failures=%d; want 2", doc.Failures)
	}
}

// GitHub: an uncertain outcome is a ::notice at its line, a lost one a
// ::warning, when no gate decided anything; under a failing min-pass gate
// both are ::error when the gate counted them as misses (--uncertain miss,
// the default), and the doubt is a notice again when it counted it as
// passed.
func TestGitHubUncertain(t *testing.T) {
	r := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": fail, "constraint/pin": result.Uncertain, "grounding": result.Uncertain}})
	gate := func(u reports.UncertainAs) *reports.GateReport {
		g := reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "constraint=1"), Uncertain: u})
		return &g
	}
	for _, tc := range []struct {
		name string
		opts reports.Options
		want string
	}{
		{"no gate", reports.Options{}, "::warning file=a.yaml,line=7,title=constraint/ro lost by x (g1)::a · x: constraint/ro fail\n" +
			"::notice file=a.yaml,line=7,title=constraint/pin uncertain for x (g1)::a · x: uncertain: constraint/pin uncertain\n" +
			"::notice file=a.yaml,line=7,title=grounding uncertain for x (g1)::a · x: uncertain: grounding uncertain\n"},
		{"counted as a miss by a failing gate", reports.Options{Gate: gate(reports.UncertainMiss)}, "::error file=a.yaml,line=7,title=constraint/ro lost by x (g1)::a · x: constraint/ro fail\n" +
			"::error file=a.yaml,line=7,title=constraint/pin uncertain for x (g1)::a · x: uncertain: constraint/pin uncertain\n" +
			"::notice file=a.yaml,line=7,title=grounding uncertain for x (g1)::a · x: uncertain: grounding uncertain\n"},
		{"counted as passed", reports.Options{Gate: gate(reports.UncertainPass)}, "::error file=a.yaml,line=7,title=constraint/ro lost by x (g1)::a · x: constraint/ro fail\n" +
			"::notice file=a.yaml,line=7,title=constraint/pin uncertain for x (g1)::a · x: uncertain: constraint/pin uncertain\n" +
			"::notice file=a.yaml,line=7,title=grounding uncertain for x (g1)::a · x: uncertain: grounding uncertain\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ann bytes.Buffer
			if err := reports.WriteGitHub(r, tc.opts, "", &ann); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, ann.String()); d != "" {
				t.Errorf("annotations (-want +got):\n%s", d)
			}
		})
	}
}

// --uncertain: the default counts a doubt as a miss; skip leaves it out
// (and a check type of doubts only has nothing to judge); pass counts it
// as passed. Whatever the choice, the gate lines say what was recounted.
func TestGateUncertainAs(t *testing.T) {
	doubt := handResult(
		unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": result.Uncertain, "quantity/q": result.Uncertain}})
	tests := []struct {
		as     reports.UncertainAs
		rates  string
		failed bool
		lines  []string
		absent []string
	}{
		{"", "constraint=1", true, []string{"FAIL min-pass: x constraint 50.0% (1/2) < 100% (counted as misses: 1 uncertain)"}, []string{"note"}},
		{reports.UncertainMiss, "constraint=1", true, []string{"FAIL min-pass: x constraint 50.0% (1/2) < 100% (counted as misses: 1 uncertain)"}, nil},
		{reports.UncertainSkip, "constraint=1", false, []string{"ok   min-pass constraint=1: 1 summarizer × check type rates hold", "note min-pass: 1 uncertain outcome left out of the rates (--uncertain skip)"}, []string{"FAIL"}},
		{reports.UncertainSkip, "quantity=0", true, []string{"FAIL min-pass: x quantity: nothing to judge (1 uncertain left out by --uncertain skip, 0 skipped; --allow-empty accepts this)"}, nil},
		{reports.UncertainPass, "all=1", false, []string{"ok   min-pass all=1: 2 summarizer × check type rates hold", "note min-pass: 2 uncertain outcomes counted as passed (--uncertain pass)"}, []string{"FAIL"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.as)+" "+tc.rates, func(t *testing.T) {
			g := reports.Gate(doubt, reports.GateOptions{MinPass: mustMinPass(t, tc.rates), Uncertain: tc.as})
			all := strings.Join(g.Lines, "\n")
			if g.Failed != tc.failed {
				t.Errorf("Failed = %v; want %v:\n%s", g.Failed, tc.failed, all)
			}
			for _, l := range tc.lines {
				if !strings.Contains(all, l) {
					t.Errorf("lines lack %q:\n%s", l, all)
				}
			}
			for _, l := range tc.absent {
				if strings.Contains(all, l) {
					t.Errorf("lines hold %q:\n%s", l, all)
				}
			}
		})
	}
}

// The baseline gate under each --uncertain: a base pass now uncertain is a
// regression by default, left out with skip (and said), a pass with pass.
func TestBaselineUncertainAs(t *testing.T) {
	base := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": pass}})
	next := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass, "constraint/pin": result.Uncertain}})
	for _, tc := range []struct {
		as        reports.UncertainAs
		regressed bool
		warning   string
	}{
		{"", true, ""},
		{reports.UncertainSkip, false, "1 outcome uncertain in either run: not compared (--uncertain skip)"},
		{reports.UncertainPass, false, ""},
	} {
		g := reports.Gate(next, reports.GateOptions{Baseline: base, Uncertain: tc.as})
		if g.Failed != tc.regressed {
			t.Errorf("--uncertain %q: Failed = %v; want %v:\n%s", tc.as, g.Failed, tc.regressed, strings.Join(g.Lines, "\n"))
		}
		if tc.warning != "" && !slices.Contains(g.Comparison.Warnings, tc.warning) {
			t.Errorf("--uncertain %q: warnings %q lack %q", tc.as, g.Comparison.Warnings, tc.warning)
		}
	}
	// With skip, an uncertain base is not compared either: it can be
	// neither a regression nor a fix.
	c := reports.CompareWith(next, base, reports.CompareOptions{Uncertain: reports.UncertainSkip})
	if len(c.Fixes) != 0 || len(c.Regressions) != 0 {
		t.Errorf("skip: uncertain base compared: fixes %v, regressions %v", c.Fixes, c.Regressions)
	}
}

func TestParseUncertainAs(t *testing.T) {
	for _, v := range []string{"miss", "skip", "pass"} {
		if u, err := reports.ParseUncertainAs(v); err != nil || string(u) != v {
			t.Errorf("ParseUncertainAs(%q) = %q, %v", v, u, err)
		}
	}
	for _, v := range []string{"", "fail", "ignore", "Pass"} {
		if _, err := reports.ParseUncertainAs(v); err == nil || !strings.Contains(err.Error(), "want miss") {
			t.Errorf("ParseUncertainAs(%q): error %v; want one listing the values", v, err)
		}
	}
	var zero reports.UncertainAs
	if zero.String() != "miss" {
		t.Errorf("zero UncertainAs reads %q; want miss", zero.String())
	}
}
