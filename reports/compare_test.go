package reports_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/google/go-cmp/cmp"
)

// setStatus sets the status of the first check matching check/invariant in
// unit i, generation index g.
func setStatus(t *testing.T, r *result.Result, i, g int, check, inv string, s result.Status) {
	t.Helper()
	for ci, c := range r.Units[i].Generations[g].Checks {
		if c.Check == check && c.Invariant == inv {
			r.Units[i].Generations[g].Checks[ci].Status = s
			r.Units[i].Generations[g].Checks[ci].Message = check + " " + inv + " set to " + string(s)
			return
		}
	}
	t.Fatalf("unit %d gen %d has no %s/%s", i, g, check, inv)
}

// unitOf finds the unit of a scenario × summarizer × trial.
func unitOf(t *testing.T, r *result.Result, scenario, summarizer string, trial int) int {
	t.Helper()
	for i, u := range r.Units {
		if u.Scenario.ID == scenario && u.Summarizer == summarizer && u.Trial == trial {
			return i
		}
	}
	t.Fatalf("no unit %s × %s trial %d", scenario, summarizer, trial)
	return -1
}

func TestCompareIdentical(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 10, Seed: 4})
	c := reports.Compare(base, fake.Result(fake.Config{Scenarios: 10, Seed: 4}), 0)
	if c.Regressed || len(c.Regressions) != 0 || len(c.Fixes) != 0 {
		t.Errorf("identical runs: Regressed=%v, %d regressions, %d fixes", c.Regressed, len(c.Regressions), len(c.Fixes))
	}
	if len(c.Warnings) != 0 {
		t.Errorf("identical runs warn: %v", c.Warnings)
	}
	for _, row := range c.Rows {
		if row.Delta != 0 || row.P != 1 || row.Significant {
			t.Errorf("row %s %s: delta %v p %v", row.Summarizer, row.Check, row.Delta, row.P)
		}
	}
}

func TestComparePlantedRegression(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 10, Seed: 4})
	next := fake.Result(fake.Config{Scenarios: 10, Seed: 4})
	i := unitOf(t, base, "scn-003", "openai:gpt-4o-mini", 0)
	setStatus(t, base, i, 1, "constraint", "ro", result.Pass)
	setStatus(t, next, i, 1, "constraint", "ro", result.Fail)
	c := reports.Compare(base, next, 0.05)
	want := []reports.Change{{Scenario: "scn-003", Summarizer: "openai:gpt-4o-mini", Generation: 2, Check: "constraint", Kind: result.KindInvariant, Name: "ro",
		Base: result.Pass, New: result.Fail, Message: "constraint ro set to fail", File: "scenarios/scn-003.yaml", Line: 21}}
	if d := cmp.Diff(want, c.Regressions); d != "" {
		t.Errorf("regressions (-want +got):\n%s", d)
	}
	if !c.Regressed {
		t.Error("one pass→fail with one trial must be a regression")
	}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"regressions (pass→fail): 1", "scn-003  openai:gpt-4o-mini  trial 1  g2  constraint/ro", "REGRESSION: 1 outcome went pass→fail"} {
		if !strings.Contains(out, s) {
			t.Errorf("text lacks %q:\n%s", s, out)
		}
	}
}

