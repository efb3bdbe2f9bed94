package reports

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/result"
)

// Server-rendered SVG charts for the HTML report. Every piece of text is
// escaped with esc; numbers are formatted by fmt.

var palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"}

func esc(s string) string { return html.EscapeString(s) }

func color(i int) string { return palette[i%len(palette)] }

// rateColor maps a pass rate to red → amber → green.
func rateColor(p float64) string {
	lerp := func(a, b [3]float64, t float64) string {
		return fmt.Sprintf("#%02x%02x%02x", int(a[0]+(b[0]-a[0])*t), int(a[1]+(b[1]-a[1])*t), int(a[2]+(b[2]-a[2])*t))
	}
	red, amber, green := [3]float64{215, 48, 39}, [3]float64{254, 224, 139}, [3]float64{26, 152, 80}
	if p < 0.5 {
		return lerp(red, amber, p/0.5)
	}
	return lerp(amber, green, (p-0.5)/0.5)
}

// heatmapSVG draws summarizers (rows) × check types (columns).
func heatmapSVG(r *result.Result) template.HTML {
	sums, cks := result.Summarizers(r), result.CheckTypes(r)
	const top, cw, ch = 120, 64, 34
	// Row labels get the width of the longest name (about 7 px a
	// character), up to maxLabel characters; a longer name is shortened in
	// the middle and shown whole in its tooltip and in the legend.
	const maxLabel = 48
	longest := 10
	for _, s := range sums {
		longest = max(longest, min(maxLabel, utf8.RuneCountInString(s)))
	}
	left := 16 + 7*longest
	w, h := left+cw*len(cks)+10, top+ch*len(sums)+10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="heatmap" role="img" aria-label="pass rate heatmap" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`, w, h, w, h)
	for j, c := range cks {
		x := left + cw*j + cw/2
		fmt.Fprintf(&b, `<text class="col" transform="translate(%d,%d) rotate(-45)">%s</text>`, x, top-8, esc(c))
	}
	for i, s := range sums {
		y := top + ch*i
		fmt.Fprintf(&b, `<text class="row" x="%d" y="%d" text-anchor="end"><title>%s</title>%s</text>`, left-8, y+ch/2+4, esc(s), esc(middleClip(s, maxLabel)))
		for j, c := range cks {
			x := left + cw*j
			a := result.FindAggregate(r, s, c)
			if a == nil || a.Judged() == 0 {
				label := "–"
				if a != nil && a.Error > 0 {
					label = "err"
				}
				fmt.Fprintf(&b, `<rect class="cell" x="%d" y="%d" width="%d" height="%d" fill="#eeeeee"><title>%s · %s: nothing to judge</title></rect><text class="v" x="%d" y="%d">%s</text>`,
					x+1, y+1, cw-2, ch-2, esc(s), esc(c), x+cw/2, y+ch/2+4, label)
				continue
			}
			fmt.Fprintf(&b, `<rect class="cell" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s · %s: %.1f%% (%d/%d in %s), 95%% CI %.1f–%.1f%% clustered by scenario, %d uncertain, %d errors, %d skipped</title></rect>`,
				x+1, y+1, cw-2, ch-2, rateColor(a.PassRate), esc(s), esc(c), 100*a.PassRate, a.Pass, a.Judged(), plural(a.Scenarios, "scenario"), 100*a.Low, 100*a.High, a.Uncertain, a.Error, a.Skip)
			fmt.Fprintf(&b, `<text class="v" x="%d" y="%d">%.0f%%</text>`, x+cw/2, y+ch/2+4, 100*a.PassRate)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

type plot struct {
	w, h, left, right, top, bottom int
	xmax, ymax                     float64
}

func (p plot) x(v float64) float64 {
	return float64(p.left) + v/p.xmax*float64(p.w-p.left-p.right)
}
func (p plot) y(v float64) float64 {
	return float64(p.h-p.bottom) - v/p.ymax*float64(p.h-p.top-p.bottom)
}

// axes draws the frame, ticks and labels.
func (p plot) axes(b *strings.Builder, xlabel, ylabel string, xticks []float64, xfmt func(float64) string) {
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>`, p.left, p.top, p.w-p.left-p.right, p.h-p.top-p.bottom)
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		y := p.y(v * p.ymax)
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e4e4e4"/><text class="tick" x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`,
			p.left, p.w-p.right, y, y, p.left-6, y+4, 100*v*p.ymax)
	}
	for _, v := range xticks {
		x := p.x(v)
		fmt.Fprintf(b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#999"/><text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			x, x, p.h-p.bottom, p.h-p.bottom+5, x, p.h-p.bottom+18, esc(xfmt(v)))
	}
	fmt.Fprintf(b, `<text class="axis" x="%d" y="%d" text-anchor="middle">%s</text>`, (p.left+p.w-p.right)/2, p.h-6, esc(xlabel))
	fmt.Fprintf(b, `<text class="axis" transform="translate(14,%d) rotate(-90)" text-anchor="middle">%s</text>`, (p.top+p.h-p.bottom)/2, esc(ylabel))
}

