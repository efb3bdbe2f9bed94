package suggest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// unfinishedPhrases is what Unfinished returns, by the request's words.
func unfinishedPhrases(s *Scanner) []string {
	var out []string
	for _, u := range s.Unfinished() {
		out = append(out, u.Phrase)
	}
	return out
}

func TestUnfinishedRequests(t *testing.T) {
	flights := func(cabin string) Event {
		return callRec("update_reservation_flights", `{"reservation_id": "OBUT9V", "cabin": "`+cabin+`", "payment_id": "credit_card_4"}`)
	}
	ok := func(i int) Event { return statusRec(i, "ok", `{"reservation_id": "OBUT9V"}`) }
	tests := []struct {
		name   string
		events []Event
		want   []string
	}{
		{
			name: "reported done, no call did it",
			events: []Event{userRec("Can you also add one checked bag to the reservation?"), flights("business"), ok(1),
				assistantRec("Your flights are updated. Additionally, one checked bag has been added to your reservation.")},
			want: []string{"add one checked bag to the reservation"},
		},
		{
			name: "never done in a session of structured calls; the handoff's prose names it, which is no call doing it",
			events: []Event{userRec("I'd like to change the passenger to myself, please."), assistantRec("That cannot be changed."),
				callRec("transfer_to_human_agents", `{"summary": "User needs to change the passenger on FQ8APE"}`), statusRec(2, "ok", "Transfer successful")},
			want: []string{"change the passenger to myself"},
		},
		{
			name: "coordinated requests: the one a call did is done, the others are not",
			events: []Event{userRec("I'd like to change the passenger to myself, upgrade to economy class, and add three checked bags as well."),
				flights("economy"), ok(1), assistantRec("The reservation has been updated to economy class, and three checked bags have been added.")},
			want: []string{"change the passenger to myself", "add three checked bags as well"},
		},
		{
			name: "done: a call named by the verb",
			events: []Event{userRec("Please cancel reservation EHGLP3."), callRec("cancel_reservation", `{"reservation_id": "EHGLP3"}`), ok(1),
				assistantRec("The reservation has been cancelled.")},
		},
		{
			name: "done: a call named by the object",
			events: []Event{userRec("Please add three checked bags."), callRec("update_reservation_baggages", `{"reservation_id": "FQ8APE", "total_baggages": 3}`), ok(1),
				assistantRec("Three checked bags have been added.")},
		},
		{
			name: "a command session: reported committed, no commit ran",
			events: []Event{userRec("The parser is fixed. Please commit the changes."), callRec("Bash", `{"command": "go test ./..."}`), statusRec(1, "ok", "ok"),
				assistantRec("All tests pass and I've committed the changes.")},
			want: []string{"commit the changes"},
		},
		{
			name:   "near miss: a command session never reporting it done: its calls need not name what they do",
			events: []Event{userRec("Please add a dark mode toggle."), callRec("Edit", `{"file_path": "src/theme.js", "old_string": "a", "new_string": "b"}`), statusRec(1, "ok", "ok")},
		},
		{
			name: "near miss: a command session that did commit",
			events: []Event{userRec("Commit the changes."), callRec("Bash", `{"command": "git commit -am 'parser: fix'"}`), statusRec(1, "ok", "[main 1a2b3c] parser: fix"),
				assistantRec("I've committed the changes.")},
		},
		{
			name: "near miss: a report that says it was not done",
			events: []Event{userRec("Commit the changes."), callRec("Bash", `{"command": "go test ./..."}`), statusRec(1, "ok", "ok"),
				assistantRec("The changes have not been committed yet.")},
		},
		{
			name:   "near miss: a question answered in words, not a request a call carries out",
			events: []Event{userRec("Can you check options for EWR as well? Could you confirm the refund?"), flights("economy"), ok(1)},
		},
		{
			name:   "near miss: a refusal, not a request",
			events: []Event{userRec("I don't want to cancel the trip."), flights("economy"), ok(1)},
		},
		{
			name: "near miss: a call linked to it was tried and failed, never reported done: the failure rules have it",
			events: []Event{userRec("Please add two checked bags."), callRec("update_reservation_baggages", `{"total_baggages": 2}`), statusRec(1, "ok", "Error: payment required"),
				flights("economy"), ok(3)},
		},
		{
			name: "a call of another action on the same record does not carry it out; a call with no arguments is no command",
			events: []Event{userRec("Let's just cancel the entire subscription instead, I'll sign up again later."), callRec("list_plans", `{}`), statusRec(1, "ok", `["basic", "pro"]`),
				callRec("create_subscription", `{"plan": "basic"}`), statusRec(3, "ok", `{"subscription_id": "sub_88"}`)},
			want: []string{"cancel the entire subscription instead"},
		},
		{
			name: "help me: the verb after it is the request",
			events: []Event{userRec("Please cancel my old plan and help me book the evening class."), callRec("cancel_plan", `{"plan_id": "pl_12"}`), statusRec(1, "ok", "{}"),
				callRec("get_schedule", `{"day": "monday"}`), statusRec(3, "ok", "[]")},
			want: []string{"book the evening class"},
		},
		{
			name:   "near miss: a verb before \"of\" is a noun",
			events: []Event{userRec("My plans changed."), userRec("Change of plan."), callRec("get_plan", `{"plan_id": "pl_12"}`), statusRec(2, "ok", "{}")},
		},
		{
			name:   "near miss: the same action on the record carries it out",
			events: []Event{userRec("Let's just cancel the entire subscription."), callRec("cancel_subscription", `{"subscription_id": "sub_12"}`), statusRec(1, "ok", "{}")},
		},
		{
			name:   "near miss: asked, and nothing was called after it",
			events: []Event{userRec("Please cancel my reservation."), assistantRec("Which one?")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, unfinishedPhrases(scan(tc.events...))); diff != "" {
				t.Errorf("unfinished (-want +got):\n%s", diff)
			}
		})
	}
}