// TestCompareNoise: with several trials, changes are judged over
// scenarios, the unit of independence. Planted on one outcome
// (correction/port) of a 12-scenario run with 3 trials:
//
//   - noise: scenarios 0–3 lose it in trial 1 and regain it in trial 2:
//     each scenario's net difference is 0, p = 1, no regression;
//   - a drop spread over scenarios: scenarios 0–7 lose it in trial 1 only:
//     8 scenarios down, p = 2/2^8 < 0.05, a regression by the test;
//   - the same drop the other way is a significant rise, no regression;
//   - a drop that trials inflate: 3 scenarios lose it in 2 of 3 trials
//     (6 pairs, which McNemar over pairs would call p = 2/2^6 = 0.031):
//     3 scenarios down, p = 2/2^3 = 0.25, no regression;
//   - a drop in every trial of 3 scenarios (9 pairs): p = 0.25 over the
//     scenarios, but an outcome lost in every trial is no trial noise: 3
//     outcomes that regress, as with one trial.
func TestCompareNoise(t *testing.T) {
	cfg := fake.Config{Scenarios: 12, Trials: 3, Seed: 6}
	const sum = "builtin:extractive"
	type plant struct {
		scenarios, trials []int
	}
	run := func(base, next result.Status, ps ...plant) *reports.Comparison {
		t.Helper()
		b, n := fake.Result(cfg), fake.Result(cfg)
		for _, r := range []*result.Result{b, n} {
			for si := range 12 {
				for trial := range 3 {
					setStatus(t, r, unitOf(t, r, fakeID(si), sum, trial), 0, "correction", "port", result.Pass)
				}
			}
		}
		for k, p := range ps {
			from, to := base, next
			if k == 1 {
				from, to = next, base
			}
			for _, si := range p.scenarios {
				for _, trial := range p.trials {
					i := unitOf(t, b, fakeID(si), sum, trial)
					setStatus(t, b, i, 0, "correction", "port", from)
					setStatus(t, n, i, 0, "correction", "port", to)
				}
			}
		}
		return reports.Compare(b, n, 0.05)
	}
	s03, s07, s02 := []int{0, 1, 2, 3}, []int{0, 1, 2, 3, 4, 5, 6, 7}, []int{0, 1, 2}
	tests := []struct {
		name           string
		c              *reports.Comparison
		p              float64
		b, c2          int
		sig, regressed bool
		consistent     int
	}{
		{"noise", run(result.Pass, result.Fail, plant{s03, []int{0}}, plant{s03, []int{1}}), 1, 4, 4, false, false, 0},
		{"drop over 8 scenarios", run(result.Pass, result.Fail, plant{s07, []int{0}}), 1.0 / 128, 8, 0, true, true, 0},
		{"rise over 8 scenarios", run(result.Fail, result.Pass, plant{s07, []int{0}}), 1.0 / 128, 0, 8, true, false, 0},
		{"drop inflated by trials", run(result.Pass, result.Fail, plant{s02, []int{0, 1}}), 0.25, 6, 0, false, false, 0},
		{"drop in every trial", run(result.Pass, result.Fail, plant{s02, []int{0, 1, 2}}), 0.25, 9, 0, false, true, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			row := findRow(t, tc.c, sum, "correction")
			if row.P != tc.p || row.B != tc.b || row.C != tc.c2 || row.Significant != tc.sig || tc.c.Regressed != tc.regressed || tc.c.Consistent != tc.consistent {
				t.Errorf("row %+v, regressed %v, %d lost in every trial: %s; want p=%v b=%d c=%d significant %v, regressed %v, %d",
					row, tc.c.Regressed, tc.c.Consistent, tc.c.Verdict(), tc.p, tc.b, tc.c2, tc.sig, tc.regressed, tc.consistent)
			}
			if excl := row.Low > 0 || row.High < 0; excl != row.Significant {
				t.Errorf("interval [%v, %v] disagrees with p = %v", row.Low, row.High, row.P)
			}
			var b bytes.Buffer
			tc.c.WriteText(&b)
			if !tc.sig && !lineHas(b.String(), sum, "correction", "~") {
				t.Errorf("the row is not shown as ~:\n%s", b.String())
			}
		})
	}
}

func fakeID(i int) string { return "scn-" + strings.Repeat("0", 3-len(itoa(i))) + itoa(i) }

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func findRow(t *testing.T, c *reports.Comparison, sum, check string) reports.DeltaRow {
	t.Helper()
	for _, r := range c.Rows {
		if r.Summarizer == sum && r.Check == check {
			return r
		}
	}
	t.Fatalf("no row %s %s", sum, check)
	return reports.DeltaRow{}
}

