package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/compact-eval/compact-eval/result"
)

//go:embed report.html.tmpl
var htmlTemplateText string

// htmlTemplate is parsed on first use: every command links this package,
// and only the HTML report needs the template (parsing it cost ~1 ms of
// start-up).
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":      func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
		"ms":       func(d time.Duration) string { return d.Round(time.Millisecond).String() },
		"add":      func(a, b int) int { return a + b },
		"checkdoc": CheckDoc,
		"words":    func(s string) string { return strings.ReplaceAll(s, "_", " ") },
		"pctof":    pct,
		"interval": func(r HeadToHeadRow) string { return fmt.Sprintf("[%+.1f%%, %+.1f%%]", 100*r.Low, 100*r.High) },
		"pvalue":   func(p float64) string { return "p" + pValue(p) },
		"deltapct": func(r HeadToHeadRow) string { return r.deltaText() },
		"headline": Headline,
		"frac":     func(pass, fail int) string { return pct(pass, pass+fail) },
		"safeCSS":  func(s string) template.CSS { return template.CSS(s) },
		"indent":   func(n int) string { return strings.Repeat("  ", n) },
	}).Parse(htmlTemplateText))
})

// WriteHTML writes r as one self-contained HTML page: no external asset,
// inline CSS, server-rendered SVG charts (a heatmap of summarizer × check
// type pass rates, retention against compression ratio, retention by
// generation), the leaderboard, the failures, and a drill-down per unit (the
// summary with each check's evidence highlighted, the full-vs-compacted
// decision diff). The worst opts.MaxDrillDown units get a drill-down; the
// others one row each, which keeps large runs small. Control characters
// of the result's texts are shown escaped, never written raw
// (EscapeControls).
func WriteHTML(w io.Writer, r *result.Result, opts Options) error {
	v := buildHTMLView(r, opts)
	var b bytes.Buffer
	if err := htmlTemplate().Execute(&b, v); err != nil {
		return fmt.Errorf("rendering html: %w", err)
	}
	_, err := w.Write(EscapeControls(b.Bytes()))
	return err
}

type htmlView struct {
	Title, Verdict string
	Failed         bool
	GateLines      []string
	Baseline       *baselineHTML
	Provenance     [][2]string
	Warnings       []string
	Heatmap        template.HTML
	Scatter        template.HTML
	Drift          template.HTML
	Summaries      []result.SummarizerSummary
	CheckTypes     []string
	Rates          []htmlRateRow
	Findings       []Finding
	MoreFindings   int
	Units          []htmlUnit
	Rows           []htmlUnitRow
	Trials         int
	Judge          template.HTML
	// Groups are the failures by scenario, then check.
	Groups []htmlFindingGroup
	// Glossary explains every check type of the run.
	Glossary [][2]string
	// HeadToHead compares pairs of summarizers of the run.
	HeadToHead []htmlHeadToHead
	// TrialsLine is TrialsIdenticalLine when every summarizer's trials
	// were identical; TrialRows the spread across trials otherwise.
	TrialsLine string
	TrialRows  []TrialRow
	// RecallTitle and Recall are the recall arm's figures (run --recall).
	RecallTitle string
	Recall      []RecallRow
}

type htmlFindingGroup struct {
	Scenario string
	N        int
	Checks   []htmlCheckGroup
}

type htmlCheckGroup struct {
	Label, Doc string
	Findings   []htmlFinding
}

// htmlFinding is a failure with the address of its check (or probe, or
// unit) in the drill-down.
type htmlFinding struct {
	Finding
	Href string
}

type htmlHeadToHead struct {
	*HeadToHead
	Side [][3]string
	// ID is the section's id; Shown is set on the pair shown first.
	ID    string
	Shown bool
}

type htmlRateRow struct {
	Check string
	Cells []htmlRateCell
}

type htmlRateCell struct {
	Text, Title, Color string
}

type htmlUnitRow struct {
	Anchor, Scenario, Summarizer, Status string
	Trial, Fails, Regressions, Errors    int
	Uncertain                            int
}

type htmlUnit struct {
	htmlUnitRow
	Title, File, Digest, Error string
	// Skipped says why the summarizer did not apply (result.Unit.Skipped).
	Skipped     string
	Duration    time.Duration
	Warnings    []string
	Generations []htmlGen
	Probes      []htmlProbe
	Open        bool
}

type htmlProbe struct {
	result.Probe
	Anchor string
}

