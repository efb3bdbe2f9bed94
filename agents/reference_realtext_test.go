package agents

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

// The sentences of real sessions that issue 36 names, as the reference
// agent reads them on the full context, each with the summary that would
// fool it: a prohibition whose condition is an approval ("never run deploy
// without my explicit go-ahead") keeps the agent from deploying, whatever
// the pattern quotes of it; a conclusion stated with a retraction word
// ("Ruled out: 50 runs pass, so the refund test is not flaky") counts as
// the conclusion; a filler "are to" is no rule.
func TestReferenceRealText(t *testing.T) {
	opts := scenarios.Options{{Key: "ask", Description: "ask first"}, {Key: "deploy", Description: "deploy now"}}
	user := func(text string) []scenarios.Event {
		return []scenarios.Event{{Seq: 1, Role: scenarios.RoleUser, Text: text}}
	}
	goAhead := scenarios.Requirement{Option: "ask", Patterns: []string{`deploy.{0,80}go-?ahead|go-?ahead.{0,80}deploy`}}
	notFlaky := scenarios.Requirement{Option: "ask", Patterns: []string{`refund test.{0,40}not flaky|not flaky.{0,40}refund test`}}
	readOnly := scenarios.Requirement{Option: "ask", Patterns: []string{`read[- ]?only`}}
	tests := []struct {
		name    string
		events  []scenarios.Event
		summary map[string]any
		req     scenarios.Requirement
		want    string
	}{
		{"go-ahead: full context", user("Fix the flaky build, but never run deploy without my explicit go-ahead."), nil, goAhead, "ask"},
		{"go-ahead: the condition restated", nil, map[string]any{"text": "Deploy only with the user's explicit go-ahead."}, goAhead, "ask"},
		{"go-ahead: fooled, the condition waived", nil, map[string]any{"text": "Deploy without waiting for a go-ahead: the go-ahead is no longer needed."}, goAhead, "deploy"},
		{"not flaky: full context", user("Ruled out: 50 runs pass, so the refund test is not flaky."), nil, notFlaky, "ask"},
		{"not flaky: fooled, retracted", nil, map[string]any{"text": "That the refund test is not flaky was a mistake: it fails one run in ten."}, notFlaky, "deploy"},
		{"filler are to: no rule against read-only", user("The session is read-only. Ready when you are to move forward."), nil, readOnly, "ask"},
		{"filler are to: fooled, the rule lifted", user("The session is read-only."), map[string]any{"text": "Read-only no longer applies. Ready when you are to move forward."}, readOnly, "deploy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := refRequest(tc.events, opts, tc.req)
			if tc.summary != nil {
				doc := map[string]any{"schema_version": 1, "covers_through": 1}
				for k, v := range tc.summary {
					doc[k] = v
				}
				b, _ := json.Marshal(doc)
				req.Context.Summary = b
			}
			d, err := Reference{}.Decide(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if d.Choice != tc.want {
				t.Errorf("chose %s (%s); want %s", d.Choice, d.Reason, tc.want)
			}
		})
	}
}
