package reports_test

import (
	"flag"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
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
		{"not a number", "all=high", nil, `"high" is not a finite number`},
		// Issue 26, finding 3: NaN compared false against both bounds and
		// opened the gate.
		{"NaN", "constraint=NaN", nil, `"NaN" is not a finite number`},
		{"NaN%", "constraint=NaN%", nil, `"NaN" is not a finite number`},
		{"nan", "all=nan", nil, `"nan" is not a finite number`},
		{"Inf", "all=Inf", nil, `"Inf" is not a finite number`},
		{"-Inf%", "all=-Inf%", nil, `"-Inf" is not a finite number`},
		{"overflow", "all=1e999", nil, "is not a finite number"},
		{"empty rate", "all=", nil, `"" is not a finite number`},
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
		baseline func() *result.Result
		failed   bool
		lines    []string // substrings of lines that must appear
	}{
		// builtin:truncate writes text only: every field-level check skips,
		// so all=0 has nothing to judge for it there, and fails.
		{"lenient thresholds need evidence", "all=0", nil, true, []string{"note min-pass all=0", "FAIL min-pass: builtin:truncate refuted_hypothesis: nothing to judge (all 24 outcomes were skipped; --allow-empty accepts this)"}},
		{"constraint must always hold", "constraint=1", nil, true, []string{"FAIL min-pass: builtin:truncate constraint"}},
		{"baseline identical", "", func() *result.Result { return fake.Result(fake.Config{Scenarios: 8, Seed: 2}) }, false, []string{"ok   baseline: no regression"}},
		// With one trial every pass→fail is listed under the verdict line.
		{"baseline regression", "", func() *result.Result { return fake.Result(fake.Config{Scenarios: 8, Seed: 5}) }, true, []string{"FAIL baseline: ", reports.GateDetail + "scn-", "note baseline: new against the baseline: "}},
		// builtin:none passes every decision it got an answer for (13) and
		// errored once: the error is a miss, so 100% does not hold.
		{"errors count as misses", "decisions=1", nil, true, []string{"FAIL min-pass: builtin:none decisions 92.9% (13/14) < 100% (counted as misses: 1 probe whose agent call failed)"}},
		// openai:gpt-4o-mini errored on one unit after its first
		// generation: the unit counts as failed for every check type.
		{"errored units count as failed", "secret=1", nil, true, []string{"FAIL min-pass: openai:gpt-4o-mini secret 75.0% (18/24) < 100% (counted as misses: 3 outcomes of 1 unit that errored)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mp reports.MinPass
			if tc.minPass != "" {
				mp = mustMinPass(t, tc.minPass)
			}
			var base *result.Result
			if tc.baseline != nil {
				base = tc.baseline()
			}
			g := reports.Gate(r, reports.GateOptions{MinPass: mp, Baseline: base, Alpha: 0.05})
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
			// A failing min-pass gate prints no "ok" line of its own.
			if tc.minPass != "" && strings.Contains(all, "FAIL min-pass") && strings.Contains(all, "ok   min-pass") {
				t.Errorf("a failing min-pass gate also prints an ok line:\n%s", all)
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
	if g := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"constraint": lowest}}}); g.Failed {
		t.Errorf("threshold %v, the lowest rate itself: the gate failed:\n%s", lowest, strings.Join(g.Lines, "\n"))
	}
	if g := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"constraint": math.Nextafter(lowest, 2)}}}); !g.Failed {
		t.Errorf("threshold just above the lowest rate %v: the gate held:\n%s", lowest, strings.Join(g.Lines, "\n"))
	}
}

// unitSpec describes a unit of a hand-built result: its checks as
// "check/invariant" → status (the kind follows from the check type), its
// probes as id → class, and an error when it errored.
type unitSpec struct {
	scenario, summarizer string
	trial                int
	err                  string
	checks               map[string]result.Status
	probes               map[string]string
	spec                 string // the summarizer's spec in its calls; "" = the name
}

