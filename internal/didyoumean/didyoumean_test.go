package didyoumean

import (
	"strconv"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"run", "run", 0},
		{"rnu", "run", 1},       // a swap
		{"trails", "trials", 1}, // a swap
		{"contraint", "constraint", 1},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // OSA: no edit of a swapped pair
		{"café", "cafe", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"cache", "compare", "gate", "help", "import", "init", "merge", "report", "run", "schema", "selftest", "validate", "version", "view"}
	for _, tc := range []struct {
		name  string
		word  string
		cands []string
		want  string
	}{
		{"swapped command", "rnu", commands, "run"},
		{"missing letter", "valdate", commands, "validate"},
		{"case only", "RUN", commands, "run"},
		{"exact is no suggestion", "run", commands, ""},
		{"nothing near", "frobnicate", commands, ""},
		{"short word, two edits away", "xy", []string{"j"}, ""},
		{"one letter is no guess", "c", []string{"a", "b"}, ""},
		{"one letter, case only", "N", []string{"id", "n"}, "n"},
		{"flag", "trails", []string{"trials", "trace", "summarizer"}, "trials"},
		{"check type", "contraint", []string{"all", "constraint", "correction"}, "constraint"},
		{"config key", "sumarizers", []string{"summarizers", "scenarios"}, "summarizers"},
		{"first on a tie", "rum", []string{"run", "rub"}, "run"},
		{"no candidates", "x", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Closest(tc.word, tc.cands); got != tc.want {
				t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
			}
		})
	}
}

func TestSuffix(t *testing.T) {
	if got, want := Suffix("rnu", []string{"run"}, strconv.Quote), ` (did you mean "run"?)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := Suffix("frobnicate", []string{"run"}, strconv.Quote); got != "" {
		t.Errorf("got %q for a word near nothing", got)
	}
}
