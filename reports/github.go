package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/compact-eval/compact-eval/result"
)

// MaxAnnotationsPerKind bounds the ::error annotations WriteGitHub emits
// for each kind of failure (decisions, invariants, structural checks,
// failed units): GitHub shows 10 error annotations per step.
const MaxAnnotationsPerKind = 10

// WriteGitHub writes the GitHub Actions outputs of r: the Markdown report
// appended to stepSummaryPath ($GITHUB_STEP_SUMMARY; skipped when empty),
// and `::error file=…,line=…,title=…::message` workflow commands on
// annotations.
//
// Without a baseline (opts.Gate nil or without a Comparison) every failing
// invariant and every compaction regression is annotated, the invariant at
// its line and the probe at the probe's line in the scenario file; an
// invariant the check could not tell (uncertain) gets a `::warning`
// there instead: not a loss, never a pass. With a
// baseline only what is new against it is: each pass→fail of the
// comparison (probes, invariants, structural checks, and the units that
// errored, one annotation per unit), so a pull request shows the failures
// it introduced, not those main already had; what is no longer judged is
// one ::notice, never an error. Either way decision regressions come
// first, then invariants, structural checks and failed units, at most
// MaxAnnotationsPerKind of each, and one ::notice per kind says how many
// more there are. Annotations are deduplicated per file, line, summarizer
// and check.
func WriteGitHub(r *result.Result, opts Options, stepSummaryPath string, annotations io.Writer) error {
	if stepSummaryPath != "" {
		var b bytes.Buffer
		if err := WriteMarkdown(&b, r, opts); err != nil {
			return err
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
	var list []annotation
	var notices []string
	against := ""
	if opts.Gate != nil && opts.Gate.Comparison != nil {
		c := opts.Gate.Comparison
		list = baselineAnnotations(c)
		against = " new against the baseline"
		if n := len(c.NoLongerJudged); n > 0 {
			notices = append(notices, fmt.Sprintf("%s no longer judged (judged in the baseline, skipped now): not regressions; see the step summary", plural(n, "outcome")))
		}
	} else {
		list = findingAnnotations(r)
	}
	seen := map[string]bool{}
	shown, left := map[string]int{}, map[string]int{}
	for _, a := range list {
		key := fmt.Sprintf("%s:%d:%s", a.file, a.line, a.key)
		if seen[key] {
			continue
		}
		seen[key] = true
		if shown[a.kind] == MaxAnnotationsPerKind {
			left[a.kind]++
			continue
		}
		shown[a.kind]++
		props := "file=" + escapeProperty(a.file)
		if a.line > 0 {
			props += fmt.Sprintf(",line=%d", a.line)
		}
		props += ",title=" + escapeProperty(a.title)
		level := a.level
		if level == "" {
			level = "error"
		}
		if _, err := fmt.Fprintf(annotations, "::%s %s::%s\n", level, props, escapeData(a.msg)); err != nil {
			return err
		}
	}
	for _, k := range annotationKinds {
		if n := left[k.kind]; n > 0 {
			notices = append(notices, fmt.Sprintf("%d more %s%s are not annotated; see the step summary", n, k.plural, against))
		}
	}
	for _, n := range notices {
		if _, err := fmt.Fprintf(annotations, "::notice::%s\n", escapeData(n)); err != nil {
			return err
		}
	}
	return nil
}

// KindScenarioChanged is the annotation kind of a scenario whose meaning
// changed since the baseline.
const KindScenarioChanged = "scenario_changed"

// annotationKinds are the kinds of annotation in the order they are
// written, with the words of their overflow notice.
var annotationKinds = []struct{ kind, plural string }{
	{result.KindDecision, "decision regressions"},
	{result.KindInvariant, "invariant failures"},
	{result.KindStructural, "structural failures"},
	{KindUnit, "failed units"},
	{KindScenarioChanged, "changed scenarios"},
	{string(result.Uncertain), "uncertain invariants and decisions (warnings)"},
}

// annotation is one ::error workflow command; key deduplicates it with
// file and line, kind orders and bounds it.
type annotation struct {
	// level is the workflow command: "error" ("" too) or "warning".
	level      string
	file       string
	line       int
	title, msg string
	key        string
	kind       string
}

// sortAnnotations orders annotations by kind (annotationKinds), keeping
// the order within a kind.
func sortAnnotations(as []annotation) {
	rank := map[string]int{}
	for i, k := range annotationKinds {
		rank[k.kind] = i
	}
	slices.SortStableFunc(as, func(a, b annotation) int { return rank[a.kind] - rank[b.kind] })
}

// findingAnnotations annotates every failing invariant and compaction
// regression of r, the regressions first.
func findingAnnotations(r *result.Result) []annotation {
	var out []annotation
	for _, f := range Findings(r) {
		uncertainInvariant := f.Severity == SevUncertain && slices.Contains(result.InvariantTypes, f.Check)
		uncertainDecision := f.Severity == SevUncertain && f.Check == result.CheckDecisions
		if (f.Severity != SevInvariant && f.Severity != SevRegression && !uncertainInvariant && !uncertainDecision) || f.File == "" {
			continue
		}
		level := ""
		title := fmt.Sprintf("%s lost by %s (g%d)", f.Label(), f.Summarizer, f.Generation)
		kind := result.KindInvariant
		switch {
		case f.Severity == SevRegression:
			title = fmt.Sprintf("%s regressed after compaction by %s", f.Label(), f.Summarizer)
			kind = result.KindDecision
		case uncertainInvariant:
			level, title = "warning", fmt.Sprintf("%s uncertain for %s (g%d)", f.Label(), f.Summarizer, f.Generation)
			kind = string(result.Uncertain)
		case uncertainDecision:
			level, title = "warning", fmt.Sprintf("%s: the agent could not tell after compaction by %s", f.Label(), f.Summarizer)
			kind = string(result.Uncertain)
		}
		out = append(out, annotation{level: level, file: f.File, line: f.Line, title: title,
			msg: fmt.Sprintf("%s · %s: %s%s", f.Scenario, f.Summarizer, f.Message, f.Where()),
			key: f.Summarizer + ":" + f.Label(), kind: kind})
	}
	sortAnnotations(out)
	return out
}

// baselineAnnotations annotates each pass→fail of c: one per outcome, or
// one per unit when a unit's outcomes all failed for the unit's reason (it
// errored, or did not run), at the scenario file.
func baselineAnnotations(c *Comparison) []annotation {
	var out []annotation
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
		if ch.File == "" {
			continue
		}
		if unitWide(ch.Message) {
			out = append(out, annotation{file: ch.File,
				title: fmt.Sprintf("%s fails where the baseline passed (trial %d)", ch.Summarizer, ch.Trial+1),
				msg:   fmt.Sprintf("%s · %s: %s", ch.Scenario, ch.Summarizer, ch.Message),
				key:   fmt.Sprintf("%s:%s:unit:%d", ch.Scenario, ch.Summarizer, ch.Trial), kind: KindUnit})
			continue
		}
		out = append(out, annotation{file: ch.File, line: ch.Line,
			title: fmt.Sprintf("%s passed on the baseline and fails with %s (%s)", ch.Label(), ch.Summarizer, ch.Where()),
			msg:   fmt.Sprintf("%s · %s: %s", ch.Scenario, ch.Summarizer, ch.Message),
			key:   ch.Summarizer + ":" + ch.Label() + ":" + ch.Where(), kind: ch.RegressionKind()})
	}
	if !c.AcceptChanged {
		for _, sc := range c.ChangedScenarios {
			out = append(out, annotation{file: sc.File, line: 1,
				title: fmt.Sprintf("scenario %s changed meaning since the baseline", sc.ID),
				msg:   fmt.Sprintf("digest %s → %s: its outcomes are not compared; review it and give --accept-changed, or move the baseline forward", short(sc.Base), short(sc.New)),
				key:   "changed:" + sc.ID, kind: KindScenarioChanged})
		}
	}
	sortAnnotations(out)
	return out
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
