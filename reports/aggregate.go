package reports

import (
	"fmt"
	"math"
	"strings"
)

// Headline renders a headline figure that cannot flatter: the rate over
// the applicable results, with passed/applicable, the number uncertain
// and the number skipped ("88% (44/50, 3 uncertain, 2 skipped)"); "—"
// with the skips when nothing applied. An uncertain result is applicable
// and not passed: it is in the denominator (the 50), never in the 44. A
// summary whose checks were mostly skipped never shows a bare 100%.
func Headline(pass, fail, uncertain, skip int) string {
	n := pass + fail + uncertain
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
	var extra []string
	if uncertain > 0 {
		extra = append(extra, fmt.Sprintf("%d uncertain", uncertain))
	}
	if skip > 0 {
		extra = append(extra, fmt.Sprintf("%d skipped", skip))
	}
	switch {
	case n > 0 && len(extra) > 0:
		fmt.Fprintf(&b, ", %s)", strings.Join(extra, ", "))
	case n > 0:
		b.WriteString(")")
	case len(extra) > 0:
		fmt.Fprintf(&b, " (%s)", strings.Join(extra, ", "))
	}
	return b.String()
}
