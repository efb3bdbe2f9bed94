package reports

import (
	"fmt"

	"github.com/compact-eval/compact-eval/internal/stats"
)

// McNemar returns the two-sided p-value of the exact McNemar test for the
// discordant pair counts b (pass→fail) and c (fail→pass); see
// internal/stats.McNemar.
func McNemar(b, c int) float64 { return stats.McNemar(b, c) }

// PairedDelta returns the difference of paired pass rates (new − base) and
// a 1−alpha interval for it that agrees with McNemar; see
// internal/stats.PairedDelta.
func PairedDelta(b, c, n int, alpha float64) (delta, low, high float64) {
	return stats.PairedDelta(b, c, n, alpha)
}

// intervalLabel is the column title of an interval at 1−alpha: "95% interval".
func intervalLabel(alpha float64) string {
	return fmt.Sprintf("%.4g%% interval", 100*(1-alpha))
}
