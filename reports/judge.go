package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/result"
)

// maxDisagreementRows bounds the disagreements a Markdown report lists.
const maxDisagreementRows = 30

// writeJudgeMarkdown writes the judge's section: its verdict counts per
// summarizer, then the disagreements with the checks, worst kind first
// (a pass the judge calls contradicted). Nothing without a judge.
func writeJudgeMarkdown(b *bytes.Buffer, r *result.Result) {
	if len(r.Judge) == 0 {
		return
	}
	gate := ""
	if r.Config.JudgeGate {
		gate = " · --judge-gate: a contradicted verdict fails its invariant"
	}
	fmt.Fprintf(b, "\n### Judge %s%s\n\n", mdCode(r.Config.Judge, false), gate)
	b.WriteString("| summarizer | judged | kept | contradicted | missing | errors | agree | pass→contradicted | fail→kept |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Judge {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", mdCode(s.Summarizer, true), s.Judged, s.Kept, s.Contradicted,
			s.Missing, s.Errors, s.Agree, s.PassContradicted, s.FailKept)
	}
	if len(r.Disagreements) == 0 {
		b.WriteString("\n" + agreementLine(r) + "\n")
		return
	}
	list := slices.Clone(r.Disagreements)
	slices.SortStableFunc(list, func(a, b result.Disagreement) int { return strings.Compare(b.Kind, a.Kind) })
	fmt.Fprintf(b, "\n### Disagreements between checks and judge (%d)\n\n", len(list))
	b.WriteString("| scenario | summarizer | gen | invariant | check | judge | quote |\n|---|---|---:|---|---|---|---|\n")
	for i, d := range list {
		if i == maxDisagreementRows {
			fmt.Fprintf(b, "\n… and %d more (result.json lists them all)\n", len(list)-i)
			break
		}
		gen := fmt.Sprintf("g%d", d.Generation)
		if r.Config.Trials > 1 {
			gen = fmt.Sprintf("t%d %s", d.Trial+1, gen)
		}
		check := string(d.Status)
		if d.Gated {
			check += " (gated to fail)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s %s | %s | %s: %s | %s |\n", mdCode(d.Scenario, true), mdCode(d.Summarizer, true), gen,
			mdWord(d.Check), mdCode(d.Invariant, true), check, mdWord(d.Verdict), mdCode(clip.String(d.Reason, 160), true), mdCode(clip.String(d.Quote, 120), true))
	}
}

// agreementLine says what a run without disagreements shows: full
// agreement only when every judged invariant got a verdict that agrees with
// its check; else what was neither agreement nor disagreement (a passed
// check the judge calls missing, an errored check) and how many judgements
// failed.
func agreementLine(r *result.Result) string {
	var judged, errs, agree, passMissing int
	for _, s := range r.Judge {
		judged, errs, agree = judged+s.Judged, errs+s.Errors, agree+s.Agree
	}
	if judged == errs {
		return fmt.Sprintf("The judge gave no verdict (%d judgements failed).", errs)
	}
	if agree == judged {
		return "The judge agrees with every check it gave a verdict on."
	}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				status := c.Status
				if c.Judge != nil && c.Judge.Overrode != "" {
					status = c.Judge.Overrode
				}
				if c.Judge != nil && c.Judge.Verdict == "missing" && status == result.Pass {
					passMissing++
				}
			}
		}
	}
	var parts []string
	if passMissing > 0 {
		parts = append(parts, fmt.Sprintf("%d passed check the judge calls missing", passMissing))
	}
	if errs > 0 {
		parts = append(parts, fmt.Sprintf("%d judgements failed", errs))
	}
	if other := judged - errs - agree - passMissing; other > 0 {
		parts = append(parts, fmt.Sprintf("%d verdicts on checks that neither passed nor failed", other))
	}
	return "No check and judge disagree outright (check pass / judge contradicted, check fail / judge kept); not agreement either: " + strings.Join(parts, ", ") + "."
}

// judgeHTML is the judge's section of the HTML report: the verdict counts
// per summarizer and the disagreements (at most maxDisagreementRows), or
// "" without a judge. Every text is escaped.
func judgeHTML(r *result.Result) template.HTML {
	if len(r.Judge) == 0 {
		return ""
	}
	e := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<h2 id=\"judge\">Judge <code>%s</code></h2>\n", e(r.Config.Judge))
	if r.Config.JudgeGate {
		b.WriteString("<p>--judge-gate: a contradicted verdict fails its invariant.</p>\n")
	}
	b.WriteString("<table><tr><th>summarizer</th><th>judged</th><th>kept</th><th>contradicted</th><th>missing</th><th>errors</th><th>agree</th><th>pass→contradicted</th><th>fail→kept</th></tr>\n")
	for _, s := range r.Judge {
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td></tr>\n",
			e(s.Summarizer), s.Judged, s.Kept, s.Contradicted, s.Missing, s.Errors, s.Agree, s.PassContradicted, s.FailKept)
	}
	b.WriteString("</table>\n")
	if len(r.Disagreements) == 0 {
		return template.HTML(b.String())
	}
	list := slices.Clone(r.Disagreements)
	slices.SortStableFunc(list, func(a, b result.Disagreement) int { return strings.Compare(b.Kind, a.Kind) })
	fmt.Fprintf(&b, "<h3>Disagreements between checks and judge (%d)</h3>\n<table id=\"disagreements\"><tr><th>scenario</th><th>summarizer</th><th>trial</th><th>gen</th><th>invariant</th><th>check</th><th>judge</th><th>quote</th></tr>\n", len(list))
	for i, d := range list {
		if i == maxDisagreementRows {
			fmt.Fprintf(&b, "<tr><td colspan=\"8\">… and %d more (result.json lists them all)</td></tr>\n", len(list)-i)
			break
		}
		check := string(d.Status)
		if d.Gated {
			check += " (gated to fail)"
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td><code>%s</code></td><td class=\"num\">%d</td><td class=\"num\">g%d</td><td>%s %s</td><td>%s</td><td>%s: %s</td><td>%s</td></tr>\n",
			e(d.Scenario), e(d.Summarizer), d.Trial, d.Generation, e(d.Check), e(d.Invariant), e(check), e(d.Verdict), e(clip.String(d.Reason, 200)), e(clip.String(d.Quote, 200)))
	}
	b.WriteString("</table>\n")
	return template.HTML(b.String())
}
