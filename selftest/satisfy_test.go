package selftest

import (
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

// A pattern that drops the comma its source sentence holds cannot be
// passed; the one that keeps it can, and so can a pending operation.
func TestUnsatisfiable(t *testing.T) {
	sc, err := scenarios.LoadBytes("s.yaml", []byte(`version: 1
id: s
title: t
goal: g
compaction: {at: [3]}
events:
  - {role: user, text: "Never use TodoWrite, TaskCreate for planning."}
  - {role: assistant, tool_call: {id: c1, name: run, args: {cmd: make}}}
  - {role: assistant, text: "ok"}
  - {role: user, text: "go on"}
invariants:
  - {id: bad, type: constraint, source_seq: 1, match: ['never use todowrite taskcreate']}
  - {id: good, type: constraint, source_seq: 1, match: ['never use todowrite, taskcreate']}
  - {id: op, type: pending_operation, op_id: c1, call_seq: 2}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := Unsatisfiable(sc, 3)
	bad := got[Target{Kind: KindInvariant, ID: "bad", Type: "constraint"}]
	if len(bad) == 0 || !strings.Contains(bad[0], "no sentence of its source event #1 matches") {
		t.Errorf("bad: got %q, want the oracle's reason", bad)
	}
	if len(got) != 1 {
		t.Errorf("got %d unsatisfiable targets, want only bad: %v", len(got), got)
	}
}
