package checks

import "strings"

// A value quoted as history is not stated as current: "we first proposed
// 200 rows/s", "50 rows/s (antes 200 filas/s)", "200 rows/s was considered,
// then dropped", "(its defaults, 200 rows/s and 1000, are superseded)",
// "the region the dashboards had mislabelled as eu-central". The frames
// are the old and cancel classes of internal/meaning (words.tsv, one table
// for every reader), read by meaning.Text.ReadValue across brackets,
// appositives and relative clauses.

// wordsOnly replaces every byte that is no letter, digit or space with a
// space: "(overridden" reads as " overridden".
func wordsOnly(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80) {
			b[i] = ' '
		}
	}
	return string(b)
}

// retiredArtifact reports whether ptr is a field of an artifacts[] entry
// whose status says it is not the one in use (stale, superseded, deleted):
// what such an entry names is not stated as current.
func (st *state) retiredArtifact(ptr string) (string, bool) {
	rest, ok := strings.CutPrefix(ptr, "/artifacts/")
	if !ok {
		return "", false
	}
	n := 0
	for i := 0; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
		n = n*10 + int(rest[i]-'0')
	}
	if n >= len(st.sum.Artifacts) {
		return "", false
	}
	switch s := st.sum.Artifacts[n].Status; s {
	case "stale", "superseded", "deleted":
		return s, true
	}
	return "", false
}
