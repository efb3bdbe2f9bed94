package viewer

import (
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// Trend figures besides the check types.
const (
	FigureInvariants = "invariants kept"
	FigureStructural = "structural passed"
)

// Point is one run's figure for one summarizer: Pass of N outcomes (pass,
// fail or uncertain) from Scenarios scenarios, with the run's 95% interval
// clustered by scenario (result.ClusteredWilson: a scenario's outcomes and
// trials are not independent; EffectiveN is what the N outcomes count as).
type Point struct {
	Run             *Run
	X               int // slot on the x axis
	Pass, N         int
	Scenarios       int
	EffectiveN      float64
	Rate, Low, High float64
}

// Series is one summarizer's points, in axis order.
type Series struct {
	Summarizer string
	Points     []Point
}

// Trend is one figure across runs.
type Trend struct {
	Figure string
	// Order is "time" (runs by start) or "commit" (runs with a recorded
	// commit, one slot per commit in the order each was first run).
	Order  string
	Slots  []string // x axis labels
	Series []Series
	// Runs counts the runs read (done or interrupted) and Left those an
	// order by commit leaves out (no commit recorded).
	Runs, Left int
}

// figure is a run's pass and applicable counts of fig for summarizer sum,
// with the interval the run stored; ok is false when the run has no such
// figure.
func figure(r *Run, sum, fig string) (pass, n int, iv result.Interval, ok bool) {
	switch fig {
	case FigureInvariants, FigureStructural:
		for _, s := range r.Summaries {
			if s.Summarizer != sum {
				continue
			}
			// An uncertain result is applicable and not passed, as in
			// every headline.
			pass, n, in := s.StructuralPass, s.StructuralPass+s.StructuralFail+s.StructuralUncertain, s.StructuralPassedInterval
			if fig == FigureInvariants {
				pass, n, in = s.InvariantPass, s.InvariantPass+s.InvariantFail+s.InvariantUncertain, s.InvariantsKeptInterval
			}
			if in != nil {
				iv = *in
			}
			return pass, n, iv, true
		}
		return 0, 0, iv, false
	}
	for _, a := range r.Aggregates {
		if a.Summarizer == sum && a.Check == fig {
			return a.Pass, a.Judged(), result.Interval{Low: a.Low, High: a.High, EffectiveN: a.EffectiveN, Scenarios: a.Scenarios}, true
		}
	}
	return 0, 0, iv, false
}

// Figures are the figures the runs hold: the two headlines, then every
// check type in report order.
func Figures(runs []*Run) []string {
	seen := map[string]bool{}
	var checks []string
	for _, r := range runs {
		for _, a := range r.Aggregates {
			if !seen[a.Check] {
				seen[a.Check] = true
				checks = append(checks, a.Check)
			}
		}
	}
	sort.SliceStable(checks, func(i, j int) bool { return result.LessCheck(checks[i], checks[j]) })
	return append([]string{FigureInvariants, FigureStructural}, checks...)
}

// Summarizers are the summarizers the runs hold, most frequent first.
func Summarizers(runs []*Run) []string {
	count := map[string]int{}
	var out []string
	for _, r := range runs {
		for _, s := range r.Summarizers {
			if count[s] == 0 {
				out = append(out, s)
			}
			count[s]++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return count[out[i]] > count[out[j]] })
	return out
}

// BuildTrend is fig across runs for the summarizers sums (nil: all), in
// order "time" or "commit". Runs that are not done or interrupted, and
// points with nothing applicable (N = 0), are left out.
func BuildTrend(runs []*Run, fig, order string, sums []string) *Trend {
	t := &Trend{Figure: fig, Order: order}
	var rs []*Run
	for _, r := range runs {
		if r.State == StateDone || r.State == StateInterrupted {
			rs = append(rs, r)
		}
	}
	t.Runs = len(rs)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Started.Before(rs[j].Started) })
	slot := map[*Run]int{}
	if order == "commit" {
		at := map[string]int{}
		kept := rs[:0:0]
		for _, r := range rs {
			if r.Git == nil {
				t.Left++
				continue
			}
			i, ok := at[r.Git.Commit]
			if !ok {
				i = len(t.Slots)
				at[r.Git.Commit] = i
				label := shortCommit(r.Git.Commit)
				if r.Git.Dirty {
					label += "+"
				}
				t.Slots = append(t.Slots, label)
			}
			slot[r] = i
			kept = append(kept, r)
		}
		rs = kept
	} else {
		t.Order = "time"
		for i, r := range rs {
			slot[r] = i
			t.Slots = append(t.Slots, r.Started.UTC().Format("01-02 15:04"))
		}
	}
	if sums == nil {
		sums = Summarizers(rs)
	}
	for _, sum := range sums {
		se := Series{Summarizer: sum}
		for _, r := range rs {
			pass, n, iv, ok := figure(r, sum, fig)
			if !ok || n == 0 {
				continue
			}
			se.Points = append(se.Points, Point{Run: r, X: slot[r], Pass: pass, N: n, Scenarios: iv.Scenarios, EffectiveN: iv.EffectiveN,
				Rate: float64(pass) / float64(n), Low: iv.Low, High: iv.High})
		}
		if len(se.Points) > 0 {
			t.Series = append(t.Series, se)
		}
	}
	return t
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"}

