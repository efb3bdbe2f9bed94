package polarity

import "testing"

func TestRuleCue(t *testing.T) {
	for _, w := range []string{"never", "not", "Never", "nunca", "nada", "forbidden", "may"} {
		if what, ok := RuleCue(w); !ok || what == "" {
			t.Errorf("RuleCue(%q) = %q, %v; want a cue", w, what, ok)
		}
	}
	// the subject of a rule, rule nouns, and words of no rule
	for _, w := range []string{"billing", "table", "freeze", "push", "read-only", "readonly", "the", "database", "restart", "change", "lift"} {
		if what, ok := RuleCue(w); ok {
			t.Errorf("RuleCue(%q) = %q; want no cue", w, what)
		}
	}
}
