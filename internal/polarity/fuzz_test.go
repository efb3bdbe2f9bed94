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

// neutral is the vocabulary FuzzInversion builds rules from: words and
// values (with the punctuation values carry) that hold no cue and end no
// clause, plus the commas, brackets and coordinators a quoted rule holds.
var neutral = []string{
	"protobuf", "stays", "pinned", "at", "3.25.x", "db.yml", "config/db.yaml", "50", "rows/s", "61 %",
	"CAB-8812", "18:00", "UTC", "2026-12-02", "ops@northwind.io", "[platform-notice]", ",", "the", "for",
	"cluster", "prod-us-2", "v4.8.0", ">=", "read-only", "role", "wh_restore", `"quoted"`, "#4", "and", "or",
	"payments-api", "10.42.8.0/24", "on", "5432", "session", "strictly", "3.25", "x", "e.g.", "1,650", "db;dur=1650", "so", "while", "because",
}

// FuzzInversion is a metamorphic test of the class behind the inverted
// rules selftest found: whatever a quoted rule holds (values with dots,
// brackets, commas, coordinators), "The rule that R no longer applies",
// "It is not true that R" and a heading ("Lifted: R") contradict every
// word of R, and R stated alone affirms it.
func FuzzInversion(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 37}, uint8(4))
	f.Add([]byte{15, 10, 11, 12, 13, 6, 22}, uint8(1))
	f.Add([]byte{25, 18, 29, 28, 6, 9}, uint8(0))
	f.Fuzz(func(t *testing.T, picks []byte, at uint8) {
		if len(picks) == 0 || len(picks) > 40 {
			return
		}
		var b strings.Builder
		var spans [][2]int
		for _, p := range picks {
			w := neutral[int(p)%len(neutral)]
			if b.Len() > 0 && w != "," {
				b.WriteByte(' ')
			}
			if w != "," && !strings.HasPrefix(w, "[") {
				spans = append(spans, [2]int{b.Len(), b.Len() + len(w)})
			}
			b.WriteString(w)
		}
		if len(spans) == 0 {
			return
		}
		rule := b.String()
		sp := spans[int(at)%len(spans)]
		for _, tc := range []struct {
			prefix, suffix string
			want           Kind
		}{
			{"The rule that ", " no longer applies, it was lifted", Cancellation},
			{"It is not true that ", "", Negation},
			{"La regla de que ", " queda sin efecto", Cancellation},
			{"No es cierto que ", "", Negation},
			{"Ruled out by #25, refuted: ", ".", Retraction},
			{"Lifted: ", "", Cancellation},
			{"", "", ""},
		} {
			text := tc.prefix + rule + tc.suffix
			v := New(text).Judge(len(tc.prefix)+sp[0], len(tc.prefix)+sp[1], nil, Contradiction...)
			if v.Kind != tc.want {
				t.Fatalf("%q, phrase %q: got %+v; want %q", text, rule[sp[0]:sp[1]], v, tc.want)
			}
		}
	})
}
