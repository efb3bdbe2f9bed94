package reports_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports/internal/junit"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
)

func TestGolden(t *testing.T) {
	r := small(t)
	gate := reports.Gate(r, reports.GateOptions{MinPass: mustMinPass(t, "constraint=1,all=0.5")})
	tests := []struct {
		name, format, file string
		opts               reports.Options
		norm               func(string) string
	}{
		{"markdown", "md", "small.md", reports.Options{}, normalise},
		{"markdown with gate", "md", "small_gate.md", reports.Options{Gate: &gate}, normalise},
		{"junit", "junit", "small.junit.xml", reports.Options{}, normalise},
		{"html structure", "html", "small.html.outline", reports.Options{}, htmlOutline},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.file, tc.norm(render(t, r, tc.format, tc.opts)))
		})
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := reports.Write(&bytes.Buffer{}, small(t), "pdf", reports.Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown report format "pdf" (valid: json, md, junit, html, csv, units-csv, otel)`) {
		t.Fatalf("err = %v, want the list of valid formats", err)
	}
}

// TestJUnitCounts parses the JUnit XML and checks its counts against counts
// computed here, independently, from the result.
func TestJUnitCounts(t *testing.T) {
	for _, cfg := range []fake.Config{{Scenarios: 3, Seed: 1}, {Scenarios: 14, Trials: 2, Seed: 9}} {
		r := fake.Result(cfg)
		var doc junit.Suites
		if err := xml.Unmarshal([]byte(render(t, r, "junit", reports.Options{})), &doc); err != nil {
			t.Fatalf("parsing junit: %v", err)
		}
		type key struct{ scenario, name string }
		outcome := map[key]map[string]int{}
		files := map[string]bool{}
		add := func(k key, status string) {
			if outcome[k] == nil {
				outcome[k] = map[string]int{}
			}
			outcome[k][status]++
		}
		for _, u := range r.Units {
			files[u.Scenario.File] = true
			if u.Status == result.UnitError {
				add(key{u.Scenario.ID, u.Summarizer + "/run"}, "error")
			}
			for _, g := range u.Generations {
				for _, c := range g.Checks {
					name := u.Summarizer + "/" + c.Check
					if c.Invariant != "" {
						name += "/" + c.Invariant
					}
					add(key{u.Scenario.ID, name}, string(c.Status))
				}
			}
			for _, p := range u.Probes {
				st := map[string]string{result.Kept: "pass", result.CompactionRegression: "fail", result.ProbeErrored: "error"}[p.Class]
				if st == "" {
					st = "skip"
				}
				add(key{u.Scenario.ID, u.Summarizer + "/decisions/" + p.ID}, st)
			}
		}
		var want struct{ tests, failures, errors, skipped int }
		for _, o := range outcome {
			want.tests++
			switch {
			case o["fail"] > 0:
				want.failures++
			case o["error"] > 0:
				want.errors++
			case o["pass"] == 0:
				want.skipped++
			}
		}
		got := struct{ tests, failures, errors, skipped int }{doc.Tests, doc.Failures, doc.Errors, doc.Skipped}
		if got != want {
			t.Errorf("root counts = %+v, want %+v", got, want)
		}
		if len(doc.Suites) != len(files) {
			t.Errorf("%d suites, want one per scenario file (%d)", len(doc.Suites), len(files))
		}
		var sum struct{ tests, failures, errors, skipped int }
		for _, s := range doc.Suites {
			var f, e, sk int
			for _, c := range s.Cases {
				if c.Failure != nil {
					f++
				}
				if c.Error != nil {
					e++
				}
				if c.Skipped != nil {
					sk++
				}
				if c.Classname == "" || c.Name == "" {
					t.Errorf("test case without classname or name: %+v", c)
				}
			}
			if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
				t.Errorf("suite %s counts %d/%d/%d/%d disagree with its cases %d/%d/%d/%d", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
			}
			if len(s.Properties) == 0 {
				t.Errorf("suite %s has no provenance properties", s.Name)
			}
			sum.tests += s.Tests
			sum.failures += s.Failures
			sum.errors += s.Errors
			sum.skipped += s.Skipped
		}
		if sum != want {
			t.Errorf("suite totals = %+v, want %+v", sum, want)
		}
	}
}

// TestRedactionEveryFormat builds a result where a summarizer leaked a
// secret, redacts it as the runner does, and checks that no format shows
// the secret or its prefix while each still shows the finding and where.
func TestRedactionEveryFormat(t *testing.T) {
	raw := fake.Result(fake.Config{Scenarios: 3, Seed: 1})
	leaked := false
	for _, f := range []string{"json", "md", "junit", "html"} {
		if strings.Contains(render(t, raw, f, reports.Options{MaxDrillDown: -1}), fake.SecretValue) {
			leaked = true
		}
	}
	if !leaked {
		t.Fatal("the fixture does not leak the secret: the test would prove nothing")
	}
	r := small(t)
	for _, f := range reports.Formats {
		t.Run(f, func(t *testing.T) {
			out := render(t, r, f, reports.Options{MaxDrillDown: -1})
			if strings.Contains(out, fake.SecretValue) || strings.Contains(out, fake.SecretValue[:8]) {
				t.Errorf("%s output contains the secret or its 8-character prefix", f)
			}
			if f == "units-csv" {
				return // figures per unit: no finding, no evidence to show
			}
			if !strings.Contains(out, "[redacted:"+fake.SecretID+"]") {
				t.Errorf("%s output does not show [redacted:%s]", f, fake.SecretID)
			}
			if !strings.Contains(out, "/text") {
				t.Errorf("%s output lost the pointer of the finding", f)
			}
		})
	}
}

func TestMarkdownTruncation(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 300, Seed: 3})
	out := render(t, r, "md", reports.Options{})
	if len(out) > reports.DefaultMaxMarkdown {
		t.Errorf("markdown is %d bytes, over GitHub's limit %d", len(out), reports.DefaultMaxMarkdown)
	}
	if !strings.Contains(out, "… and ") || !strings.Contains(out, " more") {
		t.Errorf("a truncated markdown must say how many failures it left out")
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "**❌ ") {
		t.Errorf("first line is not the verdict: %q", first)
	}
	small := render(t, r, "md", reports.Options{MaxMarkdown: 8000})
	if len(small) > 8000 {
		t.Errorf("markdown is %d bytes with MaxMarkdown 8000", len(small))
	}
}

func TestFindingsWorstFirst(t *testing.T) {
	fs := reports.Findings(small(t))
	if len(fs) == 0 {
		t.Fatal("no findings in the fixture")
	}
	for i := 1; i < len(fs); i++ {
		if fs[i].Severity < fs[i-1].Severity {
			t.Fatalf("finding %d (%v) comes after a less severe one (%v)", i, fs[i], fs[i-1])
		}
	}
	seen := map[int]bool{}
	for _, f := range fs {
		seen[f.Severity] = true
	}
	for _, s := range []int{reports.SevInvariant, reports.SevRegression, reports.SevStructural, reports.SevError} {
		if !seen[s] {
			t.Errorf("the fixture has no finding of severity %d", s)
		}
	}
}
