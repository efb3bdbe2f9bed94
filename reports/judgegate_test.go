package reports_test

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// settledResult is judgedResult whose judged checks were uncertain and
// settled by the judge where it gave a verdict (kept: pass), as the cascade
// records them; the others stay uncertain.
func settledResult(verdicts ...string) *result.Result {
	var pairs [][2]string
	for _, v := range verdicts {
		pairs = append(pairs, [2]string{string(result.Uncertain), v})
	}
	r := judgedResult(pairs...)
	for i := range r.Units[0].Generations[0].Checks {
		c := &r.Units[0].Generations[0].Checks[i]
		if c.Judge.Verdict == "kept" {
			c.Status, c.Judge.Settled = result.Pass, result.Uncertain
		}
	}
	r.Aggregate()
	return r
}

// TestJudgeGate: a judge whose verdicts are mostly missing in the run
// settles nothing. The fooling input is a judge that answers garbage nine
// times in ten and "kept" once: the one pass it settled would carry a
// min-pass gate over the doubts. The honest one misses a verdict now and
// then: its gate holds, the misses counted as errors.
func TestJudgeGate(t *testing.T) {
	lines := func(g reports.GateReport) string { return strings.Join(g.Lines, "\n") }
	all := reports.MinPass{Rates: map[string]float64{"constraint": 0.1}}

	fool := settledResult("kept", "", "", "", "", "", "", "", "", "")
	g := reports.Gate(fool, reports.GateOptions{MinPass: all, Uncertain: reports.UncertainSkip})
	want := "FAIL judge: exec:judge gave no verdict on 9 of 10 judgements in this run (90%): a judge whose verdicts are mostly missing settles nothing"
	if !g.Failed || !strings.Contains(lines(g), want) {
		t.Errorf("a garbage judge that settled a pass held the gate:\n%s", lines(g))
	}
	// --judge-gate alone is a gate, and applies the same rule.
	g = reports.Gate(judgedResult([2]string{"pass", ""}, [2]string{"pass", ""}, [2]string{"pass", "kept"}), reports.GateOptions{JudgeGate: true})
	if !g.Failed || !strings.Contains(lines(g), "gave no verdict on 2 of 3 judgements") {
		t.Errorf("--judge-gate with a judge mostly missing held:\n%s", lines(g))
	}
	// A judge gate that judged nothing has nothing to judge.
	nothing := judgedResult()
	if g := reports.Gate(nothing, reports.GateOptions{JudgeGate: true}); !g.Failed || !strings.Contains(lines(g), "judged nothing") {
		t.Errorf("a judge gate over no judgement held:\n%s", lines(g))
	}

	honest := settledResult("kept", "kept", "kept", "", "kept", "kept", "kept", "kept", "kept", "kept")
	g = reports.Gate(honest, reports.GateOptions{MinPass: all})
	if g.Failed || !strings.Contains(lines(g), "ok   judge: exec:judge gave a verdict on 9 of 10 judgements (1 without one count as errors)") {
		t.Errorf("an honest judge with one miss failed the gate:\n%s", lines(g))
	}
	// Exactly half missing is not "mostly".
	half := judgedResult([2]string{"pass", ""}, [2]string{"pass", "kept"})
	if g := reports.Gate(half, reports.GateOptions{JudgeGate: true}); g.Failed {
		t.Errorf("half the verdicts missing failed the judge gate:\n%s", lines(g))
	}
	// A judge that decided nothing, with no judge gate, is beside the gates.
	if g := reports.Gate(judgedResult([2]string{"pass", ""}), reports.GateOptions{MinPass: all}); strings.Contains(lines(g), "judge:") {
		t.Errorf("a judge that decided nothing was gated:\n%s", lines(g))
	}
}
