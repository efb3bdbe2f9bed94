package agents

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/summary"
)

// The reference agent reads contract 1.3's approvals and handoff: a probe
// whose evidence a summary keeps only there is answered from them.
func TestSummaryUnitsTypedState(t *testing.T) {
	s := summary.Summary{SchemaVersion: 1, CoversThrough: 9,
		Approvals: []summary.Approval{{Text: "canary rollout", SourceSeq: 3, Approver: "Dana", Scope: "eu-west-1", Resource: "sha256:3f9a11", Status: summary.ApprovalStale, InvalidatedBy: 8}},
		Handoff:   &summary.Handoff{PreviousSession: "sess-7f3a", Reason: "context limit", ApprovedArtifacts: []string{"patches/fix.patch"}, Unresolved: []string{"f1"}},
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(summaryUnits(raw), "\n")
	for _, want := range []string{
		"canary rollout (Dana; eu-west-1; sha256:3f9a11; stale since #8)",
		"handoff: previous session sess-7f3a; context limit",
		"approved artifacts: patches/fix.patch",
		"unresolved: f1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("units do not hold %q:\n%s", want, got)
		}
	}
}
