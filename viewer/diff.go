package viewer

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// diffView is the diff page: two runs (Comparison) or two summarizers of
// one run (HeadToHead), and the lists to choose them from.
type diffView struct {
	Title, Nav string
	Runs       []*Run // the runs that can be compared, newest first
	Base, New  string // run ids of a comparison
	// Map are the comparison's summarizer pairings, OLD=NEW as `compare
	// --map` takes them (?map=, repeatable; empty ones are left out: a
	// form's blank fields); BaseSums and NewSums the two runs' summarizers.
	Map               []string
	BaseSums, NewSums []string
	Run               string // run id of a head-to-head
	A, B              string
	Sums              []string // the summarizers of Run
	Error             string
	Cmp               *reports.Comparison
	H2H               *reports.HeadToHead
	// Text is what `compact-eval compare` prints for the same two.
	Text string
	// BaseRun, NewRun are the compared runs.
	BaseRun, NewRun *Run
	// Unchanged is set when the unchanged rows are shown too (?unchanged=1:
	// they are hidden by default); Toggle is the address that shows or
	// hides them. UnchangedRows counts the rows of the tables by check
	// that nothing changed in.
	Unchanged     bool
	Toggle        string
	UnchangedRows int
	// Grid is the scenario × summarizer grid of two runs.
	Grid *diffGrid
	// AllChanges is set when every regression, fix and one-sided outcome
	// is listed (?all=1), not the first maxChanges; AllURL lists them.
	AllChanges bool
	AllURL     string
	MaxChanges int
	// Working is set while the page is sent in two parts: its head, then
	// the comparison, once both runs are read.
	Working bool
}

// diffPage compares ?base= with ?new= (two runs, paired as `compact-eval
// compare [--map OLD=NEW…] BASE NEW` pairs them, ?map=OLD=NEW repeatable),
// or ?a= with ?b= of ?run= (`compare --a A
// --b B`); with neither it offers the choice.
func (s *Server) diffPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := diffView{Title: "compact-eval diff", Nav: "diff", Base: q.Get("base"), New: q.Get("new"), Run: q.Get("run"), A: q.Get("a"), B: q.Get("b"),
		Unchanged: q.Get("unchanged") == "1", AllChanges: q.Get("all") == "1", MaxChanges: maxChanges}
	if v.Unchanged {
		v.Toggle = withQuery(q, "unchanged", "")
	} else {
		v.Toggle = withQuery(q, "unchanged", "1")
	}
	v.AllURL = withQuery(q, "all", "1")
	for _, m := range q["map"] {
		if strings.TrimSpace(m) != "" { // as typed otherwise: names may hold spaces
			v.Map = append(v.Map, m)
		}
	}
	for _, run := range s.store.Runs() {
		if run.State == StateDone || run.State == StateInterrupted {
			v.Runs = append(v.Runs, run)
		}
	}
	if v.New != "" && v.Base == "" {
		// From a run's page: that run as new, the one before it as base.
		for i, run := range v.Runs {
			if run.ID == v.New && i+1 < len(v.Runs) {
				v.Base = v.Runs[i+1].ID
			}
		}
		if v.Base == "" {
			v.Error = "choose the base run to compare " + v.New + " with"
		}
	}
	compare := v.Base != "" || v.New != ""
	if v.Error == "" && (compare || v.Run != "") && s.prepared(&v, compare) {
		// What is asked is there: the page's head goes first, painted
		// while both runs are read in full (seconds, for 20,000 units).
		v.Working = true
		if !s.part(w, "diffhead", v) {
			return
		}
		if compare {
			s.compareRuns(&v, q)
		} else {
			s.headToHead(&v)
		}
		s.part(w, "diffbody", v)
		return
	}
	status := http.StatusOK
	switch {
	case v.Error != "":
	case compare:
		status = s.compareRuns(&v, q)
	case v.Run != "":
		status = s.headToHead(&v)
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
	}
	s.page(w, "diff", v)
}

