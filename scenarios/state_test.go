package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stateBase is a release session the typed-state tests add invariants to.
const stateBase = `version: 1
id: state
events:
  - {seq: 1, role: user, text: "Session sess-7f3a. Task: investigate the checkout latency."}
  - {seq: 2, role: user, text: "Dana Whitfield: approved, roll the canary of sha256:3f9a11 to eu-west-1 until 18:00 UTC."}
  - {seq: 3, role: user, text: "New goal: fix the flaky refund test."}
  - {seq: 4, role: system, text: "Until the CAB approves, only a dry-run: terraform plan."}
  - {seq: 5, role: assistant, tool_call: {id: f1, name: set_flag, args: {flag: refund_v2}}}
  - {seq: 6, role: tool, tool_result: {call_id: f1, status: timeout, text: "no answer"}}
  - {seq: 7, role: assistant, tool_call: {id: b1, name: build}}
  - {seq: 8, role: tool, tool_result: {call_id: b1, text: "rebuilt as sha256:77c0de; patches/fix.patch approved"}}
  - {seq: 9, role: user, text: "Context limit reached: restart in a fresh session."}
`

func TestLoadTypedState(t *testing.T) {
	s := mustLoad(t, stateBase+`invariants:
  - {id: ok, type: approval, source_seq: 2, approver: Dana Whitfield, match: canary, scope: eu-west-1, resource: "sha256:3f9a11", expires: "18:00 UTC", invalidated_by: 8}
  - {id: g, type: goal, source_seq: 3, match: 'flaky refund', superseded: [latency]}
  - {id: n, type: next_step, source_seq: 4, match: 'dry-run|terraform plan', later: apply, gate: CAB}
  - {id: h, type: handoff, source_seq: 9, session: sess-7f3a, reason: 'context limit', artifacts: patches/fix.patch, operations: [f1]}
`)
	want := []Invariant{
		&Approval{SourceSeq: 2, Approver: "Dana Whitfield", Match: []string{"canary"}, Scope: []string{"eu-west-1"}, Resource: "sha256:3f9a11", Expires: "18:00 UTC", InvalidatedBy: 8},
		&Goal{SourceSeq: 3, Match: []string{"flaky refund"}, Superseded: []string{"latency"}},
		&NextStep{SourceSeq: 4, Match: []string{"dry-run|terraform plan"}, Later: []string{"apply"}, Gate: []string{"CAB"}},
		&Handoff{SourceSeq: 9, Session: "sess-7f3a", Reason: []string{"context limit"}, Artifacts: []string{"patches/fix.patch"}, Operations: []string{"f1"}},
	}
	for i := range want {
		got := Pointer(s.Invariants[i])
		if got.Type() != want[i].Type() {
			t.Fatalf("invariant %d is %s, want %s", i, got.Type(), want[i].Type())
		}
		if got.InvariantID() == "" || got.Position().Line != 14+i {
			t.Errorf("invariant %d: id %q at %v", i, got.InvariantID(), got.Position())
		}
		clearBase(got)
		if diff := cmp.Diff(want[i], got); diff != "" {
			t.Errorf("invariant %d (-want +got):\n%s", i, diff)
		}
	}
	if errs := Lint([]*Scenario{s}); errs != nil {
		t.Errorf("lint: %v", errs)
	}
	if got := EvidenceSeqs(s.Invariants[0]); !cmp.Equal(got, []int{2, 8}) {
		t.Errorf("EvidenceSeqs(approval) = %v, want [2 8]", got)
	}
	if a := Pointer(s.Invariants[0]).(*Approval); a.Stale(7) || !a.Stale(8) {
		t.Errorf("Stale(7), Stale(8) = %v, %v; want false, true", a.Stale(7), a.Stale(8))
	}
}

