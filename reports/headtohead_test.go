package reports_test

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/reports"
)

// h2hResult holds summarizers a and b over n scenarios: a keeps the
// constraint in aKeeps of them, b in bKeeps; b's summary is text-only (its
// artifact check is skipped); b's unit of the last scenario errored.
func h2hResult(n int, aKeeps, bKeeps func(i int) bool) *result.Result {
	r := &result.Result{ResultVersion: 1, Config: result.RunConfig{Summarizers: []string{"a", "b"}, Trials: 1}}
	for i := range n {
		id := string(rune('a'+i/26)) + string(rune('a'+i%26))
		for _, sum := range []string{"a", "b"} {
			keep := aKeeps(i)
			art := result.Pass
			if sum == "b" {
				keep, art = bKeeps(i), result.Skip
			}
			st := result.Fail
			if keep {
				st = result.Pass
			}
			u := result.Unit{Scenario: result.ScenarioRef{ID: id, File: id + ".yaml"}, Summarizer: sum, Status: result.UnitOK,
				Generations: []result.Generation{{N: 1, Call: result.Call{Spec: "exec:./" + sum + ".sh"}, Checks: []result.CheckResult{
					{Check: "constraint", Kind: result.KindInvariant, Invariant: "ro", Status: st, Message: "constraint " + sum},
					{Check: "artifact", Kind: result.KindInvariant, Invariant: "f", Status: art, Message: "artifact"},
				}}}}
			if sum == "b" && i == n-1 {
				u.Status, u.Error = result.UnitError, "summarizer: exit status 1"
			}
			r.Units = append(r.Units, u)
		}
	}
	r.Aggregate()
	return r
}

func TestCompareSummarizers(t *testing.T) {
	// a keeps every constraint; b keeps every other one, and errored on
	// the last scenario (counted as failed, not dropped).
	r := h2hResult(20, func(int) bool { return true }, func(i int) bool { return i%2 == 0 })
	h := reports.CompareSummarizers(r, "a", "b", 0.05)
	// artifact is skipped for b, so not compared, except where b's unit
	// errored: an errored unit fails every outcome it should have had.
	if len(h.Rows) != 2 || h.Rows[0].Check != "constraint" || h.Rows[1].Check != "artifact" || h.Rows[1].N != 1 {
		t.Fatalf("rows %+v: want constraint, and artifact on the errored unit only", h.Rows)
	}
	row := h.Rows[0]
	if row.N != 20 || row.APass != 20 || row.BPass != 10 || row.AOnly != 10 || row.BOnly != 0 || !row.Significant || row.Delta != -0.5 {
		t.Errorf("constraint row %+v: want n 20, A 20, B 10 (the errored unit a failure), 10 kept by A only, significant, Δ −50%%", row)
	}
	if p := reports.McNemar(10, 0); row.P != p {
		t.Errorf("p %g, want the exact McNemar p %g", row.P, p)
	}
	if h.OneSided != 19 {
		t.Errorf("OneSided %d, want 19 (each artifact check skipped for b)", h.OneSided)
	}
	if len(h.AOnly) != 11 || !strings.HasPrefix(h.AOnly[len(h.AOnly)-1].Message, "the unit errored: summarizer: exit status 1") {
		t.Errorf("kept by a only: %+v", h.AOnly)
	}
	if v := h.Verdict(); !strings.Contains(v, "a better on constraint (p=0.002)") {
		t.Errorf("verdict %q", v)
	}

	// Equal summarizers: no significant difference, whatever the
	// discordant pairs that cancel out.
	h = reports.CompareSummarizers(h2hResult(20, func(i int) bool { return i%2 == 0 }, func(i int) bool { return i%2 == 1 || i == 19 }), "a", "b", 0.05)
	if v := h.Verdict(); !strings.Contains(v, "no significant difference at α=0.05") {
		t.Errorf("verdict %q, want no significant difference", v)
	}

	// Names or specs; an ambiguous or unknown one is an error naming the
	// summarizers.
	for in, want := range map[string]string{"a": "a", "exec:./b.sh": "b"} {
		if got, err := reports.ResolveSummarizer(r, in); err != nil || got != want {
			t.Errorf("ResolveSummarizer(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := reports.ResolveSummarizer(r, "c"); err == nil || !strings.Contains(err.Error(), `it has "a", "b"`) {
		t.Errorf("unknown name: %v", err)
	}
}
