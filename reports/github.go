package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// MaxAnnotations bounds the ::error annotations WriteGitHub emits; GitHub
// shows at most 10 error annotations per step and 50 per job.
const MaxAnnotations = 50

// WriteGitHub writes the GitHub Actions outputs of r: the Markdown report
// appended to stepSummaryPath ($GITHUB_STEP_SUMMARY; skipped when empty),
// and `::error file=…,line=…,title=…::message` workflow commands on
// annotations, at most MaxAnnotations, then a `::notice::` saying how many
// were left out. Call it when GITHUB_ACTIONS=true.
//
// Without a baseline (opts.Gate nil or without a Comparison) every failing
// invariant and every compaction regression is annotated, the invariant at
// its line and the probe at the probe's line in the scenario file; an
// invariant the check could not tell (uncertain) gets a `::warning`
// there instead: not a loss, never a pass. With a
// baseline only what is new against it is: each pass→fail of the
// comparison (invariants, structural checks, probes, and the units that
// errored, one annotation per unit), so a pull request shows the failures
// it introduced, not those main already had. Annotations are deduplicated
// per file, line, summarizer and check.
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
	what := "failing invariants and compaction regressions"
	if opts.Gate != nil && opts.Gate.Comparison != nil {
		list = baselineAnnotations(opts.Gate.Comparison)
		what = "failures new against the baseline"
	} else {
		list = findingAnnotations(r)
	}
	seen := map[string]bool{}
	n, left := 0, 0
	for _, a := range list {
		key := fmt.Sprintf("%s:%d:%s", a.file, a.line, a.key)
		if seen[key] {
			continue
		}
		seen[key] = true
		if n == MaxAnnotations {
			left++
			continue
		}
		n++
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
	if left > 0 {
		_, err := fmt.Fprintf(annotations, "::notice::%s\n", escapeData(fmt.Sprintf("%d more %s are not annotated; see the step summary", left, what)))
		return err
	}
	return nil
}

// annotation is one ::error workflow command; key deduplicates it with
// file and line.
type annotation struct {
	// level is the workflow command: "error" ("" too) or "warning".
	level      string
	file       string
	line       int
	title, msg string
	key        string
}

// findingAnnotations annotates every failing invariant and compaction
// regression of r.
func findingAnnotations(r *result.Result) []annotation {
	var out []annotation
	for _, f := range Findings(r) {
		uncertainInvariant := f.Severity == SevUncertain && slices.Contains(result.InvariantTypes, f.Check)
		if (f.Severity != SevInvariant && f.Severity != SevRegression && !uncertainInvariant) || f.File == "" {
			continue
		}
		level := ""
		title := fmt.Sprintf("%s lost by %s (g%d)", f.Label(), f.Summarizer, f.Generation)
		switch {
		case f.Severity == SevRegression:
			title = fmt.Sprintf("%s regressed after compaction by %s", f.Label(), f.Summarizer)
		case uncertainInvariant:
			level, title = "warning", fmt.Sprintf("%s uncertain for %s (g%d)", f.Label(), f.Summarizer, f.Generation)
		}
		out = append(out, annotation{level: level, file: f.File, line: f.Line, title: title,
			msg: fmt.Sprintf("%s · %s: %s%s", f.Scenario, f.Summarizer, f.Message, f.Where()),
			key: f.Summarizer + ":" + f.Label()})
	}
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
				key:   fmt.Sprintf("%s:%s:unit:%d", ch.Scenario, ch.Summarizer, ch.Trial)})
			continue
		}
		out = append(out, annotation{file: ch.File, line: ch.Line,
			title: fmt.Sprintf("%s passed on the baseline and fails with %s (%s)", ch.Label(), ch.Summarizer, ch.Where()),
			msg:   fmt.Sprintf("%s · %s: %s", ch.Scenario, ch.Summarizer, ch.Message),
			key:   ch.Summarizer + ":" + ch.Label() + ":" + ch.Where()})
	}
	return out
}

// escapeData escapes a workflow command's message: % CR LF.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: % CR LF : ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
