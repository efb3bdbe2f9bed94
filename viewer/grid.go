package viewer

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/reports"
)

// The scenario × summarizer grid: one row per scenario, one cell per
// summarizer, each the verdict of its unit (its trials aggregated), a
// colour and a text mark, linked to the unit page.

// marks are the grid's text marks by verdict: the colour is never the only
// sign.
var marks = map[string]string{
	reports.VerdictPass: "✓", reports.VerdictFail: "✗", reports.VerdictError: "!",
	reports.VerdictUncertain: "?", reports.VerdictSkip: "–",
}

// verdictRank orders verdicts worst first.
var verdictRank = map[string]int{
	reports.VerdictFail: 0, reports.VerdictError: 1, reports.VerdictUncertain: 2, reports.VerdictPass: 3, reports.VerdictSkip: 4,
}

// gridCell is one scenario × summarizer: its trials' figures aggregated.
type gridCell struct {
	// Verdict is the worst of its trials' verdicts; Mark its text mark.
	Verdict, Mark string
	// Kept and Judged are the invariants kept and judged over every trial.
	Kept, Judged int
	// Spread is the lowest and highest share of invariants kept in one
	// trial ("57–100%"), when the trials differ.
	Spread string
	// Regressions and Errors count over every trial; RegTrials the trials
	// with a regression.
	Regressions, RegTrials, Errors, Uncertain, Structural int
	// Notes are the cell's second line: regressions, errors, doubts,
	// structural failures.
	Notes []string
	// Trials are the trials' own verdicts, linked, when they differ.
	Trials []gridTrial
	// Href opens the worst trial's unit page; Label says all of the cell
	// in words (its title and its link's accessible name).
	Href, Label string
	// Empty: the summarizer ran no unit of this scenario.
	Empty bool
}

type gridTrial struct {
	N             int // from 1
	Verdict, Mark string
	Href          string
}

type gridRow struct {
	ID, Title, File string
	Cells           []gridCell
}

// unitPath is the address of a unit's page in run id.
func unitPath(id, scenario, summarizer string, trial int) string {
	return runURL(id) + "/unit/" + reports.UnitAnchor(scenario, summarizer, trial)
}

// errorsOf counts a unit's errors: its erroring outcomes, or 1 for a unit
// that errored with none.
func errorsOf(f *reports.UnitFigures) int {
	n := f.Invariants.Error + f.Structural.Error + f.Decisions.Error
	if n == 0 && (f.Status != "ok" || f.Error != "") {
		n = 1
	}
	return n
}

