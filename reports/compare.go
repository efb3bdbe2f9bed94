package reports

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/compact-eval/compact-eval/checks"
)

// DefaultAlpha is the significance level of Compare when none is given.
const DefaultAlpha = 0.05

// Comparison is the paired comparison of two runs (see Compare).
type Comparison struct {
	Alpha float64
	// Trials is the larger trial count of the two runs (at least 1).
	Trials int
	// Rows hold one pass-rate delta per summarizer × check type present in
	// both runs, in report order.
	Rows []DeltaRow
	// Regressions are the paired outcomes that went pass→fail; Fixes
	// fail→pass. Both sorted by scenario, summarizer, trial, generation.
	Regressions []Change
	Fixes       []Change
	// NewErrors counts pairs that passed or failed in the base and errored
	// in the new run (not counted in the rows).
	NewErrors int
	// Unpaired counts outcomes present in only one run.
	Unpaired int
	// Warnings list what could not be compared and why: scenarios whose
	// digests differ, summarizers in one run only, different harness,
	// tokenizer, agent or prompts.
	Warnings []string
	// Regressed is the verdict: with one trial, any pass→fail; with
	// several, a row whose drop is significant at Alpha.
	Regressed bool
}

// DeltaRow is the paired pass-rate change of one summarizer × check type.
type DeltaRow struct {
	Summarizer string
	Check      string
	// N is the number of pairs with pass or fail on both sides; BasePass
	// and NewPass the passes among them; B the pass→fail pairs and C the
	// fail→pass pairs.
	N, BasePass, NewPass, B, C int
	// Delta is new − base pass rate over the N pairs, Low and High its 95%
	// interval (PairedDelta); P the exact McNemar p-value.
	Delta, Low, High, P float64
	// Significant is P < Alpha.
	Significant bool
}

// Change is one paired outcome that changed between the runs.
type Change struct {
	Scenario   string
	Summarizer string
	Trial      int
	Generation int    // 0 for a probe
	Check      string // check type or CheckDecisions
	Name       string // invariant or probe id, or ""
	// Message is the new run's message (for a regression) or the base's
	// (for a fix).
	Message string
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

type outcome struct {
	status checks.Status
	msg    string
}

// outcomes flattens r to paired keys, skipping excluded scenarios.
func outcomes(r *Result, exclude map[string]bool) map[pairKey]outcome {
	m := map[pairKey]outcome{}
	for _, u := range r.Units {
		if exclude[u.Scenario.ID] {
			continue
		}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				k := pairKey{u.Scenario.ID, u.Summarizer, u.Trial, g.N, c.Check, c.Invariant}
				m[k] = outcome{c.Status, c.Message}
			}
		}
		for _, p := range u.Probes {
			k := pairKey{u.Scenario.ID, u.Summarizer, u.Trial, 0, CheckDecisions, p.ID}
			m[k] = outcome{decisionStatus(p.Class), fmt.Sprintf("%s: full %q, compacted %q", p.Class, p.Full.Choice, p.Compacted.Choice)}
		}
	}
	return m
}

// Compare pairs every outcome of base and new by (scenario, summarizer,
// trial, generation, check, invariant or probe) and reports, in the manner
// of benchstat but paired, the pass→fail regressions, the fail→pass fixes,
// and per summarizer × check type the pass-rate delta with an interval and
// an exact McNemar test. alpha ≤ 0 means DefaultAlpha. Scenarios whose
// digests differ are not compared: they are listed in Warnings, as are
// summarizers present in one run only and differences of harness,
// tokenizer, agent and prompt digests.
func Compare(base, new *Result, alpha float64) *Comparison {
	if alpha <= 0 || alpha >= 1 {
		alpha = DefaultAlpha
	}
	cmp := &Comparison{Alpha: alpha, Trials: max(1, base.Config.Trials, new.Config.Trials)}
	cmp.Warnings = mismatches(base, new)
	exclude := map[string]bool{}
	bd, nd := digests(base), digests(new)
	for _, id := range slices.Sorted(mapKeys(bd)) {
		if d, ok := nd[id]; ok && d != bd[id] {
			exclude[id] = true
			cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("scenario %s changed (digest %s → %s): not compared", id, short(bd[id]), short(d)))
		}
	}
	bo, no := outcomes(base, exclude), outcomes(new, exclude)
	type rowKey struct{ sum, check string }
	rows := map[rowKey]*DeltaRow{}
	for k, b := range bo {
		n, ok := no[k]
		if !ok {
			cmp.Unpaired++
			continue
		}
		bp := b.status == checks.Pass || b.status == checks.Fail
		np := n.status == checks.Pass || n.status == checks.Fail
		if bp && n.status == checks.Error {
			cmp.NewErrors++
		}
		if !bp || !np {
			continue
		}
		rk := rowKey{k.summarizer, k.check}
		row := rows[rk]
		if row == nil {
			row = &DeltaRow{Summarizer: k.summarizer, Check: k.check}
			rows[rk] = row
		}
		row.N++
		if b.status == checks.Pass {
			row.BasePass++
		}
		if n.status == checks.Pass {
			row.NewPass++
		}
		ch := Change{Scenario: k.scenario, Summarizer: k.summarizer, Trial: k.trial, Generation: k.gen, Check: k.check, Name: k.name}
		switch {
		case b.status == checks.Pass && n.status == checks.Fail:
			row.B++
			ch.Message = n.msg
			cmp.Regressions = append(cmp.Regressions, ch)
		case b.status == checks.Fail && n.status == checks.Pass:
			row.C++
			ch.Message = b.msg
			cmp.Fixes = append(cmp.Fixes, ch)
		}
	}
	for k := range no {
		if _, ok := bo[k]; !ok {
			cmp.Unpaired++
		}
	}
	if cmp.Unpaired > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%d outcomes are in one run only (different scenarios, summarizers, trials or generations): not compared", cmp.Unpaired))
	}
	if cmp.NewErrors > 0 {
		cmp.Warnings = append(cmp.Warnings, fmt.Sprintf("%d checks that ran in the base errored in the new run", cmp.NewErrors))
	}
	order := map[string]int{}
	for i, s := range Summarizers(new) {
		order[s] = i
	}
	for _, row := range rows {
		row.Delta, row.Low, row.High = PairedDelta(row.B, row.C, row.N)
		row.P = McNemar(row.B, row.C)
		row.Significant = row.P < alpha
		cmp.Rows = append(cmp.Rows, *row)
		if cmp.Trials > 1 && row.Significant && row.Delta < 0 {
			cmp.Regressed = true
		}
	}
	sort.Slice(cmp.Rows, func(i, j int) bool {
		a, b := cmp.Rows[i], cmp.Rows[j]
		if a.Summarizer != b.Summarizer {
			return order[a.Summarizer] < order[b.Summarizer]
		}
		return lessCheck(a.Check, b.Check)
	})
	sortChanges(cmp.Regressions, order)
	sortChanges(cmp.Fixes, order)
	if cmp.Trials <= 1 && len(cmp.Regressions) > 0 {
		cmp.Regressed = true
	}
	return cmp
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
			return lessCheck(a.Check, b.Check)
		}
		return a.Name < b.Name
	})
}