func lineHas(text string, parts ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestCompareMismatches(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 4, Seed: 4})
	next := fake.Result(fake.Config{Scenarios: 4, Seed: 4, Summarizers: []string{"builtin:none", "builtin:truncate", "builtin:extractive", "exec:./mine"}})
	for i := range next.Units {
		if next.Units[i].Scenario.ID == "scn-001" {
			next.Units[i].Scenario.Digest = "sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
			setStatus(t, next, i, 0, "schema", "", result.Fail) // not compared: must not count
		}
	}
	next.Harness = "v0.2.0"
	c := reports.Compare(base, next, 0.05)
	all := strings.Join(c.Warnings, "\n")
	if !strings.Contains(all, "harness differs") {
		t.Errorf("warnings lack %q:\n%s", "harness differs", all)
	}
	// A summarizer in one run only has no evidence to compare: it fails;
	// so does a scenario whose meaning changed (issue 26).
	problems := strings.Join(c.Problems(), "\n")
	for _, s := range []string{"1 scenario changed meaning since the base (scn-001 sha256:", `summarizer "openai:gpt-4o-mini" of the base has no counterpart in the new run`, `summarizer "exec:./mine" of the new run has no counterpart in the base`} {
		if !strings.Contains(problems, s) {
			t.Errorf("problems lack %q:\n%s", s, problems)
		}
	}
	if !c.Regressed || !strings.HasPrefix(c.Verdict(), "FAIL: ") {
		t.Errorf("unpaired summarizers: Regressed %v, verdict %q", c.Regressed, c.Verdict())
	}
	for _, ch := range c.Regressions {
		if ch.Scenario == "scn-001" {
			t.Errorf("a changed scenario was compared: %+v", ch)
		}
	}
}

// TestCompareChangedScenario (issue 26, finding 4): a scenario whose
// meaning changed is neither paired nor silently dropped: its outcomes are
// listed apart, the comparison fails unless AcceptChanged, and every report
// says so. A base written before meaning digests (its digest is of the
// file's bytes, no file_digest) pairs with an unchanged file.
func TestCompareChangedScenario(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 3, Seed: 7})
	next := fake.Result(fake.Config{Scenarios: 3, Seed: 7})
	for i := range next.Units {
		if next.Units[i].Scenario.ID == "scn-001" {
			next.Units[i].Scenario.Digest = "sha256:" + strings.Repeat("e", 64)
			setStatus(t, next, i, 0, "schema", "", result.Fail)
		}
	}
	c := reports.Compare(base, next, 0.05)
	if len(c.ChangedScenarios) != 1 || c.ChangedScenarios[0].ID != "scn-001" || !c.Regressed {
		t.Fatalf("changed %+v, regressed %v", c.ChangedScenarios, c.Regressed)
	}
	if len(c.Changed) == 0 {
		t.Error("the changed scenario's outcomes are not listed")
	}
	for _, ch := range append(append([]reports.Change{}, c.Regressions...), c.Fixes...) {
		if ch.Scenario == "scn-001" {
			t.Errorf("a changed scenario was paired: %+v", ch)
		}
	}
	if v := c.Verdict(); !strings.HasPrefix(v, "FAIL: 1 scenario changed meaning since the base") || !strings.Contains(v, "--accept-changed") {
		t.Errorf("verdict %q", v)
	}
	if s := c.NewAgainstBaseline(); !strings.HasSuffix(s, ", 1 scenario changed") {
		t.Errorf("count line %q", s)
	}
	var text strings.Builder
	c.WriteText(&text)
	if !strings.Contains(text.String(), "outcomes of the changed scenarios (base → new, not compared): ") {
		t.Errorf("text lacks the changed outcomes:\n%s", text.String())
	}

	accepted := reports.CompareWith(base, next, reports.CompareOptions{AcceptChanged: true})
	if accepted.Regressed || len(accepted.Changed) != len(c.Changed) || !strings.HasSuffix(accepted.NewAgainstBaseline(), "1 scenario changed (accepted)") {
		t.Errorf("accepted: regressed %v, changed %d, line %q", accepted.Regressed, len(accepted.Changed), accepted.NewAgainstBaseline())
	}
	if all := strings.Join(accepted.Warnings, "\n"); !strings.Contains(all, "not compared (--accept-changed)") {
		t.Errorf("accepted: warnings %q", all)
	}

	// Legacy base: its digest is of the bytes, and it has no file digest.
	legacy := fake.Result(fake.Config{Scenarios: 3, Seed: 7})
	now := fake.Result(fake.Config{Scenarios: 3, Seed: 7})
	for i := range now.Units {
		now.Units[i].Scenario.FileDigest = legacy.Units[i].Scenario.Digest
		now.Units[i].Scenario.Digest = "sha256:" + strings.Repeat("a", 64)
	}
	if c := reports.Compare(legacy, now, 0.05); len(c.ChangedScenarios) != 0 || c.Regressed {
		t.Errorf("legacy base, same files: changed %+v, regressed %v", c.ChangedScenarios, c.Regressed)
	}
	for i := range now.Units {
		if now.Units[i].Scenario.ID == "scn-000" {
			now.Units[i].Scenario.FileDigest = "sha256:" + strings.Repeat("b", 64)
		}
	}
	if c := reports.Compare(legacy, now, 0.05); len(c.ChangedScenarios) != 1 {
		t.Errorf("legacy base, one file edited: changed %+v", c.ChangedScenarios)
	}
}

