package reports

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/result"
)

// DefaultAlpha is the significance level of Compare when none is given.
const DefaultAlpha = 0.05

// Comparison is the paired comparison of two runs (see CompareWith).
type Comparison struct {
	Alpha float64
	// Trials is the larger trial count of the two runs (at least 1).
	Trials int
	// Pairs are the summarizers compared, base name → new name, in the
	// new run's order.
	Pairs []SummarizerPair
	// UnpairedBase are summarizers of the base with no counterpart in the
	// new run, UnpairedNew the reverse (neither paired by name nor by
	// Pairing, nor left out on purpose). Each fails the comparison: the
	// gate has no evidence for them.
	UnpairedBase, UnpairedNew []string
	// LeftOut are the summarizers Pairing left out on purpose, as
	// "base NAME" or "new NAME".
	LeftOut []string
	// Rows hold one pass-rate delta per summarizer × check type present in
	// both runs, in report order (named as in the new run).
	Rows []DeltaRow
	// Regressions are the paired outcomes that went pass→fail; Fixes
	// fail→pass. Both sorted by scenario, summarizer, trial, generation.
	// A base pass whose outcome is missing from the new run (its unit
	// errored, its scenario or trial did not run, it has fewer
	// generations), or errored there, is a regression too: a gate never
	// holds on missing evidence.
	Regressions []Change
	Fixes       []Change
	// NoLongerJudged are the outcomes judged in the base (pass, fail or
	// error) that the new run skipped: a check that no longer applies, as
	// when a summarizer now writes plain text where field-level checks
	// skip. NewlyJudged are the reverse: skipped in the base, judged now.
	// Neither is a regression or a fix, nor counted in Rows: the check had
	// nothing to judge on one side. FailOnUnjudged makes a base pass no
	// longer judged fail the comparison.
	NoLongerJudged []Change
	NewlyJudged    []Change
	// FailOnUnjudged is CompareOptions.FailOnUnjudged.
	FailOnUnjudged bool
	// ChangedScenarios are the scenarios of both runs whose meaning
	// changed (their digests differ): their outcomes are not paired into
	// regressions or fixes, since the question changed, but listed apart
	// in Changed (every outcome whose status differs). A changed scenario
	// fails the comparison unless AcceptChanged.
	ChangedScenarios []ScenarioChange
	Changed          []Change
	// AcceptChanged is CompareOptions.AcceptChanged.
	AcceptChanged bool
	// Paired counts the outcomes present in both runs; Missing the base
	// passes missing from the new run (counted as regressions). Scenarios
	// counts the scenarios of the pairs compared in Rows.
	Paired, Missing int
	Scenarios       int
	// Unpaired counts the other outcomes present in only one run: new
	// scenarios, checks or generations, and base outcomes that did not pass.
	Unpaired int
	// OutOfSelection counts the base scenarios the new run did not select
	// (--shard, --run, --scenario): not compared.
	OutOfSelection int
	// Warnings list what could not be compared and why: scenarios whose
	// digests differ, different harness, tokenizer, agent or prompts.
	Warnings []string
	// Regressed is the verdict: a summarizer without a counterpart, nothing
	// paired at all, an outcome that went pass→fail in every trial (with
	// one trial, any pass→fail; Consistent counts them), or, with several
	// trials, a row whose drop is significant at Alpha by the test over
	// scenarios.
	Regressed bool
	// Consistent counts the outcomes (over trials: a scenario × summarizer
	// × generation × check) that went pass→fail in every trial of the
	// base.
	Consistent int
	// TrialsIdentical is true when both runs have several trials and every
	// paired summarizer gave the same outcomes in each (TrialsIdentical):
	// every figure is then that of one trial.
	TrialsIdentical bool
	// mapFlag names the flag that pairs summarizers, for the hints.
	mapFlag string
}

// ScenarioChange is a scenario whose meaning changed between the runs.
type ScenarioChange struct {
	ID string
	// Base and New are the scenario's digests in each run; File is its
	// file in the new run.
	Base, New string
	File      string
}

// SummarizerPair is a base summarizer and the new run's summarizer it is
// compared with.
type SummarizerPair struct{ Base, New string }

// NothingPaired reports whether no outcome is present in both runs:
// nothing was compared at all.
func (c *Comparison) NothingPaired() bool { return c.Paired == 0 }

// DeltaRow is the paired pass-rate change of one summarizer × check type.
type DeltaRow struct {
	Summarizer string
	Check      string
	// N is the number of pairs whose base outcome is pass, fail or error;
	// BasePass and NewPass the passes among them; B the pass→not-pass pairs
	// and C the not-pass→pass pairs.
	N, BasePass, NewPass, B, C int
	// Scenarios counts the scenarios the pairs come from: the unit of
	// independence. EffectiveN is the number of independent pairs the
	// interval counts the N pairs as.
	Scenarios  int
	EffectiveN float64
	// Delta is new − base pass rate over the N pairs, Low and High its
	// 1−Alpha interval and P the p-value of the sign-flip test over
	// scenarios (internal/stats.ClusteredPaired: the exact McNemar test
	// when each scenario holds one pair; the interval excludes 0 exactly
	// when P < Alpha).
	Delta, Low, High, P float64
	// Significant is P < Alpha.
	Significant bool
}

// Change is one paired outcome that changed between the runs.
type Change struct {
	Scenario   string
	Summarizer string
	Trial      int    // 0-based, as in the result; shown from 1
	Generation int    // 0 for a probe
	Check      string // check type or CheckDecisions
	Kind       string // result.KindInvariant, KindStructural or KindDecision
	Name       string // invariant or probe id, or ""
	// Base and New are the outcome's status in each run (New is fail for
	// an outcome missing from the new run).
	Base, New result.Status
	// Message is the new run's message: why it fails now (a regression),
	// why it passes now (a fix), why it is skipped (no longer judged) or
	// what it is now (newly judged).
	Message string
	// File and Line locate the invariant or probe in the scenario file of
	// the new run (Line 0: unknown).
	File string
	Line int
}

