package audit

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"unicode/utf8"
)

// Formats are the names Write takes.
var Formats = []string{"table", "json", "html"}

// Write renders the report in a format: "table" (a person's: the verdict
// line, a row a session, then what was lost, repeated and reopened, and
// where), "json" (one indented document, docs/guard.md) or "html" (one
// self-contained page). An unknown name is an error listing the valid
// ones.
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "table", "":
		return writeTable(w, r)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	case "html":
		return page.Execute(w, view(r))
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// Verdict is the report in one line: what production should watch.
func Verdict(r *Report) string {
	t := r.Totals
	var b strings.Builder
	fmt.Fprintf(&b, "audit: %s in %s", count(t.Sessions, "session", "sessions"), r.Dir)
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, " (%d skipped)", len(r.Skipped))
	}
	fmt.Fprintf(&b, ": %s", count(t.Compactions, "compaction", "compactions"))
	if t.Audited < t.Compactions {
		fmt.Fprintf(&b, " (%d with a summary to check)", t.Audited)
	}
	fmt.Fprintf(&b, ", %.1f a session, %.1f per 100k tokens", t.PerSession, t.Per100k)
	if t.Audited == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "; median compression %.4f (%d of %d against the log's own count)", t.MedianCompression, t.FromLog, t.Audited)
	fmt.Fprintf(&b, "; %s lost in %s (%.2f a compaction), %d uncertain, %d kept",
		count(t.Lost, "invariant", "invariants"), count(t.Audited, "compaction", "compactions"), t.LostPerCompaction, t.Uncertain, t.Kept)
	fmt.Fprintf(&b, "; %s repeated, %s reopened", count(t.Repeated, "tool call", "tool calls"), count(t.Reopened, "question", "questions"))
	fmt.Fprintf(&b, "; tool errors %s before, %s after", pct(t.Before), pct(t.After))
	return b.String()
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// pct is "12% (3/25)", or "— (0 calls)".
func pct(w Window) string {
	if w.Calls == 0 {
		return "— (0 calls)"
	}
	return fmt.Sprintf("%.0f%% (%d/%d)", 100*w.Rate(), w.Errors, w.Calls)
}

func writeTable(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString(Verdict(r) + "\n\n")
	rows := [][]string{{"session", "format", "events", "tokens", "compactions", "per 100k", "compression", "lost", "uncertain", "repeated", "reopened", "errors before", "errors after"}}
	for _, s := range r.Sessions {
		var lost, unsure, rep, reo int
		var before, after Window
		var ratios []float64
		excerpt := false
		for _, c := range s.Compactions {
			lost += c.Lost
			unsure += c.Uncertain
			rep += len(c.Repeated)
			reo += len(c.Reopened)
			before.Calls, before.Errors = before.Calls+c.Before.Calls, before.Errors+c.Before.Errors
			after.Calls, after.Errors = after.Calls+c.After.Calls, after.Errors+c.After.Errors
			if c.ReplacedTokens > 0 {
				ratios = append(ratios, c.Compression)
			}
			excerpt = excerpt || c.Excerpt
		}
		comp := "—"
		if len(ratios) > 0 {
			comp = fmt.Sprintf("%.4f", median(ratios))
			if excerpt {
				comp += " (excerpt)"
			}
		}
		n := fmt.Sprint(len(s.Compactions) + s.Unaudited)
		if s.Unaudited > 0 {
			n += fmt.Sprintf(" (%d no summary)", s.Unaudited)
		}
		rows = append(rows, []string{s.File, s.Format, fmt.Sprint(s.Events), fmt.Sprint(s.Tokens), n, fmt.Sprintf("%.1f", s.Per100k),
			comp, fmt.Sprint(lost), fmt.Sprint(unsure), fmt.Sprint(rep), fmt.Sprint(reo), pct(before), pct(after)})
	}
	align(&b, rows)
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("\n" + title + "\n")
		for _, l := range lines {
			b.WriteString("  " + l + "\n")
		}
	}
	var lost, rep, reo []string
	for _, s := range r.Sessions {
		for _, c := range s.Compactions {
			for _, l := range c.LostList {
				what := l.Check
				if l.Invariant != "" {
					what += " " + l.Invariant
				}
				lost = append(lost, fmt.Sprintf("%s · %d · %s (%s) · %d · %s", s.File, c.Boundary, what, l.Origin, l.SourceSeq, l.Message))
			}
			for _, x := range c.Repeated {
				rep = append(rep, fmt.Sprintf("%s · %d · %d · %s %s · %d", s.File, c.Boundary, x.Seq, x.Tool, x.Args, x.FirstSeq))
			}
			for _, x := range c.Reopened {
				reo = append(reo, fmt.Sprintf("%s · %d · %d · %q · %d, answered at %d", s.File, c.Boundary, x.Seq, x.Question, x.AskedSeq, x.AnsweredSeq))
			}
		}
	}
	section("lost (session · compaction after seq · invariant · source seq · why):", lost)
	section("tool calls repeated (session · compaction after seq · seq · call · the same call, with the same result, before at seq):", rep)
	section("questions reopened (session · compaction after seq · seq · question · asked before at seq):", reo)
	var skipped []string
	for _, s := range r.Skipped {
		skipped = append(skipped, s.File+": "+s.Why)
	}
	section("skipped (no session the importer reads):", skipped)
	_, err := io.WriteString(w, b.String())
	return err
}

