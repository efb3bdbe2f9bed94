package agents

import (
	"regexp"
	"testing"

	"github.com/compact-eval/compact-eval/internal/meaning"
	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// findEveryMatch is view.find without its first-match shortcut: every match
// in order, then the matches across units again unit by unit. The shortcut
// must never change an answer.
func findEveryMatch(v *view, pattern string) (string, negation, bool) {
	re, err := textmatch.Compile(pattern)
	if err != nil {
		return "", negation{}, false
	}
	var neg negation
	sub := meaning.FactSubject([]*regexp.Regexp{re}, "")
	judge := func(u int, loc []int) (string, bool) {
		n, negated := v.judge(u, loc, sub)
		if !negated {
			return v.units[u][loc[0]:loc[1]], true
		}
		if neg.why == "" {
			neg = n
		}
		return "", false
	}
	rerun := map[int]bool{}
	for _, loc := range re.FindAllStringIndex(v.joined, -1) {
		u := v.unitAt(loc[0])
		if u < 0 {
			continue
		}
		if end := v.starts[u] + len(v.units[u]); loc[1] <= end {
			if m, ok := judge(u, []int{loc[0] - v.starts[u], loc[1] - v.starts[u]}); ok {
				return m, neg, true
			}
			continue
		}
		for w := u; w < len(v.units) && v.starts[w] < loc[1]; w++ {
			rerun[w] = true
		}
	}
	for _, u := range sortedKeys(rerun) {
		for _, loc := range re.FindAllStringIndex(v.units[u], -1) {
			if m, ok := judge(u, loc); ok {
				return m, neg, true
			}
		}
	}
	return "", neg, false
}

func TestFindShortcutAgrees(t *testing.T) {
	list, err := scenarios.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	extra := []string{"read[- ]?only", "50 rows/s", "no match anywhere zzz", "(", "a\nb"}
	patternsOf := func(s *scenarios.Scenario) []string {
		var out []string
		for _, p := range s.Probes {
			for _, r := range p.Requires {
				out = append(out, r.Patterns...)
			}
		}
		return out
	}
	type tc struct {
		v        *view
		patterns []string
	}
	var cases []tc
	for i, s := range list {
		// its own patterns (they match) and the next scenario's (mostly not)
		ps := append(append(patternsOf(s), patternsOf(list[(i+1)%len(list)])...), extra...)
		cases = append(cases, tc{newView(FullContext(s)), ps})
	}
	// the first match negated, a later one affirmed; a match across units
	for _, c := range []Context{
		{Rules: "read-only no longer applies", Goal: "keep it read-only"},
		{Rules: "the backfill runs at 50 rows/s (replaced by 200 rows/s)", Goal: "run at 50 rows/s"},
		{Rules: "ends with read", Goal: "only the start"},
	} {
		cases = append(cases, tc{newView(c), extra})
	}
	for _, c := range cases {
		v := c.v
		for _, p := range c.patterns {
			m1, n1, ok1 := v.find(p)
			m2, n2, ok2 := findEveryMatch(v, p)
			if m1 != m2 || n1 != n2 || ok1 != ok2 {
				t.Errorf("pattern %q: find = %q %+v %v, every match = %q %+v %v", p, m1, n1, ok1, m2, n2, ok2)
			}
		}
	}
}