// Label is "check/name" or "check".
func (c Change) Label() string {
	if c.Name != "" {
		return c.Check + "/" + c.Name
	}
	return c.Check
}

type pairKey struct {
	scenario, summarizer string
	trial, gen           int
	check, name          string
}

type unitKey struct {
	scenario, summarizer string
	trial                int
}

type outcome struct {
	status result.Status
	kind   string
	msg    string
	file   string
	line   int
}

// evidence is a run flattened for a gate: every outcome by key, with the
// outcomes of a unit that errored (or was abandoned) turned into failures,
// and the units by key with their error ("" when it finished).
type evidence struct {
	outcomes map[pairKey]outcome
	units    map[unitKey]string
	scen     map[string]bool
}

// gateEvidence flattens r for the summarizers of names (renamed to their
// value; nil keeps every summarizer under its own name), skipping excluded
// scenarios.
func gateEvidence(r *result.Result, names map[string]string, exclude map[string]bool) evidence {
	ev := evidence{outcomes: map[pairKey]outcome{}, units: map[unitKey]string{}, scen: map[string]bool{}}
	for _, u := range r.Units {
		if exclude[u.Scenario.ID] {
			continue
		}
		sum := u.Summarizer
		if names != nil {
			n, ok := names[sum]
			if !ok {
				continue
			}
			sum = n
		}
		ev.scen[u.Scenario.ID] = true
		failed := unitFailed(&u)
		ev.units[unitKey{u.Scenario.ID, sum, u.Trial}] = failed
		put := func(k pairKey, o outcome) {
			if failed != "" {
				o.status, o.msg = result.Fail, failed
			}
			o.file = u.Scenario.File
			ev.outcomes[k] = o
		}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				put(pairKey{u.Scenario.ID, sum, u.Trial, g.N, c.Check, c.Invariant}, outcome{status: c.Status, kind: checkKind(c), msg: c.Message, line: c.Pos.Line})
			}
		}
		for _, p := range u.Probes {
			put(pairKey{u.Scenario.ID, sum, u.Trial, 0, result.CheckDecisions, p.ID}, outcome{status: result.DecisionStatus(p.Class), kind: result.KindDecision, msg: probeMessage(p), line: p.Pos.Line})
		}
	}
	return ev
}

// checkKind is the kind of a check result: its own, else the kind its type
// implies.
func checkKind(c result.CheckResult) string {
	switch {
	case c.Kind != "":
		return c.Kind
	case slices.Contains(result.StructuralChecks, c.Check):
		return result.KindStructural
	}
	return result.KindInvariant
}

// unitFailed is why a unit counts as failed for the gates ("" when it
// finished): it errored or was abandoned.
func unitFailed(u *result.Unit) string {
	switch u.Status {
	case result.UnitError:
		msg, _, _ := strings.Cut(u.Error, "\n")
		return "the unit errored: " + msg
	case result.UnitAbandoned:
		return "the unit was abandoned (interrupted)"
	}
	return ""
}

