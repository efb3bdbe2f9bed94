package suggest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// a result of the call at callIdx with a status, as the importer hands it.
func statusRec(callIdx int, status, text string) Event {
	return Event{Kind: Result, Role: "tool", Text: text, Status: status, CallIdx: callIdx}
}

func TestRefutedAttempts(t *testing.T) {
	edit := func(r string) Event { return callRec("edit", `{"input": "edit `+r+`\n    required = [\n"}`) }
	tests := []struct {
		name   string
		events []Event
		want   []string // signatures
	}{
		{
			name: "SWE-agent: an edit refused three times, then another applied",
			events: []Event{edit("287:295"), statusRec(0, "error", "Your changes have NOT been applied."),
				edit("287:295"), statusRec(2, "error", "Your changes have NOT been applied."),
				edit("287:295"), statusRec(4, "error", "Your changes have NOT been applied."),
				edit("287:296"), statusRec(6, "ok", "File updated.")},
			want: []string{"edit 287:295"},
		},
		{
			name: "a hook that failed twice, worked around with another command",
			events: []Event{callRec("Bash", `{"command": "git commit -m wip"}`), statusRec(0, "error", "pre-commit hook failed"),
				callRec("Bash", `{"command": "git commit -m wip"}`), statusRec(2, "error", "pre-commit hook failed"),
				callRec("Bash", `{"command": "git commit -n -m wip"}`), statusRec(4, "ok", "[main 1a2b3c] wip")},
			want: []string{"git commit -m wip"},
		},
		{
			name: "Claude Code: an Edit failing twice, then the file rewritten",
			events: []Event{callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`), statusRec(0, "error", "String to replace not found in file."),
				callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`), statusRec(2, "error", "String to replace not found in file."),
				callRec("Write", `{"file_path": "lib/x.ex", "content": "b"}`), statusRec(4, "ok", "File written.")},
			want: []string{"Edit lib/x.ex"},
		},
		// What could fool it.
		{
			name: "a flaky command that failed twice and then worked itself is no refutation",
			events: []Event{callRec("Bash", `{"command": "go test ./..."}`), statusRec(0, "error", "FAIL"),
				callRec("Bash", `{"command": "go test ./..."}`), statusRec(2, "error", "FAIL"),
				callRec("Bash", `{"command": "go test ./..."}`), statusRec(4, "ok", "ok"),
				callRec("Bash", `{"command": "git status"}`), statusRec(6, "ok", "clean")},
		},
		{
			name: "one failure is a retry, not a refuted attempt",
			events: []Event{edit("10:12"), statusRec(0, "error", "Your changes have NOT been applied."),
				edit("10:13"), statusRec(2, "ok", "File updated.")},
		},
		{
			name:   "failures with nothing that worked after them refute nothing yet",
			events: []Event{edit("10:12"), statusRec(0, "error", "x"), edit("10:12"), statusRec(2, "error", "x")},
		},
		{
			name: "a habit (a bare tool name) is no attempt",
			events: []Event{callRec("Bash", `{"command": "ls"}`), statusRec(0, "error", "x"), callRec("Bash", `{"command": "ls"}`), statusRec(2, "error", "x"),
				callRec("Bash", `{"command": "pwd"}`), statusRec(4, "ok", "/r")},
		},
		{
			name: "another tool on another file working is no refutation",
			events: []Event{callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`), statusRec(0, "error", "x"),
				callRec("Edit", `{"file_path": "lib/x.ex", "old_string": "a", "new_string": "b"}`), statusRec(2, "error", "x"),
				callRec("Read", `{"file_path": "lib/y.ex"}`), statusRec(4, "ok", "y")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, a := range scan(tc.events...).Attempts() {
				got = append(got, a.Signature)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("attempts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIDsTheTaskDependsOn(t *testing.T) {
	tests := []struct {
		name   string
		events []Event
		want   []string
	}{
		{
			name: "tau-bench: the user's id and the payment ids a tool returned, passed to the booking",
			events: []Event{userRec("Sure, my user ID is mia_li_3668."), callRec("get_user_details", `{"user_id":"mia_li_3668"}`),
				resultRec(`{"payment_methods": {"credit_card_4421486": {"id": "credit_card_4421486"}, "certificate_7504069": {}}}`),
				callRec("book_reservation", `{"user_id":"mia_li_3668","payment_methods":[{"payment_id":"certificate_7504069"}]}`)},
			want: []string{"mia_li_3668", "certificate_7504069"},
		},
		{
			name: "a record the agent only looked up is browsing; one a later call acts on is depended on; the user's own id counts looked up",
			events: []Event{userRec("My user ID is omar_davis_3817."), callRec("get_user_details", `{"user_id":"omar_davis_3817"}`),
				resultRec(`{"reservations": ["JG7FMM", "LQ940Q"]}`),
				callRec("get_reservation_details", `{"reservation_id": "JG7FMM"}`), resultRec(`{"cabin": "business"}`),
				callRec("get_reservation_details", `{"reservation_id":"LQ940Q"}`), resultRec(`{"cabin": "economy"}`),
				callRec("update_reservation_flights", `{"reservation_id": "JG7FMM", "cabin": "economy"}`)},
			want: []string{"omar_davis_3817", "JG7FMM"},
		},
		{
			name: "inside the objects a call passes, a field named as an id counts, other fields are the call's data",
			events: []Event{resultRec(`{"flights": [{"flight_number": "HAT028"}], "payment": "credit_card_2929732", "order": "ORD-55121x"}`),
				callRec("update", `{"flights": [{"flight_number": "HAT028", "date": "2024-05-21"}], "payments": [{"paymentId": "credit_card_2929732"}], "orders": ["ORD-55121x"]}`)},
			want: []string{"credit_card_2929732", "ORD-55121x"},
		},
		// What could fool it.
		{
			name:   "an id the agent made up itself is nobody's",
			events: []Event{userRec("Book it."), callRec("book", `{"reference":"ref_0042abc"}`)},
		},
		{
			name: "quantities, dates, versioned names, digests, uuids and API ids are no record ids",
			events: []Event{userRec("Use python3 and sha256, wait 500ms, from 2024-05-20, image at 3f9a2b7c1d4e5f60a1b2, trace 123e4567-e89b-12d3-a456-426614174000, call_abc123."),
				callRec("run", `{"cmd": "python3 x --hash sha256 --sleep 500ms --since 2024-05-20 --image 3f9a2b7c1d4e5f60a1b2 --trace 123e4567-e89b-12d3-a456-426614174000 --id call_abc123"}`)},
		},
		{
			name:   "a path's part is not an id",
			events: []Event{userRec("Look at build/v2024x/log.txt."), callRec("read", `{"path":"build/v2024x/log.txt"}`)},
		},
		{
			name:   "a secret is a secret, not an id",
			events: []Event{userRec("The token is ghp_FAKE0123456789abcdefghijABCDEFGHIJ."), callRec("gh", `{"token":"ghp_FAKE0123456789abcdefghijABCDEFGHIJ"}`)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, v := range scan(tc.events...).IDs() {
				got = append(got, v.Value)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}