// legendHTML is a chart's legend as HTML under it, so that a summarizer's
// name is shown whole (it wraps) whatever its length: an exec
// summarizer's name is its command line.
func legendHTML(sums []string) template.HTML {
	var b strings.Builder
	b.WriteString(`<ul class="legend">`)
	for i, s := range sums {
		fmt.Fprintf(&b, `<li><span class="sw" style="background:%s"></span><code>%s</code></li>`, color(i), esc(s))
	}
	b.WriteString(`</ul>`)
	return template.HTML(b.String())
}

// unitPoint is one unit's retention and compression.
type unitPoint struct {
	ratio, retention float64
	ok               bool
}

func unitRetention(u *result.Unit) unitPoint {
	var pass, n, rs int
	var ratio float64
	for _, g := range u.Generations {
		if len(g.Summary) > 0 && g.ReplacedTokens > 0 {
			ratio += float64(g.SummaryTokens) / float64(g.ReplacedTokens)
			rs++
		}
		for _, c := range g.Checks {
			if c.Kind != result.KindInvariant {
				continue
			}
			switch c.Status {
			case result.Pass:
				pass++
				n++
			case result.Fail, result.Uncertain:
				n++
			}
		}
	}
	if n == 0 || rs == 0 {
		return unitPoint{}
	}
	return unitPoint{ratio / float64(rs), float64(pass) / float64(n), true}
}