// probeMessage says what a probe's two answers were.
func probeMessage(p result.Probe) string {
	if p.Class == result.ProbeErrored {
		return p.ErrorText()
	}
	return fmt.Sprintf("full: %s · compacted: %s · expected: %s", orDash(p.Full.Choice), orDash(p.Compacted.Choice), orDash(p.Expect))
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// CompareOptions tune CompareWith. The zero value compares summarizers of
// the same name at DefaultAlpha.
type CompareOptions struct {
	// Alpha is the significance level; outside (0, 1) means DefaultAlpha.
	Alpha float64
	// Pairing pairs summarizers whose names differ, and leaves some out on
	// purpose.
	Pairing Pairing
	// MapFlag is the flag that sets Pairing, named in the hints of the
	// verdict; "" means --baseline-map.
	MapFlag string
	// Uncertain is how an uncertain outcome counts, in either run: the
	// zero value as not passed; UncertainSkip leaves every pair where one
	// side is uncertain out of the comparison; UncertainPass counts it as
	// passed.
	Uncertain UncertainAs
	// FailOnUnjudged makes an outcome that passed in the base and is no
	// longer judged (skipped) in the new run fail the comparison; by
	// default it is counted apart and fails nothing.
	FailOnUnjudged bool
	// AcceptChanged lets the comparison hold over scenarios whose meaning
	// changed since the base; by default a changed scenario fails it.
	AcceptChanged bool
}

// CompareMapped is `compact-eval compare [--map ENTRY…] BASE NEW`: base
// and new paired by name and by the --map entries (read by ParsePairing),
// with opts' other options (its Pairing and MapFlag are set here). The
// command and the viewer's diff both call it, so that they pair and count
// alike. The error names --map.
func CompareMapped(base, new *result.Result, entries []string, opts CompareOptions) (*Comparison, error) {
	p, err := ParsePairing(entries, result.Summarizers(base), result.Summarizers(new))
	if err != nil {
		return nil, fmt.Errorf("--map %w", err)
	}
	opts.Pairing, opts.MapFlag = p, "--map"
	return CompareWith(base, new, opts), nil
}

// Compare is CompareWith at alpha, pairing summarizers by name.
func Compare(base, new *result.Result, alpha float64) *Comparison {
	return CompareWith(base, new, CompareOptions{Alpha: alpha})
}

// CompareWith pairs every outcome of base and new by (scenario,
// summarizer, trial, generation, check, invariant or probe) and reports, in
// the manner of benchstat but paired, the pass→fail regressions, the
// fail→pass fixes, and per summarizer × check type the pass-rate delta with
// an interval and a test over scenarios (the unit of independence: a
// scenario's trials and outcomes are summed into one difference), which is
// the exact McNemar test when each scenario holds one pair.
//
// It fails closed. Summarizers are paired by name, or by opts.Pairing; one
// with no counterpart is a failure, as is a comparison with nothing paired.
// An error counts as a miss, and a unit that errored counts as failed as a
// whole: a base pass that errored, was skipped, or is missing from the new
// run is a regression. Base scenarios outside the new run's selection
// (shard, --run, --scenario) are not compared, nor are scenarios whose
// digests differ (listed in Warnings, with differences of harness,
// tokenizer, agent and prompt digests).
func CompareWith(base, new *result.Result, opts CompareOptions) *Comparison {
	alpha := opts.Alpha
	if !(alpha > 0 && alpha < 1) { // NaN too
		alpha = DefaultAlpha
	}
	cmp := &Comparison{Alpha: alpha, Trials: max(1, base.Config.Trials, new.Config.Trials), mapFlag: opts.MapFlag, FailOnUnjudged: opts.FailOnUnjudged,
		AcceptChanged: opts.AcceptChanged}
	if cmp.mapFlag == "" {
		cmp.mapFlag = "--baseline-map"
	}
	baseNames, newNames := cmp.pair(base, new, opts.Pairing)
	cmp.Warnings = mismatches(base, new, cmp.Pairs)
	exclude := map[string]bool{}
	bd, nd := digests(base), digests(new)
	sel := selection(new.Config)
	changed := map[string]bool{}
	for _, id := range slices.Sorted(mapKeys(bd)) {
		d, ok := nd[id]
		switch {
		case ok && !sameScenario(bd[id], d):
			exclude[id], changed[id] = true, true
			cmp.ChangedScenarios = append(cmp.ChangedScenarios, ScenarioChange{ID: id, Base: bd[id].Digest, New: d.Digest, File: d.File})
		case !ok && !sel(id):
			exclude[id] = true
			cmp.OutOfSelection++
		}
	}
	if cmp.OutOfSelection > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%s of the base are outside the new run's selection (%s): not compared",
			plural(cmp.OutOfSelection, "scenario"), describeSelection(new.Config)))
	}
	bo := gateEvidence(base, baseNames, exclude)
	no := gateEvidence(new, newNames, exclude)
	cmp.Changed = changedOutcomes(base, new, baseNames, newNames, changed)
	type rowKey struct{ sum, check string }
	rows := map[rowKey]*DeltaRow{}
	clusters := map[rowKey]*PairClusters{}
	// Each outcome across trials: the trials it was compared in, and those
	// it went pass→fail in.
	type acrossKey struct {
		scenario, summarizer string
		gen                  int
		check, name          string
	}
	type across struct{ compared, regressed int }
	trials := map[acrossKey]*across{}
	// With one trial in the base each outcome is compared once, so every
	// regression went pass→fail in every trial: nothing to count.
	baseTrials := max(1, base.Config.Trials)
	leftUncertain := 0
	for k, b := range bo.outcomes {
		n, ok := no.outcomes[k]
		if ok && opts.Uncertain == UncertainSkip && (b.status == result.Uncertain || n.status == result.Uncertain) {
			cmp.Paired++
			leftUncertain++
			continue
		}
		b.status, n.status = opts.Uncertain.status(b.status), opts.Uncertain.status(n.status)
		if !ok {
			if b.status != result.Pass {
				cmp.Unpaired++
				continue
			}
			cmp.Missing++
			n = outcome{status: result.Fail, kind: b.kind, msg: no.whyMissing(k, new.Config.Trials), file: b.file, line: b.line}
		} else {
			cmp.Paired++
		}
		ch := Change{Scenario: k.scenario, Summarizer: k.summarizer, Trial: k.trial, Generation: k.gen, Check: k.check, Kind: b.kind,
			Name: k.name, Base: b.status, New: n.status, Message: n.msg, File: n.file, Line: n.line}
		bj, nj := judged(b.status), judged(n.status)
		switch {
		case !bj && nj:
			cmp.NewlyJudged = append(cmp.NewlyJudged, ch)
			continue
		case !bj:
			continue // skipped on both sides: nothing to compare
		case !nj:
			cmp.NoLongerJudged = append(cmp.NoLongerJudged, ch)
			continue
		}
		rk := rowKey{k.summarizer, k.check}
		row := rows[rk]
		if row == nil {
			row = &DeltaRow{Summarizer: k.summarizer, Check: k.check}
			rows[rk] = row
			clusters[rk] = &PairClusters{}
		}
		bp, np := b.status == result.Pass, n.status == result.Pass
		clusters[rk].Add(k.scenario, k.trial, bp, np)
		if baseTrials > 1 {
			ak := acrossKey{k.scenario, k.summarizer, k.gen, k.check, k.name}
			a := trials[ak]
			if a == nil {
				a = &across{}
				trials[ak] = a
			}
			a.compared++
			if bp && !np {
				a.regressed++
			}
		}
		row.N++
		if bp {
			row.BasePass++
		}
		if np {
			row.NewPass++
		}
		switch {
		case bp && !np:
			row.B++
			if n.status == result.Uncertain {
				// Not passed: a check that now cannot tell has lost what
				// the base showed kept.
				ch.Message = "now uncertain: " + n.msg
			}
			cmp.Regressions = append(cmp.Regressions, ch)
		case !bp && np:
			row.C++
			cmp.Fixes = append(cmp.Fixes, ch)
		}
	}
	for k := range no.outcomes {
		if _, ok := bo.outcomes[k]; !ok {
			cmp.Unpaired++
		}
	}
	if leftUncertain > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%s uncertain in either run: not compared (--uncertain skip)", plural(leftUncertain, "outcome")))
	}
	if cmp.Missing > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%d outcomes that passed in the base are missing from the new run: counted as regressions", cmp.Missing))
	}
	if cmp.Unpaired > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%d outcomes are in one run only (new scenarios, checks or generations, or base outcomes that did not pass): not compared", cmp.Unpaired))
	}
	order := map[string]int{}
	for i, s := range result.Summarizers(new) {
		order[s] = i
	}
	seen := map[string]bool{}
	for rk, row := range rows {
		for id := range clusters[rk].by {
			seen[id] = true
		}
		t := clusters[rk].Test(alpha)
		row.Delta, row.Low, row.High, row.P = t.Delta, t.Low, t.High, t.P
		row.Scenarios, row.EffectiveN = t.Scenarios, t.EffectivePairs
		row.Significant = row.P < alpha
		cmp.Rows = append(cmp.Rows, *row)
		if cmp.Trials > 1 && row.Significant && row.Delta < 0 {
			cmp.Regressed = true
		}
	}
	cmp.Scenarios = len(seen)
	// An outcome that passed in the base and failed in every trial it was
	// compared in, the base's every trial, is no trial noise: it counts as
	// with one trial, whatever the test over the others says.
	if baseTrials == 1 {
		cmp.Consistent = len(cmp.Regressions)
	}
	for _, a := range trials {
		if a.regressed > 0 && a.compared >= baseTrials && a.regressed == a.compared {
			cmp.Consistent++
		}
	}
	cmp.TrialsIdentical = cmp.Trials > 1 && TrialsIdentical(base, slices.Collect(maps.Keys(baseNames))) && TrialsIdentical(new, slices.Collect(maps.Keys(newNames)))
	sort.Slice(cmp.Rows, func(i, j int) bool {
		a, b := cmp.Rows[i], cmp.Rows[j]
		if a.Summarizer != b.Summarizer {
			return order[a.Summarizer] < order[b.Summarizer]
		}
		return result.LessCheck(a.Check, b.Check)
	})
	sortChanges(cmp.Regressions, order)
	// The regressions a reader must act on first: a decision that went
	// wrong, then an invariant lost, then structure, then failed units.
	slices.SortStableFunc(cmp.Regressions, func(a, b Change) int { return kindRank(a) - kindRank(b) })
	sortChanges(cmp.Fixes, order)
	sortChanges(cmp.NoLongerJudged, order)
	sortChanges(cmp.NewlyJudged, order)
	sortChanges(cmp.Changed, order)
	if len(cmp.ChangedScenarios) > 0 {
		if cmp.AcceptChanged {
			cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%s changed meaning since the base (%s): not compared (--accept-changed)",
				plural(len(cmp.ChangedScenarios), "scenario"), cmp.changedList()))
		} else {
			cmp.Regressed = true
		}
	}
	if cmp.Consistent > 0 {
		cmp.Regressed = true
	}
	if cmp.unjudgedFails() > 0 {
		cmp.Regressed = true
	}
	if len(cmp.UnpairedBase) > 0 || len(cmp.UnpairedNew) > 0 || cmp.NothingPaired() {
		cmp.Regressed = true
	}
	return cmp
}

