package transcript

import (
	"fmt"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

// BenchmarkEventsText renders a 400-event history with tool calls, the
// shape of a built-in scenario after its filler.
func BenchmarkEventsText(b *testing.B) {
	var events []scenarios.Event
	for i := 1; len(events) < 400; i += 4 {
		id := fmt.Sprintf("call_%d", i)
		events = append(events,
			say(i, scenarios.RoleUser, "please look at the deployment logs for the payments service again"),
			scenarios.Event{Seq: i + 1, Role: scenarios.RoleAssistant, Text: "checking", ToolCall: &scenarios.ToolCall{ID: id, Name: "kubectl", Args: map[string]any{"cmd": "logs deploy/payments-api"}}},
			result(i+2, id, "ok", "2026-11-29T22:41:12Z ERROR payments.db pool checkout failed after 3 attempts"),
			say(i+3, scenarios.RoleAssistant, "The pool checkout fails: the database is unreachable."))
	}
	b.ReportAllocs()
	for b.Loop() {
		EventsText(events)
	}
}
