package reports

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/didyoumean"
	"github.com/compact-eval/compact-eval/result"
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
			return fmt.Errorf("min-pass: unknown check type %q%s (valid: %s)", k,
				didyoumean.Suffix(k, GateKeys(), strconv.Quote), strings.Join(GateKeys(), ", "))
		}
		v = strings.TrimSpace(v)
		scale := 1.0
		if p, ok := strings.CutSuffix(v, "%"); ok {
			v, scale = p, 100
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("min-pass %s: %q is not a finite number", k, v)
		}
		f /= scale
		if !(f >= 0 && f <= 1) {
			return fmt.Errorf("min-pass %s: rate %s is outside [0, 1] (write 0.9 or 90%%)", k, v)
		}
		m.Rates[k] = f
	}
	return nil
}

func validGateKey(k string) bool { return slices.Contains(GateKeys(), k) }

// GateKeys are the keys a min-pass gate takes, in the order messages list
// them: all, the kinds, decisions, the structural checks and the invariant
// types.
func GateKeys() []string {
	return slices.Concat([]string{"all", result.KindInvariant, result.KindStructural, result.CheckDecisions, result.CheckRecall},
		result.StructuralChecks, result.InvariantTypes)
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

// UncertainAs is how the gates count an uncertain outcome (a check that
// could not tell: result.Uncertain), as --uncertain and gates.uncertain
// give it. The zero value is UncertainMiss. It implements flag.Value.
type UncertainAs string

// The ways of counting an uncertain outcome.
const (
	// UncertainMiss (the default): not passed. It stays in a --min-pass
	// rate's denominator, and a baseline pass that is now uncertain is a
	// regression.
	UncertainMiss UncertainAs = "miss"
	// UncertainSkip: left out, as a skipped outcome is: out of the
	// --min-pass rate (a check type with only uncertain outcomes then has
	// nothing to judge), and not compared with the baseline. The gate
	// lines say how many were left out.
	UncertainSkip UncertainAs = "skip"
	// UncertainPass: counted as passed, for a suite whose doubts a person
	// has reviewed. The gate lines say how many were counted so.
	UncertainPass UncertainAs = "pass"
)

// UncertainValues lists the valid values of UncertainAs, default first.
var UncertainValues = []UncertainAs{UncertainMiss, UncertainSkip, UncertainPass}

// ParseUncertainAs reads miss, skip or pass.
func ParseUncertainAs(s string) (UncertainAs, error) {
	var u UncertainAs
	err := u.Set(s)
	return u, err
}

// Set reads miss, skip or pass.
func (u *UncertainAs) Set(s string) error {
	if slices.Contains(UncertainValues, UncertainAs(s)) {
		*u = UncertainAs(s)
		return nil
	}
	return fmt.Errorf("%q: want miss (count it as not passed, the default), skip (leave it out) or pass (count it as passed)", s)
}

// String is u's value; "miss" for the zero value.
func (u *UncertainAs) String() string {
	if u == nil || *u == "" {
		return string(UncertainMiss)
	}
	return string(*u)
}

// status maps an outcome's status under u: an uncertain one becomes
// Pass under UncertainPass and Skip under UncertainSkip; every other status
// is kept.
func (u UncertainAs) status(s result.Status) result.Status {
	if s != result.Uncertain {
		return s
	}
	switch u {
	case UncertainPass:
		return result.Pass
	case UncertainSkip:
		return result.Skip
	}
	return s
}

// GateReport is the verdict of the gates of a run.
type GateReport struct {
	// Failed is true when any gate failed; the exit code is then 1.
	Failed bool
	// Lines are the verdict lines, "FAIL …" (each followed by its detail
	// lines, indented, and "hint …" lines) before "ok …", then "note …"
	// and "warn …".
	Lines []string
	// Comparison is the baseline comparison; nil without a baseline.
	Comparison *Comparison
	// Gated names the gates applied ("min-pass constraint=1",
	// "baseline"); NotGated the gates not applied, each with why
	// ("baseline (none given)"). A caller that knows more (a baseline
	// this run creates) may say it instead.
	Gated, NotGated []string
	// Deciding is what made a gate fail: the outcomes an annotation
	// marks as errors. Its zero value: nothing failed.
	Deciding Deciding
}

// Deciding says which outcomes decided a failing gate.
type Deciding struct {
	// Rates holds RateKey(summarizer, check) of every min-pass rate that
	// failed: its misses decided, and so did the summarizer's units that
	// errored, which count against every rate.
	Rates map[string]bool
	// Baseline is set when the baseline gate failed: the comparison's
	// regressions decided.
	Baseline bool
	// Evidence is set when the result failed for want of evidence (no
	// unit finished, or it is partial): its units' errors decided.
	Evidence bool
	// UncertainMisses is set when the rates counted an uncertain outcome
	// as a miss (UncertainMiss): then it decided too.
	UncertainMisses bool
}

// RateKey is the key of a summarizer × check type in Deciding.Rates.
func RateKey(summarizer, check string) string { return summarizer + "\x00" + check }

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

// Held is what a gate report that did not fail says held: "every gate
// holds (min-pass constraint=1, baseline)" when every gate was applied,
// else the gates that held and those not applied ("min-pass constraint=1
// holds; not gated: baseline (none given)"), or "no gate was applied".
func (g *GateReport) Held() string {
	switch {
	case len(g.Gated) == 0:
		return "no gate was applied"
	case len(g.NotGated) == 0:
		return "every gate holds (" + strings.Join(g.Gated, ", ") + ")"
	}
	verb := " holds"
	if len(g.Gated) > 1 {
		verb = " hold"
	}
	return strings.Join(g.Gated, ", ") + verb + "; not gated: " + strings.Join(g.NotGated, ", ")
}

// GateOptions are the gates asked for. The zero value asks for none.
type GateOptions struct {
	// MinPass are the minimum pass rates per summarizer × check type.
	MinPass MinPass
	// Baseline, when not nil, is a saved result the run must not regress
	// against; Pairing pairs its summarizers with the run's when names
	// differ, and Alpha is the significance level with several trials
	// (outside (0, 1): DefaultAlpha).
	Baseline *result.Result
	Pairing  Pairing
	Alpha    float64
	// AllowEmpty lets a gate hold with nothing to judge (no outcome of a
	// check type for a summarizer); by default that fails.
	AllowEmpty bool
	// Uncertain is how both gates count an uncertain outcome; the zero
	// value counts it as a miss.
	Uncertain UncertainAs
	// FailOnUnjudged makes a baseline pass that the run no longer judges
	// (skipped) fail the baseline gate; by default it is counted apart.
	FailOnUnjudged bool
	// AcceptChanged lets the baseline gate hold over scenarios whose
	// meaning changed since the baseline (CompareOptions.AcceptChanged).
	AcceptChanged bool
	// AllowUnjudged lets the baseline gate hold for a summarizer the run
	// no longer gives the evidence the baseline had (see MinJudgedShare);
	// by default that fails.
	AllowUnjudged bool
	// MinJudgedShare is the least share of the outcomes the baseline
	// judged for a summarizer that the run must still judge; outside
	// (0, 1]: DefaultMinJudgedShare.
	MinJudgedShare float64
	// Plans are the plans of the run's scenarios derived from the
	// scenarios themselves, by digest (the gate command reads the files
	// and the built-in suite it can): they are checked against the plans
	// the result records, and stand in for them in a result written
	// before plans were recorded. nil: the recorded plans alone.
	Plans map[string]*result.Plan
	// JudgeGate is --judge-gate: the gate reads the judge's verdicts, and
	// fails when the judge judged nothing or left more than
	// JudgeMaxMissing of its judgements without a verdict. The same check
	// applies whenever the result's judge settled or overrode an outcome
	// (or the result was run with the judge gate) and another gate is
	// asked.
	JudgeGate bool
}

// GateDetail is the prefix of a detail line under a FAIL line: a
// regression of the baseline gate.
const GateDetail = "       "

// Asked reports whether o asks for any gate.
func (o GateOptions) Asked() bool {
	return len(o.MinPass.Rates) > 0 || o.Baseline != nil || o.JudgeGate
}

// Gate applies the gates of opts to r. Gates fail closed: a gate needs
// evidence.
//
//   - A result where no unit finished, or that is partial (interrupted, or
//     merged with shards missing), fails.
//   - min-pass: per summarizer × check type, the rate is pass / (pass +
//     fail + uncertain + error + lost) (opts.Uncertain may count uncertain
//     outcomes as skipped or passed instead), where lost counts the outcomes of the units
//     that errored (or were abandoned): such a unit counts as failed as a
//     whole, for every check type the scenario has (as the units of the same
//     scenario that finished show; one outcome per check type when none
//     did). A check type the gate covers with no outcome to judge for a
//     summarizer (never run, or every outcome skipped) fails, unless
//     AllowEmpty; so does a key that names no check of the run. The control
//     arm (builtin:none, which never writes a summary) is gated on
//     decisions only.
//   - judge (opts.JudgeGate, or a judge that decided outcomes): a judge
//     whose verdicts are mostly missing in the run (more than
//     JudgeMaxMissing) settles nothing: the gate fails, saying how many.
//   - baseline: CompareWith, which pairs summarizers by name or
//     opts.Pairing, fails on a summarizer without a counterpart or on
//     nothing paired, and counts base passes that errored, were skipped or
//     are missing as regressions.
func Gate(r *result.Result, opts GateOptions) GateReport {
	var g GateReport
	var fails, oks, notes []string
	if r.Interrupted {
		fails = append(fails, "FAIL evidence: the run was interrupted: the result is partial (resume it first)")
	}
	finished := 0
	for i := range r.Units {
		if unitFailed(&r.Units[i]) == "" {
			finished++
		}
	}
	switch {
	case len(r.Units) == 0:
		fails = append(fails, "FAIL evidence: the result has no unit: nothing was evaluated")
	case finished == 0:
		fails = append(fails, fmt.Sprintf("FAIL evidence: every unit errored (%d): nothing was evaluated", len(r.Units)))
	}
	if len(r.MissingShards) > 0 {
		fails = append(fails, fmt.Sprintf("FAIL evidence: the merged result lacks shard %s: the result is partial", strings.Join(r.MissingShards, ", ")))
	}
	g.Deciding.Evidence = len(fails) > 0
	// Every gate reads the outcomes: a result with fewer than its plan
	// fails, whatever --allow-empty says.
	plan := checkPlan(r, opts.Plans, opts.Baseline)
	fails = append(fails, plan.fails...)
	if len(opts.MinPass.Rates) > 0 {
		f, o, n, failed := minPassGate(r, opts.MinPass, opts.AllowEmpty, opts.Uncertain, plan.unplanned)
		fails, oks, notes = append(fails, f...), append(oks, o...), append(notes, n...)
		g.Deciding.Rates, g.Deciding.UncertainMisses = failed, opts.Uncertain.status(result.Uncertain) == result.Uncertain
		g.Gated = append(g.Gated, "min-pass "+opts.MinPass.String())
	} else {
		g.NotGated = append(g.NotGated, "min-pass (no rate asked)")
	}
	if f, o, n := judgeGate(r, opts); len(f)+len(o)+len(n) > 0 {
		fails, oks, notes = append(fails, f...), append(oks, o...), append(notes, n...)
		g.Gated = append(g.Gated, "judge")
	}
	if opts.Baseline != nil {
		c := CompareWith(opts.Baseline, r, CompareOptions{Alpha: opts.Alpha, Pairing: opts.Pairing, Uncertain: opts.Uncertain, FailOnUnjudged: opts.FailOnUnjudged,
			AcceptChanged: opts.AcceptChanged})
		g.Comparison = c
		g.Gated = append(g.Gated, "baseline")
		share := opts.MinJudgedShare
		if !(share > 0 && share <= 1) {
			share = DefaultMinJudgedShare
		}
		uf, un := unjudgedGate(c, checkKinds(opts.Baseline, r), share, opts.AllowUnjudged)
		if p := c.Problems(); len(p) > 0 {
			g.Deciding.Baseline = true
			for _, s := range p {
				fails = append(fails, "FAIL baseline: "+s)
			}
			if h := c.Hint(); h != "" {
				fails = append(fails, "hint baseline: "+h)
			}
			if c.Trials <= 1 {
				for _, l := range ChangeLines(c.Regressions, 20) {
					fails = append(fails, GateDetail+l)
				}
			}
		} else if len(uf) == 0 {
			oks = append(oks, "ok   baseline: "+c.Verdict())
		}
		// No green on no evidence: after what regressed, what is no
		// longer judged.
		fails, notes = append(fails, uf...), append(notes, un...)
		notes = append(notes, "note baseline: new against the baseline: "+c.NewAgainstBaseline())
		for _, l := range c.LeftOut {
			notes = append(notes, "note baseline: left out on purpose: "+l)
		}
		for _, w := range c.Warnings {
			notes = append(notes, "warn baseline: "+w)
		}
	} else {
		g.NotGated = append(g.NotGated, "baseline (none given)")
	}
	g.Failed = len(fails) > 0
	g.Lines = slices.Concat(fails, oks, notes)
	return g
}

// gateTally counts the outcomes of one summarizer × check type for the
// min-pass gate.
type gateTally struct {
	pass, fail, errs, skip int
	// uncertain counts the outcomes a check could not tell: not passed.
	uncertain int
	// recounted counts the uncertain outcomes --uncertain counted as
	// passed or skipped (already in pass or skip).
	recounted int
	// lost counts the outcomes of failed units, and units how many
	// units they are.
	lost, units int
}

func (t gateTally) n() int { return t.pass + t.fail + t.uncertain + t.errs + t.lost }

// minPassGate applies the minimum pass rates of m to r (see Gate); failed
// holds the RateKey of every rate that failed. unplanned are the scenarios
// with no plan to read: allowEmpty then accepts a check type with every
// outcome skipped (the checks ran and had nothing to judge), never one
// with no outcome at all, which could be outcomes deleted.
func minPassGate(r *result.Result, m MinPass, allowEmpty bool, uncertain UncertainAs, unplanned []string) (fails, oks, notes []string, failed map[string]bool) {
	failed = map[string]bool{}
	refuse := ""
	if allowEmpty && len(unplanned) > 0 {
		refuse = fmt.Sprintf("; --allow-empty cannot accept it: %s no plan to read (written before plans were recorded, and %s not at hand to derive one), so no outcome could be outcomes deleted",
			plural(len(unplanned), "scenario")+map[bool]string{true: " has", false: " have"}[len(unplanned) == 1],
			map[bool]string{true: "its file is", false: "their files are"}[len(unplanned) == 1])
	}
	tallies, kinds := tallyOutcomes(r, uncertain)
	sums := result.Summarizers(r)
	controls := controlArms(r)
	types := slices.Collect(mapKeys(kinds))
	sort.Slice(types, func(i, j int) bool { return result.LessCheck(types[i], types[j]) })
	// Every key must cover at least one check type of the run.
	for _, k := range slices.Sorted(mapKeys(m.Rates)) {
		covered := slices.ContainsFunc(types, func(c string) bool {
			return k == "all" && c != result.CheckRecall || k == c || k == kinds[c] || (k == result.CheckDecisions && c == result.CheckDecisions)
		})
		if !covered {
			line := fmt.Sprintf("min-pass %s: nothing to judge: the run has no %s outcome", k, k)
			if allowEmpty && refuse != "" {
				fails = append(fails, "FAIL "+line+refuse)
			} else if allowEmpty {
				notes = append(notes, "note "+line+" (allowed by --allow-empty)")
			} else {
				fails = append(fails, "FAIL "+line)
			}
		}
	}
	held, control, recounted := 0, false, 0
	for _, s := range sums {
		for _, c := range types {
			t, ok := m.Threshold(c, kinds[c])
			if c == result.CheckRecall {
				// only an explicit recall=… gates the recall arm: "all"
				// keeps its meaning with or without --recall
				t, ok = m.Rates[c]
			}
			if !ok {
				continue
			}
			if controls[s] && kinds[c] != result.KindDecision {
				control = true
				continue
			}
			tl := tallies[s][c]
			recounted += tl.recounted
			n := tl.n()
			switch {
			case n == 0 && allowEmpty && refuse != "" && tl.skip == 0:
				fails = append(fails, fmt.Sprintf("FAIL min-pass: %s %s: nothing to judge (no outcome)%s", s, c, refuse))
			case n == 0 && allowEmpty:
				notes = append(notes, fmt.Sprintf("note min-pass: %s %s: nothing to judge (allowed by --allow-empty)", s, c))
			case n == 0:
				why := "no outcome"
				switch {
				case tl.recounted > 0:
					why = fmt.Sprintf("%d uncertain left out by --uncertain skip, %d skipped", tl.recounted, tl.skip-tl.recounted)
				case tl.skip == 1:
					why = "its 1 outcome was skipped"
				case tl.skip > 1:
					why = fmt.Sprintf("all %d outcomes were skipped", tl.skip)
				}
				fails = append(fails, fmt.Sprintf("FAIL min-pass: %s %s: nothing to judge (%s; --allow-empty accepts this)", s, c, why))
			case !(float64(tl.pass)/float64(n) >= t): // NaN, a library caller's, fails too
				fails = append(fails, fmt.Sprintf("FAIL min-pass: %s %s %s < %s%s", s, c, pct(tl.pass, n), pctf(t), tl.misses(c)))
				failed[RateKey(s, c)] = true
			default:
				held++
			}
		}
	}
	if held == 0 && len(fails) == 0 && !allowEmpty {
		fails = append(fails, fmt.Sprintf("FAIL min-pass %s: nothing to judge: no summarizer has an outcome the gate covers", m.String()))
		return fails, oks, notes, failed
	}
	// A gate that failed prints no "ok" line of its own: the rates that
	// held are a note beside its failures.
	switch {
	case len(fails) > 0 && held > 0:
		notes = append(notes, fmt.Sprintf("note min-pass %s: %d summarizer × check type rates hold", m.String(), held))
	case len(fails) == 0:
		oks = append(oks, fmt.Sprintf("ok   min-pass %s: %d summarizer × check type rates hold", m.String(), held))
	}
	if control {
		notes = append(notes, "note min-pass: builtin:none is the control arm (it never writes a summary): gated on decisions only")
	}
	switch {
	case recounted > 0 && uncertain == UncertainPass:
		notes = append(notes, fmt.Sprintf("note min-pass: %s counted as passed (--uncertain pass)", plural(recounted, "uncertain outcome")))
	case recounted > 0 && uncertain == UncertainSkip:
		notes = append(notes, fmt.Sprintf("note min-pass: %s left out of the rates (--uncertain skip)", plural(recounted, "uncertain outcome")))
	}
	return fails, oks, notes, failed
}

// misses explains what counted as misses besides failures.
func (t gateTally) misses(check string) string {
	var parts []string
	if t.uncertain > 0 {
		parts = append(parts, fmt.Sprintf("%d uncertain", t.uncertain))
	}
	if t.lost > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s that errored", plural(t.lost, "outcome"), plural(t.units, "unit")))
	}
	switch {
	case t.errs > 0 && check == result.CheckRecall:
		parts = append(parts, plural(t.errs, "probe")+" whose recall arm failed")
	case t.errs == 1 && check == result.CheckDecisions:
		parts = append(parts, "1 probe whose agent call failed")
	case t.errs > 1 && check == result.CheckDecisions:
		parts = append(parts, fmt.Sprintf("%d probes whose agent call failed", t.errs))
	case t.errs > 0:
		parts = append(parts, plural(t.errs, "check error"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (counted as misses: " + strings.Join(parts, ", ") + ")"
}

// tallyOutcomes counts the outcomes of r per summarizer and check type for
// the min-pass gate, and returns the kind of every check type seen. A unit
// that errored or was abandoned counts as failed: its outcomes, at least as
// many per check type as the most any finished unit of its scenario has
// (one per check type of the run when none finished), are lost.
func tallyOutcomes(r *result.Result, uncertain UncertainAs) (map[string]map[string]gateTally, map[string]string) {
	kinds := map[string]string{}
	count := func(u *result.Unit) map[string]map[result.Status]int {
		m := map[string]map[result.Status]int{}
		add := func(check, kind string, s result.Status) {
			if m[check] == nil {
				m[check] = map[result.Status]int{}
			}
			m[check][s]++
			if kinds[check] == "" {
				kinds[check] = kind
			}
		}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				add(c.Check, c.Kind, c.Status)
			}
		}
		for _, p := range u.Probes {
			add(result.CheckDecisions, result.KindDecision, result.DecisionStatus(p.Class))
			if p.Recall != nil {
				add(result.CheckRecall, result.KindRecall, result.RecallStatus(p))
			}
		}
		return m
	}
	total := func(m map[result.Status]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	}
	// expected[scenario][check]: the most outcomes a finished unit has.
	expected := map[string]map[string]int{}
	counts := make([]map[string]map[result.Status]int, len(r.Units))
	for i := range r.Units {
		u := &r.Units[i]
		counts[i] = count(u)
		if unitFailed(u) != "" {
			continue
		}
		e := expected[u.Scenario.ID]
		if e == nil {
			e = map[string]int{}
			expected[u.Scenario.ID] = e
		}
		for c, m := range counts[i] {
			e[c] = max(e[c], total(m))
		}
	}
	tallies := map[string]map[string]gateTally{}
	for i := range r.Units {
		u := &r.Units[i]
		ts := tallies[u.Summarizer]
		if ts == nil {
			ts = map[string]gateTally{}
			tallies[u.Summarizer] = ts
		}
		if unitFailed(u) == "" {
			for c, m := range counts[i] {
				t := ts[c]
				t.pass += m[result.Pass]
				t.fail += m[result.Fail]
				t.errs += m[result.Error]
				t.skip += m[result.Skip]
				switch uncertain.status(result.Uncertain) {
				case result.Pass:
					t.pass += m[result.Uncertain]
					t.recounted += m[result.Uncertain]
				case result.Skip:
					t.skip += m[result.Uncertain]
					t.recounted += m[result.Uncertain]
				default:
					t.uncertain += m[result.Uncertain]
				}
				ts[c] = t
			}
			continue
		}
		want, known := expected[u.Scenario.ID]
		for c := range kinds {
			n := total(counts[i][c])
			switch {
			case known:
				n = max(n, want[c])
			default:
				n = max(n, 1)
			}
			if n > 0 {
				t := ts[c]
				t.lost += n
				t.units++
				ts[c] = t
			}
		}
	}
	return tallies, kinds
}

// controlArms returns the summarizers that are the control arm: every
// generation they had was builtin:none's (which declines to compact).
func controlArms(r *result.Result) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			none := g.Call.Spec == "builtin:none"
			if !seen[u.Summarizer] {
				seen[u.Summarizer], out[u.Summarizer] = true, none
			} else if !none {
				out[u.Summarizer] = false
			}
		}
	}
	return out
}

func pctf(f float64) string { return strconv.FormatFloat(100*f, 'g', 4, 64) + "%" }