// judged reports whether a status is a verdict on the outcome (pass, fail,
// error or uncertain) rather than a skip.
func judged(s result.Status) bool { return s != result.Skip && s != "" }

// unjudgedFails counts the base passes no longer judged when FailOnUnjudged
// makes them fail the comparison; 0 otherwise.
func (c *Comparison) unjudgedFails() int {
	if !c.FailOnUnjudged {
		return 0
	}
	n := 0
	for _, ch := range c.NoLongerJudged {
		if ch.Base == result.Pass {
			n++
		}
	}
	return n
}

// ChangeCounts are the figures of a comparison every report shows alike.
type ChangeCounts struct {
	// Regressions are the pass→fail outcomes; Decisions, Invariants,
	// Structural and Units split them by kind (Units: outcomes of a unit
	// that errored or did not run, whatever their kind).
	Regressions, Decisions, Invariants, Structural, Units int
	Fixes                                                 int
	NoLongerJudged, NewlyJudged                           int
	// ChangedScenarios counts the scenarios whose meaning changed.
	ChangedScenarios int
}

// Counts counts the changes of c by kind.
func (c *Comparison) Counts() ChangeCounts {
	n := ChangeCounts{Regressions: len(c.Regressions), Fixes: len(c.Fixes), NoLongerJudged: len(c.NoLongerJudged), NewlyJudged: len(c.NewlyJudged),
		ChangedScenarios: len(c.ChangedScenarios)}
	for _, ch := range c.Regressions {
		switch ch.RegressionKind() {
		case KindUnit:
			n.Units++
		case result.KindDecision:
			n.Decisions++
		case result.KindStructural:
			n.Structural++
		default:
			n.Invariants++
		}
	}
	return n
}

// kindRank orders regressions by kind in the order of every list of
// findings (Severity): failed units, decisions, invariants, structural
// checks.
func kindRank(ch Change) int { return KindSeverity(ch.RegressionKind()) }

// KindUnit is the RegressionKind of a change that is its unit's failure
// (the unit errored, was abandoned or did not run) rather than its own.
const KindUnit = "unit"

// RegressionKind is what a regression is, for ordering and annotating:
// KindUnit when the unit as a whole failed, else the check's kind.
func (ch Change) RegressionKind() string {
	if unitWide(ch.Message) {
		return KindUnit
	}
	if ch.Kind == "" {
		return result.KindInvariant
	}
	return ch.Kind
}

