package selftest

import (
	"fmt"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Unsatisfiable returns why each invariant of sc that no summary of the
// compaction at cut can pass fails: what the oracle builder could not state
// ("no sentence of its source event #N matches …"), and each invariant
// check that fails on the oracle in either form. It is the invariant half
// of the satisfiability test Run performs, without the runner and the
// probes' agent, so that a tool writing invariants (the importer's
// suggestions) can ask it before writing them. Targets that pass are
// absent; a target may have several reasons.
func Unsatisfiable(sc *scenarios.Scenario, cut int) map[Target][]string {
	d, problems := buildDoc(sc, eventsOf(sc), cut)
	out := map[Target][]string{}
	for _, p := range problems {
		t := p.Target
		t.Pos = result.Pos{}
		out[t] = append(out[t], p.Message)
	}
	for _, form := range Forms {
		in := &checks.Input{Scenario: sc, Gen: checks.Generation{Cut: cut}, Summary: d.summary(form)}
		for _, inv := range sc.Invariants {
			for _, r := range checks.ForInvariant(inv).Check(in) {
				if r.Status != result.Fail && r.Status != result.Error {
					continue
				}
				t := targetOf(inv)
				t.Pos = result.Pos{}
				out[t] = append(out[t], fmt.Sprintf("%s check fails on the %s oracle: %s", r.Check, form, clip.String(redact(r.Message, sc), 200)))
			}
		}
	}
	return out
}
