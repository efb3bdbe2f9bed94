package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/compact-eval/compact-eval/result"
)

// cmdDelOutcomes is the script command "deloutcomes [-plan] RESULT OUT
// REGEXP": the adversary's hand edit of a result. It deletes from RESULT
// every failing outcome (a check that failed or was uncertain, a probe
// that regressed) whose name ("check/invariant" of a check, "decisions/ID"
// of a probe) matches REGEXP, recomputes the aggregates and writes OUT, a
// result that decodes as any other. With -plan it also deletes the
// invariants and probes it emptied from the plan of every unit of their
// scenario, as an adversary who knows of the plan would.
func cmdDelOutcomes(ts *testscript.TestScript, neg bool, args []string) {
	plan := len(args) > 0 && args[0] == "-plan"
	if plan {
		args = args[1:]
	}
	if neg || len(args) != 3 {
		ts.Fatalf("usage: deloutcomes [-plan] RESULT OUT REGEXP")
	}
	r, err := result.Decode([]byte(ts.ReadFile(args[0])))
	ts.Check(err)
	re, err := regexp.Compile(args[2])
	ts.Check(err)
	gone := map[string]map[string]bool{} // scenario → names deleted
	drop := func(sc, name string, failing bool) bool {
		if !failing || !re.MatchString(name) {
			return false
		}
		if gone[sc] == nil {
			gone[sc] = map[string]bool{}
		}
		gone[sc][name] = true
		return true
	}
	for i := range r.Units {
		u := &r.Units[i]
		for j := range u.Generations {
			g := &u.Generations[j]
			g.Checks = slices.DeleteFunc(g.Checks, func(c result.CheckResult) bool {
				return drop(u.Scenario.ID, c.Check+"/"+c.Invariant, c.Status == result.Fail || c.Status == result.Uncertain)
			})
		}
		u.Probes = slices.DeleteFunc(u.Probes, func(p result.Probe) bool {
			return drop(u.Scenario.ID, "decisions/"+p.ID, p.Class == result.CompactionRegression)
		})
	}
	n := 0
	for _, names := range gone {
		n += len(names)
	}
	if n == 0 {
		ts.Fatalf("deloutcomes: no failing outcome matches %s", args[2])
	}
	if plan {
		for i := range r.Units {
			u := &r.Units[i]
			if p := u.Scenario.Plan; p != nil {
				g := gone[u.Scenario.ID]
				q := *p
				q.Invariants = slices.DeleteFunc(slices.Clone(p.Invariants), func(s string) bool { return g[s] })
				q.Probes = slices.DeleteFunc(slices.Clone(p.Probes), func(s string) bool { return g["decisions/"+s] })
				u.Scenario.Plan = &q
			}
			// every unit of the scenario loses them, as if it never had them
			for j := range u.Generations {
				gg := &u.Generations[j]
				gg.Checks = slices.DeleteFunc(gg.Checks, func(c result.CheckResult) bool { return gone[u.Scenario.ID][c.Check+"/"+c.Invariant] })
			}
			u.Probes = slices.DeleteFunc(u.Probes, func(p result.Probe) bool { return gone[u.Scenario.ID]["decisions/"+p.ID] })
		}
	}
	r.Aggregate()
	var b bytes.Buffer
	ts.Check(result.WriteJSON(&b, r))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o644))
}
