package scenarios

import "testing"

func TestCueEdge(t *testing.T) {
	for _, tc := range []struct {
		pattern, word, edge string
	}{
		// a new author's pattern: the rule as the user said it
		{"never touch the billing table|billing table", "never", "starts"},
		{"billing table|never touch the billing table", "never", "starts"},
		{"(never touch the billing table)", "never", "starts"},
		{"^not allowed to push", "not", "starts"},
		{"pushes to main are forbidden", "forbidden", "ends"},
		{"no (new )?indexes", "no", "starts"},
		{"nada de [ií]ndices", "nada", "starts"},
		{`\bnunca\b toques la tabla`, "nunca", "starts"},
		// the subject alone, or a cue inside a group the author chose
		{"billing table", "", ""},
		{"read[- ]?only", "", ""},
		{"s[oó]lo lectura", "", ""},
		{"change freeze", "", ""},
		{"(do not|don.t) push", "", ""},
		{"notify the on-call", "", ""}, // "not" is a prefix, not a word
		{"knot", "", ""},
		{"cab-8812", "", ""},
		{"[", "", ""}, // does not parse: the lint reports it
	} {
		word, edge, what := cueEdge(tc.pattern)
		if word != tc.word || edge != tc.edge {
			t.Errorf("cueEdge(%q) = %q %q (%s), want %q %q", tc.pattern, word, edge, what, tc.word, tc.edge)
		}
		if word != "" && what == "" {
			t.Errorf("cueEdge(%q): no description of the cue", tc.pattern)
		}
	}
}
