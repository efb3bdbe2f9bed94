package checks_test

import (
	"fmt"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Run every check of a scenario on one summary, as the runner does for each
// generation: the structural checks (schema, coverage, …), then one check
// per invariant (checks that do not apply say skip; left out here). A
// summary that keeps the read-only rule passes the constraint; one that
// drops it fails, saying what was looked for.
func ExampleRun() {
	s, err := scenarios.LoadBytes("readonly.yaml", []byte(`version: 1
id: readonly
goal: Find why the API cannot reach the database
compaction: {at: [3]}
events:
  - {role: user, text: "This investigation is READ-ONLY. Do not change anything in prod."}
  - {role: assistant, tool_call: {id: c1, name: dns_lookup, args: {host: db.prod.internal}}}
  - role: tool
    tool_result:
      call_id: c1
      text: |
        ;; ANSWER SECTION:
        db.prod.internal.            300  IN  A  10.0.3.7
        db-replica-1.prod.internal.  300  IN  A  10.0.3.8
        db-replica-2.prod.internal.  300  IN  A  10.0.3.9
        ;; Query time: 4 msec
        ;; SERVER: 10.0.0.2#53(10.0.0.2) (UDP)
        ;; WHEN: Tue Mar 18 09:12:44 UTC 2025
        ;; MSG SIZE  rcvd: 131
  - {role: user, text: "The service looks stuck. Restart it now?"}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read[- ]?only']}
`))
	if err != nil {
		panic(err)
	}
	gen := checks.Generation{N: 1, Cut: 3, Tail: s.Events[3:]}
	for _, summary := range []string{
		`{"schema_version": 1, "covers_through": 3,
		  "constraints": [{"text": "READ-ONLY: change nothing in prod", "source_seq": 1}]}`,
		`{"schema_version": 1, "covers_through": 3,
		  "text": "db.prod.internal is 10.0.3.7"}`,
	} {
		fmt.Println("summary:")
		for _, r := range checks.Run(&checks.Input{Scenario: s, Gen: gen, Raw: []byte(summary)}) {
			if r.Kind == result.KindInvariant {
				fmt.Printf("  %s/%s %s: %s\n", r.Check, r.Invariant, r.Status, r.Message)
			} else if r.Status != result.Skip {
				fmt.Printf("  %s %s\n", r.Check, r.Status)
			}
		}
	}
	// Output:
	// summary:
	//   schema pass
	//   coverage pass
	//   references pass
	//   tail pass
	//   compression pass
	//   provenance pass
	//   grounding pass
	//   constraint/ro pass: constraint kept at /constraints/0/text (cites #1): "READ-ONLY: change nothing in prod"
	// summary:
	//   schema pass
	//   coverage pass
	//   tail pass
	//   compression pass
	//   constraint/ro fail: no clause of text restates the rule from #1 (read[- ]?only)
}
