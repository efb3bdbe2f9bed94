package reports

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/checks"
)

// MinPass holds minimum pass rates per check type, as `--min-pass` and the
// config's gates give them: "constraint=1,all=0.9". A key is a check type
// (an invariant type, a structural check, or "decisions"), a kind
// ("invariant", "structural"), or "all"; the most specific key applies. A
// rate is a fraction (0.9) or a percentage (90%). The zero value asks for
// nothing. It implements flag.Value; repeated flags add up.
type MinPass struct {
	// Rates maps keys to minimum pass rates in [0, 1].
	Rates map[string]float64
}

// ParseMinPass parses "key=rate,key=rate".
func ParseMinPass(s string) (MinPass, error) {
	var m MinPass
	err := m.Set(s)
	return m, err
}

// Set adds the thresholds of s to m.
func (m *MinPass) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty --min-pass: want key=rate[,key=rate…], e.g. constraint=1,all=0.9")
	}
	if m.Rates == nil {
		m.Rates = map[string]float64{}
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("min-pass %q: want key=rate", part)
		}
		if !validGateKey(k) {
			return fmt.Errorf("min-pass: unknown check type %q (valid: all, invariant, structural, %s, %s, %s)",
				k, strings.Join(InvariantTypes, ", "), strings.Join(StructuralChecks, ", "), CheckDecisions)
		}
		v = strings.TrimSpace(v)
		scale := 1.0
		if p, ok := strings.CutSuffix(v, "%"); ok {
			v, scale = p, 100
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("min-pass %s: %q is not a number", k, v)
		}
		f /= scale
		if f < 0 || f > 1 {
			return fmt.Errorf("min-pass %s: rate %s is outside [0, 1] (write 0.9 or 90%%)", k, v)
		}
		m.Rates[k] = f
	}
	return nil
}

func validGateKey(k string) bool {
	return k == "all" || k == checks.KindInvariant || k == checks.KindStructural || k == CheckDecisions ||
		slices.Contains(InvariantTypes, k) || slices.Contains(StructuralChecks, k)
}

// String formats m as Set reads it, keys sorted.
func (m *MinPass) String() string {
	if m == nil || len(m.Rates) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(mapKeys(m.Rates)) {
		parts = append(parts, k+"="+strconv.FormatFloat(m.Rates[k], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

// Threshold returns the minimum pass rate for a check type of a kind, and
// whether any applies: the check type's own, else its kind's, else "all".
func (m MinPass) Threshold(check, kind string) (float64, bool) {
	for _, k := range []string{check, kind, "all"} {
		if v, ok := m.Rates[k]; ok {
			return v, true
		}
	}
	return 0, false
}

// GateReport is the verdict of the gates of a run.
type GateReport struct {
	// Failed is true when any gate failed; the exit code is then 1.
	Failed bool
	// Lines are the verdict lines, "FAIL …" before "ok …".
	Lines []string
	// Comparison is the baseline comparison; nil without a baseline.
	Comparison *Comparison
}

// Reason is the first failing line without its "FAIL " prefix and with the
// number of other failures, or "" when nothing failed.
func (g *GateReport) Reason() string {
	var fails []string
	for _, l := range g.Lines {
		if s, ok := strings.CutPrefix(l, "FAIL "); ok {
			fails = append(fails, s)
		}
	}
	switch len(fails) {
	case 0:
		return ""
	case 1:
		return fails[0]
	default:
		return fmt.Sprintf("%s (and %d more)", fails[0], len(fails)-1)
	}
}

// Gate applies the gates asked for to r (aggregated): the minimum pass rates
// of minPass per summarizer × check type, and, when baseline is not nil, no
// regression against it (Compare at alpha). For the gate, an error counts
// as a miss: the rate is pass / (pass + fail + error), so a summarizer that
// crashes or prints garbage cannot hold a gate by producing nothing to
// fail. (The pass rates of the reports exclude errors, which are counted
// apart.)
func Gate(r *Result, minPass MinPass, baseline *Result, alpha float64) GateReport {
	var g GateReport
	var fails, oks []string
	held := 0
	for _, a := range r.Aggregates {
		t, ok := minPass.Threshold(a.Check, a.Kind)
		if !ok {
			continue
		}
		n := a.Pass + a.Fail + a.Error
		switch {
		case n == 0:
		case float64(a.Pass)/float64(n) < t:
			errs := ""
			if a.Error > 0 {
				errs = fmt.Sprintf(" (errors counted as misses: %d)", a.Error)
			}
			fails = append(fails, fmt.Sprintf("FAIL min-pass: %s %s %s < %s%s", a.Summarizer, a.Check, pct(a.Pass, n), pctf(t), errs))
		default:
			held++
		}
	}
	if len(minPass.Rates) > 0 {
		oks = append(oks, fmt.Sprintf("ok   min-pass %s: %d summarizer × check type rates hold", minPass.String(), held))
	}
	if baseline != nil {
		c := Compare(baseline, r, alpha)
		g.Comparison = c
		if c.Regressed {
			fails = append(fails, "FAIL baseline: "+strings.TrimPrefix(c.Verdict(), "REGRESSION: "))
			for i, ch := range c.Regressions {
				if i == 20 {
					fails = append(fails, fmt.Sprintf("FAIL baseline:   … and %d more", len(c.Regressions)-20))
					break
				}
				if c.Trials <= 1 {
					fails = append(fails, fmt.Sprintf("FAIL baseline:   %s %s %s: %s", ch.Scenario, ch.Summarizer, ch.Label(), ch.Message))
				}
			}
		} else {
			oks = append(oks, "ok   baseline: "+c.Verdict())
		}
		for _, w := range c.Warnings {
			oks = append(oks, "warn baseline: "+w)
		}
	}
	g.Failed = len(fails) > 0
	g.Lines = append(fails, oks...)
	return g
}

func pctf(f float64) string { return strconv.FormatFloat(100*f, 'g', 4, 64) + "%" }