type htmlGen struct {
	result.Generation
	Ratio   float64
	Checks  []htmlCheck
	Summary []SummaryLine
	// Sections are the summary as a reader sees it (nil when it is not a
	// summary document: Summary, the raw JSON, is then shown alone).
	Sections []SummarySection
}

type htmlCheck struct {
	result.CheckResult
	Label    string
	Evidence []string
	Anchor   string
}

// SummaryLine is one line of a summary's JSON as SummaryLines renders it:
// its indent, text (escaped, evidence texts marked), the class and title
// of the checks whose evidence points at it, and its value's JSON pointer.
type SummaryLine struct {
	Indent  int
	Class   string
	Title   string
	HTML    template.HTML
	Pointer string
}

// maxHTMLFindings bounds the failure table of the HTML page.
const maxHTMLFindings = 500

func buildHTMLView(r *result.Result, opts Options) *htmlView {
	v := &htmlView{
		Title:   "compact-eval report " + r.RunID,
		Verdict: strings.TrimLeft(Verdict(r, opts.Gate), "❌✅ "),
		Trials:  max(1, r.Config.Trials),
		Judge:   judgeHTML(r),
	}
	v.Baseline = buildBaselineHTML(opts.comparison())
	if opts.Gate != nil {
		v.GateLines = opts.Gate.Lines
		v.Failed = opts.Gate.Failed
	}
	c := Count(r)
	if opts.Gate == nil {
		v.Failed = c.InvariantFail+c.Regressions+c.StructuralFail+c.Errors+c.Uncertain > 0
	}
	v.Provenance = [][2]string{
		{"harness", r.Harness}, {"run", r.RunID}, {"started", r.Started.UTC().Format(time.RFC3339)},
		{"agent", r.Config.Agent}, {"tokenizer", r.Config.Tokenizer}, {"trials", strconv.Itoa(max(1, r.Config.Trials))},
		{"summarizers", strings.Join(result.Summarizers(r), ", ")}, {"paths", strings.Join(r.Config.Paths, ", ")},
	}
	if len(r.Config.Paths) == 0 {
		v.Provenance[len(v.Provenance)-1][1] = "the built-in suite"
	}
	for _, kv := range [][2]string{{"--run", r.Config.Run}, {"--scenario", strings.Join(r.Config.Scenarios, ", ")}} {
		if kv[1] != "" {
			v.Provenance = append(v.Provenance, kv)
		}
	}
	// No empty header line: a value the run does not have is left out.
	v.Provenance = slices.DeleteFunc(v.Provenance, func(kv [2]string) bool { return strings.TrimSpace(kv[1]) == "" })
	if r.Config.Shard != "" {
		v.Provenance = append(v.Provenance, [2]string{"shard", r.Config.Shard})
	}
	if r.Interrupted {
		v.Warnings = append(v.Warnings, "the run was interrupted; resume with: "+r.Resume)
	}
	v.Warnings = append(v.Warnings, r.Warnings...)
	v.Heatmap, v.Scatter, v.Drift = heatmapSVG(r), scatterSVG(r), driftSVG(r)
	v.Summaries = result.Ranked(r)
	if v.TrialRows = TrialRows(r); v.TrialRows != nil && TrialsIdentical(r, nil) {
		v.TrialsLine = TrialsIdenticalLine(v.Trials)
	}
	if v.Recall = RecallRows(r); v.Recall != nil {
		v.RecallTitle = RecallTitle(r.Config.Recall)
	}
	sums := result.Summarizers(r)
	v.CheckTypes = sums
	for _, ck := range result.CheckTypes(r) {
		row := htmlRateRow{Check: ck}
		for _, s := range sums {
			cell := htmlRateCell{Text: "–", Color: "#eeeeee"}
			if a := result.FindAggregate(r, s, ck); a != nil {
				cell.Text = rateCell(a)
				cell.Title = fmt.Sprintf("pass %d, fail %d, uncertain %d, error %d, skip %d", a.Pass, a.Fail, a.Uncertain, a.Error, a.Skip)
				if a.Judged() > 0 {
					cell.Color = rateColor(a.PassRate)
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rates = append(v.Rates, row)
	}
	f := Findings(r)
	if len(f) > maxHTMLFindings {
		v.MoreFindings = len(f) - maxHTMLFindings
		f = f[:maxHTMLFindings]
	}
	v.Findings = f
	for _, ck := range result.CheckTypes(r) {
		if d := CheckDoc(ck); d != "" {
			v.Glossary = append(v.Glossary, [2]string{ck, d})
		} else {
			v.Glossary = append(v.Glossary, [2]string{ck, "a check this report does not know (a custom check): see its messages"})
		}
	}
	v.HeadToHead = htmlHeadToHeads(r)

	// Units, worst first.
	type scored struct {
		i     int
		row   htmlUnitRow
		score int
	}
	var us []scored
	for i := range r.Units {
		u := &r.Units[i]
		row := htmlUnitRow{Anchor: UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial), Scenario: u.Scenario.ID, Summarizer: u.Summarizer, Status: u.Status, Trial: u.Trial}
		if u.Status == result.UnitError {
			row.Errors++
		}
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				switch c.Status {
				case result.Fail:
					row.Fails++
				case result.Error:
					row.Errors++
				case result.Uncertain:
					row.Uncertain++
				}
			}
		}
		for _, p := range u.Probes {
			switch p.Class {
			case result.CompactionRegression:
				row.Regressions++
			case result.ProbeUncertain:
				row.Uncertain++
			case result.ProbeErrored:
				row.Errors++
			}
		}
		us = append(us, scored{i, row, 3*row.Regressions + 2*row.Fails + row.Errors + row.Uncertain})
	}
	sort.SliceStable(us, func(a, b int) bool { return us[a].score > us[b].score })
	limit := opts.MaxDrillDown
	if limit == 0 {
		limit = DefaultMaxDrillDown
	}
	drilled := map[string]bool{}
	for k, s := range us {
		if limit >= 0 && k >= limit {
			v.Rows = append(v.Rows, s.row)
			continue
		}
		drilled[s.row.Anchor] = true
		v.Units = append(v.Units, buildHTMLUnit(&r.Units[s.i], s.row, k == 0))
	}
	units := map[string]*result.Unit{}
	for i := range r.Units {
		u := &r.Units[i]
		units[UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial)] = u
	}
	v.Groups = groupFindings(f, func(f Finding) string {
		a := UnitAnchor(f.Scenario, f.Summarizer, f.Trial)
		if u := units[a]; u != nil {
			return findingAnchor(u, f, drilled[a])
		}
		return a
	})
	return v
}