// maxLabelled is the most points per series whose n is written beside
// them; past it, n is in each point's tooltip only.
const maxLabelled = 40

// SVG draws the trend: one line per summarizer, each point a link to its
// run with its 95% interval as a bar and n beside it (in its tooltip when
// the points are many); a point that rests on one outcome (n = 1) is drawn
// hollow.
func (t *Trend) SVG() template.HTML {
	const w, h, left, right, top, bottom = 960.0, 340.0, 84.0, 44.0, 16.0, 58.0
	slots := max(1, len(t.Slots))
	x := func(i int) float64 {
		if slots == 1 {
			return left + (w-left-right)/2
		}
		return left + float64(i)*(w-left-right)/float64(slots-1)
	}
	y := func(v float64) float64 { return top + (1-v)*(h-top-bottom) }
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="trend" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img" aria-label="%s across runs">`, w, h, w, h, esc(t.Figure))
	for _, v := range []float64{0, .25, .5, .75, 1} {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e3e3e3"/><text class="tick" x="%.1f" y="%.1f" text-anchor="end">%.0f%%</text>`, left, w-right, y(v), y(v), left-6, y(v)+4, 100*v)
	}
	step := max(1, len(t.Slots)/16)
	for i, l := range t.Slots {
		if i%step == 0 {
			fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end" transform="rotate(-35 %.1f %.1f)">%s</text>`, x(i), h-bottom+14, x(i), h-bottom+14, esc(l))
		}
	}
	for si, se := range t.Series {
		c := palette[si%len(palette)]
		var pts []string
		for _, p := range se.Points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.X), y(p.Rate)))
		}
		fmt.Fprintf(&b, `<polyline class="line" fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`, c, strings.Join(pts, " "))
		labelled := len(se.Points) <= maxLabelled
		for _, p := range se.Points {
			px, py := x(p.X), y(p.Rate)
			tip := fmt.Sprintf("%s · %s · %s: %.1f%% (%d/%d in %s), 95%% interval %.1f–%.1f%% clustered by scenario (the %d outcomes count as %.1f)",
				se.Summarizer, p.Run.ID, t.Figure, 100*p.Rate, p.Pass, p.N, plural(p.Scenarios, "scenario"), 100*p.Low, 100*p.High, p.N, p.EffectiveN)
			fill := c
			if p.N == 1 {
				fill = "#fff"
				tip += " — n = 1: one outcome, no trend"
			}
			fmt.Fprintf(&b, `<a class="pt" href="%s" data-run="%s"><title>%s</title><line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-opacity=".45" stroke-width="3"/><circle cx="%.1f" cy="%.1f" r="4.5" fill="%s" stroke="%s" stroke-width="2"/>`,
				esc(runURL(p.Run.ID)), esc(p.Run.ID), esc(tip), px, px, y(p.High), y(p.Low), c, px, py, fill, c)
			if labelled {
				fmt.Fprintf(&b, `<text class="n" x="%.1f" y="%.1f" text-anchor="start">n=%d</text>`, px+6, py-6, p.N)
			}
			b.WriteString(`</a>`)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// Legend pairs each series with its colour.
func (t *Trend) Legend() [][2]string {
	var out [][2]string
	for i, se := range t.Series {
		out = append(out, [2]string{palette[i%len(palette)], se.Summarizer})
	}
	return out
}

// OnePoint reports whether some point rests on a single outcome.
func (t *Trend) OnePoint() bool {
	for _, se := range t.Series {
		for _, p := range se.Points {
			if p.N == 1 {
				return true
			}
		}
	}
	return false
}

type trendsView struct {
	Title, Nav         string
	Figures, Sums      []string
	Figure, Sum, Order string
	Trend              *Trend
}

// trendsPage is one figure (?figure=, default invariants kept) across
// runs, for every summarizer or one (?summarizer=), ordered by time or
// commit (?order=).
func (s *Server) trendsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	runs := s.store.Runs()
	v := trendsView{Title: "compact-eval trends", Nav: "trends", Figures: Figures(runs), Sums: Summarizers(runs),
		Figure: q.Get("figure"), Sum: q.Get("summarizer"), Order: q.Get("order")}
	if !slices.Contains(v.Figures, v.Figure) {
		v.Figure = FigureInvariants
	}
	if v.Order != "commit" {
		v.Order = "time"
	}
	var sums []string
	if v.Sum != "" {
		sums = []string{v.Sum}
	}
	v.Trend = BuildTrend(runs, v.Figure, v.Order, sums)
	s.page(w, "trends", v)
}