// NewAgainstBaseline is the one line every report gives the comparison:
// "3 regressions (2 decisions, 1 invariant), 12 fixes, 45 no longer
// judged, 0 newly judged".
func (c *Comparison) NewAgainstBaseline() string {
	n := c.Counts()
	reg := plural(n.Regressions, "regression")
	var kinds []string
	for _, k := range []struct {
		n         int
		one, more string
	}{{n.Decisions, "decision", "decisions"}, {n.Invariants, "invariant", "invariants"}, {n.Structural, "structural check", "structural checks"},
		{n.Units, "outcome lost with its unit", "outcomes lost with their units"}} {
		switch {
		case k.n == 1:
			kinds = append(kinds, "1 "+k.one)
		case k.n > 1:
			kinds = append(kinds, fmt.Sprintf("%d %s", k.n, k.more))
		}
	}
	if len(kinds) > 0 {
		reg += " (" + strings.Join(kinds, ", ") + ")"
	}
	fixes := fmt.Sprintf("%d fixes", n.Fixes)
	if n.Fixes == 1 {
		fixes = "1 fix"
	}
	line := fmt.Sprintf("%s, %s, %d no longer judged, %d newly judged", reg, fixes, n.NoLongerJudged, n.NewlyJudged)
	if n.ChangedScenarios > 0 {
		line += ", " + plural(n.ChangedScenarios, "scenario") + " changed"
		if c.AcceptChanged {
			line += " (accepted)"
		}
	}
	return line
}

// whyMissing says why the new run has no outcome for k.
func (ev evidence) whyMissing(k pairKey, trials int) string {
	reason, ran := ev.units[unitKey{k.scenario, k.summarizer, k.trial}]
	switch {
	case reason != "":
		return reason
	case ran:
		return "missing from the new run: the unit finished without this outcome (fewer generations, or the check is gone)"
	case !ev.scen[k.scenario]:
		return "missing from the new run: the scenario did not run"
	case k.trial >= max(trials, 1):
		return fmt.Sprintf("missing from the new run: trial %d did not run (the new run has %s)", k.trial+1, plural(max(trials, 1), "trial"))
	}
	return "missing from the new run: the unit did not run"
}

// pair pairs the summarizers of the two runs by name and by p, and returns
// for each run the names to keep, renamed to the new run's names.
func (c *Comparison) pair(base, new *result.Result, p Pairing) (baseNames, newNames map[string]string) {
	baseNames, newNames = map[string]string{}, map[string]string{}
	bs, ns := result.Summarizers(base), result.Summarizers(new)
	mappedNew := map[string]bool{}
	for _, b := range bs {
		if n, ok := p.Map[b]; ok && slices.Contains(ns, n) {
			mappedNew[n] = true
		}
	}
	for _, n := range ns {
		switch {
		case slices.Contains(p.LeftOutNew, n):
			c.LeftOut = append(c.LeftOut, "new "+n)
		case mappedNew[n]:
			newNames[n] = n
		case slices.Contains(bs, n) && !slices.Contains(p.LeftOutBase, n) && !hasKey(p.Map, n):
			newNames[n] = n
		default:
			c.UnpairedNew = append(c.UnpairedNew, n)
		}
	}
	for _, b := range bs {
		n, mapped := p.Map[b]
		switch {
		case slices.Contains(p.LeftOutBase, b):
			c.LeftOut = append(c.LeftOut, "base "+b)
		case mapped && newNames[n] != "":
			baseNames[b] = n
		case !mapped && newNames[b] != "":
			baseNames[b] = b
		default:
			c.UnpairedBase = append(c.UnpairedBase, b)
		}
	}
	for _, n := range ns {
		for b, to := range baseNames {
			if to == n {
				c.Pairs = append(c.Pairs, SummarizerPair{Base: b, New: n})
			}
		}
	}
	return baseNames, newNames
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// Pairing pairs summarizers whose names differ between two runs (a base
// and a new run), and leaves some out on purpose. The zero value pairs by
// name only.
type Pairing struct {
	// Map pairs a summarizer of the base (key) with one of the new run.
	Map map[string]string
	// LeftOutBase and LeftOutNew are left out of the comparison on purpose.
	LeftOutBase, LeftOutNew []string
}

// ParsePairing reads entries written OLD=NEW (pair OLD of the base with NEW
// of the new run), OLD= (leave OLD of the base out) and =NEW (leave NEW of
// the new run out), checking each name against the summarizers of the two
// runs. A name may itself hold "=": the split that names a summarizer on
// each side is the one taken.
func ParsePairing(entries []string, base, new []string) (Pairing, error) {
	var p Pairing
	usedNew := map[string]bool{}
	for _, e := range entries {
		var splits [][2]string
		for i := range len(e) {
			if e[i] != '=' {
				continue
			}
			o, n := e[:i], e[i+1:]
			if (o == "" && n == "") || (o != "" && !slices.Contains(base, o)) || (n != "" && !slices.Contains(new, n)) {
				continue
			}
			splits = append(splits, [2]string{o, n})
		}
		switch {
		case len(splits) == 0:
			return Pairing{}, fmt.Errorf("%q: want OLD=NEW, with OLD a summarizer of the baseline (%s) and NEW one of this run (%s); OLD= or =NEW leaves one out",
				e, quoteList(base), quoteList(new))
		case len(splits) > 1:
			return Pairing{}, fmt.Errorf("%q is ambiguous: it splits into a baseline and a new name in %d ways; give the summarizers names without '='", e, len(splits))
		}
		o, n := splits[0][0], splits[0][1]
		switch {
		case o == "":
			p.LeftOutNew = append(p.LeftOutNew, n)
		case n == "":
			p.LeftOutBase = append(p.LeftOutBase, o)
		default:
			if _, dup := p.Map[o]; dup {
				return Pairing{}, fmt.Errorf("%q: %s is already paired", e, o)
			}
			if usedNew[n] {
				return Pairing{}, fmt.Errorf("%q: %s is already paired", e, n)
			}
			if p.Map == nil {
				p.Map = map[string]string{}
			}
			p.Map[o], usedNew[n] = n, true
		}
	}
	return p, nil
}

func quoteList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// selection returns whether the run of cfg selected the scenario id: its
// shard, --run pattern and --scenario list.
func selection(cfg result.RunConfig) func(string) bool {
	i, n, sharded := result.ParseShard(cfg.Shard)
	var re *regexp.Regexp
	if cfg.Run != "" {
		re, _ = regexp.Compile(cfg.Run)
	}
	return func(id string) bool {
		if sharded && !result.InShard(id, i, n) {
			return false
		}
		if re != nil && !re.MatchString(id) {
			return false
		}
		return len(cfg.Scenarios) == 0 || slices.Contains(cfg.Scenarios, id)
	}
}

// describeSelection says how cfg selected scenarios.
func describeSelection(cfg result.RunConfig) string {
	var parts []string
	if cfg.Shard != "" {
		parts = append(parts, "shard "+cfg.Shard)
	}
	if cfg.Run != "" {
		parts = append(parts, "--run "+cfg.Run)
	}
	if len(cfg.Scenarios) > 0 {
		parts = append(parts, "--scenario "+strings.Join(cfg.Scenarios, ","))
	}
	if len(parts) == 0 {
		return "every scenario of its paths"
	}
	return strings.Join(parts, ", ")
}

func sortChanges(cs []Change, order map[string]int) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		switch {
		case a.Scenario != b.Scenario:
			return a.Scenario < b.Scenario
		case a.Summarizer != b.Summarizer:
			return order[a.Summarizer] < order[b.Summarizer]
		case a.Trial != b.Trial:
			return a.Trial < b.Trial
		case a.Generation != b.Generation:
			return a.Generation < b.Generation
		case a.Check != b.Check:
			return result.LessCheck(a.Check, b.Check)
		}
		return a.Name < b.Name
	})
}

