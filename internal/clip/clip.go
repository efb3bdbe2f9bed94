// Package clip shortens text for messages, evidence and provenance without
// breaking a UTF-8 character: the harness quotes model output, stderr and
// scenario text, which are rarely ASCII-only.
package clip

import "unicode/utf8"

// String returns s when it is at most n bytes long, else its first n bytes
// (fewer, to end on a character boundary) followed by "…". n ≤ 0 gives "…"
// for any non-empty s.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