// scatterSVG plots invariant retention against the compression ratio, one
// dot per unit and a ringed mean per summarizer.
func scatterSVG(r *result.Result) template.HTML {
	sums := result.Summarizers(r)
	idx := map[string]int{}
	for i, s := range sums {
		idx[s] = i
	}
	pts := make([]unitPoint, len(r.Units))
	xmax := 0.0
	for i := range r.Units {
		pts[i] = unitRetention(&r.Units[i])
		if pts[i].ok {
			xmax = math.Max(xmax, pts[i].ratio)
		}
	}
	xmax = math.Max(0.1, math.Ceil(xmax*10)/10)
	if math.IsInf(xmax, 0) || math.IsNaN(xmax) {
		xmax = 1
	}
	p := plot{w: 560, h: 420, left: 60, right: 20, top: 20, bottom: 50, xmax: xmax, ymax: 1}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="scatter" role="img" aria-label="retention against compression ratio" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`, p.w, p.h, p.w, p.h)
	var ticks []float64
	for i := range 6 {
		ticks = append(ticks, xmax*float64(i)/5)
	}
	p.axes(&b, "compression ratio (summary tokens / replaced tokens), lower is smaller", "invariants kept", ticks, func(v float64) string { return fmt.Sprintf("%.2f", v) })
	sx, sy, sn := make([]float64, len(sums)), make([]float64, len(sums)), make([]int, len(sums))
	for i, pt := range pts {
		if !pt.ok {
			continue
		}
		k := idx[r.Units[i].Summarizer]
		sx[k] += pt.ratio
		sy[k] += pt.retention
		sn[k]++
		fmt.Fprintf(&b, `<circle class="pt" cx="%.1f" cy="%.1f" r="3" fill="%s" fill-opacity="0.35"/>`, p.x(pt.ratio), p.y(pt.retention), color(k))
	}
	for k, s := range sums {
		if sn[k] == 0 {
			continue
		}
		mx, my := sx[k]/float64(sn[k]), sy[k]/float64(sn[k])
		fmt.Fprintf(&b, `<circle class="mean" cx="%.1f" cy="%.1f" r="7" fill="%s" stroke="#222" stroke-width="2"><title>%s: mean ratio %.2f, mean retention %.1f%% over %d units</title></circle>`,
			p.x(mx), p.y(my), color(k), esc(s), mx, 100*my, sn[k])
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) + legendHTML(sums)
}

// driftSVG draws invariant retention by generation, one line per summarizer.
func driftSVG(r *result.Result) template.HTML {
	sums := result.Summarizers(r)
	type cnt struct {
		pass, n int
		scen    map[string]bool
		rates   result.ScenarioRates
	}
	by := make([]map[int]*cnt, len(sums))
	idx := map[string]int{}
	for i, s := range sums {
		idx[s] = i
		by[i] = map[int]*cnt{}
	}
	maxGen := 1
	for _, u := range r.Units {
		k := idx[u.Summarizer]
		for _, g := range u.Generations {
			for _, c := range g.Checks {
				if c.Kind != result.KindInvariant || (c.Status != result.Pass && c.Status != result.Fail && c.Status != result.Uncertain) {
					continue
				}
				e := by[k][g.N]
				if e == nil {
					e = &cnt{scen: map[string]bool{}}
					by[k][g.N] = e
				}
				e.n++
				e.scen[u.Scenario.ID] = true
				e.rates.Add(u.Scenario.ID, u.Trial, c.Status == result.Pass)
				if c.Status == result.Pass {
					e.pass++
				}
				maxGen = max(maxGen, g.N)
			}
		}
	}
	// Only the generations present are drawn: a result may hold any n.
	var gens []int
	for k := range by {
		for g := range by[k] {
			if !slices.Contains(gens, g) {
				gens = append(gens, g)
			}
		}
	}
	slices.Sort(gens)
	p := plot{w: 560, h: 420, left: 60, right: 20, top: 20, bottom: 50, xmax: float64(maxGen) + 0.5, ymax: 1}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="drift" role="img" aria-label="retention by generation" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg">`, p.w, p.h, p.w, p.h)
	var ticks []float64
	step := max(1, len(gens)/20)
	for i := 0; i < len(gens); i += step {
		ticks = append(ticks, float64(gens[i]))
	}
	p.axes(&b, "generation (repeated compaction)", "invariants kept", ticks, func(v float64) string { return fmt.Sprintf("g%.0f", v) })
	var thin []string // the points that rest on one outcome or one scenario
	labelled := len(gens) <= maxDriftLabels
	for k, s := range sums {
		var pts []string
		for _, g := range gens {
			e := by[k][g]
			if e == nil || e.n == 0 {
				continue
			}
			rate, iv := e.rates.Interval()
			lo, hi := iv.Low, iv.High
			x, y := p.x(float64(g)), p.y(rate)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
			fill, note := color(k), ""
			switch {
			case e.n == 1:
				fill, note = "#fff", " — n = 1: one outcome, not a rate"
				thin = append(thin, fmt.Sprintf("%s at g%d (n = 1)", s, g))
			case len(e.scen) == 1:
				fill, note = "#fff", " — all from one scenario"
				thin = append(thin, fmt.Sprintf("%s at g%d (n = %d, one scenario)", s, g, e.n))
			}
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-opacity="0.5"/>`, x, x, p.y(lo), p.y(hi), color(k))
			fmt.Fprintf(&b, `<circle class="gen" cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s" stroke-width="1.5"><title>%s g%d: %.1f%% (%d/%d, from %s), 95%% CI %.1f–%.1f%% clustered by scenario%s</title></circle>`,
				x, y, fill, color(k), esc(s), g, 100*rate, e.pass, e.n, plural(len(e.scen), "scenario"), 100*lo, 100*hi, esc(note))
			if labelled {
				fmt.Fprintf(&b, `<text class="n" x="%.1f" y="%.1f" font-size="10" fill="%s">n=%d</text>`, x+6, y-6-float64(k%3)*11, color(k), e.n)
			}
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline class="line" fill="none" stroke="%s" stroke-width="2" points="%s"/>`, color(k), strings.Join(pts, " "))
		}
	}
	b.WriteString(`</svg>`)
	out := template.HTML(b.String()) + legendHTML(sums)
	if len(thin) > 0 {
		out += template.HTML(`<p class="muted thin">Hollow points rest on one outcome (n = 1) or on one scenario, not a rate across scenarios: ` + esc(strings.Join(thin, "; ")) + `.</p>`)
	}
	return out
}

// maxDriftLabels is the most generations whose points get their n written
// beside them; past it, n is in each point's tooltip.
const maxDriftLabels = 12

// middleClip shortens s to n characters by replacing its middle with "…",
// keeping the start (the kind, exec: or openai:) and the end (the
// arguments that tell two versions apart).
func middleClip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}