// cellOf aggregates the figures of one scenario × summarizer's trials
// (in trial order) of run id.
func cellOf(id, scenario, summarizer string, figs []*reports.UnitFigures) gridCell {
	c := gridCell{Verdict: reports.VerdictSkip}
	if len(figs) == 0 {
		return gridCell{Empty: true, Mark: " ", Label: scenario + " × " + summarizer + ": not run"}
	}
	lo, hi := 2.0, -1.0
	worst := figs[0]
	for k, f := range figs {
		v := f.Verdict()
		if k == 0 || verdictRank[v] < verdictRank[c.Verdict] {
			c.Verdict, worst = v, f
		}
		c.Kept += f.Invariants.Pass
		c.Judged += f.Invariants.Judged()
		c.Regressions += f.Decisions.Fail
		if f.Decisions.Fail > 0 {
			c.RegTrials++
		}
		c.Errors += errorsOf(f)
		c.Uncertain += f.Invariants.Uncertain + f.Decisions.Uncertain
		c.Structural += f.Structural.Fail
		if j := f.Invariants.Judged(); j > 0 {
			r := float64(f.Invariants.Pass) / float64(j)
			lo, hi = min(lo, r), max(hi, r)
		}
		if len(figs) > 1 {
			c.Trials = append(c.Trials, gridTrial{N: f.Trial + 1, Verdict: f.Verdict(), Mark: marks[f.Verdict()], Href: unitPath(id, scenario, summarizer, f.Trial)})
		}
	}
	if !slices.ContainsFunc(c.Trials, func(t gridTrial) bool { return t.Verdict != c.Trials[0].Verdict }) {
		c.Trials = nil // alike: the cell says it all
	}
	c.Mark = marks[c.Verdict]
	c.Href = unitPath(id, scenario, summarizer, worst.Trial)
	if len(figs) > 1 && hi >= 0 && hi > lo {
		c.Spread = fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
	}
	switch {
	case c.Regressions > 0 && len(figs) > 1:
		c.Notes = append(c.Notes, fmt.Sprintf("regressed in %d/%d trials", c.RegTrials, len(figs)))
	case c.Regressions > 0:
		c.Notes = append(c.Notes, plural(c.Regressions, "regression"))
	}
	if c.Errors > 0 {
		c.Notes = append(c.Notes, plural(c.Errors, "error"))
	}
	if c.Uncertain > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d uncertain", c.Uncertain))
	}
	if c.Structural > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d structural failed", c.Structural))
	}
	words := []string{scenario + " × " + summarizer + ": " + c.Verdict}
	if c.Judged > 0 {
		words = append(words, fmt.Sprintf("invariants kept %d/%d (%.0f%%)", c.Kept, c.Judged, 100*float64(c.Kept)/float64(c.Judged)))
	} else {
		words = append(words, "no invariant judged")
	}
	if c.Spread != "" {
		words = append(words, "per trial "+c.Spread)
	}
	words = append(words, c.Notes...)
	switch {
	case len(c.Trials) > 0:
		var ts []string
		for _, t := range c.Trials {
			ts = append(ts, fmt.Sprintf("trial %d %s", t.N, t.Verdict))
		}
		words = append(words, strings.Join(ts, ", "))
	case len(figs) > 1:
		words = append(words, fmt.Sprintf("the same verdict in all %d trials", len(figs)))
	}
	c.Label = strings.Join(words, "; ")
	return c
}

// Grid filters (?show=).
const (
	showAll       = "all"       // every scenario
	showFailing   = "failing"   // a cell that is not all kept: lost, errored or uncertain
	showDiffering = "differing" // the verdicts of the summarizers that judged an invariant differ
)

var shows = [][2]string{
	{showAll, "every scenario"},
	{showFailing, "scenarios where a summarizer lost, errored or doubted"},
	{showDiffering, "scenarios where the summarizers' verdicts differ"},
}

// keep reports whether a row passes the filter show.
func keep(show string, cells []gridCell) bool {
	switch show {
	case showFailing:
		return slices.ContainsFunc(cells, func(c gridCell) bool {
			return !c.Empty && (c.Verdict == reports.VerdictFail || c.Verdict == reports.VerdictError || c.Verdict == reports.VerdictUncertain)
		})
	case showDiffering:
		seen := ""
		for _, c := range cells {
			if c.Empty || c.Judged == 0 {
				continue // the control arm, or nothing to compare
			}
			if seen != "" && c.Verdict != seen {
				return true
			}
			seen = c.Verdict
		}
		return false
	}
	return true
}

// gridQuery is what a grid page shows: a filter on the scenario's id,
// title and tags (every word must occur), a verdict filter, the page and
// its size.
type gridQuery struct {
	Q, Show   string
	Page, Per int
}

// DefaultGridRows is how many scenarios a grid page shows; maxGridRows
// bounds ?per=.
const (
	defaultGridRows = 50
	maxGridRows     = 500
)

func parseGridQuery(q url.Values) gridQuery {
	g := gridQuery{Q: q.Get("q"), Show: q.Get("show"), Page: 1, Per: defaultGridRows}
	if !slices.ContainsFunc(shows, func(s [2]string) bool { return s[0] == g.Show }) {
		g.Show = showAll
	}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
		g.Page = n
	}
	if n, err := strconv.Atoi(q.Get("per")); err == nil && n > 0 {
		g.Per = min(n, maxGridRows)
	}
	return g
}

