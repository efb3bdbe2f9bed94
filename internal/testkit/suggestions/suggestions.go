// Package suggestions accepts the invariants `compact-eval import`
// suggests, for tests: the importer writes them commented out under a
// "# invariants:" line, and an author who confirms them uncomments them.
package suggestions

import "strings"

// Accept uncomments every suggested invariant of an imported scenario
// (the "# invariants:" block, up to the first line that is not a comment),
// leaving alone the comments inside it ("# # why this one").
func Accept(yaml []byte) []byte {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(string(yaml), "\n") {
		if strings.HasPrefix(line, "# invariants:") {
			in = true
		} else if in && !strings.HasPrefix(line, "#") {
			in = false
		}
		if in && !strings.HasPrefix(line, "# # ") {
			line = strings.TrimPrefix(line, "# ")
		}
		b.WriteString(line)
	}
	return []byte(b.String())
}
