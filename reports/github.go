package reports

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/result"
)

// MaxAnnotationsPerLevel bounds the annotations WriteGitHub emits at each
// level (error, warning, notice): GitHub shows 10 of each per step.
const MaxAnnotationsPerLevel = 10

// WriteGitHub writes the GitHub Actions outputs of r: the Markdown report
// appended to stepSummaryPath ($GITHUB_STEP_SUMMARY; skipped when empty),
// and `::error file=…,line=…,title=…::message` workflow commands (and
// ::warning, ::notice) on annotations.
//
// What is annotated: without a baseline (opts.Gate nil or without a
// Comparison), every finding of r (Findings) at its line in the scenario
// file (an invariant's, a probe's; a unit's error at the file); with a
// baseline, what is new against it (each pass→fail of the comparison, one
// annotation per unit whose outcomes all failed for the unit's reason, and
// each scenario whose meaning changed), so that a pull request shows what
// it broke and not what main already had, and beside it the findings that
// decided a failing min-pass gate.
//
// The level says what decided the exit code: ::error only for an outcome
// that decided a failing gate (GateReport.Deciding: the misses of a
// min-pass rate that failed, the regressions of a failing baseline gate,
// the errors of a result without evidence; with no gate, the errors of a
// run where every unit errored); ::warning for another error, regression
// or invariant failure; ::notice for a structural failure or an outcome a
// check could not tell. The annotations come in the order of every list
// of findings (SortFindings: errors, decision regressions, invariant
// failures, the rest), deduplicated per file, line, summarizer and check,
// at most MaxAnnotationsPerLevel per level, and a ::notice per level says
// how many more there are.
//
// An annotation names a file of the repository, relative to its root:
// opts.AnnotationFile maps a scenario's file (as the result holds it) to
// that path, or says it is not in the repository (a built-in scenario, a
// file outside the checkout): such findings are not annotated; one notice
// says how many, and the step summary names their scenarios by id.
func WriteGitHub(r *result.Result, opts Options, stepSummaryPath string, annotations io.Writer) error {
	plan := planAnnotations(r, opts)
	if stepSummaryPath != "" {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, r, opts); err != nil {
			return err
		}
		if len(plan.outside) > 0 {
			fmt.Fprintf(&b, "\n%s on scenarios outside this repository (%s) %s not annotated: the failures above name them by scenario id.\n",
				plural(plan.outsideN, "finding"), mdScenarioIDs(plan.outside), isAre(plan.outsideN))
		}
		f, err := os.OpenFile(stepSummaryPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("writing step summary: %w", err)
		}
		_, werr := f.Write(append(b.Bytes(), '\n'))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("writing step summary: %w", werr)
		}
	}
	if annotations == nil {
		return nil
	}
	for _, line := range plan.lines() {
		if _, err := io.WriteString(annotations, line); err != nil {
			return err
		}
	}
	return nil
}

// KindScenarioChanged is the annotation kind of a scenario whose meaning
// changed since the baseline.
const KindScenarioChanged = "scenario_changed"

// annotationNouns name the annotation kinds in overflow notices.
var annotationNouns = map[string]string{
	result.KindDecision:      "decision regression",
	result.KindInvariant:     "invariant failure",
	result.KindStructural:    "structural failure",
	KindUnit:                 "failed unit",
	KindError:                "error",
	KindScenarioChanged:      "changed scenario",
	string(result.Uncertain): "uncertain outcome",
}

// KindError is the annotation kind of an error that is not a unit's own:
// a generation, a check or a probe's agent call that failed.
const KindError = "error"

// annotation is one workflow command; key deduplicates it with file and
// line, sev orders it and kind names it in an overflow notice.
type annotation struct {
	// level is the workflow command: "error", "warning" or "notice".
	level      string
	file       string
	line       int
	title, msg string
	key        string
	kind       string
	sev        int
}

// annotationPlan is what WriteGitHub annotates.
type annotationPlan struct {
	list []annotation
	// notices are said before the overflow notices (no longer judged).
	notices []string
	// against is " new against the baseline" with a baseline, else "".
	against string
	// outside are the scenario ids of findings not annotated because
	// their file is not in the repository, outsideN how many findings.
	outside  []string
	outsideN int
}

