package reports

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/clip"
)

// WriteMarkdown writes r as GitHub-flavoured Markdown for a pull-request
// comment or $GITHUB_STEP_SUMMARY: the verdict on the first line, then,
// with a baseline gate, what is new against the baseline (regressions,
// fixes, outcomes no longer or newly judged), the gate lines, a
// leaderboard per summarizer, pass rates per summarizer × check type, then
// the failures worst first (errors, compaction regressions, invariant
// failures, structural failures, uncertain: SortFindings), truncated with "… and N more" so the whole
// stays within opts.MaxMarkdown bytes (the verdict and the tables are always
// written; only the failures list is cut).
func WriteMarkdown(w io.Writer, r *result.Result, opts Options) error {
	limit := opts.MaxMarkdown
	if limit <= 0 {
		limit = DefaultMaxMarkdown
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "**%s**\n\n", mdText(Verdict(r, opts.Gate)))
	if c := opts.comparison(); c != nil {
		writeBaselineMarkdown(&b, c)
	}
	if opts.Gate != nil {
		for _, l := range opts.Gate.Lines {
			fmt.Fprintf(&b, "- %s\n", mdCode(l, false))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "compact-eval %s · run %s · agent %s · %d trial(s) · tokenizer %s\n\n",
		mdWord(r.Harness), mdCode(r.RunID, false), mdCode(r.Config.Agent, false), max(1, r.Config.Trials), mdWord(r.Config.Tokenizer))
	if r.Interrupted {
		fmt.Fprintf(&b, "> [!WARNING]\n> The run was interrupted; resume with %s.\n\n", mdCode(r.Resume, false))
	}
	b.WriteString("### Leaderboard\n\nRanked by invariants kept, then fewest compaction regressions; a rate is over the applicable results (passed/applicable), with the skipped ones counted beside it.\n\n")
	b.WriteString("| summarizer | invariants kept | structural passed | decisions kept | compression (median) | summary tokens (mean) | latency (median) | errors | retries |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range result.Ranked(r) {
		dec := "–"
		if a := result.FindAggregate(r, s.Summarizer, result.CheckDecisions); a != nil {
			dec = rateCell(a)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f | %.0f | %s | %d | %d |\n", mdCode(s.Summarizer, true),
			Headline(s.InvariantPass, s.InvariantFail, s.InvariantUncertain, s.InvariantSkip), Headline(s.StructuralPass, s.StructuralFail, s.StructuralUncertain, s.StructuralSkip),
			dec, s.MedianCompression, s.MeanSummaryTokens, s.MedianLatency.Round(time.Millisecond), s.Errors, s.Retries)
	}
	writeTrialsMarkdown(&b, r)
	sums := result.Summarizers(r)
	b.WriteString("\n### Pass rate by check type\n\n| check |")
	for _, s := range sums {
		fmt.Fprintf(&b, " %s |", mdCode(s, true))
	}
	b.WriteString("\n|---|")
	for range sums {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, c := range result.CheckTypes(r) {
		fmt.Fprintf(&b, "| %s |", mdWord(c))
		for _, s := range sums {
			cell := "–"
			if a := result.FindAggregate(r, s, c); a != nil {
				cell = rateCell(a)
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	const interval = "its 95% interval clustered by scenario (Wilson's at the effective number of outcomes: a scenario's outcomes and trials are not independent)"
	if anyUncertain(r) {
		b.WriteString("\nPass rate = pass / (pass + fail + uncertain), with " + interval + ": an uncertain check (it could not tell) is never counted as passed; – means nothing to judge (skipped).\n")
	} else {
		b.WriteString("\nPass rate = pass / (pass + fail), with " + interval + "; – means nothing to judge (skipped).\n")
	}
	writeJudgeMarkdown(&b, r)
	if rows := RecallRows(r); rows != nil {
		fmt.Fprintf(&b, "\n### Recall arm\n\n%s.\n\n", mdText(RecallTitle(r.Config.Recall)))
		b.WriteString("| summarizer | regressions | by citation | by search only | lost | recoverable | recall cost per probe | evidence cited | dangling or irrelevant citations |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, row := range rows {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s | %s | %s |\n", mdCode(row.Summarizer, true), row.Regressions, row.ByCitation, row.BySearch, row.Lost, row.Recoverable, row.Cost(), row.EvidenceCited, row.BadCitations)
		}
	}
	writeRecordedMarkdown(&b, r)
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
			fmt.Fprintf(&tail, "- %s\n", mdCode(x, false))
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
				gen = fmt.Sprintf("t%d %s", f.Trial+1, gen)
			}
			line := fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", mdCode(f.Scenario, true), mdCode(f.Summarizer, true), gen, mdCode(f.Label(), true), seq, mdCode(msg, true))
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

// writeTrialsMarkdown writes how the outcomes varied between trials, for
// a run with several: the one line when none changed, else a table of the
// scenarios changed and pass^N per summarizer.
func writeTrialsMarkdown(b *bytes.Buffer, r *result.Result) {
	rows := TrialRows(r)
	if len(rows) == 0 {
		return
	}
	n := rows[0].Spread.Trials
	if TrialsIdentical(r, nil) {
		fmt.Fprintf(b, "\n%s.\n", mdText(TrialsIdenticalLine(n)))
		return
	}
	fmt.Fprintf(b, "\n### Across the %d trials\n\nScenarios whose outcomes changed between trials (with the outcomes that changed), and pass^%d: the scenarios that passed (nothing failed, uncertain or errored) in all %d trials, beside the share that passes in one trial.\n\n", n, n, n)
	fmt.Fprintf(b, "| summarizer | changed between trials | pass^%d | passed in one trial |\n|---|---:|---:|---:|\n", n)
	for _, row := range rows {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCode(row.Summarizer, true), row.Changed, row.PassN, row.PerTrial)
	}
}

// anyUncertain reports whether some check of r could not tell.
func anyUncertain(r *result.Result) bool {
	return slices.ContainsFunc(r.Aggregates, func(a result.Aggregate) bool { return a.Uncertain > 0 })
}

func rateCell(a *result.Aggregate) string {
	n := a.Judged()
	if n == 0 {
		if a.Error > 0 {
			return fmt.Sprintf("⚠ %d err", a.Error)
		}
		return "–"
	}
	s := fmt.Sprintf("%.0f%% [%.0f–%.0f] (%d/%d", 100*a.PassRate, 100*a.Low, 100*a.High, a.Pass, n)
	if a.Uncertain > 0 {
		s += fmt.Sprintf(", %d uncertain", a.Uncertain)
	}
	s += ")"
	if a.Error > 0 {
		s += fmt.Sprintf(" ⚠%d", a.Error)
	}
	return s
}

// Every string a Markdown writer takes from a result (a summary, a
// scenario, a model, a program's output, a name a config gave) is fenced in
// a code span, where nothing is Markdown: no link, image, emphasis, HTML,
// autolink, mention or math, whatever it holds. Harness-made text that
// embeds such strings (the verdict) is escaped instead.

// maxCell bounds one cell or inline string, in bytes.
const maxCell = 300

// mdLine makes s one line of at most maxCell bytes: line breaks become
// spaces, other control characters their \x escapes, and "##[" is broken.
func mdLine(s string) string {
	s = clip.String(s, maxCell)
	if strings.IndexFunc(s, isControl) >= 0 {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r == '\n' || r == '\r' || r == '\t':
				b.WriteByte(' ')
			case isControl(r):
				b.WriteString(escapeRune(r))
			default:
				b.WriteRune(r)
			}
		}
		s = b.String()
	}
	// A runner reads its legacy "##[command]" form anywhere in a line of a
	// log, and a Markdown report is often printed to one: a zero-width
	// space after the "##" breaks it and shows nothing.
	return strings.ReplaceAll(s, "##[", "##\u200b[")
}

// isControl reports a rune a reader must not get raw: C0 and C1 controls,
// line and paragraph separators, and format characters (Unicode Cf: bidi
// overrides and isolates such as U+202E, zero-width characters, the BOM),
// which can reorder or hide what a line seems to say.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// escapeRune writes r as \xHH or \uHHHH.
func escapeRune(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf("\\x%02x", r)
	}
	return fmt.Sprintf("\\u%04x", r)
}