// handResult builds an aggregated result of one generation per unit.
func handResult(units ...unitSpec) *result.Result {
	r := &result.Result{ResultVersion: result.ResultVersion, Harness: "test", RunID: "r", Config: result.RunConfig{Agent: "builtin:reference", Trials: 1, Tokenizer: "o200k_base"}}
	for _, us := range units {
		if !slices.Contains(r.Config.Summarizers, us.summarizer) {
			r.Config.Summarizers = append(r.Config.Summarizers, us.summarizer)
		}
		r.Config.Trials = max(r.Config.Trials, us.trial+1)
		u := result.Unit{Scenario: result.ScenarioRef{ID: us.scenario, File: us.scenario + ".yaml", Digest: "sha256:" + us.scenario},
			Summarizer: us.summarizer, Trial: us.trial, Status: result.UnitOK, Generations: []result.Generation{}, Probes: []result.Probe{}}
		if us.err != "" {
			u.Status, u.Error = result.UnitError, us.err
		}
		spec := us.spec
		if spec == "" {
			spec = us.summarizer
		}
		if len(us.checks) > 0 {
			g := result.Generation{N: 1, Cut: 4, Call: result.Call{Spec: spec}}
			for _, k := range slices.Sorted(maps.Keys(us.checks)) {
				check, inv, _ := strings.Cut(k, "/")
				kind := result.KindStructural
				if slices.Contains(result.InvariantTypes, check) {
					kind = result.KindInvariant
				}
				g.Checks = append(g.Checks, result.CheckResult{Check: check, Kind: kind, Invariant: inv, Status: us.checks[k], Message: k + " " + string(us.checks[k]), Pos: result.Pos{Line: 7}})
			}
			u.Generations = append(u.Generations, g)
		}
		for _, id := range slices.Sorted(maps.Keys(us.probes)) {
			u.Probes = append(u.Probes, result.Probe{ID: id, Expect: "refuse", Class: us.probes[id], Pos: result.Pos{Line: 11},
				Full: result.Decision{Choice: "refuse"}, Compacted: result.Decision{Choice: "proceed"}})
		}
		r.Units = append(r.Units, u)
	}
	r.Aggregate()
	return r
}

var (
	pass = result.Pass
	fail = result.Fail
	skip = result.Skip
)

