package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// manyPatterns is a small file (about 100 bytes a pattern) whose patterns
// each cost a compiled regexp and a match against every filler event: 25,000
// of them took 36 s and 240 MB to validate, in a 2.6 MB file.
func manyPatterns(invariants, perInvariant int) []byte {
	var b strings.Builder
	b.WriteString("version: 1\nid: many-patterns\ntitle: t\ngoal: g\nrules: r\ncompaction: {at: [2]}\nevents:\n")
	b.WriteString("  - {role: user, text: hello there}\n  - {role: assistant, text: ok}\n")
	b.WriteString("  - filler: {count: 5000, seed: 1, topic: code}\n")
	b.WriteString("invariants:\n")
	n := 0
	for i := range invariants {
		ps := make([]string, perInvariant)
		for j := range ps {
			ps[j] = fmt.Sprintf("'(?:a|b|c)*x%dy(?:\\w+\\s+){0,9}zz'", n)
			n++
		}
		fmt.Fprintf(&b, "  - {id: c%d, type: constraint, source_seq: 1, match: [%s]}\n", i, strings.Join(ps, ", "))
	}
	return []byte(b.String())
}

func TestPatternLimit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		invs, per     int
		wantErr, line string
	}{
		{"many invariants", MaxPatterns + 1, 1, fmt.Sprintf("past %d patterns", MaxPatterns), fmt.Sprintf("many-patterns.yaml:%d:", 12+MaxPatterns)},
		{"one invariant with many patterns", 1, MaxPatterns + 1, fmt.Sprintf("past %d patterns", MaxPatterns), "many-patterns.yaml:12:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadBytes("many-patterns.yaml", manyPatterns(tc.invs, tc.per))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.line) {
				t.Fatalf("err = %v, want %q at %s", err, tc.wantErr, tc.line)
			}
			if n := strings.Count(err.Error(), tc.wantErr); n != 1 {
				t.Errorf("the limit is reported %d times, want once", n)
			}
		})
	}
	if _, err := LoadBytes("many-patterns.yaml", manyPatterns(MaxPatterns, 1)); err != nil {
		t.Errorf("a scenario at the limit: %v", err)
	}
}