// One name, two different summarizers (a config file can do that): the
// comparison goes on, but says so.
func TestCompareWarnsWhenANameChangesSpec(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 2, Seed: 5})
	next := fake.Result(fake.Config{Scenarios: 2, Seed: 5})
	for i := range next.Units {
		if next.Units[i].Summarizer != "builtin:truncate" {
			continue
		}
		for g := range next.Units[i].Generations {
			next.Units[i].Generations[g].Call.Spec = "exec:./other"
		}
	}
	c := reports.Compare(base, next, 0.05)
	want := "summarizer builtin:truncate changed spec, model or prompt: base builtin:truncate, new exec:./other"
	if !slices.Contains(c.Warnings, want) {
		t.Errorf("warnings lack %q:\n%s", want, strings.Join(c.Warnings, "\n"))
	}
}

// TestCompareFailsClosed: the baseline comparison needs evidence. A
// summarizer renamed between runs, a unit that errored, an outcome that
// disappeared or is no longer judged must not read as "no regression".
func TestCompareFailsClosed(t *testing.T) {
	ok := func(sc, sum string) unitSpec {
		return unitSpec{scenario: sc, summarizer: sum, checks: map[string]result.Status{"constraint/ro": pass}, probes: map[string]string{"p": result.Kept}}
	}
	lost := func(sc, sum string) unitSpec {
		return unitSpec{scenario: sc, summarizer: sum, checks: map[string]result.Status{"constraint/ro": fail}, probes: map[string]string{"p": result.CompactionRegression}}
	}
	v1, v2 := "exec:python3 sum.py", "exec:python3 sum.py --v2"
	tests := []struct {
		name           string
		base, new      *result.Result
		pairing        []string
		failOnUnjudged bool
		regressed      bool
		nothing        bool
		verdict        string
		problems       []string
	}{
		{
			name: "a renamed summarizer that drops the rule has no counterpart",
			base: handResult(ok("a", v1)), new: handResult(lost("a", v2)),
			regressed: true, nothing: true,
			verdict:  `FAIL: summarizer "exec:python3 sum.py --v2" of the new run has no counterpart in the base (base: "exec:python3 sum.py") (and 2 more)`,
			problems: []string{`summarizer "exec:python3 sum.py" of the base has no counterpart in the new run`, "nothing paired: the runs share no summarizer, so nothing was compared"},
		},
		{
			name: "mapped explicitly, the regression shows",
			base: handResult(ok("a", v1)), new: handResult(lost("a", v2)), pairing: []string{v1 + "=" + v2},
			regressed: true, verdict: "REGRESSION: 2 outcomes went pass→fail (1 decision, 1 invariant; 1 trial: any pass→fail counts)",
		},
		{
			name: "a stable name pairs across a changed spec",
			base: handResult(ok("a", "ours")), new: handResult(ok("a", "ours")),
			verdict: "no regression: no pass→fail over 2 pairs (0 fail→pass, 0 no longer judged, 0 newly judged)",
		},
		{
			name: "a summarizer left out of the new run",
			base: handResult(ok("a", "x"), ok("a", "y")), new: handResult(ok("a", "x")),
			regressed: true, problems: []string{`summarizer "y" of the base has no counterpart in the new run`},
		},
		{
			name: "left out on purpose",
			base: handResult(ok("a", "x"), ok("a", "y")), new: handResult(ok("a", "x")), pairing: []string{"y="},
			verdict: "no regression: no pass→fail over 2 pairs (0 fail→pass, 0 no longer judged, 0 newly judged)",
		},
		{
			name: "a unit that errored in the new run: its base passes regress",
			base: handResult(ok("a", "x"), ok("b", "x")), new: handResult(ok("a", "x"), unitSpec{scenario: "b", summarizer: "x", err: "generation 1: summarizer: exit status 1"}),
			regressed: true, verdict: "REGRESSION: 2 outcomes went pass→fail (2 outcomes lost with their units; 1 trial: any pass→fail counts)",
		},
		{
			name: "a scenario that no longer runs: its base passes regress",
			base: handResult(ok("a", "x"), ok("b", "x")), new: handResult(ok("a", "x")),
			regressed: true, verdict: "REGRESSION: 2 outcomes went pass→fail (2 outcomes lost with their units; 1 trial: any pass→fail counts)",
		},
		{
			// A pass→skip is counted apart: the check had nothing to judge
			// (a plain-text summary under a field-level check).
			name: "a pass that is now skipped is no longer judged, not a regression",
			base: handResult(ok("a", "x")), new: handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": skip}, probes: map[string]string{"p": result.Kept}}),
			verdict: "no regression: no pass→fail over 2 pairs (0 fail→pass, 1 no longer judged, 0 newly judged)",
		},
		{
			name: "with --fail-on-unjudged a pass no longer judged fails",
			base: handResult(ok("a", "x")), new: handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": skip}, probes: map[string]string{"p": result.Kept}}),
			failOnUnjudged: true,
			regressed:      true, verdict: "REGRESSION: 1 outcome that passed in the base is no longer judged (--fail-on-unjudged)",
		},
		{
			name:    "a skip that is judged now is newly judged, pass or fail",
			base:    handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": skip, "constraint/rw": skip}}),
			new:     handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass, "constraint/rw": fail}}),
			verdict: "no regression: no pass→fail over 2 pairs (0 fail→pass, 0 no longer judged, 2 newly judged)",
		},
		{
			name: "a pass that is now uncertain regresses",
			base: handResult(ok("a", "x")), new: handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Uncertain}, probes: map[string]string{"p": result.Kept}}),
			regressed: true, verdict: "REGRESSION: 1 outcome went pass→fail (1 invariant; 1 trial: any pass→fail counts)",
		},
		{
			name: "an uncertain base that now passes is a fix, never a regression",
			base: handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Uncertain}, probes: map[string]string{"p": result.Kept}}), new: handResult(ok("a", "x")),
			verdict: "no regression: no pass→fail over 2 pairs (1 fail→pass, 0 no longer judged, 0 newly judged)",
		},
		{
			name: "a pass that now errors regresses",
			base: handResult(ok("a", "x")), new: handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Error}, probes: map[string]string{"p": result.Kept}}),
			regressed: true, verdict: "REGRESSION: 1 outcome went pass→fail (1 invariant; 1 trial: any pass→fail counts)",
		},
		{
			name: "no scenario in common",
			base: handResult(ok("a", "x")), new: handResult(ok("b", "x")),
			regressed: true, nothing: true, problems: []string{"nothing paired: the runs share no scenario, so nothing was compared"},
		},
		{
			name: "new scenarios in the new run are not regressions",
			base: handResult(ok("a", "x")), new: handResult(ok("a", "x"), lost("b", "x")),
			verdict: "no regression: no pass→fail over 2 pairs (0 fail→pass, 0 no longer judged, 0 newly judged)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := reports.ParsePairing(tc.pairing, result.Summarizers(tc.base), result.Summarizers(tc.new))
			if err != nil {
				t.Fatal(err)
			}
			c := reports.CompareWith(tc.base, tc.new, reports.CompareOptions{Pairing: p, FailOnUnjudged: tc.failOnUnjudged})
			if c.Regressed != tc.regressed || c.NothingPaired() != tc.nothing {
				t.Errorf("Regressed = %v, NothingPaired = %v; want %v, %v; verdict %s", c.Regressed, c.NothingPaired(), tc.regressed, tc.nothing, c.Verdict())
			}
			if tc.verdict != "" && c.Verdict() != tc.verdict {
				t.Errorf("verdict\n got %s\nwant %s", c.Verdict(), tc.verdict)
			}
			for _, p := range tc.problems {
				if !slices.Contains(c.Problems(), p) {
					t.Errorf("problems lack %q:\n%s", p, strings.Join(c.Problems(), "\n"))
				}
			}
		})
	}
}

