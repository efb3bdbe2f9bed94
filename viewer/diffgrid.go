package viewer

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// The grid of a diff: one row per scenario of either run, for each pair of
// summarizers compared the base's cell beside the new run's, the rows
// whose cells changed first and alone unless the unchanged are asked for.

// diffGrid is one page of a diff's grid.
type diffGrid struct {
	Pairs []reports.SummarizerPair
	Rows  []diffRow
	// Changed counts the rows with a changed cell, Total every row; the
	// page shows rows First–Last of Shown (Changed, or Total with the
	// unchanged).
	Changed, Total, Shown int
	First, Last           int
	Page, Pages           int
	Pager                 []int
	Prev, Next            string
	// PageURL is the address of a page of the grid (gpage=N).
	PageURL func(int) string
}

type diffRow struct {
	ID, Title string
	Changed   bool
	Cells     []diffCell
}

type diffCell struct {
	Base, New gridCell
	Changed   bool
}

// cellsByScenario groups the figures of r's units by scenario and
// summarizer, in trial order, with the scenarios' references in order.
func cellsByScenario(r *result.Result, pricing reports.Pricing) (map[string]map[string][]*reports.UnitFigures, []result.ScenarioRef) {
	out := map[string]map[string][]*reports.UnitFigures{}
	var refs []result.ScenarioRef
	for i := range r.Units {
		u := &r.Units[i]
		f := reports.FiguresOf(u, pricing)
		m := out[u.Scenario.ID]
		if m == nil {
			m = map[string][]*reports.UnitFigures{}
			out[u.Scenario.ID] = m
			refs = append(refs, u.Scenario)
		}
		m[u.Summarizer] = append(m[u.Summarizer], &f)
	}
	for _, m := range out {
		for _, fs := range m {
			slices.SortFunc(fs, func(a, b *reports.UnitFigures) int { return a.Trial - b.Trial })
		}
	}
	return out, refs
}

// cellChanged reports whether a cell says something else in the new run.
func cellChanged(a, b gridCell) bool {
	return a.Empty != b.Empty || a.Verdict != b.Verdict || a.Kept != b.Kept || a.Judged != b.Judged ||
		a.Regressions != b.Regressions || a.Errors != b.Errors || a.Uncertain != b.Uncertain || a.Structural != b.Structural
}

// buildDiffGrid builds page `page` (from 1) of the grid of runs baseID and
// newID compared as c, with the unchanged rows when all is set.
func buildDiffGrid(c *reports.Comparison, baseID, newID string, base, next *result.Result, pricing reports.Pricing, page int, all bool, pageURL func(int) string) *diffGrid {
	g := &diffGrid{Pairs: c.Pairs, PageURL: pageURL}
	bc, brefs := cellsByScenario(base, pricing)
	nc, nrefs := cellsByScenario(next, pricing)
	refs := append(nrefs, slices.DeleteFunc(brefs, func(r result.ScenarioRef) bool { return nc[r.ID] != nil })...)
	slices.SortStableFunc(refs, func(a, b result.ScenarioRef) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	var rows []diffRow
	for _, ref := range refs {
		row := diffRow{ID: ref.ID, Title: ref.Title}
		for _, p := range c.Pairs {
			cell := diffCell{Base: cellOf(baseID, ref.ID, p.Base, bc[ref.ID][p.Base]), New: cellOf(newID, ref.ID, p.New, nc[ref.ID][p.New])}
			cell.Changed = cellChanged(cell.Base, cell.New)
			row.Changed = row.Changed || cell.Changed
			row.Cells = append(row.Cells, cell)
		}
		g.Total++
		if row.Changed {
			g.Changed++
		}
		if row.Changed || all {
			rows = append(rows, row)
		}
	}
	g.Shown = len(rows)
	g.Pages = max(1, (len(rows)+defaultGridRows-1)/defaultGridRows)
	g.Page = min(max(page, 1), g.Pages)
	lo, hi := (g.Page-1)*defaultGridRows, min(g.Page*defaultGridRows, len(rows))
	g.Rows = rows[lo:hi]
	g.First, g.Last = lo+1, hi
	g.Pager = pager(g.Page, g.Pages)
	if g.Page > 1 {
		g.Prev = pageURL(g.Page - 1)
	}
	if g.Page < g.Pages {
		g.Next = pageURL(g.Page + 1)
	}
	return g
}

// withQuery is the diff page's address with key set to value (removed
// when value is "").
func withQuery(q url.Values, key, value string) string {
	v := url.Values{}
	for k, vs := range q {
		v[k] = slices.Clone(vs)
	}
	if value == "" {
		v.Del(key)
	} else {
		v.Set(key, value)
	}
	return "/diff?" + v.Encode()
}

// maxChanges is how many regressions, fixes or one-sided outcomes the diff
// page lists before "show all".
const maxChanges = 500

func gpage(q url.Values) int {
	n, err := strconv.Atoi(q.Get("gpage"))
	if err != nil {
		return 1
	}
	return n
}

// more is what the "list all" line of a list of changes needs.
type more struct {
	N, Max int
	All    bool
	URL    string
}

func init() {
	funcs["moreOf"] = func(v diffView, n int) more {
		return more{N: n, Max: maxChanges, All: v.AllChanges, URL: v.AllURL}
	}
}
