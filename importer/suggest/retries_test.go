package suggest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// Each row of toolfailures.txt opens a result that fails by its text; the
// same words further on, or glued into another word, do not.
func TestToolFailureRows(t *testing.T) {
	for _, line := range strings.Split(toolFailureData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, text, ok := strings.Cut(line, "\t")
		if !ok {
			t.Errorf("row %q is not KIND<TAB>TEXT", line)
			continue
		}
		var fails, passes []string
		switch kind {
		case "prefix":
			fails = []string{text + " the balance is not enough", "  " + strings.ToUpper(text[:1]) + text[1:] + " x"}
			passes = []string{"Done. The log said: " + text + " x", `{"status": "` + text + `"}`}
			if last := text[len(text)-1]; last >= 'a' && last <= 'z' {
				passes = append(passes, text+"over completed")
			}
		case "suffix":
			fails = []string{"Value" + text + " bad id", "java.io.IO" + strings.ToUpper(text[:1]) + text[1:] + " closed"}
			passes = []string{"The Value" + text + " line was quoted", "Saw io" + text + " twice"}
		default:
			t.Errorf("row %q: unknown kind %q", line, kind)
			continue
		}
		for _, f := range fails {
			if !failsByText(f) {
				t.Errorf("row %q: %q does not fail by its text", line, f)
			}
		}
		for _, p := range passes {
			if failsByText(p) {
				t.Errorf("row %q: %q fails by its text", line, p)
			}
		}
	}
}

func TestFailsByText(t *testing.T) {
	for text, want := range map[string]bool{
		"Error: gift card balance is not enough":              true,
		"Traceback (most recent call last):\n  File \"x.py\"": true,
		"KeyError: 'order_id'":                                true,
		"Failed to connect to db:5432":                        true,
		"0 errors, 3 warnings":                                false, // a count, not a failure
		`{"error": null, "status": "ok"}`:                     false, // a field, not the text
		"Errors are logged to /var/log/app.log":               false,
		"Failedover to replica-2":                             false,
		"":                                                    false,
		"The build passed. error: none":                       false, // further on, not the opening
	} {
		if got := failsByText(text); got != want {
			t.Errorf("failsByText(%q) = %v, want %v", text, got, want)
		}
	}
}