// planAnnotations chooses and orders the annotations of r.
func planAnnotations(r *result.Result, opts Options) *annotationPlan {
	p := &annotationPlan{}
	g := opts.Gate
	var c *Comparison
	if g != nil {
		c = g.Comparison
	}
	locate := opts.AnnotationFile
	if locate == nil {
		locate = func(file string) (string, bool) { return file, file != "" }
	}
	outside := map[string]bool{}
	place := func(a annotation, scenario string) {
		file, ok := locate(a.file)
		if !ok {
			if a.file != "" && !outside[scenario] {
				outside[scenario] = true
				p.outside = append(p.outside, scenario)
			}
			if a.file != "" {
				p.outsideN++
			}
			return
		}
		a.file = file
		p.list = append(p.list, a)
	}
	if c != nil {
		p.against = " new against the baseline"
		if n := len(c.NoLongerJudged); n > 0 {
			p.notices = append(p.notices, fmt.Sprintf("%s no longer judged (judged in the baseline, skipped now): not regressions; see the step summary", plural(n, "outcome")))
		}
		for _, b := range baselineAnnotations(c, g.Deciding.Baseline) {
			place(b.annotation, b.scenario)
		}
	}
	noneFinished := !slices.ContainsFunc(r.Units, func(u result.Unit) bool { return unitFailed(&u) == "" })
	for _, f := range Findings(r) {
		decides := g.decides(f) || noneFinished && f.Severity == SevError && g == nil
		if c != nil && !decides {
			continue // against a baseline, only what is new, and what failed a rate
		}
		place(findingAnnotation(f, decides), f.Scenario)
	}
	slices.SortStableFunc(p.list, func(a, b annotation) int { return a.sev - b.sev })
	return p
}

// decides reports whether f decided a failing gate of g (Deciding); false
// for a nil g. A unit's or a generation's error counts against every rate
// of its summarizer.
func (g *GateReport) decides(f Finding) bool {
	if g == nil {
		return false
	}
	d := g.Deciding
	wide := f.Check == "unit" || f.Check == "generation"
	if wide && d.Evidence {
		return true
	}
	if f.Severity == SevUncertain && !d.UncertainMisses {
		return false
	}
	if wide {
		for k := range d.Rates {
			if strings.HasPrefix(k, f.Summarizer+"\x00") {
				return true
			}
		}
		return false
	}
	return d.Rates[RateKey(f.Summarizer, f.Check)]
}

// findingAnnotation annotates f at its line, at the level its deciding
// says.
func findingAnnotation(f Finding, decides bool) annotation {
	a := annotation{file: f.File, line: f.Line, key: f.Summarizer + ":" + f.Label(), sev: f.Severity,
		msg: fmt.Sprintf("%s · %s: %s%s", f.Scenario, f.Summarizer, f.Message, f.Where())}
	switch {
	case f.Check == "unit":
		a.title, a.kind, a.line = fmt.Sprintf("%s errored (trial %d)", f.Summarizer, f.Trial+1), KindUnit, 0
		a.key = fmt.Sprintf("%s:unit:%d", f.Summarizer, f.Trial)
	case f.Check == "generation":
		a.title, a.kind, a.line = fmt.Sprintf("%s failed at generation g%d", f.Summarizer, f.Generation), KindError, 0
	case f.Severity == SevError && f.Check == result.CheckDecisions:
		a.title, a.kind = fmt.Sprintf("%s: the agent call failed after compaction by %s", f.Label(), f.Summarizer), KindError
	case f.Severity == SevError:
		a.title, a.kind = fmt.Sprintf("%s could not be checked for %s (g%d)", f.Label(), f.Summarizer, f.Generation), KindError
	case f.Severity == SevRegression:
		a.title, a.kind = fmt.Sprintf("%s regressed after compaction by %s", f.Label(), f.Summarizer), result.KindDecision
	case f.Severity == SevInvariant:
		a.title, a.kind = fmt.Sprintf("%s lost by %s (g%d)", f.Label(), f.Summarizer, f.Generation), result.KindInvariant
	case f.Severity == SevStructural:
		a.title, a.kind = fmt.Sprintf("%s failed for %s (g%d)", f.Label(), f.Summarizer, f.Generation), result.KindStructural
	case f.Check == result.CheckDecisions:
		a.title, a.kind = fmt.Sprintf("%s: the agent could not tell after compaction by %s", f.Label(), f.Summarizer), string(result.Uncertain)
	default:
		a.title, a.kind = fmt.Sprintf("%s uncertain for %s (g%d)", f.Label(), f.Summarizer, f.Generation), string(result.Uncertain)
	}
	switch {
	case decides:
		a.level = "error"
	case f.Severity == SevStructural || f.Severity == SevUncertain:
		a.level = "notice"
	default:
		a.level = "warning"
	}
	return a
}

// scenarioAnnotation is an annotation with the scenario it is about.
type scenarioAnnotation struct {
	annotation
	scenario string
}

