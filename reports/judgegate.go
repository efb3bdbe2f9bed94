package reports

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"
)

// JudgeMaxMissing is the most a judge may leave without a verdict, as a
// share of its judgements in the run, and still settle anything: beyond
// it (its verdicts mostly missing) the verdicts it did give are not
// believed, and a gate that reads them fails.
const JudgeMaxMissing = 0.5

// judgeTally counts the judgements of a run: every invariant the judge was
// asked about and every free-text answer it graded, those without a
// verdict, and the outcomes its verdicts decided (settled an uncertain
// check, or overrode a pass under --judge-gate).
type judgeTally struct {
	judged, missing, decided int
}

func tallyJudge(r *result.Result) judgeTally {
	var t judgeTally
	count := func(j *result.Judgement) {
		if j == nil {
			return
		}
		t.judged++
		if j.Error != "" || j.Verdict == "" {
			t.missing++
		}
		if j.Settled != "" || j.Overrode != "" {
			t.decided++
		}
	}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			for i := range g.Checks {
				count(g.Checks[i].Judge)
			}
		}
		for _, p := range u.Probes {
			count(p.Full.Judge)
			count(p.Compacted.Judge)
			if p.Recall != nil {
				count(p.Recall.Judge)
			}
		}
	}
	return t
}

// judgeGate is the gate on the run's judge, applied when the judge gate is
// on (--judge-gate) or the judge decided an outcome the other gates read:
// a judge whose verdicts are mostly missing in this run settles nothing,
// and a judge gate with nothing judged has nothing to judge.
func judgeGate(r *result.Result, opts GateOptions) (fails, oks, notes []string) {
	if r.Config.Judge == "" {
		if opts.JudgeGate {
			fails = append(fails, "FAIL judge: --judge-gate asks for the judge's verdicts, and the run had no judge")
		}
		return
	}
	t := tallyJudge(r)
	gated := opts.JudgeGate || r.Config.JudgeGate
	if !gated && t.decided == 0 {
		return
	}
	name := r.Config.Judge
	switch {
	case t.judged == 0 && opts.AllowEmpty:
		notes = append(notes, fmt.Sprintf("note judge: %s judged nothing (allowed by --allow-empty)", name))
	case t.judged == 0:
		fails = append(fails, fmt.Sprintf("FAIL judge: %s judged nothing: the judge gate has nothing to judge (--allow-empty accepts this)", name))
	case float64(t.missing) > JudgeMaxMissing*float64(t.judged):
		fails = append(fails, fmt.Sprintf("FAIL judge: %s gave no verdict on %d of %d judgements in this run (%.0f%%): a judge whose verdicts are mostly missing settles nothing (measure it with compact-eval selftest --judge)",
			name, t.missing, t.judged, 100*float64(t.missing)/float64(t.judged)))
	case t.missing > 0:
		oks = append(oks, fmt.Sprintf("ok   judge: %s gave a verdict on %d of %d judgements (%d without one count as errors)", name, t.judged-t.missing, t.judged, t.missing))
	default:
		oks = append(oks, fmt.Sprintf("ok   judge: %s gave a verdict on all %d judgements", name, t.judged))
	}
	return
}