// The patterns of an unfinished request: the step finds the request and a
// summary's "still to do", the step reported done finds the report and
// never the request.
func TestUnfinishedPatterns(t *testing.T) {
	s := scan(userRec("Can you also add one checked bag to the reservation?"),
		callRec("update_reservation_flights", `{"cabin": "business"}`), statusRec(1, "ok", "{}"),
		assistantRec("One checked bag has been added."))
	us := s.Unfinished()
	if len(us) != 1 {
		t.Fatalf("unfinished %+v, want one", us)
	}
	u := us[0]
	for text, want := range map[string][2]bool{ // step, later
		"can you also add one checked bag to the reservation?": {true, false},
		"still to do: add the checked bag (never added)":       {true, true},
		"one checked bag has been added.":                      {false, true},
		"added one checked bag":                                {false, true},
		"the flights were updated":                             {false, false},
	} {
		_, step := textmatch.Find(u.Pattern, text)
		_, later := textmatch.Find(u.Later, text)
		if [2]bool{step, later} != want {
			t.Errorf("%q: step %v, later %v; want %v", text, step, later, want)
		}
	}
	if u.ReportIdx != 3 || u.CallsAfter != 1 {
		t.Errorf("report at %d, %d calls after; want 3, 1", u.ReportIdx, u.CallsAfter)
	}
}

