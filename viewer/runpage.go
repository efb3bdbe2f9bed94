package viewer

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// unitState is what the pages of a run's units share: the unit indexes,
// the scenarios loaded again, and the prices of the calls.
type unitState struct {
	idx       indexes
	scenarios scenarioCache
	prices    reports.Prices
}

// SetPrices gives the calls their prices (the config file's prices:), for
// the cost of each unit in units.csv and on the unit pages; nil, the
// default, leaves every cost unknown. Call it before serving.
func (s *Server) SetPrices(p reports.Prices) { s.units.prices = p }

// runIndex is the unit index of run id; it answers the request itself
// (and returns ok false) when the run cannot be shown.
func (s *Server) runIndex(w http.ResponseWriter, r *http.Request, id string) (*Run, *unitIndex, bool) {
	run, ok := s.finishedRun(w, id)
	if !ok {
		return nil, nil, false
	}
	x, err := s.units.idx.get(run, s.pricing(run))
	if err != nil {
		s.problem(w, http.StatusConflict, "run "+id, err.Error())
		return nil, nil, false
	}
	return run, x, true
}

// finishedRun is run id, done or interrupted; it answers the request
// itself (and returns ok false) when there is no such run.
func (s *Server) finishedRun(w http.ResponseWriter, id string) (*Run, bool) {
	run := s.store.Run(id)
	if run == nil {
		s.problem(w, http.StatusNotFound, "run "+id, "no run "+id)
		return nil, false
	}
	if run.State != StateDone && run.State != StateInterrupted {
		s.problem(w, http.StatusConflict, "run "+id, "run "+id+" is "+run.State+": "+run.Reason)
		return nil, false
	}
	return run, true
}

// pricing prices the calls of run.
func (s *Server) pricing(run *Run) reports.Pricing {
	return reports.Pricing{Prices: s.units.prices, Agent: run.Agent, Judge: run.Judge}
}

// runView is the run page's head: what the run's header and stored
// figures say, before any unit is read.
type runView struct {
	Title, Nav string
	Run        *Run
	URL        string
	Ranked     []result.SummarizerSummary
	Grid       *gridPage
	Error      string
}

// gridPage is GET /run/{root}/{name}: the run's headline figures and one
// page of its scenario × summarizer grid (?page=, ?per=; ?q= filters the
// scenarios by id, title and tags, ?show=failing or differing by their
// cells). The head of the page is sent first, from the run's stored
// figures, so that it paints before any unit is read; a verdict filter
// reads units only until its page is full.
func (s *Server) gridPage(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run, ok := s.finishedRun(w, id)
	if !ok {
		return
	}
	v := &runView{Title: "compact-eval run " + id, Nav: "runs", Run: run, URL: runURL(id),
		Ranked: result.Ranked(&result.Result{Summaries: run.Summaries})}
	if !s.part(w, "run", v) {
		return
	}
	x, err := s.units.idx.get(run, s.pricing(run))
	if err != nil {
		v.Error = err.Error()
		s.part(w, "gridend", v)
		return
	}
	q := parseGridQuery(r.URL.Query())
	v.Grid = &gridPage{Query: q, Sums: x.sums, Base: v.URL, Shows: shows}
	s.part(w, "gridtop", v)
	g, err := x.page(id, v.URL, q, func(rows []gridRow) { s.part(w, "gridrows", rows) })
	if err != nil {
		v.Error = err.Error() // the table is closed, under the rows sent
		v.Grid.Total = -1
	} else {
		v.Grid = g
	}
	s.part(w, "gridend", v)
}

// part renders the template name with data and sends it at once, so that
// the browser paints it while the rest is computed, its control characters
// shown escaped as page does. It reports whether it could render.
func (s *Server) part(w http.ResponseWriter, name string, data any) bool {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return false
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	w.Write(reports.EscapeControls(scrub(b.Bytes())))
	http.NewResponseController(w).Flush()
	return true
}

// unitsCSV is GET /run/{root}/{name}/units.csv: one row per unit, as
// `compact-eval report --format units-csv` writes it, sent chunk by chunk
// as the units are read.
func (s *Server) unitsCSV(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run := s.store.Run(id)
	if run == nil || run.State != StateDone && run.State != StateInterrupted {
		http.Error(w, "no finished run "+id, http.StatusNotFound)
		return
	}
	x, err := s.units.idx.get(run, s.pricing(run))
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="units.csv"`)
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write(reports.UnitColumns)
	flush := func() {
		cw.Flush()
		w.Write(scrub(b.Bytes()))
		b.Reset()
		http.NewResponseController(w).Flush()
	}
	last := time.Now()
	batch := 2 * runtime.GOMAXPROCS(0)
	for lo := 0; lo < len(x.chunks); lo += batch {
		var cs []int
		for c := lo; c < min(lo+batch, len(x.chunks)); c++ {
			cs = append(cs, c)
		}
		if err := x.ensure(cs); err != nil {
			flush()
			// A CSV has no place for an error: the response is cut where it
			// went wrong, so that no one takes it for the whole run.
			panic(http.ErrAbortHandler)
		}
		for _, c := range cs {
			for i := range x.chunks[c].figs {
				cw.Write(reports.UnitRecord(x.runID, &x.chunks[c].figs[i]))
			}
		}
		if time.Since(last) > 100*time.Millisecond || b.Len() > 1<<20 {
			flush()
			last = time.Now()
		}
	}
	flush()
}

func init() {
	funcs["anchorID"] = anchorID
	funcs["ms"] = func(d time.Duration) string { return d.Round(time.Millisecond).String() }
}

func init() {
	funcs["indent"] = func(n int) string { return strings.Repeat("  ", n) }
}
