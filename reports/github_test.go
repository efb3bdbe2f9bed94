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

func TestWriteGitHubCapsAnnotations(t *testing.T) {
	r := &result.Result{ResultVersion: 1, Config: result.RunConfig{Summarizers: []string{"s"}}}
	u := result.Unit{Scenario: result.ScenarioRef{ID: "s", File: "s.yaml"}, Summarizer: "s", Status: result.UnitOK}
	g := result.Generation{N: 1}
	for i := range reports.MaxAnnotations + 7 {
		g.Checks = append(g.Checks, result.CheckResult{Check: "constraint", Kind: result.KindInvariant, Invariant: "c" + itoa(i), Status: result.Fail, Message: "lost", Pos: result.Pos{Line: i + 1}})
	}
	u.Generations = []result.Generation{g}
	r.Units = []result.Unit{u}
	var ann bytes.Buffer
	if err := reports.WriteGitHub(r, reports.Options{}, "", &ann); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(ann.String()), "\n")
	if len(lines) != reports.MaxAnnotations+1 || lines[len(lines)-1] != "::notice::7 more failing invariants and compaction regressions are not annotated; see the step summary" {
		t.Errorf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