// align writes rows as columns: the first two left-aligned, the others
// right-aligned, two spaces apart.
func align(b *strings.Builder, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				line.WriteString("  ")
			}
			if i < 2 {
				line.WriteString(c + pad)
			} else {
				line.WriteString(pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// pageView is what the HTML page shows.
type pageView struct {
	R       *Report
	Verdict string
	Before  string
	After   string
}

func view(r *Report) pageView {
	return pageView{R: r, Verdict: Verdict(r), Before: pct(r.Totals.Before), After: pct(r.Totals.After)}
}

var page = template.Must(template.New("audit").Funcs(template.FuncMap{
	"f4":  func(x float64) string { return fmt.Sprintf("%.4f", x) },
	"f1":  func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"f2":  func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"pct": pct,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>compact-eval audit: {{.R.Dir}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.3em} h2{font-size:1.1em;margin-top:2em}
table{border-collapse:collapse} td,th{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:right;vertical-align:top}
td:first-child,th:first-child,td.l,th.l{text-align:left}
.verdict{background:#f6f6f6;padding:.8em;border-left:4px solid #888}
.lost{color:#a00} code{font-size:.95em}
</style></head><body>
<h1>compact-eval audit of <code>{{.R.Dir}}</code></h1>
<p class="verdict">{{.Verdict}}</p>
<table>
<tr><th class="l">figure</th><th>value</th></tr>
<tr><td>sessions</td><td>{{.R.Totals.Sessions}}</td></tr>
<tr><td>compactions (with a summary)</td><td>{{.R.Totals.Compactions}} ({{.R.Totals.Audited}})</td></tr>
<tr><td>compactions per session</td><td>{{f1 .R.Totals.PerSession}}</td></tr>
<tr><td>compactions per 100k tokens</td><td>{{f1 .R.Totals.Per100k}}</td></tr>
<tr><td>median compression (against the log's own count)</td><td>{{f4 .R.Totals.MedianCompression}} ({{.R.Totals.FromLog}} of {{.R.Totals.Audited}})</td></tr>
<tr><td>invariants lost per compaction</td><td class="lost">{{f2 .R.Totals.LostPerCompaction}} ({{.R.Totals.Lost}} lost, {{.R.Totals.Uncertain}} uncertain, {{.R.Totals.Kept}} kept)</td></tr>
<tr><td>tool calls repeated after a compaction</td><td>{{.R.Totals.Repeated}}</td></tr>
<tr><td>questions reopened after a compaction</td><td>{{.R.Totals.Reopened}}</td></tr>
<tr><td>tool errors before → after (windows of {{.R.Window}} calls)</td><td>{{.Before}} → {{.After}}</td></tr>
</table>
<h2>Sessions</h2>
<table>
<tr><th class="l">session</th><th class="l">format</th><th>events</th><th>tokens</th><th>compactions</th><th>per 100k</th><th class="l">compactions: after seq · verdict · compression · lost · repeated · reopened · errors before → after</th></tr>
{{range .R.Sessions}}<tr><td><code>{{.File}}</code></td><td class="l">{{.Format}}</td><td>{{.Events}}</td><td>{{.Tokens}}</td><td>{{len .Compactions}}{{if .Unaudited}} + {{.Unaudited}} with no summary{{end}}</td><td>{{f1 .Per100k}}</td>
<td class="l">{{range .Compactions}}<div>{{.Boundary}} · {{.Verdict}} · {{f4 .Compression}}{{if .Excerpt}} (excerpt){{end}} · {{.Lost}} lost · {{len .Repeated}} repeated · {{len .Reopened}} reopened · {{pct .Before}} → {{pct .After}}</div>{{end}}</td></tr>
{{end}}</table>
<h2>Lost</h2>
<table><tr><th class="l">session</th><th>after seq</th><th class="l">invariant</th><th>source seq</th><th class="l">why</th></tr>
{{range $s := .R.Sessions}}{{range $c := .Compactions}}{{range .LostList}}<tr><td><code>{{$s.File}}</code></td><td>{{$c.Boundary}}</td><td class="l">{{.Check}} {{.Invariant}} ({{.Origin}})</td><td>{{.SourceSeq}}</td><td class="l">{{.Message}}</td></tr>
{{end}}{{end}}{{end}}</table>
<h2>Tool calls repeated</h2>
<table><tr><th class="l">session</th><th>after seq</th><th>seq</th><th class="l">call</th><th>first at</th></tr>
{{range $s := .R.Sessions}}{{range $c := .Compactions}}{{range .Repeated}}<tr><td><code>{{$s.File}}</code></td><td>{{$c.Boundary}}</td><td>{{.Seq}}</td><td class="l"><code>{{.Tool}} {{.Args}}</code></td><td>{{.FirstSeq}}</td></tr>
{{end}}{{end}}{{end}}</table>
<h2>Questions reopened</h2>
<table><tr><th class="l">session</th><th>after seq</th><th>seq</th><th class="l">question</th><th>asked at</th><th>answered at</th></tr>
{{range $s := .R.Sessions}}{{range $c := .Compactions}}{{range .Reopened}}<tr><td><code>{{$s.File}}</code></td><td>{{$c.Boundary}}</td><td>{{.Seq}}</td><td class="l">{{.Question}}</td><td>{{.AskedSeq}}</td><td>{{.AnsweredSeq}}</td></tr>
{{end}}{{end}}{{end}}</table>
{{if .R.Skipped}}<h2>Skipped</h2><ul>{{range .R.Skipped}}<li><code>{{.File}}</code>: {{.Why}}</li>{{end}}</ul>{{end}}
<p>Definitions: docs/guard.md, "Watching real sessions".</p>
</body></html>
`))