// The baseline leaves out the scenarios the new run did not select: a
// shard, --run or --scenario compares only what it ran.
func TestCompareSelection(t *testing.T) {
	var units []unitSpec
	for _, id := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		units = append(units, unitSpec{scenario: id, summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass}})
	}
	base := handResult(units...)
	for _, tc := range []struct {
		name string
		cfg  func(*result.RunConfig)
		keep func(string) bool
	}{
		{"shard", func(c *result.RunConfig) { c.Shard = "2/3" }, func(id string) bool { return result.InShard(id, 2, 3) }},
		{"run", func(c *result.RunConfig) { c.Run = "^(alpha|gamma)$" }, func(id string) bool { return id == "alpha" || id == "gamma" }},
		{"scenario", func(c *result.RunConfig) { c.Scenarios = []string{"beta"} }, func(id string) bool { return id == "beta" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var kept []unitSpec
			for _, u := range units {
				if tc.keep(u.scenario) {
					kept = append(kept, u)
				}
			}
			next := handResult(kept...)
			tc.cfg(&next.Config)
			c := reports.Compare(base, next, 0)
			if c.Regressed || c.OutOfSelection != len(units)-len(kept) {
				t.Errorf("Regressed %v, OutOfSelection %d (want %d): %s", c.Regressed, c.OutOfSelection, len(units)-len(kept), c.Verdict())
			}
		})
	}
}