// Each row of requests.txt: a request with the verb, reported done with
// its participles and carried out by no call, is unfinished; a call that
// names its object carries it out.
func TestRequestVerbRows(t *testing.T) {
	for _, line := range strings.Split(requestVerbsData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[1] != "generic" && f[1] != "specific" || f[2] == "" {
			t.Errorf("row %q is not VERB<TAB>generic|specific<TAB>PARTICIPLES", line)
			continue
		}
		verb := f[0]
		for _, part := range strings.Fields(f[2]) {
			undone := scan(userRec("Please "+verb+" the widget."), callRec("Bash", `{"command": "ls"}`), statusRec(1, "ok", "a b"),
				assistantRec("The widget has been "+part+"."))
			if got := unfinishedPhrases(undone); len(got) != 1 || got[0] != verb+" the widget" {
				t.Errorf("row %q: reported %s, no call did it: unfinished %q, want [%q]", line, part, got, verb+" the widget")
			}
		}
		done := scan(userRec("Could you "+verb+" the widget?"), callRec("api", `{"widget_id": "w-1"}`), statusRec(1, "ok", "{}"),
			assistantRec("The widget has been "+strings.Fields(f[2])[0]+"."))
		if got := unfinishedPhrases(done); len(got) != 0 {
			t.Errorf("row %q: a call on the widget did it: unfinished %q", line, got)
		}
		if f[1] == "specific" {
			byVerb := scan(userRec("I'd like to "+verb+" the gadget."), callRec(verb+"_item", `{"id": "g-1"}`), statusRec(1, "ok", "{}"))
			if got := unfinishedPhrases(byVerb); len(got) != 0 {
				t.Errorf("row %q: the call %s_item did it: unfinished %q", line, verb, got)
			}
		}
	}
}

func TestVerbForms(t *testing.T) {
	for verb, want := range map[string][]string{
		"add":    {"add", "adds", "adding"},
		"change": {"change", "changes", "changeing", "changing"},
		"commit": {"commit", "commits", "commiting", "committing"},
		"book":   {"book", "books", "booking"},
	} {
		if diff := cmp.Diff(want, verbForms(verb)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", verb, diff)
		}
	}
}

// A request over every member of a set a tool listed, done for part of
// it, is unfinished for the members no call passed.
func TestUnfinishedOverAListedSet(t *testing.T) {
	profile := statusRec(1, "ok", `{"name": "Lena", "orders": ["ORD4471", "ORD4472", "ORD4480", "ORD4493"], "tier": "gold"}`)
	cancel := func(id string) Event {
		return callRec("cancel_order", `{"order_id": "`+id+`", "reason": "no longer needed"}`)
	}
	left := func(s *Scanner) [][]string {
		var out [][]string
		for _, u := range s.Unfinished() {
			out = append(out, u.Left)
		}
		return out
	}
	got := scan(userRec("Please cancel all my pending orders."), callRec("get_user", `{"user_id": "lena_22"}`), profile,
		cancel("ORD4471"), statusRec(3, "ok", `{"status": "cancelled"}`), cancel("ORD4480"), statusRec(5, "ok", `{"status": "cancelled"}`),
		assistantRec("Your orders have been cancelled."))
	if diff := cmp.Diff([][]string{{"ORD4472", "ORD4493"}}, left(got)); diff != "" {
		t.Errorf("left (-want +got):\n%s", diff)
	}
	if us := got.Unfinished(); len(us) == 1 {
		for _, id := range []string{"ord4472", "ord4493"} {
			if _, _, ok := textmatch.FindAny(us[0].Patterns, "next: cancel "+id); !ok {
				t.Errorf("patterns %v do not find %s", us[0].Patterns, id)
			}
		}
		if _, _, ok := textmatch.FindAny([]string{us[0].Later}, "ord4472 and ord4493 were cancelled"); !ok {
			t.Errorf("later %q does not find the rest reported done", us[0].Later)
		}
	}
	// Twins: every member passed; a request that does not mean every one.
	for name, s := range map[string]*Scanner{
		"every member passed": scan(userRec("Please cancel all my pending orders."), callRec("get_user", `{"user_id": "lena_22"}`), profile,
			cancel("ORD4471"), statusRec(3, "ok", "{}"), cancel("ORD4472"), statusRec(5, "ok", "{}"), cancel("ORD4480"), statusRec(7, "ok", "{}"),
			cancel("ORD4493"), statusRec(9, "ok", "{}")),
		"one order, not all": scan(userRec("Please cancel my pending order ORD4471."), callRec("get_user", `{"user_id": "lena_22"}`), profile,
			cancel("ORD4471"), statusRec(3, "ok", "{}")),
	} {
		if u := s.Unfinished(); len(u) != 0 {
			t.Errorf("%s: unfinished %+v, want none", name, u)
		}
	}
}