func buildHTMLUnit(u *result.Unit, row htmlUnitRow, open bool) htmlUnit {
	hu := htmlUnit{htmlUnitRow: row, Title: u.Scenario.Title, File: u.Scenario.File, Digest: u.Scenario.Digest,
		Error: u.Error, Skipped: u.Skipped, Duration: u.Duration, Warnings: u.Warnings, Open: open}
	for k, p := range u.Probes {
		hu.Probes = append(hu.Probes, htmlProbe{Probe: p, Anchor: probeAnchor(row.Anchor, k)})
	}
	for _, g := range u.Generations {
		hg := htmlGen{Generation: g}
		if g.ReplacedTokens > 0 && len(g.Summary) > 0 {
			hg.Ratio = float64(g.SummaryTokens) / float64(g.ReplacedTokens)
		}
		for j, c := range g.Checks {
			hc := htmlCheck{CheckResult: c, Label: c.Check, Anchor: checkAnchor(row.Anchor, g.N, j)}
			if c.Invariant != "" {
				hc.Label += "/" + c.Invariant
			}
			for _, e := range c.Evidence {
				hc.Evidence = append(hc.Evidence, strings.TrimPrefix(evidenceText([]result.Evidence{e}), "\n  evidence: "))
			}
			hg.Checks = append(hg.Checks, hc)
		}
		hg.Summary = SummaryLines(g.Summary, g.Checks)
		hg.Sections = SummarySections(g.Summary, g.Checks)
		hu.Generations = append(hu.Generations, hg)
	}
	return hu
}

type jsonLine struct {
	ptr    string
	indent int
	text   string
}

