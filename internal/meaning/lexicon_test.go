package meaning

import (
	"strings"
	"testing"
)

// TestEveryWordRow reads every row of words.tsv: its phrase expands, and
// each alternative, put in the row's example for {C}, is found there as a
// phrase of the row's class.
func TestEveryWordRow(t *testing.T) {
	if _, err := parseLexicon(wordsTSV); err != nil {
		t.Fatal(err)
	}
	for _, e := range Entries() {
		if !strings.Contains(e.Example, "{C}") {
			t.Errorf("line %d: the example %q has no {C}", e.Line, e.Example)
			continue
		}
		alts, err := Expand(e.Phrase)
		if err != nil {
			t.Errorf("line %d: %v", e.Line, err)
			continue
		}
		for _, a := range alts {
			text := New(strings.ToLower(strings.ReplaceAll(e.Example, "{C}", a)))
			if !foundAs(text, a, e.Class) {
				t.Errorf("line %d (%s %s): %q is not found as %s in %q", e.Line, e.Lang, e.Class, a, e.Class, text.String())
			}
		}
	}
}

// foundAs reports whether the words of phrase are a hit of class c in t.
func foundAs(t *Text, phrase string, c Class) bool {
	var want []string
	for _, tk := range tokenize(phrase) {
		want = append(want, tk.W)
	}
	for ci := range t.clauses {
		for _, h := range t.hitsIn(ci) {
			if h.Class == c && t.words(h.T0, h.T1) == strings.Join(want, " ") {
				return true
			}
		}
	}
	return false
}

// TestEveryConceptRow reads every row of concepts.tsv: its phrases expand
// and a rule whose pattern names the concept's state learns its states,
// opposites and actions.
func TestEveryConceptRow(t *testing.T) {
	tab, err := parseConcepts(conceptsTSV)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range tab.concepts {
		if len(c.states) == 0 && len(c.action) == 0 {
			t.Errorf("concept %s: neither states nor actions", name)
		}
		if len(c.states) > 0 && len(c.opposites) == 0 {
			t.Errorf("concept %s: states and no opposites", name)
		}
	}
}

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		"[a|b] c":       "a c|b c",
		"x [y|z]? w":    "x y w|x z w|x w",
		"one":           "one",
		"[no|ya no] es": "no es|ya no es",
	} {
		got, err := Expand(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Expand("[a|b"); err == nil {
		t.Error("Expand of an unclosed group gave no error")
	}
}
