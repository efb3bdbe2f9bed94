package suggest

import "testing"

// A value the user names by a part of it is matched to the call's value:
// the account a tool listed beside the digits, or a value ending with
// them.
func TestNamedPartCorrection(t *testing.T) {
	profile := statusRec(1, "ok", `{"accounts": {"acct_5518220": {"kind": "checking", "last_digits": "4410", "id": "acct_5518220"}, "acct_7730114": {"kind": "savings", "last_digits": "0832", "id": "acct_7730114"}}}`)
	transfer := func(from string) Event {
		return callRec("schedule_transfer", `{"from_account": "`+from+`", "amount": 120}`)
	}
	tests := []struct {
		name            string
		events          []Event
		old, new, named string
		none            bool
	}{
		{
			name: "a tool showed the value beside the digits; the call replaces the last call's value",
			events: []Event{userRec("Move 120 to my landlord."), callRec("get_profile", `{"user_id": "u_1"}`), profile,
				transfer("acct_5518220"), statusRec(3, "ok", `{"status": "scheduled"}`),
				userRec("Hmm, please take it from the account ending in 0832."), transfer("acct_7730114"), statusRec(6, "ok", `{"status": "scheduled"}`)},
			old: "acct_5518220", new: "0832", named: "acct_7730114",
		},
		{
			name: "spanish: la cuenta que termina en, a value that ends with the digits",
			events: []Event{userRec("Paga el alquiler."), transfer("ES91-2100-4410"), statusRec(1, "ok", `{"status": "scheduled"}`),
				userRec("Mejor desde la cuenta que termina en 0832, por favor."), transfer("ES91-2100-0832"), statusRec(4, "ok", `{"status": "scheduled"}`)},
			old: "ES91-2100-4410", new: "0832", named: "ES91-2100-0832",
		},
		{
			name: "near miss: the first call names the value: a choice, not a change",
			events: []Event{userRec("Move 120 to my landlord."), callRec("get_profile", `{"user_id": "u_1"}`), profile,
				userRec("Take it from the account ending in 0832."), transfer("acct_7730114"), statusRec(4, "ok", `{"status": "scheduled"}`)},
			none: true,
		},
		{
			name: "near miss: digits no value of the call holds",
			events: []Event{userRec("Move 120 to my landlord."), transfer("acct_5518220"), statusRec(1, "ok", `{"status": "scheduled"}`),
				userRec("My phone number ends in 0832, by the way."), transfer("acct_9999999"), statusRec(4, "ok", `{"status": "scheduled"}`)},
			none: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var named []Correction
			all := scan(tc.events...).Corrections()
			if !tc.none && len(all) != 1 {
				t.Errorf("%d corrections %+v, want one: the turn read in words and by its value is one correction", len(all), all)
			}
			for _, c := range all {
				if c.Named != "" {
					named = append(named, c)
				}
			}
			if tc.none {
				if len(named) != 0 {
					t.Fatalf("corrections %+v, want none named by a part", named)
				}
				return
			}
			if len(named) != 1 || named[0].Old != tc.old || named[0].New != tc.new || named[0].Named != tc.named || named[0].Subject != "from_account" {
				t.Fatalf("corrections %+v, want from_account %q -> %q (the call's %q)", named, tc.old, tc.new, tc.named)
			}
		})
	}
}