// baselineAnnotations annotates each pass→fail of c: one per outcome, or
// one per unit when a unit's outcomes all failed for the unit's reason (it
// errored, or did not run), at the scenario file; ::error when the
// baseline gate failed (decides), ::warning otherwise.
func baselineAnnotations(c *Comparison, decides bool) []scenarioAnnotation {
	level := "warning"
	if decides {
		level = "error"
	}
	var out []scenarioAnnotation
	cs := c.Regressions
	for i := 0; i < len(cs); {
		ch := cs[i]
		j := i + 1
		if unitWide(ch.Message) {
			for j < len(cs) && cs[j].Scenario == ch.Scenario && cs[j].Summarizer == ch.Summarizer && cs[j].Trial == ch.Trial && cs[j].Message == ch.Message {
				j++
			}
		}
		i = j
		if unitWide(ch.Message) {
			out = append(out, scenarioAnnotation{annotation{level: level, file: ch.File,
				title: fmt.Sprintf("%s fails where the baseline passed (trial %d)", ch.Summarizer, ch.Trial+1),
				msg:   fmt.Sprintf("%s · %s: %s", ch.Scenario, ch.Summarizer, ch.Message),
				key:   fmt.Sprintf("%s:unit:%d", ch.Summarizer, ch.Trial), kind: KindUnit, sev: SevError}, ch.Scenario})
			continue
		}
		out = append(out, scenarioAnnotation{annotation{level: level, file: ch.File, line: ch.Line,
			title: fmt.Sprintf("%s passed on the baseline and fails with %s (%s)", ch.Label(), ch.Summarizer, ch.Where()),
			msg:   fmt.Sprintf("%s · %s: %s", ch.Scenario, ch.Summarizer, ch.Message),
			key:   ch.Summarizer + ":" + ch.Label(), kind: ch.RegressionKind(), sev: KindSeverity(ch.RegressionKind())}, ch.Scenario})
	}
	if !c.AcceptChanged {
		for _, sc := range c.ChangedScenarios {
			out = append(out, scenarioAnnotation{annotation{level: level, file: sc.File, line: 1,
				title: fmt.Sprintf("scenario %s changed meaning since the baseline", sc.ID),
				msg:   fmt.Sprintf("digest %s → %s: its outcomes are not compared; review it and give --accept-changed, or move the baseline forward", short(sc.Base), short(sc.New)),
				key:   "changed:" + sc.ID, kind: KindScenarioChanged, sev: SevError}, sc.ID})
		}
	}
	return out
}

// lines are the workflow commands of p: the annotations, at most
// MaxAnnotationsPerLevel per level, then the notices (no longer judged,
// outside the repository, how many more of each level).
func (p *annotationPlan) lines() []string {
	seen := map[string]bool{}
	var kept []annotation
	for _, a := range p.list {
		key := fmt.Sprintf("%s:%d:%s", a.file, a.line, a.key)
		if !seen[key] {
			seen[key] = true
			kept = append(kept, a)
		}
	}
	notices := slices.Clone(p.notices)
	if len(p.outside) > 0 {
		notices = append(notices, fmt.Sprintf("%s on scenarios outside this repository (%s) %s not annotated; the step summary names them by scenario id",
			plural(p.outsideN, "finding"), scenarioIDs(p.outside), isAre(p.outsideN)))
	}
	room := map[string]int{"error": MaxAnnotationsPerLevel, "warning": MaxAnnotationsPerLevel,
		// the notices of the plan and of what overflows take room too
		"notice": MaxAnnotationsPerLevel - len(notices) - 3}
	left := map[string]map[string]int{}
	var out []string
	for _, a := range kept {
		if room[a.level] <= 0 {
			if left[a.level] == nil {
				left[a.level] = map[string]int{}
			}
			left[a.level][a.kind]++
			continue
		}
		room[a.level]--
		props := "file=" + escapeProperty(a.file)
		if a.line > 0 {
			props += fmt.Sprintf(",line=%d", a.line)
		}
		props += ",title=" + escapeProperty(a.title)
		out = append(out, fmt.Sprintf("::%s %s::%s\n", a.level, props, escapeData(a.msg)))
	}
	for _, level := range []string{"error", "warning", "notice"} {
		byKind := left[level]
		if len(byKind) == 0 {
			continue
		}
		n := 0
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(byKind)) {
			n += byKind[k]
			parts = append(parts, plural(byKind[k], annotationNouns[k]))
		}
		notices = append(notices, fmt.Sprintf("%d more %s annotations%s are left out (%s); see the step summary", n, level, p.against, strings.Join(parts, ", ")))
	}
	for _, n := range notices {
		out = append(out, "::notice::"+escapeData(n)+"\n")
	}
	return out
}

// scenarioIDs names at most 5 scenarios, and how many more.
func scenarioIDs(ids []string) string {
	if len(ids) <= 5 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:5], ", ") + fmt.Sprintf(" and %d more", len(ids)-5)
}

// mdScenarioIDs is scenarioIDs for Markdown: each id a code span.
func mdScenarioIDs(ids []string) string {
	shown := ids[:min(len(ids), 5)]
	parts := make([]string, len(shown))
	for i, id := range shown {
		parts[i] = mdCode(id, false)
	}
	s := strings.Join(parts, ", ")
	if len(ids) > 5 {
		s += fmt.Sprintf(" and %d more", len(ids)-5)
	}
	return s
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// escapeData escapes a workflow command's message: % CR LF, and shows
// format characters (bidi overrides, zero-width) as escapes.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(showFormat(s))
}

// escapeProperty escapes a workflow command's property value: % CR LF : ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(showFormat(s))
}

// showFormat writes every format character (Unicode Cf) of s as \uHHHH.
func showFormat(s string) string {
	if strings.IndexFunc(s, isFormat) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isFormat(r) {
			b.WriteString(escapeRune(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }
