package reports

import (
	"fmt"
	"math"
	"strings"
)

// Headline renders a headline figure that cannot flatter: the rate over
// the applicable results, with passed/applicable and the number skipped
// ("93% (14/15, 3 skipped)"); "—" with the skips when nothing applied.
// A summary whose checks were mostly skipped never shows a bare 100%.
func Headline(pass, fail, skip int) string {
	n := pass + fail
	var b strings.Builder
	if n == 0 {
		b.WriteString("—")
	} else {
		pc := math.Round(100 * float64(pass) / float64(n))
		if pc == 100 && pass < n {
			pc = 99 // 100% only when every applicable result passed
		}
		fmt.Fprintf(&b, "%.0f%% (%d/%d", pc, pass, n)
	}
	switch {
	case n > 0 && skip > 0:
		fmt.Fprintf(&b, ", %d skipped)", skip)
	case n > 0:
		b.WriteString(")")
	case skip > 0:
		fmt.Fprintf(&b, " (%d skipped)", skip)
	}
	return b.String()
}
