package meaning

import (
	"regexp"
	"testing"
)

// TestBoundTurned: a pattern that reads a bound of one side, matched in
// words of the other side, goes against the fact; the same side, the
// pattern's own words, or a pattern that names no side (or both) read as
// before.
func TestBoundTurned(t *testing.T) {
	ceiling := regexp.MustCompile(`(max(pods)?|maximum|up to|grow to|ceiling|hasta).{0,40}\b24\b|\b24\b.{0,30}(max|maximum|ceiling)`)
	bare := regexp.MustCompile(`\b800 ?ms\b`)
	both := regexp.MustCompile(`(at least|at most).{0,10}\b3 replicas`)
	for _, c := range []struct {
		re   *regexp.Regexp
		text string
		want Verdict
	}{
		{ceiling, "rely on the autoscaler, which can grow to at least 24 replicas", Contradicts},
		{ceiling, "el autoescalador puede crecer como minimo hasta 24 replicas", Contradicts},
		{ceiling, "the autoscaler may grow to 24 replicas and no further", Restates},
		{ceiling, "the HPA ceiling is 24 replicas", Restates},
		{ceiling, "el autoescalador crece hasta 24 replicas como maximo", Restates},
		{bare, "TTFT p95 must stay above 800 ms", Restates},
		{both, "keep at least 3 replicas", Restates},
	} {
		s := FactSubject([]*regexp.Regexp{c.re}, "")
		x := New(c.text)
		got, why := Silent, ""
		for _, r := range x.ReadFact(s) {
			if r.Verdict > got {
				got, why = r.Verdict, r.Why
			}
		}
		if got != c.want {
			t.Errorf("%q: %s (%s), want %s", c.text, got, why, c.want)
		}
	}
}
