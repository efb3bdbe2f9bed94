package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/internal/clip"
)

// WriteMarkdown writes r as GitHub-flavoured Markdown for a pull-request
// comment or $GITHUB_STEP_SUMMARY: the verdict on the first line, a
// leaderboard per summarizer, pass rates per summarizer × check type, then
// the failures worst first (invariant failures, compaction regressions,
// structural failures, errors), truncated with "… and N more" so the whole
// stays within opts.MaxMarkdown bytes (the verdict and the tables are always
// written; only the failures list is cut).
func WriteMarkdown(w io.Writer, r *Result, opts Options) error {
	limit := opts.MaxMarkdown
	if limit <= 0 {
		limit = DefaultMaxMarkdown
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "**%s**\n\n", mdInline(Verdict(r, opts.Gate)))
	if opts.Gate != nil {
		for _, l := range opts.Gate.Lines {
			fmt.Fprintf(&b, "- `%s`\n", strings.ReplaceAll(l, "`", "'"))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "compact-eval %s · run `%s` · agent `%s` · %d trial(s) · tokenizer %s\n\n",
		mdInline(r.Harness), mdInline(r.RunID), mdInline(r.Config.Agent), max(1, r.Config.Trials), mdInline(r.Config.Tokenizer))
	if r.Interrupted {
		fmt.Fprintf(&b, "> [!WARNING]\n> The run was interrupted; resume with `%s`.\n\n", mdInline(r.Resume))
	}
	b.WriteString("### Leaderboard\n\nRanked by invariants kept, then fewest compaction regressions; a rate is over the applicable results (passed/applicable), with the skipped ones counted beside it.\n\n")
	b.WriteString("| summarizer | invariants kept | structural passed | decisions kept | compression (median) | summary tokens (mean) | latency (median) | errors | retries |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range Ranked(r) {
		dec := "–"
		if a := FindAggregate(r, s.Summarizer, CheckDecisions); a != nil {
			dec = rateCell(a)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %.2f | %.0f | %s | %d | %d |\n", mdInline(s.Summarizer),
			Headline(s.InvariantPass, s.InvariantFail, s.InvariantSkip), Headline(s.StructuralPass, s.StructuralFail, s.StructuralSkip),
			dec, s.MedianCompression, s.MeanSummaryTokens, s.MedianLatency.Round(time.Millisecond), s.Errors, s.Retries)
	}
	sums := Summarizers(r)
	b.WriteString("\n### Pass rate by check type\n\n| check |")
	for _, s := range sums {
		fmt.Fprintf(&b, " `%s` |", mdInline(s))
	}
	b.WriteString("\n|---|")
	for range sums {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, c := range CheckTypes(r) {
		fmt.Fprintf(&b, "| %s |", c)
		for _, s := range sums {
			cell := "–"
			if a := FindAggregate(r, s, c); a != nil {
				cell = rateCell(a)
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nPass rate = pass / (pass + fail), with its Wilson 95% interval; – means nothing to judge (skipped).\n")
	var warn []string
	warn = append(warn, r.Warnings...)
	for _, u := range r.Units {
		for _, x := range u.Warnings {
			warn = append(warn, u.Scenario.ID+" · "+u.Summarizer+": "+x)
		}
	}
	findings := Findings(r)
	// The tail (warnings) is written after the findings; reserve room for it
	// and for the truncation line.
	var tail bytes.Buffer
	if len(warn) > 0 {
		fmt.Fprintf(&tail, "\n### Warnings\n\n")
		for i, x := range warn {
			if i == 20 {
				fmt.Fprintf(&tail, "- … and %d more\n", len(warn)-20)
				break
			}
			fmt.Fprintf(&tail, "- %s\n", mdInline(x))
		}
	}
	if len(findings) > 0 {
		fmt.Fprintf(&b, "\n### Failures (%d)\n\n", len(findings))
		b.WriteString("| scenario | summarizer | gen | check | seq | message |\n|---|---|---:|---|---:|---|\n")
		budget := limit - tail.Len() - 64
		for i, f := range findings {
			gen, seq := "–", "–"
			if f.Generation > 0 {
				gen = fmt.Sprintf("g%d", f.Generation)
			}
			if f.Seq > 0 {
				seq = fmt.Sprint(f.Seq)
			}
			msg := f.Message + f.Where()
			if r.Config.Trials > 1 {
				gen = fmt.Sprintf("t%d %s", f.Trial, gen)
			}
			line := fmt.Sprintf("| %s | `%s` | %s | %s | %s | %s |\n", mdInline(f.Scenario), mdInline(f.Summarizer), gen, mdInline(f.Label()), seq, mdInline(msg))
			if b.Len()+len(line) > budget {
				fmt.Fprintf(&b, "\n… and %d more\n", len(findings)-i)
				break
			}
			b.WriteString(line)
		}
	}
	b.Write(tail.Bytes())
	_, err := w.Write(b.Bytes())
	return err
}

func rateCell(a *Aggregate) string {
	n := a.Pass + a.Fail
	if n == 0 {
		if a.Error > 0 {
			return fmt.Sprintf("⚠ %d err", a.Error)
		}
		return "–"
	}
	s := fmt.Sprintf("%.0f%% [%.0f–%.0f] (%d/%d)", 100*a.PassRate, 100*a.Low, 100*a.High, a.Pass, n)
	if a.Error > 0 {
		s += fmt.Sprintf(" ⚠%d", a.Error)
	}
	return s
}

// mdInline makes s safe in a Markdown table cell or inline text: one line,
// no pipes breaking the table, no HTML.
var mdReplacer = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'")

func mdInline(s string) string {
	const maxCell = 300
	s = mdReplacer.Replace(s)
	return clip.String(s, maxCell)
}