// A structured call's retries, read by the argument they change.
func TestStructuredRetries(t *testing.T) {
	update := func(cabin, payment string) Event {
		return callRec("update_reservation_flights", `{"reservation_id": "OBUT9V", "cabin": "`+cabin+`", "payment_id": "`+payment+`"}`)
	}
	ok := func(i int) Event { return statusRec(i, "ok", `{"reservation_id": "OBUT9V"}`) }
	fail := func(i int, why string) Event { return statusRec(i, "ok", "Error: "+why) }
	type want struct {
		Corrections []Correction
		Attempts    []string // signatures
		Patterns    []string
	}
	tests := []struct {
		name   string
		events []Event
		want   want
	}{
		{
			name: "payments refused as text, then a card worked: a refuted attempt at the payment",
			events: []Event{update("business", "gift_card_1"), fail(0, "gift card balance is not enough"),
				update("business", "gift_card_2"), fail(2, "gift card balance is not enough"),
				callRec("think", `{"thought": "try the certificate"}`), ok(4),
				update("business", "certificate_3"), fail(6, "certificate cannot be used"),
				update("business", "credit_card_4"), ok(8)},
			want: want{Attempts: []string{"update_reservation_flights payment_id = gift_card_1, gift_card_2, certificate_3"},
				Patterns: []string{`gift[\W_]+card|certificate`}},
		},
		{
			name: "one value refused, the next worked: a correction to the value settled on",
			events: []Event{update("economy", "gift_card_1"), fail(0, "not enough seats on flight HAT229"),
				update("business", "gift_card_1"), ok(2)},
			want: want{Corrections: []Correction{{Idx: 2, Old: "economy", New: "business", Text: "Error: not enough seats on flight HAT229", ByTool: true, Subject: "cabin", ErrIdx: 1}}},
		},
		{
			name: "the settled value is the last successful call's, not the next try's",
			events: []Event{update("economy", "gift_card_1"), fail(0, "not enough seats"),
				update("business", "gift_card_1"), fail(2, "gift card balance is not enough"),
				update("business", "credit_card_4"), ok(4)},
			want: want{Corrections: []Correction{
				{Idx: 2, Old: "economy", New: "business", Text: "Error: not enough seats", ByTool: true, Subject: "cabin", ErrIdx: 1},
				{Idx: 4, Old: "gift_card_1", New: "credit_card_4", Text: "Error: gift card balance is not enough", ByTool: true, Subject: "payment_id", ErrIdx: 3}}},
		},
		{
			name: "the failure is the status where the tool gives one",
			events: []Event{update("economy", "gift_card_1"), statusRec(0, "error", "seats: 0"),
				update("business", "gift_card_1"), ok(2)},
			want: want{Corrections: []Correction{{Idx: 2, Old: "economy", New: "business", Text: "seats: 0", ByTool: true, Subject: "cabin", ErrIdx: 1}}},
		},
		{
			name: "near miss: the retry changes two arguments: another call, nothing replaced",
			events: []Event{update("economy", "gift_card_1"), fail(0, "not enough seats"),
				update("business", "credit_card_4"), ok(2)},
		},
		{
			name:   "near miss: nothing failed, the agent changed its mind",
			events: []Event{update("economy", "gift_card_1"), ok(0), update("business", "gift_card_1"), ok(2)},
		},
		{
			name:   "near miss: failures nothing worked after",
			events: []Event{update("business", "gift_card_1"), fail(0, "balance"), update("business", "gift_card_2"), fail(2, "balance")},
		},
		{
			name:   "near miss: the same call retried unchanged until it worked (a flaky tool)",
			events: []Event{update("business", "gift_card_1"), fail(0, "timeout"), update("business", "gift_card_1"), ok(2)},
		},
		{
			name: "near miss: a query rewritten, not a value replaced",
			events: []Event{callRec("sql", `{"query": "ALTER TABLE invoices ADD COLUMN currency text"}`), fail(0, "permission denied"),
				callRec("sql", `{"query": "SET ROLE migrator; ALTER TABLE invoices ADD COLUMN currency text"}`), ok(2)},
		},
		{
			name: "near miss: a command's retries are the signature rule's, not this one's",
			events: []Event{callRec("Bash", `{"command": "make test"}`), fail(0, "make: *** No rule"),
				callRec("Bash", `{"command": "make check"}`), ok(2)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scan(tc.events...)
			var got want
			for _, c := range s.Corrections() {
				if c.Subject != "" {
					got.Corrections = append(got.Corrections, c)
				}
			}
			for _, a := range s.Attempts() {
				got.Attempts = append(got.Attempts, a.Signature)
				got.Patterns = append(got.Patterns, a.Pattern)
				if _, ok := textmatch.Find(a.Pattern, "paid with the gift card"); !ok && strings.Contains(a.Pattern, "gift") {
					t.Errorf("pattern %q does not find the attempt in a summary's words", a.Pattern)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A user's correction in words takes its values from the calls after it.
func TestCorrectionSettledByCalls(t *testing.T) {
	search := func(dest string) Event {
		return callRec("search_onestop_flight", `{"origin": "ATL", "destination": "`+dest+`", "date": "2024-05-24"}`)
	}
	tests := []struct {
		name     string
		events   []Event
		old, new string
	}{
		{
			name: "the destination the calls after it settled on",
			events: []Event{userRec("Change my flight to a day later."), search("PHL"), statusRec(1, "ok", "[]"),
				userRec("Actually, Newark works better for me, it is closer to my office."),
				search("EWR"), statusRec(4, "ok", "[]")},
			old: "PHL", new: "EWR",
		},
		{
			name: "the last successful call wins",
			events: []Event{userRec("Book it."), search("PHL"), statusRec(1, "ok", "[]"),
				userRec("Actually, look at the New York airports instead."),
				search("JFK"), statusRec(4, "ok", "[]"), search("EWR"), statusRec(6, "ok", "[]")},
			old: "PHL", new: "EWR",
		},
		{
			name: "near miss: the call after it changes two arguments: the words stay",
			events: []Event{userRec("Book it."), search("PHL"), statusRec(1, "ok", "[]"),
				userRec("Actually, look at other airports instead."),
				callRec("search_onestop_flight", `{"origin": "BOS", "destination": "EWR", "date": "2024-05-24"}`), statusRec(4, "ok", "[]")},
			old: "TODO(author): the value or plan it replaces", new: "look at other airports",
		},
		{
			name: "a weaker marker, a correction because the calls after it replace one argument",
			events: []Event{userRec("Look up my account."), callRec("get_account", `{"account_id": "acc_4411"}`), statusRec(1, "ok", "{}"),
				userRec("Sorry, that was the wrong account; the Madrid one is mine."),
				callRec("get_account", `{"account_id": "acc_9902"}`), statusRec(4, "ok", "{}")},
			old: "acc_4411", new: "acc_9902",
		},
		{
			name: "a question closing with instead, its values from the calls after it",
			events: []Event{userRec("Upgrade reservation UM3OG5, please."), callRec("get_reservation_details", `{"reservation_id": "UM3OG5"}`), statusRec(1, "ok", "{}"),
				userRec("Oh, I named the other booking. Could you upgrade the one from Boston to Denver instead?"),
				callRec("get_reservation_details", `{"reservation_id": "QX41PL"}`), statusRec(4, "ok", "{}")},
			old: "UM3OG5", new: "QX41PL",
		},
		{
			name: "near miss: a value correction keeps its own values",
			events: []Event{userRec("Book it."), search("PHL"), statusRec(1, "ok", "[]"),
				userRec("Use eu-west-1, not eu-central-1."), search("EWR"), statusRec(4, "ok", "[]")},
			old: "eu-central-1", new: "eu-west-1",
		},
	}
	for _, tc := range []struct {
		name   string
		events []Event
	}{
		{"a weaker marker and the same call again: no correction", []Event{userRec("Look up my account."),
			callRec("get_account", `{"account_id": "acc_4411"}`), statusRec(1, "ok", "{}"),
			userRec("Something went wrong, I actually saw an error."), callRec("get_account", `{"account_id": "acc_4411"}`), statusRec(4, "ok", "{}")}},
		{"a weaker marker and another call: no correction", []Event{userRec("Look up my account."),
			callRec("get_account", `{"account_id": "acc_4411"}`), statusRec(1, "ok", "{}"),
			userRec("I actually want the invoices."), callRec("list_invoices", `{"account_id": "acc_4411"}`), statusRec(4, "ok", "[]")}},
		{"a weaker marker and a call changing two arguments: no correction", []Event{userRec("Look up my account."),
			callRec("get_account", `{"account_id": "acc_4411", "region": "eu"}`), statusRec(1, "ok", "{}"),
			userRec("That was the wrong one."), callRec("get_account", `{"account_id": "acc_9902", "region": "us"}`), statusRec(4, "ok", "{}")}},
	} {
		if cs := scan(tc.events...).Corrections(); len(cs) != 0 {
			t.Errorf("%s: corrections %+v, want none", tc.name, cs)
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := scan(tc.events...).Corrections()
			if len(cs) != 1 || cs[0].Old != tc.old || cs[0].New != tc.new {
				t.Errorf("corrections %+v, want one %q -> %q", cs, tc.old, tc.new)
			}
		})
	}
}