// prettyJSON renders raw JSON one value per line, each line with the JSON
// pointer of its value, keeping the document's key order.
func prettyJSON(raw []byte) ([]jsonLine, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []jsonLine
	var walk func(ptr string, indent int, prefix string) error
	walk = func(ptr string, indent int, prefix string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		d, isDelim := tok.(json.Delim)
		if !isDelim {
			out = append(out, jsonLine{ptr, indent, prefix + rawJSON(tok)})
			return nil
		}
		open, closing := "{", "}"
		if d == '[' {
			open, closing = "[", "]"
		}
		out = append(out, jsonLine{ptr, indent, prefix + open})
		start := len(out)
		for i := 0; dec.More(); i++ {
			if i > 0 {
				out[len(out)-1].text += ","
			}
			child, pre := ptr+"/"+strconv.Itoa(i), ""
			if d == '{' {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				child, pre = ptr+"/"+pointerEscape(key), rawJSON(key)+": "
			}
			if err := walk(child, indent+1, pre); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if len(out) == start {
			out[len(out)-1].text += closing
			return nil
		}
		out = append(out, jsonLine{ptr, indent, closing})
		return nil
	}
	if err := walk("", 0, ""); err != nil {
		return nil, err
	}
	return out, nil
}

// rawJSON is v as JSON without the HTML escapes (\u003c, \u003e, \u0026)
// that encoding/json adds: the page escapes once, for HTML.
func rawJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func pointerEscape(s string) string { return pointerEscaper.Replace(s) }

// SummaryLines renders a summary with the lines each check's evidence
// points at highlighted (class fail or pass, the checks in the title) and
// evidence texts marked.
func SummaryLines(raw json.RawMessage, cs []result.CheckResult) []SummaryLine {
	if len(raw) == 0 {
		return nil
	}
	lines, err := prettyJSON(raw)
	if err != nil {
		return []SummaryLine{{Class: "fail", HTML: template.HTML(template.HTMLEscapeString(string(raw)))}}
	}
	out := make([]SummaryLine, len(lines))
	for i, l := range lines {
		hl := SummaryLine{Indent: l.indent, Pointer: l.ptr}
		var titles []string
		marked := map[string]bool{}
		body := template.HTMLEscapeString(l.text)
		for _, c := range cs {
			for _, e := range c.Evidence {
				if e.Pointer == "" || !(l.ptr == e.Pointer || strings.HasPrefix(l.ptr, e.Pointer+"/")) {
					continue
				}
				label := c.Check
				if c.Invariant != "" {
					label += "/" + c.Invariant
				}
				titles = append(titles, label+": "+string(c.Status))
				switch {
				case c.Status == result.Fail:
					hl.Class = "fail"
				case hl.Class == "":
					hl.Class = "pass"
				}
				if e.Text != "" && !marked[e.Text] {
					marked[e.Text] = true
					t := template.HTMLEscapeString(e.Text)
					body = strings.ReplaceAll(body, t, "<mark>"+t+"</mark>")
				}
			}
		}
		hl.Title = strings.Join(titles, "; ")
		hl.HTML = template.HTML(body)
		out[i] = hl
	}
	return out
}

// groupFindings groups the failures by scenario (in their order, worst
// first) and, within one, by check label.
func groupFindings(fs []Finding, href func(Finding) string) []htmlFindingGroup {
	var out []htmlFindingGroup
	at := map[string]int{}
	for _, f := range fs {
		i, ok := at[f.Scenario]
		if !ok {
			i = len(out)
			at[f.Scenario] = i
			out = append(out, htmlFindingGroup{Scenario: f.Scenario})
		}
		g := &out[i]
		g.N++
		label := f.Label()
		j := slices.IndexFunc(g.Checks, func(c htmlCheckGroup) bool { return c.Label == label })
		if j < 0 {
			g.Checks = append(g.Checks, htmlCheckGroup{Label: label, Doc: CheckDoc(f.Check)})
			j = len(g.Checks) - 1
		}
		g.Checks[j].Findings = append(g.Checks[j].Findings, htmlFinding{Finding: f, Href: href(f)})
	}
	return out
}

// maxHTMLHeadToHeads bounds the head-to-head pairs the reader chooses
// from: every pair of summarizers up to this many (10 summarizers), else
// each summarizer against the first.
const maxHTMLHeadToHeads = 45

// htmlHeadToHeads compares the summarizers of r pairwise (the control arm
// builtin:none left out: it has no summary to compare); the page lists the
// pairs and shows the one chosen, the first at first.
func htmlHeadToHeads(r *result.Result) []htmlHeadToHead {
	control := controlArms(r)
	var sums []string
	for _, s := range result.Summarizers(r) {
		if !control[s] {
			sums = append(sums, s)
		}
	}
	var pairs [][2]string
	for i := range sums {
		for j := i + 1; j < len(sums); j++ {
			pairs = append(pairs, [2]string{sums[i], sums[j]})
		}
	}
	if len(pairs) > maxHTMLHeadToHeads {
		pairs = pairs[:len(sums)-1] // the first against each other
	}
	var out []htmlHeadToHead
	for _, p := range pairs {
		h := CompareSummarizers(r, p[0], p[1], DefaultAlpha)
		if h.NothingPaired() {
			continue
		}
		out = append(out, htmlHeadToHead{HeadToHead: h, Side: h.sideBySide(), ID: fmt.Sprintf("h2h-%d", len(out)), Shown: len(out) == 0})
	}
	return out
}