func digests(r *Result) map[string]string {
	m := map[string]string{}
	for _, u := range r.Units {
		m[u.Scenario.ID] = u.Scenario.Digest
	}
	return m
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

// mismatches lists differences of the two runs' setups.
func mismatches(base, new *Result) []string {
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
	bs, ns := Summarizers(base), Summarizers(new)
	for _, s := range bs {
		if !slices.Contains(ns, s) {
			w = append(w, fmt.Sprintf("summarizer %s is only in the base: not compared", s))
		}
	}
	for _, s := range ns {
		if !slices.Contains(bs, s) {
			w = append(w, fmt.Sprintf("summarizer %s is only in the new run: not compared", s))
		}
	}
	bp, np := prompts(base), prompts(new)
	for _, s := range slices.Sorted(mapKeys(bp)) {
		if p, ok := np[s]; ok && p != bp[s] {
			w = append(w, fmt.Sprintf("summarizer %s changed spec, model or prompt: base %s, new %s", s, bp[s], p))
		}
	}
	return w
}

// prompts maps each summarizer name to what it really ran: the spec, model
// and prompt digest of its calls. A config file can give one name to two
// different summarizers in two runs; comparing them must not be silent.
func prompts(r *Result) map[string]string {
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
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "summarizer\tcheck\tbase\tnew\tdelta\t95%% interval\tp\tn\n")
	for _, r := range c.Rows {
		sig := fmt.Sprintf("p=%.3f", r.P)
		delta := fmt.Sprintf("%+.1f%%", 100*r.Delta)
		if !r.Significant {
			delta = "~"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t[%+.1f%%, %+.1f%%]\t%s\tn=%d\n",
			r.Summarizer, r.Check, pct(r.BasePass, r.N), pct(r.NewPass, r.N), delta, 100*r.Low, 100*r.High, sig, r.N)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	list := func(title string, cs []Change) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s: %d\n", title, len(cs))
		for i, ch := range cs {
			if i == maxListed {
				fmt.Fprintf(w, "  … and %d more\n", len(cs)-maxListed)
				break
			}
			gen := "probe"
			if ch.Generation > 0 {
				gen = fmt.Sprintf("g%d", ch.Generation)
			}
			fmt.Fprintf(w, "  %s  %s  trial %d  %s  %s: %s\n", ch.Scenario, ch.Summarizer, ch.Trial, gen, ch.Label(), ch.Message)
		}
	}
	list("regressions (pass→fail)", c.Regressions)
	list("fixes (fail→pass)", c.Fixes)
	if len(c.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings:\n")
		for _, s := range c.Warnings {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", c.Verdict())
	return err
}

// Verdict is one line: "REGRESSION: …" or "no regression: …".
func (c *Comparison) Verdict() string {
	switch {
	case c.Regressed && c.Trials <= 1:
		return fmt.Sprintf("REGRESSION: %d outcomes went pass→fail (1 trial: any pass→fail counts)", len(c.Regressions))
	case c.Regressed:
		var drops []string
		for _, r := range c.Rows {
			if r.Significant && r.Delta < 0 {
				drops = append(drops, r.Summarizer+" "+r.Check)
			}
		}
		return fmt.Sprintf("REGRESSION: significant drop (α=%g) in %s", c.Alpha, strings.Join(drops, ", "))
	case c.Trials > 1:
		return fmt.Sprintf("no regression: no significant drop at α=%g (%d pass→fail, %d fail→pass)", c.Alpha, len(c.Regressions), len(c.Fixes))
	default:
		return fmt.Sprintf("no regression: no pass→fail (%d fail→pass)", len(c.Fixes))
	}
}

func pct(a, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(a)/float64(n), a, n)
}
