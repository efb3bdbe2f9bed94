package viewer

import (
	"bytes"
	"net/http"
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
}

// diffPage compares ?base= with ?new= (two runs, paired as `compact-eval
// compare [--map OLD=NEW…] BASE NEW` pairs them, ?map=OLD=NEW repeatable),
// or ?a= with ?b= of ?run= (`compare --a A
// --b B`); with neither it offers the choice.
func (s *Server) diffPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := diffView{Title: "compact-eval diff", Nav: "diff", Base: q.Get("base"), New: q.Get("new"), Run: q.Get("run"), A: q.Get("a"), B: q.Get("b")}
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
	status := http.StatusOK
	switch {
	case v.Base != "" || v.New != "":
		status = s.compareRuns(&v)
	case v.Run != "":
		status = s.headToHead(&v)
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
	}
	s.page(w, "diff", v)
}

// compareRuns fills v with the comparison of runs v.Base and v.New.
func (s *Server) compareRuns(v *diffView) int {
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

func init() {
	funcs["unitURL"] = unitAnchor
	funcs["lower"] = strings.ToLower
	funcs["mul100"] = func(f float64) float64 { return 100 * f }
	funcs["add1"] = func(n int) int { return n + 1 }
	funcs["shellQuote"] = shellQuote
	funcs["trialsIdentical"] = reports.TrialsIdenticalLine
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and _./:=@,+-.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@,+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
