package reports_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// TestCSVGolden pins the CSV of the small run and of a run with what a
// spreadsheet trips on: an errored unit, a message with a newline, quotes
// and commas, and cells a spreadsheet would read as a formula.
func TestCSVGolden(t *testing.T) {
	golden(t, "small.csv", render(t, small(t), "csv", reports.Options{}))
	golden(t, "awkward.csv", render(t, awkward(), "csv", reports.Options{}))
}

func awkward() *result.Result {
	r := &result.Result{ResultVersion: 1, RunID: "awk", Config: result.RunConfig{Summarizers: []string{"=cmd|' /C calc'!A0", "ours"}, Trials: 1}}
	r.Units = []result.Unit{
		{Scenario: result.ScenarioRef{ID: "s1", File: "sc/s1.yaml"}, Summarizer: "=cmd|' /C calc'!A0", Status: result.UnitOK,
			Generations: []result.Generation{{N: 1, Checks: []result.CheckResult{
				{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: result.Fail, Message: "no entry matches \"read-only\",\nsecond line", Pos: result.Pos{Line: 7}, DecidedBy: result.DecidedTyped},
				{Check: "tail", Kind: result.KindStructural, Status: result.Pass, Message: "+1 event kept"},
			}}},
			Probes: []result.Probe{{ID: "push", Expect: "refuse", Class: result.CompactionRegression, Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "proceed"}, Pos: result.Pos{Line: 20}}}},
		{Scenario: result.ScenarioRef{ID: "s1", File: "sc/s1.yaml"}, Summarizer: "ours", Status: result.UnitError, Error: "@exec: exit status 3"},
	}
	r.Aggregate()
	return r
}

// TestCSVRows reads the CSV back: one row per check, probe and unfinished
// unit, every column where CSVColumns says, values as in the result.
func TestCSVRows(t *testing.T) {
	for _, r := range []*result.Result{small(t), awkward(), fake.Result(fake.Config{Scenarios: 6, Trials: 2, Seed: 3})} {
		rows, err := csv.NewReader(strings.NewReader(render(t, r, "csv", reports.Options{}))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(reports.CSVColumns, rows[0]); diff != "" {
			t.Fatalf("header (-want +got):\n%s", diff)
		}
		col := map[string]int{}
		for i, c := range rows[0] {
			col[c] = i
		}
		var want [][]string
		for _, u := range r.Units {
			trial := strconv.Itoa(u.Trial + 1)
			if u.Status != result.UnitOK {
				want = append(want, []string{u.Scenario.ID, u.Summarizer, trial, "", "unit", u.Status, u.Error})
			}
			for _, g := range u.Generations {
				for _, c := range g.Checks {
					want = append(want, []string{u.Scenario.ID, u.Summarizer, trial, strconv.Itoa(g.N), c.Check + "/" + c.Invariant, string(c.Status), c.Message})
				}
			}
			for _, p := range u.Probes {
				want = append(want, []string{u.Scenario.ID, u.Summarizer, trial, "", "decisions/" + p.ID, string(result.DecisionStatus(p.Class)), p.Class})
			}
		}
		var got [][]string
		for _, row := range rows[1:] {
			unquote := func(s string) string {
				if strings.HasPrefix(s, "'") && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
					return s[1:]
				}
				return s
			}
			last := unquote(row[col["message"]])
			if row[col["check"]] == result.CheckDecisions {
				last = row[col["class"]]
			}
			label := unquote(row[col["check"]]) + "/" + unquote(row[col["name"]])
			if row[col["kind"]] == "unit" {
				label = "unit"
			}
			got = append(got, []string{unquote(row[col["scenario"]]), unquote(row[col["summarizer"]]), row[col["trial"]], row[col["generation"]], label, row[col["status"]], last})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("run %s: rows (-want +got):\n%s", r.RunID, diff)
		}
	}
}

// TestCSVFormulaCells: no cell a spreadsheet would evaluate.
func TestCSVFormulaCells(t *testing.T) {
	rows, err := csv.NewReader(strings.NewReader(render(t, awkward(), "csv", reports.Options{}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		for _, c := range row {
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				t.Errorf("cell %q would be read as a formula", c)
			}
		}
	}
}

// TestDecidedByShown: what decided a meaning check is in the outcomes CSV
// and in the HTML report's drill-down, beside its status.
func TestDecidedByShown(t *testing.T) {
	rows, err := csv.NewReader(strings.NewReader(render(t, awkward(), "csv", reports.Options{}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if last := rows[1][len(rows[1])-1]; rows[0][len(rows[0])-1] != "decided_by" || last != "typed" {
		t.Errorf("the CSV's last column: %s = %q, want decided_by = typed", rows[0][len(rows[0])-1], last)
	}
	if page := render(t, awkward(), "html", reports.Options{}); !strings.Contains(page, `fail<div class="decided" title="what decided it`) || !strings.Contains(page, `>typed</div>`) {
		t.Error("the HTML drill-down does not say what decided the check")
	}
}