func TestParsePairing(t *testing.T) {
	base, next := []string{"a", "exec:x --m=1", "b"}, []string{"a2", "exec:x --m=2", "c"}
	for _, tc := range []struct {
		in   []string
		want reports.Pairing
		err  string
	}{
		{[]string{"a=a2"}, reports.Pairing{Map: map[string]string{"a": "a2"}}, ""},
		{[]string{"exec:x --m=1=exec:x --m=2"}, reports.Pairing{Map: map[string]string{"exec:x --m=1": "exec:x --m=2"}}, ""},
		{[]string{"b=", "=c"}, reports.Pairing{LeftOutBase: []string{"b"}, LeftOutNew: []string{"c"}}, ""},
		{[]string{"z=a2"}, reports.Pairing{}, `"z=a2": want OLD=NEW, with OLD a summarizer of the baseline ("a", "exec:x --m=1", "b")`},
		{[]string{"a=a2", "b=a2"}, reports.Pairing{}, "a2 is already paired"},
		{[]string{"="}, reports.Pairing{}, "want OLD=NEW"},
	} {
		got, err := reports.ParsePairing(tc.in, base, next)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParsePairing(%q) err = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePairing(%q): %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("ParsePairing(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

// A judge (above all with --judge-gate, which changes statuses) or another
// agent sampling in one run only: the comparison goes on, and says so, so
// that a gated run's extra fails are not read as plain regressions.
func TestCompareWarnsWhenJudgeOrSamplingDiffer(t *testing.T) {
	base := fake.Result(fake.Config{Scenarios: 2, Seed: 6})
	same := fake.Result(fake.Config{Scenarios: 2, Seed: 6})
	if w := strings.Join(reports.Compare(base, same, 0.05).Warnings, "\n"); strings.Contains(w, "judge") || strings.Contains(w, "sampling") {
		t.Errorf("equal runs warn: %s", w)
	}
	next := fake.Result(fake.Config{Scenarios: 2, Seed: 6})
	next.Config.Judge, next.Config.JudgeGate = "openai:judge", true
	next.Config.AgentSeed, next.Config.AgentSamples = 7, 3
	all := strings.Join(reports.Compare(base, next, 0.05).Warnings, "\n")
	for _, s := range []string{"judge differs: base none, new openai:judge with --judge-gate", "agent sampling differs: base seed 0 × 1 samples, new seed 7 × 3 samples"} {
		if !strings.Contains(all, s) {
			t.Errorf("warnings lack %q:\n%s", s, all)
		}
	}
}

// A regression to uncertain says so: the reader must see the check could
// not tell, not that the summary broke the rule.
func TestCompareNowUncertainMessage(t *testing.T) {
	base := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": pass}})
	next := handResult(unitSpec{scenario: "a", summarizer: "x", checks: map[string]result.Status{"constraint/ro": result.Uncertain}})
	c := reports.CompareWith(base, next, reports.CompareOptions{})
	if len(c.Regressions) != 1 || !strings.HasPrefix(c.Regressions[0].Message, "now uncertain: ") {
		t.Errorf("regressions %+v; want one whose message starts \"now uncertain: \"", c.Regressions)
	}
}
