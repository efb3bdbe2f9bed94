package checks

import (
	"regexp"
	"testing"

	"github.com/compact-eval/compact-eval/result"
)

// TestQuantityBoundToItsSubject: with match, a figure is kept only where
// a sentence (or a table column's header) that states it names its
// subject at a word's start; the figure given to something else in a
// field whose other words happen to match ('lag' inside "flags") is
// uncertain.
func TestQuantityBoundToItsSubject(t *testing.T) {
	figure := regexp.MustCompile(`\b30 ?(s|sec|seconds|segundos)\b`)
	for _, c := range []struct {
		text string
		want result.Status
	}{
		{"the backfill pauses whenever replica lag goes above 30 s", result.Pass},
		{"la pausa entra cuando el lag de la replica supera los 30 s", result.Pass},
		{"chunks are spaced by a 30 s sleep, which the job's flags can change", result.Uncertain},
		{"| setting | value |\n| replica lag pause | 30 s |", result.Pass},
		{"| lag threshold | chunk sleep |\n| 10 s | 30 s |", result.Uncertain},
		{"| chunk sleep | lag threshold |\n| 10 s | 30 s |", result.Pass},
	} {
		r := goldCheck(t, nil, "correction-backfill-rate", result.TypeQuantity, "lag-pause", func(s map[string]any) {
			replaceStrings(s, figure, "a while")
			asDecision(s, c.text)
		})
		if r.Status != c.want {
			t.Errorf("%q: %s (%s), want %s", c.text, r.Status, r.Message, c.want)
		}
	}
}

// replaceStrings replaces re's matches in every string of v.
func replaceStrings(v any, re *regexp.Regexp, with string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok {
				x[k] = re.ReplaceAllString(s, with)
			} else {
				replaceStrings(e, re, with)
			}
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok {
				x[i] = re.ReplaceAllString(s, with)
			} else {
				replaceStrings(e, re, with)
			}
		}
	}
}

func TestColumnHeader(t *testing.T) {
	text := "intro\nfile | pool_max | pool_timeout\n- config/db.yml | 20 | 3 s\nafter"
	h := columnHeader(text, len("intro\nfile | pool_max | pool_timeout\n- config/db.yml | 20 | 3"))
	if got := text[h[0]:h[1]]; got != " pool_timeout" {
		t.Errorf("header cell %q, want \" pool_timeout\"", got)
	}
	if h := columnHeader(text, 2); h != [2]int{-1, -1} {
		t.Errorf("outside a table: %v", h)
	}
}