// prepared reports whether what v asks for can be computed (the runs are
// there and finished, the pairing names their summarizers, A and B name
// two summarizers of the run), from the runs' listed figures alone, and
// fills the choices of the form; when not, the page is rendered as a
// whole, with the error and its status.
func (s *Server) prepared(v *diffView, compare bool) bool {
	find := func(id string) *Run {
		i := slices.IndexFunc(v.Runs, func(r *Run) bool { return r.ID == id })
		if i < 0 {
			return nil
		}
		return v.Runs[i]
	}
	if compare {
		br, nr := find(v.Base), find(v.New)
		if br == nil || nr == nil {
			return false
		}
		if _, err := reports.ParsePairing(v.Map, br.Summarizers, nr.Summarizers); err != nil {
			return false
		}
		v.BaseSums, v.NewSums = br.Summarizers, nr.Summarizers
		return true
	}
	run := find(v.Run)
	if run == nil {
		return false
	}
	v.Sums = run.Summarizers
	if v.A == "" && v.B == "" && len(v.Sums) >= 2 {
		v.A, v.B = v.Sums[0], v.Sums[1]
	}
	return v.A != v.B && slices.Contains(v.Sums, v.A) && slices.Contains(v.Sums, v.B)
}

// compareRuns fills v with the comparison of runs v.Base and v.New.
func (s *Server) compareRuns(v *diffView, q url.Values) int {
	if v.Base == "" || v.New == "" {
		v.Error = "choose both runs: base and new"
		return http.StatusBadRequest
	}
	br, base, err := s.store.Result(v.Base)
	if err != nil {
		v.Error = "base: " + err.Error()
		return http.StatusNotFound
	}
	nr, next, err := s.store.Result(v.New)
	if err != nil {
		v.Error = "new: " + err.Error()
		return http.StatusNotFound
	}
	v.BaseRun, v.NewRun = br, nr
	v.BaseSums, v.NewSums = result.Summarizers(base), result.Summarizers(next)
	c, err := reports.CompareMapped(base, next, v.Map, reports.CompareOptions{Alpha: reports.DefaultAlpha})
	if err != nil {
		v.Error = err.Error()
		return http.StatusBadRequest
	}
	v.Cmp = c
	var b bytes.Buffer
	v.Cmp.WriteText(&b)
	v.Text = b.String()
	for _, r := range c.Rows {
		if r.B == 0 && r.C == 0 {
			v.UnchangedRows++
		}
	}
	v.Grid = buildDiffGrid(c, v.Base, v.New, base, next, s.pricing(nr), gpage(q), v.Unchanged, func(n int) string { return withQuery(q, "gpage", strconv.Itoa(n)) + "#grid" })
	return http.StatusOK
}

// headToHead fills v with the head-to-head of v.A and v.B in run v.Run.
func (s *Server) headToHead(v *diffView) int {
	run, res, err := s.store.Result(v.Run)
	if err != nil {
		v.Error = err.Error()
		return http.StatusNotFound
	}
	v.BaseRun = run
	v.Sums = result.Summarizers(res)
	if v.A == "" && v.B == "" {
		if len(v.Sums) >= 2 {
			v.A, v.B = v.Sums[0], v.Sums[1]
		} else {
			v.Error = "this run has one summarizer: nothing to compare"
			return http.StatusOK
		}
	}
	na, err := reports.ResolveSummarizer(res, v.A)
	if err != nil {
		v.Error = "A: " + err.Error()
		return http.StatusBadRequest
	}
	nb, err := reports.ResolveSummarizer(res, v.B)
	if err != nil {
		v.Error = "B: " + err.Error()
		return http.StatusBadRequest
	}
	if na == nb {
		v.Error = "A and B name the same summarizer " + na
		return http.StatusBadRequest
	}
	v.H2H = reports.CompareSummarizers(res, na, nb, reports.DefaultAlpha)
	var b bytes.Buffer
	v.H2H.WriteText(&b)
	v.Text = b.String()
	for _, r := range v.H2H.Rows {
		if r.AOnly == 0 && r.BOnly == 0 {
			v.UnchangedRows++
		}
	}
	return http.StatusOK
}

// unitAnchor is the address of a change's unit page in run runID, at its
// generation or at its decisions.
func unitAnchor(runID string, c reports.Change) string {
	at := "#probes"
	if c.Generation > 0 {
		at = "#g" + strconv.Itoa(c.Generation)
	}
	return unitPath(runID, c.Scenario, c.Summarizer, c.Trial) + at
}

// firstChanges is cs cut to maxChanges unless all are asked for.
func firstChanges(cs []reports.Change, all bool) []reports.Change {
	if all || len(cs) <= maxChanges {
		return cs
	}
	return cs[:maxChanges]
}

func init() {
	funcs["unitURL"] = unitAnchor
	funcs["lower"] = strings.ToLower
	funcs["mul100"] = func(f float64) float64 { return 100 * f }
	funcs["add1"] = func(n int) int { return n + 1 }
	funcs["shellQuote"] = shellQuote
	funcs["trialsIdentical"] = reports.TrialsIdenticalLine
	funcs["first"] = firstChanges
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and _./:=@,+-.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@,+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
