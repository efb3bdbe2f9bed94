package reports_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/google/go-cmp/cmp"
)

func TestWriteGitHub(t *testing.T) {
	r := &result.Result{
		ResultVersion: 1, RunID: "r", Config: result.RunConfig{Summarizers: []string{"exec:./sum, v2"}, Trials: 1},
		Units: []result.Unit{{
			Scenario:   result.ScenarioRef{ID: "s1", File: "suite/a,b:c.yaml"},
			Summarizer: "exec:./sum, v2", Status: result.UnitOK,
			Generations: []result.Generation{{N: 2, Checks: []result.CheckResult{
				{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail,
					Message: "lost 100% of\nthe constraint\r", Pos: result.Pos{Line: 14, Col: 5},
					Evidence: []result.Evidence{{Pointer: "/constraints", Seq: 1}}},
				{Check: "schema", Kind: result.KindStructural, Status: result.Fail, Message: "not a summary"},
			}}},
		}},
	}
	r.Aggregate()
	summary := filepath.Join(t.TempDir(), "step_summary.md")
	os.WriteFile(summary, []byte("earlier step\n"), 0o644)
	var ann bytes.Buffer
	if err := reports.WriteGitHub(r, reports.Options{}, summary, &ann); err != nil {
		t.Fatal(err)
	}
	// No gate was asked: nothing decided the exit code, nothing is an
	// ::error; a structural failure is a notice at its file.
	want := "::warning file=suite/a%2Cb%3Ac.yaml,line=14,title=constraint/ro lost by exec%3A./sum%2C v2 (g2)::s1 · exec:./sum, v2: lost 100%25 of%0Athe constraint%0D (at /constraints)\n" +
		"::notice file=suite/a%2Cb%3Ac.yaml,title=schema failed for exec%3A./sum%2C v2 (g2)::s1 · exec:./sum, v2: not a summary\n"
	if d := cmp.Diff(want, ann.String()); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	got, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(got), "earlier step\n**❌ 1 invariant failure, ") {
		t.Errorf("step summary was not appended with the verdict first:\n%s", got)
	}
}

// annotated splits annotation output into lines, each annotation cut
// after its title (level, file, line, title); notices are kept whole.
func annotated(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if head, _, ok := strings.Cut(strings.TrimPrefix(l, "::"), "::"); ok && strings.Contains(head, "title=") {
			l = "::" + head
		}
		lines = append(lines, l)
	}
	return lines
}

