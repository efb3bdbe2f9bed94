package meaning

import (
	"strings"
	"testing"
)

// FuzzRead feeds the reader's entry points (Read, StepsOn, Gaps) any
// text: none panics, and every reading points at a clause of the text.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"READ-ONLY investigation: prod-eu-1 is under a change freeze until Friday 18:00 UTC",
		"the CDN ; ruled out: it adds latency", "))((( - — – : ; . ! ? ¡ ¿", "`a: b` | c", "x CDN ,; y",
		"call_migrate_0193: no result — do not assume applied (state unknown)", "Done: a; b; c", "",
	} {
		f.Add(s)
	}
	subjects := []*Subject{netpolRule(), cdnClaim(), migration(), dbConfig()}
	f.Fuzz(func(t *testing.T, text string) {
		x := New(text)
		for _, s := range subjects {
			rs := append(x.Read(s), x.StepsOn(s, true)...)
			rs = append(rs, x.StepsOn(s, false)...)
			for _, r := range append(rs, x.Gaps(s, nil)...) {
				if r.Clause < 0 || r.Clause >= len(x.clauses) || r.A < 0 || r.A > len(text) {
					t.Fatalf("reading %+v points outside %q", r, text)
				}
			}
		}
		for ci := range x.clauses {
			c := x.clauses[ci]
			if c.A > c.B || c.B > len(text) {
				t.Fatalf("clause %d [%d,%d) outside %q", ci, c.A, c.B, text)
			}
		}
	})
}

// wrappers put a plain statement under a modifier its source does not
// carry: a condition, an attribution, a quantifier, an expiry.
var wrappers = []string{
	"if the owner agrees, %s", "%s, unless the lead says otherwise", "%s only if staging looks clean",
	"according to the wiki, %s", "the SRE lead says %s", "según la wiki, %s",
	"mostly, %s", "in principle %s", "en general, %s",
	"%s until the end of the sprint", "%s for now", "%s hasta el lunes",
	"although %s, small fixes are fine", "had %s, we would wait", "%s?",
}

// faithful are plain statements of the fuzz subjects, each read as
// Restates on its own.
var faithful = []struct {
	subject func() *Subject
	text    string
}{
	{netpolRule, "the investigation is read-only"},
	{netpolRule, "prod-eu-1 is under a change freeze"},
	{netpolRule, "no apply and no restart on prod-eu-1"},
	{cdnClaim, "the CDN does not add the latency"},
	{migration, "call_migrate_0193 has no result"},
}

// FuzzWrappedNeverRestates is the metamorphic test of the modifier stage:
// a faithful statement wrapped in a condition, an attribution, a
// quantifier or an expiry, with any words after it, never reads as a plain
// restatement.
func FuzzWrappedNeverRestates(f *testing.F) {
	f.Add(uint8(0), uint8(0), "")
	f.Add(uint8(4), uint8(3), " and more")
	f.Add(uint8(9), uint8(1), "; look, report")
	for _, c := range faithful {
		if v, why := verdictOf(c.text, c.subject()); v != Restates {
			f.Fatalf("the faithful %q reads %s (%s), not restates", c.text, v, why)
		}
	}
	f.Fuzz(func(t *testing.T, w, c uint8, tail string) {
		if !plainWords(tail) || strings.Contains(tail, "but") || tail != "" && tail[0] != ' ' {
			t.Skip() // a tail of marks starts another clause or bracket: it says something else
		}
		fc := faithful[int(c)%len(faithful)]
		text := strings.Replace(wrappers[int(w)%len(wrappers)], "%s", fc.text+tail, 1)
		if v, why := verdictOf(text, fc.subject()); v == Restates {
			t.Fatalf("%q reads as a plain restatement (%s)", text, why)
		}
	})
}

// plainWords reports whether s holds only lower-case letters, digits and
// spaces.
func plainWords(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == ' ') {
			return false
		}
	}
	return true
}
