package audit_test

import (
	"fmt"

	"github.com/compact-eval/compact-eval/audit"
	"github.com/compact-eval/compact-eval/guard"
)

// Audit a folder of logs against the project's invariants: one
// compaction lost the user's rule, after which the agent read a file it
// had read and asked a question the user had answered; in a session that
// states none of the rules nothing is known kept.
func ExampleDir() {
	inv, _ := guard.ParseInvariants("invariants.yaml", []byte(`version: 1
invariants:
  - {id: no-force-push, type: constraint, match: ['never\W+run\W+git push --force']}
  - {id: tiles-only, type: constraint, match: ['only edit files under services/tiles/']}
`))
	r, err := audit.Dir("../testdata/audit/logs", audit.Options{Guard: guard.Options{Invariants: inv}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range r.Sessions {
		for _, c := range s.Compactions {
			fmt.Printf("%s after seq %d: %s, %d lost, %d repeated, %d reopened, errors %d/%d before, %d/%d after\n",
				s.File, c.Boundary, c.Verdict, c.Lost, len(c.Repeated), len(c.Reopened), c.Before.Errors, c.Before.Calls, c.After.Errors, c.After.Calls)
		}
	}
	for _, sk := range r.Skipped {
		fmt.Println("skipped", sk.File)
	}
	// Output:
	// claude/export-session.jsonl after seq 10: lost, 1 lost, 1 repeated, 1 reopened, errors 1/3 before, 0/3 after
	// claude/shop.jsonl after seq 7: uncertain, 0 lost, 0 repeated, 0 reopened, errors 1/2 before, 0/1 after
	// codex-tiles.jsonl after seq 6: kept, 0 lost, 0 repeated, 0 reopened, errors 0/2 before, 0/1 after
	// skipped settings.json
}
