package reports

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/reports/internal/junit"
)

// What a change against the baseline is, as every report names it.
const (
	ChangeRegression     = "regression"
	ChangeFix            = "fix"
	ChangeNoLongerJudged = "no longer judged"
	ChangeNewlyJudged    = "newly judged"
	// ChangeScenarioChanged is an outcome of a scenario whose meaning
	// changed since the baseline: listed, never paired.
	ChangeScenarioChanged = "scenario changed"
)

// baselineGroup is one kind of change against the baseline, as the
// Markdown, HTML and JUnit reports list it.
type baselineGroup struct {
	What    string // ChangeRegression, …
	Changes []Change
	// Max is how many the Markdown and HTML list; the rest are counted.
	Max int
}

// baselineGroups are the changes of c, regressions first (decisions
// first among them, as CompareWith sorts them).
func baselineGroups(c *Comparison) []baselineGroup {
	return []baselineGroup{
		{ChangeRegression, c.Regressions, 20},
		{ChangeFix, c.Fixes, 5},
		{ChangeNoLongerJudged, c.NoLongerJudged, 5},
		{ChangeNewlyJudged, c.NewlyJudged, 5},
		{ChangeScenarioChanged, c.Changed, 10},
	}
}

// comparison is the baseline comparison of opts, or nil.
func (o Options) comparison() *Comparison {
	if o.Gate == nil {
		return nil
	}
	return o.Gate.Comparison
}

// statusChange is "pass → fail".
func statusChange(ch Change) string {
	return string(ch.Base) + " → " + string(ch.New)
}

// writeBaselineMarkdown writes the "New against the baseline" section: the
// counts line every report shares, then the changes of each kind, at most
// a few of each.
func writeBaselineMarkdown(b *bytes.Buffer, c *Comparison) {
	fmt.Fprintf(b, "### New against the baseline\n\n%s\n\n", mdText(c.NewAgainstBaseline()))
	if len(c.ChangedScenarios) > 0 {
		verb := "fail the gate unless `--accept-changed`"
		if c.AcceptChanged {
			verb = "were accepted (`--accept-changed`)"
		}
		fmt.Fprintf(b, "Scenarios whose meaning changed since the baseline %s; their outcomes are listed as \"%s\", not paired: %s\n\n",
			verb, ChangeScenarioChanged, mdText(c.changedList()))
	}
	if len(c.Regressions)+len(c.Fixes)+len(c.NoLongerJudged)+len(c.NewlyJudged)+len(c.Changed) == 0 {
		return
	}
	b.WriteString("| change | scenario | summarizer | trial | where | check | status | message |\n|---|---|---|---:|---|---|---|---|\n")
	for _, g := range baselineGroups(c) {
		for i, ch := range g.Changes {
			if i == g.Max {
				fmt.Fprintf(b, "| %s | … and %d more | | | | | | |\n", g.What, len(g.Changes)-i)
				break
			}
			fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s | %s | %s |\n", g.What, mdCode(ch.Scenario, true), mdCode(ch.Summarizer, true),
				ch.Trial+1, ch.Where(), mdCode(ch.Label(), true), mdText(statusChange(ch)), mdCode(clip.String(ch.Message, 160), true))
		}
	}
	b.WriteString("\n")
}

// baselineJUnitSuite is the "new against the baseline" suite: a failing
// case per regression, a passing one per fix, a skipped one per outcome no
// longer judged and a passing or failing one per outcome newly judged (as
// it is judged now). Its properties carry the counts.
func baselineJUnitSuite(c *Comparison) junit.Suite {
	n := c.Counts()
	s := junit.Suite{Name: "new against the baseline", Time: seconds(0), Properties: []junit.Property{
		{Name: "compact-eval.baseline.summary", Value: c.NewAgainstBaseline()},
		{Name: "compact-eval.baseline.regressions", Value: fmt.Sprint(n.Regressions)},
		{Name: "compact-eval.baseline.fixes", Value: fmt.Sprint(n.Fixes)},
		{Name: "compact-eval.baseline.no_longer_judged", Value: fmt.Sprint(n.NoLongerJudged)},
		{Name: "compact-eval.baseline.newly_judged", Value: fmt.Sprint(n.NewlyJudged)},
		{Name: "compact-eval.baseline.changed_scenarios", Value: fmt.Sprint(n.ChangedScenarios)},
	}}
	// A changed scenario is one case: failing unless accepted. Its
	// outcomes are in the Markdown and HTML reports.
	for _, sc := range c.ChangedScenarios {
		msg := fmt.Sprintf("the scenario's meaning changed since the baseline (digest %s → %s): its outcomes are not compared", short(sc.Base), short(sc.New))
		tc := junit.Case{Classname: sc.ID, Name: ChangeScenarioChanged, Time: seconds(0)}
		if c.AcceptChanged {
			tc.Skipped = &junit.Skipped{Message: msg + " (--accept-changed)"}
			s.Skipped++
		} else {
			tc.Failure = &junit.Problem{Message: msg, Type: "baseline_scenario_changed", Body: msg + "; review it and give --accept-changed, or move the baseline forward"}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, g := range baselineGroups(c) {
		if g.What == ChangeScenarioChanged {
			continue // one case per scenario, above
		}
		for _, ch := range g.Changes {
			name := fmt.Sprintf("%s/%s/trial %d/%s: %s", ch.Summarizer, ch.Label(), ch.Trial+1, ch.Where(), g.What)
			tc := junit.Case{Classname: ch.Scenario, Name: name, Time: seconds(0), File: ch.File, Line: ch.Line}
			msg := statusChange(ch) + ": " + ch.Message
			switch {
			case g.What == ChangeRegression:
				tc.Failure = &junit.Problem{Message: firstLine([]string{msg}), Type: "baseline_regression_" + ch.RegressionKind(), Body: msg}
				s.Failures++
			case g.What == ChangeNoLongerJudged:
				tc.Skipped = &junit.Skipped{Message: msg}
				s.Skipped++
			}
			s.Tests++
			s.Cases = append(s.Cases, tc)
		}
	}
	return s
}

// baselineHTML is the comparison as the HTML page shows it.
type baselineHTML struct {
	Summary string
	Rows    []baselineHTMLRow
}

type baselineHTMLRow struct {
	What, Scenario, Summarizer, Where, Check, Status, Message string
	Trial                                                     int
	// More is the count of changes of this kind not listed (the row is
	// then only a count).
	More int
}

func buildBaselineHTML(c *Comparison) *baselineHTML {
	if c == nil {
		return nil
	}
	v := &baselineHTML{Summary: c.NewAgainstBaseline()}
	for _, g := range baselineGroups(c) {
		for i, ch := range g.Changes {
			if i == g.Max {
				v.Rows = append(v.Rows, baselineHTMLRow{What: g.What, More: len(g.Changes) - i})
				break
			}
			v.Rows = append(v.Rows, baselineHTMLRow{What: g.What, Scenario: ch.Scenario, Summarizer: ch.Summarizer, Trial: ch.Trial + 1,
				Where: ch.Where(), Check: ch.Label(), Status: statusChange(ch), Message: strings.TrimSpace(clip.String(ch.Message, 300))})
		}
	}
	return v
}
