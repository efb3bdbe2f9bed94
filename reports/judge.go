package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/checks"
	"github.com/compact-eval/compact-eval/internal/clip"
)

// Disagreement kinds: the deterministic check and the model judge read the
// same invariant of the same summary differently.
const (
	// PassContradicted: the check passed, the judge says the summary
	// contradicts the fact (a loss no pattern anticipated, or a judge's
	// false alarm).
	PassContradicted = "check_pass_judge_contradicted"
	// FailKept: the check failed, the judge says the summary keeps the fact
	// (a paraphrase the patterns missed, or a judge that was fooled).
	FailKept = "check_fail_judge_kept"
)

// Disagreement is one invariant of one generation on which the check and
// the judge disagree. Status is the check's own status (before any
// --judge-gate override; Gated says the gate turned it into a fail).
type Disagreement struct {
	Kind       string        `json:"kind"`
	Scenario   string        `json:"scenario"`
	Summarizer string        `json:"summarizer"`
	Trial      int           `json:"trial"`
	Generation int           `json:"generation"`
	Check      string        `json:"check"`
	Invariant  string        `json:"invariant"`
	Status     checks.Status `json:"status"`
	Gated      bool          `json:"gated,omitempty"`
	Verdict    string        `json:"verdict"`
	Quote      string        `json:"quote,omitempty"`
	Reason     string        `json:"reason,omitempty"`
	Line       int           `json:"line,omitempty"`
}

// JudgeSummary counts one summarizer's judged invariants: the judge's
// verdicts, its errors (a judgement with no verdict), how often it agreed
// with the check (kept on a pass; contradicted or missing on a fail) and
// the disagreements of either kind. Free-text answers graded by the judge
// are counted in Answers (correct, incorrect, unsure, errors).
type JudgeSummary struct {
	Summarizer       string `json:"summarizer"`
	Judged           int    `json:"judged"`
	Kept             int    `json:"kept"`
	Contradicted     int    `json:"contradicted"`
	Missing          int    `json:"missing"`
	Errors           int    `json:"errors"`
	Agree            int    `json:"agree"`
	PassContradicted int    `json:"check_pass_judge_contradicted"`
	FailKept         int    `json:"check_fail_judge_kept"`
	Gated            int    `json:"gated,omitempty"`
	Answers          struct {
		Correct   int `json:"correct"`
		Incorrect int `json:"incorrect"`
		Unsure    int `json:"unsure"`
		Errors    int `json:"errors"`
	} `json:"answers"`
}

// judgeFigures computes r.Judge and r.Disagreements from the units; both
// are nil when no judgement was recorded.
func (r *Result) judgeFigures() {
	r.Judge, r.Disagreements = nil, nil
	sums := map[string]*JudgeSummary{}
	get := func(name string) *JudgeSummary {
		s := sums[name]
		if s == nil {
			s = &JudgeSummary{Summarizer: name}
			sums[name] = s
		}
		return s
	}
	for _, u := range r.Units {
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				j := c.Judge
				if j == nil {
					continue
				}
				s := get(u.Summarizer)
				s.Judged++
				status := c.Status
				if j.Overrode != "" {
					status = j.Overrode
					s.Gated++
				}
				switch j.Verdict {
				case "kept":
					s.Kept++
				case "contradicted":
					s.Contradicted++
				case "missing":
					s.Missing++
				default:
					s.Errors++
					continue
				}
				kind := ""
				switch {
				case status == checks.Pass && j.Verdict == "contradicted":
					kind, s.PassContradicted = PassContradicted, s.PassContradicted+1
				case status == checks.Fail && j.Verdict == "kept":
					kind, s.FailKept = FailKept, s.FailKept+1
				case status == checks.Pass && j.Verdict == "kept", status == checks.Fail:
					s.Agree++
				}
				if kind != "" {
					r.Disagreements = append(r.Disagreements, Disagreement{Kind: kind, Scenario: u.Scenario.ID, Summarizer: u.Summarizer,
						Trial: u.Trial, Generation: g.N, Check: c.Check, Invariant: c.Invariant, Status: status, Gated: j.Overrode != "",
						Verdict: j.Verdict, Quote: j.Quote, Reason: j.Reason, Line: c.Pos.Line})
				}
			}
		}
		for _, p := range u.Probes {
			for _, d := range []*Decision{&p.Full, &p.Compacted} {
				j := d.Judge
				if j == nil {
					continue
				}
				s := get(u.Summarizer)
				switch j.Verdict {
				case "correct":
					s.Answers.Correct++
				case "incorrect":
					s.Answers.Incorrect++
				case "unsure":
					s.Answers.Unsure++
				default:
					s.Answers.Errors++
				}
			}
		}
	}
	for _, name := range Summarizers(r) {
		if s := sums[name]; s != nil {
			r.Judge = append(r.Judge, *s)
		}
	}
}

// maxDisagreementRows bounds the disagreements a Markdown report lists.
const maxDisagreementRows = 30

// writeJudgeMarkdown writes the judge's section: its verdict counts per
// summarizer, then the disagreements with the checks, worst kind first
// (a pass the judge calls contradicted). Nothing without a judge.
func writeJudgeMarkdown(b *bytes.Buffer, r *Result) {
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
	slices.SortStableFunc(list, func(a, b Disagreement) int { return strings.Compare(b.Kind, a.Kind) })
	fmt.Fprintf(b, "\n### Disagreements between checks and judge (%d)\n\n", len(list))
	b.WriteString("| scenario | summarizer | gen | invariant | check | judge | quote |\n|---|---|---:|---|---|---|---|\n")
	for i, d := range list {
		if i == maxDisagreementRows {
			fmt.Fprintf(b, "\n… and %d more (result.json lists them all)\n", len(list)-i)
			break
		}
		gen := fmt.Sprintf("g%d", d.Generation)
		if r.Config.Trials > 1 {
			gen = fmt.Sprintf("t%d %s", d.Trial, gen)
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
func agreementLine(r *Result) string {
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
				if c.Judge != nil && c.Judge.Verdict == "missing" && status == checks.Pass {
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
func judgeHTML(r *Result) template.HTML {
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
	slices.SortStableFunc(list, func(a, b Disagreement) int { return strings.Compare(b.Kind, a.Kind) })
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