// TestGateFailsClosed: a gate needs evidence. Each case is a way a broken
// change could pass a gate on missing evidence, or a faithful run that must
// still pass.
func TestGateFailsClosed(t *testing.T) {
	good := func(sc, sum string) unitSpec {
		return unitSpec{scenario: sc, summarizer: sum, checks: map[string]result.Status{"constraint/ro": pass, "schema": pass}, probes: map[string]string{"p": result.Kept}}
	}
	crashed := func(sc, sum string) unitSpec {
		return unitSpec{scenario: sc, summarizer: sum, err: "generation 1: summarizer: exec false: exit status 1"}
	}
	tests := []struct {
		name   string
		r      *result.Result
		opts   reports.GateOptions
		failed bool
		lines  []string
		absent []string
	}{
		{
			name: "a summarizer that errored everywhere has nothing to judge",
			r:    handResult(crashed("a", "exec:false"), good("a", "builtin:extractive"), crashed("b", "exec:false"), good("b", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=1")}, failed: true,
			lines: []string{"FAIL min-pass: exec:false constraint 0.0% (0/2) < 100% (counted as misses: 2 outcomes of 2 units that errored)"},
		},
		{
			name: "crashing on most scenarios cannot hold all=0.95",
			r: handResult(good("a", "exec:flaky"), crashed("b", "exec:flaky"), crashed("c", "exec:flaky"),
				good("a", "builtin:extractive"), good("b", "builtin:extractive"), good("c", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "all=0.95")}, failed: true,
			lines: []string{"FAIL min-pass: exec:flaky constraint 33.3% (1/3) < 95%", "FAIL min-pass: exec:flaky decisions 33.3% (1/3) < 95%"},
		},
		{
			name: "a lone summarizer that crashed where no unit finished: one miss per check type",
			r:    handResult(good("a", "exec:flaky"), crashed("b", "exec:flaky")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=0.9")}, failed: true,
			lines: []string{"FAIL min-pass: exec:flaky constraint 50.0% (1/2) < 90% (counted as misses: 1 outcome of 1 unit that errored)"},
		},
		{
			name: "every outcome skipped: nothing to judge",
			r: handResult(unitSpec{scenario: "a", summarizer: "exec:text", checks: map[string]result.Status{"refuted_hypothesis/h": skip, "schema": pass}},
				unitSpec{scenario: "a", summarizer: "builtin:extractive", checks: map[string]result.Status{"refuted_hypothesis/h": pass, "schema": pass}}),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "refuted_hypothesis=1")}, failed: true,
			lines: []string{"FAIL min-pass: exec:text refuted_hypothesis: nothing to judge (its 1 outcome was skipped; --allow-empty accepts this)"},
		},
		{
			name: "--allow-empty lets nothing to judge hold, and says so",
			r: handResult(unitSpec{scenario: "a", summarizer: "exec:text", checks: map[string]result.Status{"refuted_hypothesis/h": skip, "schema": pass}},
				unitSpec{scenario: "a", summarizer: "builtin:extractive", checks: map[string]result.Status{"refuted_hypothesis/h": pass, "schema": pass}}),
			opts:  reports.GateOptions{MinPass: mustMinPass(t, "refuted_hypothesis=1"), AllowEmpty: true},
			lines: []string{"ok   min-pass refuted_hypothesis=1: 1 summarizer × check type rates hold", "note min-pass: exec:text refuted_hypothesis: nothing to judge (allowed by --allow-empty)"},
		},
		{
			name: "a key that names no check of the run",
			r:    handResult(good("a", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "secret=1")}, failed: true,
			lines: []string{"FAIL min-pass secret: nothing to judge: the run has no secret outcome"},
		},
		{
			name: "the control arm is gated on decisions only",
			r: handResult(unitSpec{scenario: "a", summarizer: "builtin:none", checks: map[string]result.Status{"constraint/ro": skip}, probes: map[string]string{"p": result.Kept}},
				good("a", "builtin:extractive")),
			opts:  reports.GateOptions{MinPass: mustMinPass(t, "constraint=1,decisions=1")},
			lines: []string{"ok   min-pass constraint=1,decisions=1: 3 summarizer × check type rates hold", "note min-pass: builtin:none is the control arm"},
		},
		{
			name: "a summarizer that calls itself builtin:none in its name is not the control arm",
			r: handResult(unitSpec{scenario: "a", summarizer: "builtin:none", spec: "exec:./fake", checks: map[string]result.Status{"constraint/ro": skip}},
				good("a", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=1")}, failed: true,
			lines: []string{"FAIL min-pass: builtin:none constraint: nothing to judge"},
		},
		{
			name: "only the control arm: nothing judged is never a pass",
			r:    handResult(unitSpec{scenario: "a", summarizer: "builtin:none", checks: map[string]result.Status{"constraint/ro": skip}}),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=1")}, failed: true,
			lines: []string{"FAIL min-pass constraint=1: nothing to judge: no summarizer has an outcome the gate covers"},
		},
		{
			name: "an interrupted result is partial",
			r: func() *result.Result {
				r := handResult(good("a", "builtin:extractive"))
				r.Interrupted = true
				return r
			}(),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "all=0")}, failed: true,
			lines: []string{"FAIL evidence: the run was interrupted"},
		},
		{
			name: "a merge with a shard missing is partial",
			r: func() *result.Result {
				r := handResult(good("a", "builtin:extractive"))
				r.MissingShards = []string{"2/3"}
				return r
			}(),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "all=0")}, failed: true,
			lines: []string{"FAIL evidence: the merged result lacks shard 2/3"},
		},
		{
			// Issue 24: a check that cannot tell has not shown the fact
			// kept; ignoring it would let a run of doubts hold any gate.
			name: "uncertain counts as not passed",
			r: handResult(unitSpec{scenario: "a", summarizer: "exec:doubt", checks: map[string]result.Status{"constraint/a": pass, "constraint/b": result.Uncertain, "schema": pass}},
				good("a", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=1")}, failed: true,
			lines: []string{"FAIL min-pass: exec:doubt constraint 50.0% (1/2) < 100% (counted as misses: 1 uncertain)"},
		},
		{
			name: "only uncertain outcomes are judged, not nothing to judge",
			r: handResult(unitSpec{scenario: "a", summarizer: "exec:doubt", checks: map[string]result.Status{"constraint/a": result.Uncertain, "constraint/b": result.Uncertain}},
				good("a", "builtin:extractive")),
			opts: reports.GateOptions{MinPass: mustMinPass(t, "constraint=0.5"), AllowEmpty: true}, failed: true,
			lines:  []string{"FAIL min-pass: exec:doubt constraint 0.0% (0/2) < 50% (counted as misses: 2 uncertain)"},
			absent: []string{"nothing to judge"},
		},
		{
			name:  "faithful: everything judged and kept",
			r:     handResult(good("a", "builtin:extractive"), good("b", "builtin:extractive")),
			opts:  reports.GateOptions{MinPass: mustMinPass(t, "all=1")},
			lines: []string{"ok   min-pass all=1: 3 summarizer × check type rates hold"}, absent: []string{"FAIL", "note"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := reports.Gate(tc.r, tc.opts)
			all := strings.Join(g.Lines, "\n")
			if g.Failed != tc.failed {
				t.Errorf("Failed = %v, want %v; lines:\n%s", g.Failed, tc.failed, all)
			}
			for _, l := range tc.lines {
				if !strings.Contains(all, l) {
					t.Errorf("lines lack %q:\n%s", l, all)
				}
			}
			for _, l := range tc.absent {
				if strings.Contains(all, l) {
					t.Errorf("lines hold %q:\n%s", l, all)
				}
			}
		})
	}
}

// A library caller's NaN threshold fails the gate instead of holding it.
func TestMinPassNaNFailsClosed(t *testing.T) {
	r := handResult(unitSpec{scenario: "s", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Pass}})
	rep := reports.Gate(r, reports.GateOptions{MinPass: reports.MinPass{Rates: map[string]float64{"all": math.NaN()}}})
	if !rep.Failed {
		t.Fatalf("a NaN rate held the gate: %v", rep.Lines)
	}
}
