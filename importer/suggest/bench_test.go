package suggest

import (
	"fmt"
	"testing"

	"github.com/compact-eval/compact-eval/scenarios"
)

// benchEvents is a session of n events in the shapes the rules read: user
// requests and corrections, structured calls that fail as text and are
// retried, command calls on files, results, the agent's reports.
func benchEvents(n int) []Event {
	var out []Event
	for round := 0; len(out) < n; round++ {
		r := fmt.Sprintf("R%05dX", round)
		out = append(out,
			Event{Kind: Text, Role: scenarios.RoleUser, Text: "Please change reservation " + r + " to the Friday flight and also cancel the hotel. Don't charge the gift card, and never book before 9 AM."},
			Event{Kind: Text, Role: scenarios.RoleAssistant, Text: "I think the flight is full; let me check the reservation first."},
		)
		call := len(out)
		out = append(out, callRec("get_reservation_details", `{"reservation_id": "`+r+`"}`),
			Event{Kind: Result, Role: scenarios.RoleTool, CallIdx: call, Text: `{"reservation_id": "` + r + `", "cabin": "economy", "payment_id": "credit_card_4421"}`})
		call = len(out)
		out = append(out, callRec("update_reservation_flights", `{"reservation_id": "`+r+`", "cabin": "economy", "payment_id": "gift_card_1"}`),
			Event{Kind: Result, Role: scenarios.RoleTool, CallIdx: call, Text: "Error: gift card balance is not enough"})
		call = len(out)
		out = append(out, callRec("update_reservation_flights", `{"reservation_id": "`+r+`", "cabin": "economy", "payment_id": "credit_card_4421"}`),
			Event{Kind: Result, Role: scenarios.RoleTool, CallIdx: call, Text: `{"reservation_id": "` + r + `", "status": "ok"}`})
		call = len(out)
		out = append(out, callRec("Bash", `{"command": "sed -n 1,40p src/config/db.yaml"}`),
			Event{Kind: Result, Role: scenarios.RoleTool, CallIdx: call, Text: "host: db.internal\nport: 5432\ntimeout: 30 s"})
		out = append(out, Event{Kind: Text, Role: scenarios.RoleUser, Text: "Actually, make it the Saturday flight instead of Friday."},
			Event{Kind: Text, Role: scenarios.RoleAssistant, Text: "Done: the reservation is changed and the hotel has been cancelled."})
	}
	return out[:n]
}

// BenchmarkSuggestionRules measures the suggestion rules: every event of
// a session added to a scanner, then every kind of suggestion asked for.
// It reports ns per event.
//
//	go test ./importer/suggest -run '^$' -bench SuggestionRules
func BenchmarkSuggestionRules(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		events := benchEvents(n)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var found int
			for b.Loop() {
				s := New()
				for i, e := range events {
					s.Add(i, e)
				}
				found = len(s.Constraints()) + len(s.Corrections()) + len(s.Refuted()) + len(s.Attempts()) +
					len(s.Unfinished()) + len(s.IDs()) + len(s.Secrets()) + len(s.Quantities()) + len(s.ArtifactGroups()) + len(s.Siblings())
			}
			if found == 0 {
				b.Fatal("the session gave no suggestion: the benchmark measures nothing the rules find")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
		})
	}
}