// TestWriteGitHubCapsAnnotations: the annotations come in the order of
// every list of findings (errors, decision regressions, invariants);
// ::error only for what decided a failing gate, at most
// MaxAnnotationsPerLevel per level, with one notice per level for the
// rest; against a baseline, what is no longer judged is one notice, never
// an error.
func TestWriteGitHubCapsAnnotations(t *testing.T) {
	const nInv, nDec = reports.MaxAnnotationsPerLevel + 3, reports.MaxAnnotationsPerLevel + 2
	spec := func(st result.Status, class string) unitSpec {
		u := unitSpec{scenario: "s", summarizer: "ours", checks: map[string]result.Status{"constraint/zz-skip": st}, probes: map[string]string{}}
		for i := range nInv {
			u.checks["constraint/c"+itoa(i)] = st
		}
		for i := range nDec {
			u.probes["p"+itoa(i)] = class
		}
		return u
	}
	failing := spec(fail, result.CompactionRegression)
	failing.checks["constraint/zz-skip"] = skip
	base, next := handResult(spec(pass, result.Kept)), handResult(failing)
	minPass := reports.Gate(next, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"constraint": 1}}})
	levels := func(lines []string) (errs, warns, notices []string) {
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "::error "):
				errs = append(errs, l)
			case strings.HasPrefix(l, "::warning "):
				warns = append(warns, l)
			default:
				notices = append(notices, l)
			}
		}
		return
	}
	for _, tc := range []struct {
		name string
		opts reports.Options
		// the kinds of the errors and warnings, in order ("d" decision, "c" constraint)
		errs, warns string
		notices     []string
	}{
		{"no gate: nothing is an error", reports.Options{}, "", "dddddddddd", []string{
			"::notice::15 more warning annotations are left out (2 decision regressions, 13 invariant failures); see the step summary",
		}},
		{"a failing min-pass: its misses are the errors", reports.Options{Gate: &minPass}, "cccccccccc", "dddddddddd", []string{
			"::notice::3 more error annotations are left out (3 invariant failures); see the step summary",
			"::notice::2 more warning annotations are left out (2 decision regressions); see the step summary",
		}},
		{"against a failing baseline", reports.Options{Gate: gateAgainst(next, base)}, "dddddddddd", "", []string{
			"::notice::1 outcome no longer judged (judged in the baseline, skipped now): not regressions; see the step summary",
			"::notice::15 more error annotations new against the baseline are left out (2 decision regressions, 13 invariant failures); see the step summary",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ann bytes.Buffer
			if err := reports.WriteGitHub(next, tc.opts, "", &ann); err != nil {
				t.Fatal(err)
			}
			errs, warns, notices := levels(annotated(ann.String()))
			kinds := func(ls []string) string {
				var b strings.Builder
				for _, l := range ls {
					switch {
					case strings.Contains(l, "zz-skip"):
						t.Errorf("a skipped outcome is annotated: %s", l)
					case strings.Contains(l, "title=decisions/"):
						b.WriteByte('d')
					case strings.Contains(l, "title=constraint/"):
						b.WriteByte('c')
					default:
						b.WriteByte('?')
					}
				}
				return b.String()
			}
			if got := kinds(errs); got != tc.errs {
				t.Errorf("errors %q, want %q:\n%s", got, tc.errs, ann.String())
			}
			if got := kinds(warns); got != tc.warns {
				t.Errorf("warnings %q, want %q:\n%s", got, tc.warns, ann.String())
			}
			if d := cmp.Diff(tc.notices, notices); d != "" {
				t.Errorf("notices (-want +got):\n%s", d)
			}
		})
	}
}

// An annotation names a file of the repository: a file the result names
// that AnnotationFile says is outside (a built-in scenario) is not
// annotated, one notice says so, and the step summary names its scenario
// by id; a file inside is given as AnnotationFile writes it.
func TestWriteGitHubOutsideTheRepository(t *testing.T) {
	r := handResult(
		unitSpec{scenario: "builtin-one", summarizer: "x", checks: map[string]result.Status{"constraint/ro": fail}},
		unitSpec{scenario: "ours", summarizer: "x", checks: map[string]result.Status{"constraint/ro": fail}})
	opts := reports.Options{AnnotationFile: func(file string) (string, bool) {
		if file == "builtin-one.yaml" {
			return "", false
		}
		return "sub/" + file, true
	}}
	summary := filepath.Join(t.TempDir(), "summary.md")
	var ann bytes.Buffer
	if err := reports.WriteGitHub(r, opts, summary, &ann); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=sub/ours.yaml,line=7,title=constraint/ro lost by x (g1)::ours · x: constraint/ro fail\n" +
		"::notice::1 finding on scenarios outside this repository (builtin-one) is not annotated; the step summary names them by scenario id\n"
	if d := cmp.Diff(want, ann.String()); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	got, _ := os.ReadFile(summary)
	if !strings.Contains(string(got), "1 finding on scenarios outside this repository (`builtin-one`) is not annotated: the failures above name them by scenario id.") {
		t.Errorf("the step summary does not name the scenario left out:\n%s", got)
	}
}

// gateAgainst is the baseline gate of r against base.
func gateAgainst(r, base *result.Result) *reports.GateReport {
	g := reports.Gate(r, reports.GateOptions{Baseline: base})
	return &g
}
