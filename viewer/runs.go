package viewer

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

var funcs = template.FuncMap{
	"runURL":   runURL,
	"when":     func(t time.Time) string { return when(t) },
	"short":    shortCommit,
	"headline": reports.Headline,
	"pct":      func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
	"join":     strings.Join,
}

func when(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func shortCommit(c string) string {
	if len(c) > 10 {
		return c[:10]
	}
	return c
}

// runsView is the runs table.
type runsView struct {
	Title, Nav string
	Filter     string
	Rows       []runRow
	Total      int
	Roots      []string
}

// runRow is one run of the table, with the text the filter matches.
type runRow struct {
	*Run
	Text string
}

// rowText is what the filter of the runs table matches: every word shown.
func rowText(r *Run) string {
	parts := []string{r.ID, r.RunID, r.State, r.Reason, r.Verdict, r.Suite, r.Harness, when(r.Started)}
	if r.Git != nil {
		parts = append(parts, r.Git.Commit, r.Git.Branch)
		if r.Git.Dirty {
			parts = append(parts, "dirty")
		}
	}
	parts = append(parts, r.Summarizers...)
	return strings.ToLower(strings.Join(parts, " "))
}

// matches reports whether every word of the filter occurs in text.
func matches(text, filter string) bool {
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

func (s *Server) runsView(r *http.Request) runsView {
	v := runsView{Title: "compact-eval runs", Nav: "runs", Filter: r.URL.Query().Get("q"), Roots: s.store.Roots()}
	for _, run := range s.store.Runs() {
		v.Total++
		row := runRow{Run: run, Text: rowText(run)}
		if matches(row.Text, v.Filter) {
			v.Rows = append(v.Rows, row)
		}
	}
	return v
}

// runsPage is the table of every run, newest first; ?q= filters it (every
// word must occur), and its script keeps filtering as one types and
// fetches the rows again every few seconds, so a new run appears.
func (s *Server) runsPage(w http.ResponseWriter, r *http.Request) {
	s.page(w, "runs", s.runsView(r))
}

// runsRows is the runs table's body alone, for the page's refresh.
func (s *Server) runsRows(w http.ResponseWriter, r *http.Request) {
	s.page(w, "rows", s.runsView(r))
}

// kept is a summarizer's invariants-kept headline in a run.
func kept(s result.SummarizerSummary) string {
	return reports.Headline(s.InvariantPass, s.InvariantFail, s.InvariantUncertain, s.InvariantSkip)
}

func init() { funcs["kept"] = kept }