// url is the address of page n of the same grid under base.
func (g gridQuery) URL(base string, page int) string {
	v := url.Values{}
	if g.Q != "" {
		v.Set("q", g.Q)
	}
	if g.Show != showAll {
		v.Set("show", g.Show)
	}
	if g.Per != defaultGridRows {
		v.Set("per", strconv.Itoa(g.Per))
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// gridPage is one page of a grid.
type gridPage struct {
	Query gridQuery
	Sums  []string
	Rows  []gridRow
	// First and Last number the rows shown among those matching (from 1);
	// Total counts them, -1 while not every unit was read (a verdict
	// filter reads units only until its page is full).
	First, Last, Total int
	Pages              int
	Prev, Next         string
	// Pager lists the pages to link (0: an ellipsis).
	Pager []int
	Base  string
	Shows [][2]string
	// Scenarios counts the run's scenarios.
	Scenarios int
}

// page builds the grid page q of index x of run id, whose own page is base,
// handing its rows to emit as they are found (emit may be nil). It reads
// only the units it needs: the page's rows, or with a verdict filter the
// rows up to the end of the page, in batches, so that the first rows are
// sent while the next are read.
func (x *unitIndex) page(id, base string, q gridQuery, emit func([]gridRow)) (*gridPage, error) {
	if emit == nil {
		emit = func([]gridRow) {}
	}
	p := &gridPage{Query: q, Sums: x.sums, Base: base, Shows: shows, Scenarios: len(x.scenarios), Total: -1}
	var cands []int
	for i, s := range x.scenarios {
		if matches(s.text, q.Q) {
			cands = append(cands, i)
		}
	}
	skip := (q.Page - 1) * q.Per
	if q.Show == showAll {
		p.Total = len(cands)
		lo, hi := min(skip, len(cands)), min(skip+q.Per, len(cands))
		if err := x.ensureScenarios(cands[lo:hi]); err != nil {
			return nil, err
		}
		for _, si := range cands[lo:hi] {
			p.Rows = append(p.Rows, x.row(id, si))
		}
		emit(p.Rows)
		p.First = lo + 1
	} else {
		// Read the candidates in batches, in order, until the page is full
		// and one more row shows whether another page follows.
		const batch = 64
		found, more := 0, false
		for k := 0; k < len(cands) && !more; k += batch {
			part := cands[k:min(k+batch, len(cands))]
			if err := x.ensureScenarios(part); err != nil {
				return nil, err
			}
			had := len(p.Rows)
			for _, si := range part {
				r := x.row(id, si)
				if !keep(q.Show, r.Cells) {
					continue
				}
				found++
				switch {
				case found <= skip:
				case found <= skip+q.Per:
					p.Rows = append(p.Rows, r)
				default:
					more = true
				}
				if more {
					break
				}
			}
			if len(p.Rows) > had {
				emit(p.Rows[had:])
			}
		}
		if !more {
			p.Total = found
		}
		p.First = skip + 1
	}
	p.Last = p.First + len(p.Rows) - 1
	if p.Total >= 0 {
		p.Pages = max(1, (p.Total+q.Per-1)/q.Per)
		p.Pager = pager(q.Page, p.Pages)
	}
	if q.Page > 1 {
		p.Prev = q.URL(base, q.Page-1)
	}
	if p.Total < 0 || q.Page < p.Pages {
		p.Next = q.URL(base, q.Page+1)
	}
	return p, nil
}

// row is scenario si's row; its units' chunks must have been ensured.
func (x *unitIndex) row(id string, si int) gridRow {
	s := &x.scenarios[si]
	r := gridRow{ID: s.Ref.ID, Title: s.Ref.Title, File: s.Ref.File}
	by := make([][]*reports.UnitFigures, len(x.sums))
	for _, l := range s.lines {
		u := x.units[l]
		by[u.sum] = append(by[u.sum], x.fig(int(l)))
	}
	for m, figs := range by {
		slices.SortFunc(figs, func(a, b *reports.UnitFigures) int { return a.Trial - b.Trial })
		r.Cells = append(r.Cells, cellOf(id, s.Ref.ID, x.sums[m], figs))
	}
	return r
}

// pager lists the pages to link around page of n: the first, the last,
// and two either side; 0 stands for the pages left out.
func pager(page, n int) []int {
	var out []int
	for i := 1; i <= n; i++ {
		switch {
		case i == 1 || i == n || i >= page-2 && i <= page+2:
			out = append(out, i)
		case len(out) > 0 && out[len(out)-1] != 0:
			out = append(out, 0)
		}
	}
	return out
}
