package polarity

import (
	"strings"
	"testing"
)

func FuzzJudge(f *testing.F) {
	f.Add("read-only no longer applies: the runbook authorizes writes", uint16(0), uint16(9))
	f.Add("The backfill rate is 200 rows/s, not 50 rows/s", uint16(38), uint16(47))
	f.Add("Hypothesis (refuted): the CDN adds latency — (nested (parens)) ; ¿sí?", uint16(26), uint16(42))
	f.Add("No solo rige la sólo lectura sino también", uint16(16), uint16(29))
	f.Add("))((( - — – : ; . ! ? ¡ ¿", uint16(2), uint16(5))
	f.Add("isn’t don't c1 and c4, c5 or c6 unknown", uint16(14), uint16(16))
	all := []Kind{Negation, Cancellation, Permission, Retraction, Mistake, Supersession, Former, Hedge, Stale, Current, Success, Report}
	f.Fuzz(func(t *testing.T, text string, a, b uint16) {
		start, end := int(a), int(b)
		if start > end {
			start, end = end, start
		}
		x := New(text)
		v := x.Judge(start, end, nil, all...)
		if v.Kind != "" {
			if v.At < 0 || v.At+len(v.Cue) > len(text) || text[v.At:v.At+len(v.Cue)] != v.Cue {
				t.Fatalf("verdict %+v does not point at its cue in %q", v, text)
			}
		}
		if v.Reported && v.Kind == "" {
			t.Fatalf("reported with no cue: %+v", v)
		}
		// every word is in exactly one clause
		seen := map[int]int{}
		for _, c := range x.clauses {
			for _, ti := range c.toks {
				seen[ti]++
			}
		}
		for i, tk := range x.toks {
			if tk.word && seen[i] != 1 {
				t.Fatalf("word %q is in %d clauses of %q", tk.low, seen[i], text)
			}
		}
		if start <= len(text) && end <= len(text) && x.SameClause(start, end) != x.SameClause(end, start) {
			t.Fatal("SameClause is not symmetric")
		}
		_ = strings.ToLower(text)
	})
}
