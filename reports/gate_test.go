package reports_test

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/reports/internal/fake"
	"github.com/google/go-cmp/cmp"
)

func mustMinPass(t testing.TB, s string) reports.MinPass {
	t.Helper()
	m, err := reports.ParseMinPass(s)
	if err != nil {
		t.Fatalf("ParseMinPass(%q): %v", s, err)
	}
	return m
}

func TestParseMinPass(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]float64
		err      string
	}{
		{"brief example", "constraint=1,all=0.9", map[string]float64{"constraint": 1, "all": 0.9}, ""},
		{"percent and spaces", " secret = 100% , structural=95%", map[string]float64{"secret": 1, "structural": 0.95}, ""},
		{"decisions", "decisions=0.8", map[string]float64{"decisions": 0.8}, ""},
		{"unknown key", "constrain=1", nil, `unknown check type "constrain"`},
		{"no rate", "constraint", nil, "want key=rate"},
		{"not a number", "all=high", nil, `"high" is not a number`},
		{"above one", "all=90", nil, "outside [0, 1]"},
		{"just above one", "all=1.01", nil, "outside [0, 1]"},
		{"just above 100%", "all=100.5%", nil, "outside [0, 1]"},
		{"below zero", "all=-0.01", nil, "outside [0, 1]"},
		{"empty", "", nil, "empty --min-pass"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := reports.ParseMinPass(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Rates); d != "" {
				t.Errorf("rates (-want +got):\n%s", d)
			}
		})
	}
}

func TestMinPassFlag(t *testing.T) {
	var m reports.MinPass
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.Var(&m, "min-pass", "")
	if err := fs.Parse([]string{"--min-pass", "constraint=1", "--min-pass", "all=0.9"}); err != nil {
		t.Fatal(err)
	}
	if got, want := m.String(), "all=0.9,constraint=1"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		check, kind string
		want        float64
	}{{"constraint", "invariant", 1}, {"artifact", "invariant", 0.9}, {"schema", "structural", 0.9}} {
		if got, ok := m.Threshold(tc.check, tc.kind); !ok || got != tc.want {
			t.Errorf("Threshold(%s) = %v, %v; want %v", tc.check, got, ok, tc.want)
		}
	}
}

func TestGate(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 8, Seed: 2})
	tests := []struct {
		name     string
		minPass  string
		baseline func() *reports.Result
		failed   bool
		lines    []string // substrings of lines that must appear
	}{
		{"lenient thresholds hold", "all=0", nil, false, []string{"ok   min-pass all=0"}},
		{"constraint must always hold", "constraint=1", nil, true, []string{"FAIL min-pass: builtin:truncate constraint"}},
		{"baseline identical", "", func() *reports.Result { return fake.Result(fake.Config{Scenarios: 8, Seed: 2}) }, false, []string{"ok   baseline: no regression"}},
		// With one trial every pass→fail is listed under the verdict line.
		{"baseline regression", "", func() *reports.Result { return fake.Result(fake.Config{Scenarios: 8, Seed: 5}) }, true, []string{"FAIL baseline: ", "FAIL baseline:   scn-"}},
		// builtin:none passes every decision it got an answer for (13) and
		// errored once: the error is a miss, so 100% does not hold.
		{"errors count as misses", "decisions=1", nil, true, []string{"FAIL min-pass: builtin:none decisions 92.9% (13/14) < 100% (errors counted as misses: 1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mp reports.MinPass
			if tc.minPass != "" {
				mp = mustMinPass(t, tc.minPass)
			}
			var base *reports.Result
			if tc.baseline != nil {
				base = tc.baseline()
			}
			g := reports.Gate(r, mp, base, 0.05)
			if g.Failed != tc.failed {
				t.Errorf("Failed = %v, want %v; lines:\n%s", g.Failed, tc.failed, strings.Join(g.Lines, "\n"))
			}
			all := strings.Join(g.Lines, "\n")
			for _, l := range tc.lines {
				if !strings.Contains(all, l) {
					t.Errorf("lines lack %q:\n%s", l, all)
				}
			}
			if tc.failed && !strings.HasPrefix(reports.Verdict(r, &g), "❌ FAIL: ") {
				t.Errorf("verdict %q does not say FAIL", reports.Verdict(r, &g))
			}
			if (base != nil) != (g.Comparison != nil) {
				t.Errorf("Comparison = %v with baseline %v", g.Comparison != nil, base != nil)
			}
		})
	}
}

// TestGateAtThreshold: a rate exactly at its threshold holds the gate; the
// gate fails only below it.
func TestGateAtThreshold(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 8, Seed: 2})
	lowest, found := 1.0, false
	for _, a := range r.Aggregates {
		if n := a.Pass + a.Fail + a.Error; a.Check == "constraint" && n > 0 {
			lowest, found = min(lowest, float64(a.Pass)/float64(n)), true
		}
	}
	if !found || lowest == 1 {
		t.Fatalf("the fixture needs a constraint rate below 100%%; lowest %v (found %v)", lowest, found)
	}
	if g := reports.Gate(r, reports.MinPass{Rates: map[string]float64{"constraint": lowest}}, nil, 0.05); g.Failed {
		t.Errorf("threshold %v, the lowest rate itself: the gate failed:\n%s", lowest, strings.Join(g.Lines, "\n"))
	}
	if g := reports.Gate(r, reports.MinPass{Rates: map[string]float64{"constraint": math.Nextafter(lowest, 2)}}, nil, 0.05); !g.Failed {
		t.Errorf("threshold just above the lowest rate %v: the gate held:\n%s", lowest, strings.Join(g.Lines, "\n"))
	}
}