func clearBase(inv Invariant) {
	switch v := inv.(type) {
	case *Approval:
		v.InvariantBase = InvariantBase{}
	case *Goal:
		v.InvariantBase = InvariantBase{}
	case *NextStep:
		v.InvariantBase = InvariantBase{}
	case *Handoff:
		v.InvariantBase = InvariantBase{}
	}
}

func TestLoadTypedStateErrors(t *testing.T) {
	got := errorLines(t, stateBase+`invariants:
  - {id: a, type: approval, source_seq: 2, match: canary}
  - {id: b, type: goal, source_seq: 3, match: x, replaced: y}
  - {id: c, type: next_step, source_seq: 4, match: x}
  - {id: d, type: handoff, source_seq: 9, session: "", reason: x}
`)
	want := []string{
		`t.yaml:14:5: invariants[0] (approval): missing required field "approver"`,
		`t.yaml:15:5: invariants[1] (goal): missing required field "superseded"`,
		`t.yaml:15:50: invariants[1] (goal): unknown field "replaced" (valid: id, type, source_seq, match, superseded)`,
		`t.yaml:16:5: invariants[2] (next_step): missing required field "later"`,
		`t.yaml:17:52: invariants[3].session: empty`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestLintTypedState(t *testing.T) {
	for _, tc := range []struct {
		name, inv string
		want      []string
	}{
		{"approval from an assistant", `{id: a, type: approval, source_seq: 5, approver: Dana, match: canary}`,
			[]string{`t.yaml:14:5: invariant "a" (approval): source_seq 5 is an assistant event; it must be a user or system event`}},
		{"approval: approver, scope, expiry and resource not in its event", `{id: a, type: approval, source_seq: 2, approver: Marco, match: canary, scope: eu-west-2, resource: "sha256:77c0de", expires: Friday}`,
			[]string{
				`t.yaml:14:5: invariant "a" (approval): approver "Marco": neither the event at source_seq 2 nor one before it names them`,
				`t.yaml:14:5: invariant "a" (approval): expires "Friday": the event at source_seq 2 does not say it`,
				`t.yaml:14:5: invariant "a" (approval): resource "sha256:77c0de" occurs in no event at or before source_seq 2`,
				`t.yaml:14:5: invariant "a" (approval): scope "eu-west-2": the event at source_seq 2 does not name it`,
			}},
		{"approval ended before it was given", `{id: a, type: approval, source_seq: 2, approver: Dana, match: canary, invalidated_by: 1}`,
			[]string{`t.yaml:14:5: invariant "a" (approval): invalidated_by 1 must come after source_seq 2`}},
		{"goal from a tool", `{id: g, type: goal, source_seq: 6, match: x, superseded: y}`,
			[]string{`t.yaml:14:5: invariant "g" (goal): source_seq 6 is a tool event; it must be a user or system event`}},
		{"next step with a bad pattern", `{id: n, type: next_step, source_seq: 4, match: "(", later: apply}`,
			[]string{"t.yaml:14:5: invariant \"n\" (next_step): match: pattern \"(\": error parsing regexp: missing closing ): `(?i)(`"}},
		{"handoff: session, artifact and operations", `{id: h, type: handoff, source_seq: 9, session: sess-0000, reason: limit, artifacts: [patches/other.patch], operations: [b1, zz]}`,
			[]string{
				`t.yaml:14:5: invariant "h" (handoff): artifact "patches/other.patch" occurs in no event`,
				`t.yaml:14:5: invariant "h" (handoff): operation "b1" has an ok result at seq 8; an unresolved operation has no result or a timeout`,
				`t.yaml:14:5: invariant "h" (handoff): operation "zz" is the id of no tool_call`,
				`t.yaml:14:5: invariant "h" (handoff): session "sess-0000" occurs in no event`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustLoad(t, stateBase+"invariants:\n  - "+tc.inv+"\n")
			got := errStrings(t, Lint([]*Scenario{s}))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lint (-want +got):\n%s", diff)
			}
		})
	}
}
