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
				{Check: "schema", Kind: result.KindStructural, Status: result.Fail, Message: "structural: not annotated"},
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
	want := "::error file=suite/a%2Cb%3Ac.yaml,line=14,title=constraint/ro lost by exec%3A./sum%2C v2 (g2)::s1 · exec:./sum, v2: lost 100%25 of%0Athe constraint%0D (at /constraints)\n"
	if d := cmp.Diff(want, ann.String()); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	got, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(got), "earlier step\n**❌ 1 invariant failure, ") {
		t.Errorf("step summary was not appended with the verdict first:\n%s", got)
	}
}

// TestWriteGitHubCapsAnnotations: decision regressions are annotated
// first, then invariant failures, at most MaxAnnotationsPerKind of each,
// with one notice per kind for the rest; against a baseline, what is no
// longer judged is one notice, never an error.
func TestWriteGitHubCapsAnnotations(t *testing.T) {
	const nInv, nDec = reports.MaxAnnotationsPerKind + 3, reports.MaxAnnotationsPerKind + 2
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
	for _, tc := range []struct {
		name    string
		opts    reports.Options
		notices []string
	}{
		{"without a baseline", reports.Options{}, []string{
			"::notice::2 more decision regressions are not annotated; see the step summary",
			"::notice::3 more invariant failures are not annotated; see the step summary",
		}},
		{"against a baseline", reports.Options{Gate: gateAgainst(next, base)}, []string{
			"::notice::1 outcome no longer judged (judged in the baseline, skipped now): not regressions; see the step summary",
			"::notice::2 more decision regressions new against the baseline are not annotated; see the step summary",
			"::notice::3 more invariant failures new against the baseline are not annotated; see the step summary",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ann bytes.Buffer
			if err := reports.WriteGitHub(next, tc.opts, "", &ann); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(ann.String()), "\n")
			if len(lines) != 2*reports.MaxAnnotationsPerKind+len(tc.notices) {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), 2*reports.MaxAnnotationsPerKind+len(tc.notices), ann.String())
			}
			for i, l := range lines[:2*reports.MaxAnnotationsPerKind] {
				decision := strings.Contains(l, "title=decisions/")
				if !strings.HasPrefix(l, "::error ") || decision != (i < reports.MaxAnnotationsPerKind) || strings.Contains(l, "zz-skip") {
					t.Errorf("line %d: want the %d decision regressions first, then invariants, and no skip: %s", i+1, reports.MaxAnnotationsPerKind, l)
				}
			}
			if d := cmp.Diff(tc.notices, lines[2*reports.MaxAnnotationsPerKind:]); d != "" {
				t.Errorf("notices (-want +got):\n%s", d)
			}
		})
	}
}

// gateAgainst is the baseline gate of r against base.
func gateAgainst(r, base *result.Result) *reports.GateReport {
	g := reports.Gate(r, reports.GateOptions{Baseline: base})
	return &g
}
