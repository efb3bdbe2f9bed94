package meaning

import "testing"

func TestRuleWord(t *testing.T) {
	for _, tc := range []struct {
		word string
		want Class
	}{
		{"never", Negation},
		{"NO", Negation},
		{"nunca", Negation},
		{"nada", Negation},
		{"forbidden", Forbid},
		{"prohibido", Forbid},
		{"may", Permit},
		{"must", Oblige},
		{"lifted", Cancel},
		{"refuted", Retract},
		// the subject of a rule, and phrases of more than one word
		{"billing", ""},
		{"freeze", ""},
		{"notify", ""},
		{"must not", ""},
	} {
		got, ok := RuleWord(tc.word)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("RuleWord(%q) = %q, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
}
