package suggest

import (
	"testing"

	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// A first-person refusal is the user's rule; a courtesy, a state, an
// assistant's plan and another person's wish are not.
func TestRefusalRules(t *testing.T) {
	runPatternCases(t, []patternCase{
		{"tau-bench's user: a time the flight must not leave before",
			[]Event{userRec("Neither of those options works for me as I don't want to fly before 11 AM EST. Do you have any later flights?")},
			[]string{`(?:do not|don't|does not|doesn't|did not|didn't|not|never) wants? (?:\w+ )?to fly before 11 am`}},
		{"we do not want you to",
			[]Event{userRec("We do not want you to touch the billing schema.")},
			[]string{`(?:do not|don't|does not|doesn't|did not|didn't|not|never) wants? (?:\w+ )?to touch the billing schema`}},
		{"a courtesy is no rule", []Event{userRec("I don't want to bother you, but can you check the logs.")}, nil},
		{"a state is no rule", []Event{userRec("I don't want to be rude here.")}, nil},
		{"a bare refusal with no action", []Event{userRec("I don't want to.")}, nil},
		{"the assistant's own plan is no rule", []Event{userRec("Fix it."), assistantRec("I don't want to rewrite the parser yet.")}, nil},
		{"another person's wish, reported", []Event{userRec("My manager said he doesn't want to ship on Friday.")}, nil},
		{"a question is no rule", []Event{userRec("Why don't we want to cache the tokens?")}, nil},
	})
}

// The pattern keeps a summary's restatement in the third person.
func TestRefusalPatternMatchesARestatement(t *testing.T) {
	p := refusalPattern("i don't want to fly before 11 am est")
	for _, s := range []string{"the user does not want to fly before 11 am", "she doesn't want to fly before 11 am est", "i don't want to fly before 11 am"} {
		if _, ok := textmatch.Find(p, s); !ok {
			t.Errorf("%q does not match %q", p, s)
		}
	}
}

// "must have" before a participle is a guess about the past; before a
// noun it is a rule.
func TestEpistemicMustIsNoRule(t *testing.T) {
	for text, want := range map[string]int{
		"I must have left it somewhere else.":    0,
		"It must have been the CDN all along.":   0,
		"The job must have crashed overnight.":   0,
		"The service must have two replicas.":    1,
		"Each release must have a changelog.":    1,
		"You must have approval before merging.": 1,
	} {
		if got := len(constraintPatterns(scan(userRec(text)))); got != want {
			t.Errorf("%q: %d rules, want %d", text, got, want)
		}
	}
}