func digests(r *result.Result) map[string]result.ScenarioRef {
	m := map[string]result.ScenarioRef{}
	for _, u := range r.Units {
		m[u.Scenario.ID] = u.Scenario
	}
	return m
}

// sameScenario reports whether base and new are the same scenario: the
// same digest of meaning, so that comments and formatting never unpair. A
// base written before meaning digests (no file digest) holds the digest of
// the file's bytes: it is compared with the new run's file digest, so an
// old baseline still pairs with an unchanged file (and nothing else).
func sameScenario(base, new result.ScenarioRef) bool {
	if base.FileDigest == "" && new.FileDigest != "" {
		return base.Digest == new.FileDigest
	}
	return base.Digest == new.Digest
}

// changedOutcomes lists the outcomes of the changed scenarios whose
// status differs between the runs (an outcome in one run only included,
// its other side empty), so that a changed scenario's results stay in
// sight though they are not paired into regressions.
func changedOutcomes(base, new *result.Result, baseNames, newNames map[string]string, changed map[string]bool) []Change {
	if len(changed) == 0 {
		return nil
	}
	only := map[string]bool{}
	for _, u := range base.Units {
		if !changed[u.Scenario.ID] {
			only[u.Scenario.ID] = true
		}
	}
	for _, u := range new.Units {
		if !changed[u.Scenario.ID] {
			only[u.Scenario.ID] = true
		}
	}
	bo := gateEvidence(base, baseNames, only)
	no := gateEvidence(new, newNames, only)
	var out []Change
	add := func(k pairKey, b, n outcome) {
		if b.status == n.status {
			return
		}
		o := n
		if o.kind == "" {
			o = b
		}
		out = append(out, Change{Scenario: k.scenario, Summarizer: k.summarizer, Trial: k.trial, Generation: k.gen, Check: k.check, Kind: o.kind,
			Name: k.name, Base: b.status, New: n.status, Message: o.msg, File: n.file, Line: n.line})
	}
	for k, b := range bo.outcomes {
		add(k, b, no.outcomes[k])
	}
	for k, n := range no.outcomes {
		if _, ok := bo.outcomes[k]; !ok {
			add(k, outcome{}, n)
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func short(d string) string {
	if i := strings.IndexByte(d, ':'); i >= 0 && len(d) > i+13 {
		return d[:i+13]
	}
	return d
}

// mismatches lists differences of the two runs' setups, for the
// summarizers paired.
func mismatches(base, new *result.Result, pairs []SummarizerPair) []string {
	var w []string
	if base.Harness != new.Harness {
		w = append(w, fmt.Sprintf("harness differs: base %s, new %s", base.Harness, new.Harness))
	}
	if base.Config.Tokenizer != new.Config.Tokenizer {
		w = append(w, fmt.Sprintf("tokenizer differs: base %s, new %s", base.Config.Tokenizer, new.Config.Tokenizer))
	}
	if base.Config.Agent != new.Config.Agent {
		w = append(w, fmt.Sprintf("agent differs: base %s, new %s", base.Config.Agent, new.Config.Agent))
	}
	if bt, nt := max(1, base.Config.Trials), max(1, new.Config.Trials); bt != nt {
		w = append(w, fmt.Sprintf("trials differ: base %d, new %d", bt, nt))
	}
	// A judge, and above all --judge-gate, changes statuses: a gated run's
	// extra fails would otherwise read as plain regressions.
	if base.Config.Judge != new.Config.Judge || base.Config.JudgeGate != new.Config.JudgeGate {
		w = append(w, fmt.Sprintf("judge differs: base %s, new %s", judgeText(base.Config), judgeText(new.Config)))
	}
	if base.Config.AgentSeed != new.Config.AgentSeed || max(1, base.Config.AgentSamples) != max(1, new.Config.AgentSamples) {
		w = append(w, fmt.Sprintf("agent sampling differs: base seed %d × %d samples, new seed %d × %d samples",
			base.Config.AgentSeed, max(1, base.Config.AgentSamples), new.Config.AgentSeed, max(1, new.Config.AgentSamples)))
	}
	bp, np := prompts(base), prompts(new)
	for _, p := range pairs {
		b, okb := bp[p.Base]
		n, okn := np[p.New]
		if okb && okn && b != n {
			name := p.New
			if p.Base != p.New {
				name = p.Base + " → " + p.New
			}
			w = append(w, fmt.Sprintf("summarizer %s changed spec, model or prompt: base %s, new %s", name, b, n))
		}
	}
	return w
}

// judgeText names a run's judge and gate for a warning.
func judgeText(c result.RunConfig) string {
	switch {
	case c.Judge == "":
		return "none"
	case c.JudgeGate:
		return c.Judge + " with --judge-gate"
	}
	return c.Judge
}

// prompts maps each summarizer name to what it really ran: the spec, model
// and prompt digest of its calls. A config file can give one name to two
// different summarizers in two runs; comparing them must not be silent.
func prompts(r *result.Result) map[string]string {
	m := map[string]string{}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			if g.Call.Spec != "" || g.Call.Model != "" || g.Call.PromptDigest != "" {
				m[u.Summarizer] = strings.Join(strings.Fields(g.Call.Spec+" "+g.Call.Model+" "+g.Call.PromptDigest), " ")
			}
		}
	}
	return m
}

// maxListed bounds the regressions and fixes the text lists.
const maxListed = 50

// WriteText writes the comparison as aligned text for a terminal.
func (c *Comparison) WriteText(w io.Writer) error {
	for _, p := range c.Pairs {
		if p.Base != p.New {
			fmt.Fprintf(w, "paired: base %s with new %s\n", p.Base, p.New)
		}
	}
	for _, l := range c.LeftOut {
		fmt.Fprintf(w, "left out on purpose: %s\n", l)
	}
	if c.TrialsIdentical {
		fmt.Fprintln(w, TrialsIdenticalLine(c.Trials))
	}
	if len(c.Rows) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "summarizer\tcheck\tbase\tnew\tdelta\t%s\tp\tscenarios\n", intervalLabel(c.Alpha))
		for _, r := range c.Rows {
			delta := fmt.Sprintf("%+.1f%%", 100*r.Delta)
			if !r.Significant {
				delta = "~"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t[%+.1f%%, %+.1f%%]\tp%s\t%d\n",
				r.Summarizer, r.Check, pct(r.BasePass, r.N), pct(r.NewPass, r.N), delta, 100*r.Low, 100*r.High, pValue(r.P), r.Scenarios)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	list := func(title string, cs []Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s: %d\n", title, len(cs))
		for _, l := range ChangeLines(cs, maxListed) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if !c.NothingPaired() {
		fmt.Fprintf(w, "\nnew against the baseline: %s\n", c.NewAgainstBaseline())
	}
	list("regressions (pass→fail)", c.Regressions)
	list("fixes (fail→pass)", c.Fixes)
	list("no longer judged (judged in the base, skipped now)", c.NoLongerJudged)
	list("newly judged (skipped in the base, judged now)", c.NewlyJudged)
	if len(c.ChangedScenarios) > 0 {
		fmt.Fprintf(w, "\nscenarios whose meaning changed (not compared): %s\n", c.changedList())
	}
	list("outcomes of the changed scenarios (base → new, not compared)", c.Changed)
	if len(c.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings:\n")
		for _, s := range c.Warnings {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if p := c.Problems(); len(p) > 1 || c.Hint() != "" {
		fmt.Fprintf(w, "\nwhy it fails:\n")
		for _, s := range p {
			fmt.Fprintf(w, "  %s\n", s)
		}
		if h := c.Hint(); h != "" {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", c.Verdict())
	return err
}

// ChangeLines renders changes one line each, "scenario  summarizer  trial
// N  g2  check/name: message", at most max lines then "… and N more". The
// changes of one unit that all share the unit's reason (it errored, or did
// not run) take one line, which names the outcomes they were.
func ChangeLines(cs []Change, max int) []string {
	var out []string
	for i := 0; i < len(cs); {
		if len(out) == max {
			out = append(out, fmt.Sprintf("… and %d more", len(cs)-i))
			break
		}
		ch := cs[i]
		j := i + 1
		if unitWide(ch.Message) {
			for j < len(cs) && cs[j].Scenario == ch.Scenario && cs[j].Summarizer == ch.Summarizer && cs[j].Trial == ch.Trial && cs[j].Message == ch.Message {
				j++
			}
		}
		if j-i == 1 {
			out = append(out, fmt.Sprintf("%s  %s  trial %d  %s  %s: %s", ch.Scenario, ch.Summarizer, ch.Trial+1, ch.Where(), ch.Label(), ch.Message))
		} else {
			var labels []string
			for _, c := range cs[i:min(j, i+3)] {
				labels = append(labels, c.Label())
			}
			more := ""
			if j-i > 3 {
				more = fmt.Sprintf(" and %d more", j-i-3)
			}
			out = append(out, fmt.Sprintf("%s  %s  trial %d: %s (%d outcomes: %s%s)", ch.Scenario, ch.Summarizer, ch.Trial+1, ch.Message, j-i, strings.Join(labels, ", "), more))
		}
		i = j
	}
	return out
}

// unitWide reports whether a change's message is its unit's reason rather
// than its own outcome's.
func unitWide(msg string) bool {
	return strings.HasPrefix(msg, "the unit ") || strings.HasPrefix(msg, "missing from the new run: the ")
}

// Where is the generation of a change ("g2"), or "probe".
func (c Change) Where() string {
	if c.Generation > 0 {
		return fmt.Sprintf("g%d", c.Generation)
	}
	return "probe"
}

// Problems lists why the comparison fails, one sentence each, the most
// basic first: summarizers without a counterpart (with how to pair them),
// nothing paired at all, then the pass→fail regressions (one trial) or the
// significant drops (several). It is empty when the comparison holds.
func (c *Comparison) Problems() []string {
	var out []string
	for _, n := range c.UnpairedNew {
		out = append(out, fmt.Sprintf("summarizer %q of the new run has no counterpart in the base (base: %s)", n, quoteList(c.baseNames())))
	}
	for _, b := range c.UnpairedBase {
		out = append(out, fmt.Sprintf("summarizer %q of the base has no counterpart in the new run", b))
	}
	if len(c.ChangedScenarios) > 0 && !c.AcceptChanged {
		out = append(out, fmt.Sprintf("%s changed meaning since the base (%s): %s not compared; review them and give --accept-changed, or move the baseline forward",
			plural(len(c.ChangedScenarios), "scenario"), c.changedList(), map[bool]string{true: "its outcomes are", false: "their outcomes are"}[len(c.ChangedScenarios) == 1]))
	}
	if c.NothingPaired() {
		why := "no outcome is in both runs"
		switch {
		case len(c.Pairs) == 0:
			why = "the runs share no summarizer"
		case len(c.ChangedScenarios) > 0:
			why = "every scenario the runs share changed meaning"
		case c.Missing > 0:
			why = "the runs share no scenario"
		}
		out = append(out, "nothing paired: "+why+", so nothing was compared")
	}
	switch {
	case c.Trials <= 1 && len(c.Regressions) > 0:
		out = append(out, fmt.Sprintf("%s went pass→fail (%s; 1 trial: any pass→fail counts)", plural(len(c.Regressions), "outcome"), c.regressionKinds()))
	case c.Trials > 1:
		if c.Consistent > 0 {
			why := "an outcome lost in every trial is no trial noise"
			if c.TrialsIdentical {
				why = "trials identical: any pass→fail counts, as with one trial"
			}
			out = append(out, fmt.Sprintf("%s went pass→fail in every trial (%s)", plural(c.Consistent, "outcome"), why))
		}
		var drops []string
		for _, r := range c.Rows {
			if r.Significant && r.Delta < 0 {
				drops = append(drops, fmt.Sprintf("%s %s (p%s over %s)", r.Summarizer, r.Check, pValue(r.P), plural(r.Scenarios, "scenario")))
			}
		}
		if len(drops) > 0 {
			out = append(out, fmt.Sprintf("significant drop (α=%g, scenarios as the unit) in %s", c.Alpha, strings.Join(drops, ", ")))
		}
	}
	if n := c.unjudgedFails(); n > 0 {
		out = append(out, fmt.Sprintf("%s that passed in the base %s no longer judged (--fail-on-unjudged)", plural(n, "outcome"), map[bool]string{true: "is", false: "are"}[n == 1]))
	}
	return out
}

// changedList names the changed scenarios with their digests, at most
// five.
func (c *Comparison) changedList() string {
	var parts []string
	for i, sc := range c.ChangedScenarios {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(c.ChangedScenarios)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", sc.ID, short(sc.Base), short(sc.New)))
	}
	return strings.Join(parts, ", ")
}

// regressionKinds is "2 decisions, 1 invariant": the regressions by kind.
func (c *Comparison) regressionKinds() string {
	s := c.NewAgainstBaseline()
	if i := strings.Index(s, " ("); i >= 0 {
		if j := strings.Index(s[i:], ")"); j >= 0 {
			return s[i+2 : i+j]
		}
	}
	return ""
}

// Hint says how to pair summarizers without a counterpart; "" when every
// summarizer is paired.
func (c *Comparison) Hint() string {
	if len(c.UnpairedBase)+len(c.UnpairedNew) == 0 {
		return ""
	}
	return fmt.Sprintf("pair summarizers by a stable name (--summarizer NAME=SPEC, or name: in the config file) or map them with %s OLD=NEW (OLD= or =NEW leaves one out on purpose)", c.mapFlag)
}

func (c *Comparison) baseNames() []string {
	var out []string
	for _, p := range c.Pairs {
		out = append(out, p.Base)
	}
	return append(out, c.UnpairedBase...)
}

// Verdict is one line: "REGRESSION: …" when outcomes regressed, "FAIL: …"
// when summarizers could not be paired or nothing was, else "no
// regression: …".
func (c *Comparison) Verdict() string {
	p := c.Problems()
	if len(p) > 0 {
		prefix := "FAIL: "
		if len(c.UnpairedBase)+len(c.UnpairedNew) == 0 && !c.NothingPaired() && !strings.Contains(p[0], "changed meaning since the base") {
			prefix = "REGRESSION: "
		}
		if len(p) > 1 {
			return fmt.Sprintf("%s%s (and %d more)", prefix, p[0], len(p)-1)
		}
		return prefix + p[0]
	}
	if c.Trials > 1 {
		return fmt.Sprintf("no regression: no outcome lost in every trial and no significant drop at α=%g over %d pairs in %s (%d pass→fail, %d fail→pass, %d no longer judged, %d newly judged)",
			c.Alpha, c.Paired, plural(c.Scenarios, "scenario"), len(c.Regressions), len(c.Fixes), len(c.NoLongerJudged), len(c.NewlyJudged))
	}
	return fmt.Sprintf("no regression: no pass→fail over %d pairs (%d fail→pass, %d no longer judged, %d newly judged)", c.Paired, len(c.Fixes), len(c.NoLongerJudged), len(c.NewlyJudged))
}

func pct(a, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(a)/float64(n), a, n)
}