func mdCode(s string, table bool) string {
	s = mdLine(s)
	if s == "" {
		return ""
	}
	if table && strings.Contains(s, "|") {
		s = escapePipes(s)
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escapePipes writes each '|' of s as `\|`, which a GFM table reads as a
// pipe inside its cell, even in a code span. The table scanner pairs
// backslashes from the left, so a pipe after an odd run of backslashes
// ("a\|b") would still end the cell: a zero-width space goes between.
func escapePipes(s string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '|':
			if run%2 == 1 {
				b.WriteString("\u200b")
			}
			b.WriteString(`\|`)
			run = 0
			continue
		case '\\':
			run++
		default:
			run = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdWord writes s as is when it is a plain word (letters, digits, and '.',
// '-', '_' or '+' between them, such as "o200k_base" or "v0.1.0-test"),
// which Markdown cannot read as anything but text, and fences it otherwise.
func mdWord(s string) string {
	ok := s != ""
	for i := 0; i < len(s) && ok; i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		inner := (c == '.' || c == '-' || c == '_' || c == '+') && i > 0 && i < len(s)-1 && isAlnum(s[i-1]) && isAlnum(s[i+1])
		ok = alnum || inner
	}
	if ok && !strings.Contains(strings.ToLower(s), "www.") {
		return s
	}
	return mdCode(s, true)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mdText escapes s for Markdown text outside a code span: every ASCII
// punctuation character Markdown or GitHub gives a meaning to is
// backslash-escaped (no emphasis, link, image, HTML, entity, strikethrough,
// table cell or math), "://" and "www." are broken so that no autolink
// forms, and the result is one line.
func mdText(s string) string {
	s = mdLine(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '#', '|', '~', '@', '&', '$':
			b.WriteByte('\\')
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				b.WriteByte('\\')
			}
		case '.':
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteByte('\\')
			}
		case '-':
			if i == 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
