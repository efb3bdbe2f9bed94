package viewer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// The unit page: each generation's summary beside the events it replaced
// (the scenario's events up to the cut, as scenarios/transcript renders
// them for the agent), each check's evidence marked in both, and the
// unit's decisions.

// unitView is the unit page.
type unitView struct {
	Title, Nav string
	RunID      string
	Run        *Run
	RunURL     string
	Unit       *result.Unit
	Fig        reports.UnitFigures
	Verdict    string
	Mark       string
	// Trials are the unit's scenario × summarizer in each trial; Others
	// the same scenario and trial with every summarizer.
	Trials []gridTrial
	Others []unitLink
	// GridURL is the grid page holding the scenario; ReportURL the unit in
	// the run's HTML report.
	GridURL, ReportURL string
	// Scenario is the scenario file the events come from (nil when it is
	// not shown); ScenarioNote says why not, or that it changed since the
	// run; StaleURL shows a changed file's events anyway.
	Scenario     *scenarios.Scenario
	ScenarioFile string
	ScenarioNote string
	StaleURL     string
	Gens         []unitGen
	Probes       []unitProbe
}

type unitLink struct {
	Summarizer, Href, Mark, Verdict string
	Current                         bool
}

// unitGen is one generation: its checks, its summary and the events it
// replaced.
type unitGen struct {
	result.Generation
	Ratio    float64
	Checks   []unitCheck
	Sections []reports.SummarySection
	Lines    []reports.SummaryLine
	// Items are the ids of the summary's items and lines, in the order
	// of Sections (then Lines), for the evidence's links.
	ItemIDs [][]string
	LineIDs []string
	// Events are the rows shown of the events through the cut; Replaced
	// counts those events, EventsURL is the page of all of them.
	Events    []eventRow
	Replaced  int
	EventsURL string
}

type unitCheck struct {
	result.CheckResult
	Label, Anchor, Doc string
	Evidence           []unitEvidence
	// SeqHrefs are the anchors of the events the invariant rests on
	// (its evidence seqs in the scenario), beside its evidence's.
	Seqs []seqLink
}

type unitEvidence struct {
	result.Evidence
	SeqHref, PtrHref string
}

type seqLink struct {
	Seq  int
	Href string
}

type unitProbe struct {
	result.Probe
	Question string
	Anchor   string
}

// eventRow is one message of a generation's replaced events, or a run of
// messages left out (Gap), or the mark of where the events sent to this
// generation start (Divider).
type eventRow struct {
	ID      string
	Anchors []string // the ids of its other seqs
	Seq     int      // its first seq; 0 for a made-up reply
	Role    string
	Head    string
	HTML    template.HTML
	Filler  bool
	Class   string
	Title   string
	Checks  string // the anchors of the checks whose evidence it is, space-separated
	// Gap: N messages, seqs From–To, left out; Href shows them.
	Gap            bool
	N, From, To    int
	Href           string
	Divider        string
	Synthetic, Cut bool
}

// unitPage is GET /run/{root}/{name}/unit/{anchor}.
func (s *Server) unitPage(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run, x, ok := s.runIndex(w, r, id)
	if !ok {
		return
	}
	anchor := r.PathValue("anchor")
	i, found := x.byAnchor[anchor]
	if !found {
		s.problem(w, http.StatusNotFound, "run "+id, "no unit "+anchor+" in this run")
		return
	}
	u, err := x.unit(i)
	if err != nil {
		s.problem(w, http.StatusInternalServerError, "run "+id, err.Error())
		return
	}
	v := s.unitView(run, x, i, u, r.URL.Query().Get("stale") == "1")
	s.page(w, "unit", v)
}

// unitView builds the page of unit u, the i-th of x.
func (s *Server) unitView(run *Run, x *unitIndex, i int, u *result.Unit, stale bool) *unitView {
	base := runURL(run.ID)
	v := &unitView{Title: fmt.Sprintf("%s × %s, trial %d", u.Scenario.ID, u.Summarizer, u.Trial+1), Nav: "runs",
		RunID: run.ID, Run: run, RunURL: base, Unit: u, Fig: reports.FiguresOf(u, x.pricing),
		ReportURL: base + "/report#" + reports.UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial)}
	v.Verdict = v.Fig.Verdict()
	v.Mark = marks[v.Verdict]
	line := x.units[i]
	si := int(line.scen)
	sc := &x.scenarios[si]
	_ = x.ensureScenarios([]int{si}) // the links' marks; a failure leaves them blank
	for _, l := range sc.lines {
		o := x.units[l]
		f := x.figOrNil(int(l))
		mark, verdict := "", ""
		if f != nil {
			verdict = f.Verdict()
			mark = marks[verdict]
		}
		switch {
		case o.sum == line.sum:
			v.Trials = append(v.Trials, gridTrial{N: int(o.trial) + 1, Verdict: verdict, Mark: mark, Href: unitPath(run.ID, sc.Ref.ID, x.sums[o.sum], int(o.trial))})
		case o.trial == line.trial:
			v.Others = append(v.Others, unitLink{Summarizer: x.sums[o.sum], Href: unitPath(run.ID, sc.Ref.ID, x.sums[o.sum], int(o.trial)), Mark: mark, Verdict: verdict})
		}
	}
	if len(v.Trials) == 1 {
		v.Trials = nil
	}
	slices.SortFunc(v.Trials, func(a, b gridTrial) int { return a.N - b.N })
	v.GridURL = gridQuery{Show: showAll, Per: defaultGridRows, Page: si/defaultGridRows + 1}.URL(base, si/defaultGridRows+1) + "#s-" + anchorID(sc.Ref.ID)

	ls, changed, note := s.units.scenarios.scenarioOf(u, run.Dir)
	v.ScenarioNote = note
	if ls != nil && (!changed || stale) {
		v.Scenario, v.ScenarioFile = ls.sc, ls.path
	}
	if changed && !stale {
		v.StaleURL = unitPath(run.ID, u.Scenario.ID, u.Summarizer, u.Trial) + "?stale=1"
	}
	invSeqs := map[string][]int{}
	if v.Scenario != nil {
		for _, inv := range v.Scenario.Invariants {
			invSeqs[inv.InvariantID()] = scenarios.EvidenceSeqs(inv)
		}
	}
	page := unitPath(run.ID, u.Scenario.ID, u.Summarizer, u.Trial)
	for _, g := range u.Generations {
		v.Gens = append(v.Gens, buildGen(g, invSeqs, v.Scenario, page))
	}
	for k, p := range u.Probes {
		up := unitProbe{Probe: p, Anchor: fmt.Sprintf("p%d", k)}
		if v.Scenario != nil {
			for _, sp := range v.Scenario.Probes {
				if sp.ID == p.ID {
					up.Question = sp.Question
				}
			}
		}
		v.Probes = append(v.Probes, up)
	}
	return v
}

// figOrNil is unit i's figures, nil when its chunk was not read.
func (x *unitIndex) figOrNil(i int) *reports.UnitFigures {
	c := &x.chunks[i/chunkUnits]
	if len(c.figs) <= i%chunkUnits {
		return nil
	}
	return &c.figs[i%chunkUnits]
}

// anchorID is an id for s in a page: a digest, since scenario ids,
// pointers and names may hold any character.
func anchorID(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:5])
}

// itemID is the id of the summary item (or line) at ptr in generation n.
func itemID(n int, ptr string) string { return fmt.Sprintf("g%d-p%s", n, anchorID(ptr)) }

// lineID is the id of the raw JSON line of the value at ptr in
// generation n's summary.
func lineID(n int, ptr string) string { return fmt.Sprintf("g%d-r%s", n, anchorID(ptr)) }

// eventID is the id of the event seq in generation n's events.
func eventID(n, seq int) string { return fmt.Sprintf("g%d-e%d", n, seq) }

// buildGen builds generation g's view: its checks with their evidence
// linked, its summary, and the events through its cut (from sc, nil when
// they are not shown).
func buildGen(g result.Generation, invSeqs map[string][]int, sc *scenarios.Scenario, page string) unitGen {
	ug := unitGen{Generation: g, Sections: reports.SummarySections(g.Summary, g.Checks), Lines: reports.SummaryLines(g.Summary, g.Checks)}
	if g.ReplacedTokens > 0 && len(g.Summary) > 0 {
		ug.Ratio = float64(g.SummaryTokens) / float64(g.ReplacedTokens)
	}
	// The summary's places, for the evidence's pointers: its items as a
	// reader sees them, and every line of its raw JSON for a place no
	// item shows (covers_through, a field the sections leave out).
	var items, lines []string
	for _, sec := range ug.Sections {
		var ids []string
		for _, it := range sec.Items {
			ids = append(ids, itemID(g.N, it.Pointer))
			items = append(items, it.Pointer)
		}
		ug.ItemIDs = append(ug.ItemIDs, ids)
	}
	for _, l := range ug.Lines {
		ug.LineIDs = append(ug.LineIDs, lineID(g.N, l.Pointer))
		lines = append(lines, l.Pointer)
	}
	place := func(p string) string {
		if q := nearestPointer(p, items); q != "" {
			return itemID(g.N, q)
		}
		if q := nearestPointer(p, lines); q != "" {
			return lineID(g.N, q)
		}
		return ""
	}
	var marks *evidenceMarks
	ug.Checks, marks = genChecks(g, invSeqs, place)
	if sc == nil {
		return ug
	}
	rows := genRows(g, sc, marks)
	ug.Replaced = len(sc.Events[:sort.Search(len(sc.Events), func(i int) bool { return sc.Events[i].Seq > g.Cut })])
	ug.EventsURL = fmt.Sprintf("%s/events?g=%d", page, g.N)
	ug.Events = window(rows, ug.EventsURL)
	return ug
}

// buildGenRows are every row of generation g's events, unwindowed.
func buildGenRows(g result.Generation, invSeqs map[string][]int, sc *scenarios.Scenario) []eventRow {
	_, marks := genChecks(g, invSeqs, func(string) string { return "" })
	return genRows(g, sc, marks)
}

// evidenceMarks are the events the checks of a generation point at: by
// seq, the checks' anchors, labels and the worst status; and the texts
// of their evidence, marked where they occur.
type evidenceMarks struct {
	bySeq map[int]*seqMark
	texts []string
}

type seqMark struct {
	anchors, labels []string
	class           string
}

// genChecks links generation g's checks to their evidence: the events
// (their evidence's seqs, and the seqs the invariant rests on, invSeqs)
// and the summary's places (place is the id of the one a pointer leads
// to, "" for none).
func genChecks(g result.Generation, invSeqs map[string][]int, place func(string) string) ([]unitCheck, *evidenceMarks) {
	em := &evidenceMarks{bySeq: map[int]*seqMark{}}
	var out []unitCheck
	for j, c := range g.Checks {
		uc := unitCheck{CheckResult: c, Label: c.Check, Anchor: fmt.Sprintf("g%d-c%d", g.N, j), Doc: reports.CheckDoc(c.Check)}
		if c.Invariant != "" {
			uc.Label += "/" + c.Invariant
		}
		seqs := map[int]bool{}
		for _, e := range c.Evidence {
			ue := unitEvidence{Evidence: e}
			if e.Seq > 0 && e.Seq <= g.Cut {
				ue.SeqHref = "#" + eventID(g.N, e.Seq)
				seqs[e.Seq] = true
			}
			if id := place(e.Pointer); id != "" {
				ue.PtrHref = "#" + id
			}
			// An invariant's evidence text is the fact the events hold; a
			// structural check's (a covered seq, a summary's words) would
			// mark chance matches.
			if c.Kind == result.KindInvariant && len(e.Text) >= 3 {
				em.texts = append(em.texts, e.Text)
			}
			uc.Evidence = append(uc.Evidence, ue)
		}
		if c.Invariant != "" {
			for _, q := range invSeqs[c.Invariant] {
				if q > 0 && q <= g.Cut && !seqs[q] {
					uc.Seqs = append(uc.Seqs, seqLink{q, "#" + eventID(g.N, q)})
					seqs[q] = true
				}
			}
		}
		for q := range seqs {
			m := em.bySeq[q]
			if m == nil {
				m = &seqMark{}
				em.bySeq[q] = m
			}
			m.anchors = append(m.anchors, uc.Anchor)
			m.labels = append(m.labels, uc.Label+": "+string(c.Status))
			m.class = worseClass(m.class, c.Status)
		}
		out = append(out, uc)
	}
	for _, m := range em.bySeq {
		sort.Strings(m.anchors)
		sort.Strings(m.labels)
	}
	return out, em
}

// genRows are the rows of sc's events through generation g's cut, marked
// with em, with the start of the events sent to g marked.
func genRows(g result.Generation, sc *scenarios.Scenario, em *evidenceMarks) []eventRow {
	n := sort.Search(len(sc.Events), func(i int) bool { return sc.Events[i].Seq > g.Cut })
	rows := eventRows(g.N, sc.Events[:n], em)
	// The events from From on were sent to this generation with the
	// summary it extends; that summary had replaced the earlier ones.
	if g.From > 1 {
		if at := slices.IndexFunc(rows, func(r eventRow) bool { return r.Seq >= g.From }); at >= 0 {
			div := eventRow{Divider: fmt.Sprintf("from #%d on: the events sent to this generation with the summary %s, which had replaced the events above", g.From, orBase(g.BaseID))}
			rows = slices.Insert(rows, at, div)
		}
	}
	return rows
}

func orBase(id string) string {
	if id == "" {
		return "before it"
	}
	return id
}

// nearestPointer is the place among ptrs that evidence pointer p leads
// to: p itself, else its nearest ancestor, else the first place under it;
// "" when none.
func nearestPointer(p string, ptrs []string) string {
	if p == "" {
		return ""
	}
	best := ""
	for _, q := range ptrs {
		switch {
		case q == p:
			return q
		case strings.HasPrefix(p, q+"/") && len(q) >= len(best):
			best = q
		}
	}
	if best != "" {
		return best
	}
	for _, q := range ptrs {
		if strings.HasPrefix(q, p+"/") || p == "/" {
			return q
		}
	}
	return ""
}

// worseClass is the row class of evidence of checks with statuses class
// (so far) and s: fail over uncertain over error over pass.
func worseClass(class string, s result.Status) string {
	rank := map[string]int{"fail": 0, "uncertain": 1, "error": 2, "pass": 3, "skip": 4, "": 5}
	c := string(s)
	if rank[c] < rank[class] {
		return c
	}
	return class
}

// eventRows renders events as transcript.EventMessages groups them (a
// tool result after its call), each row with the checks whose evidence it
// holds, and evidence texts marked.
func eventRows(n int, events []scenarios.Event, em *evidenceMarks) []eventRow {
	filler := map[int]bool{}
	for _, e := range events {
		if e.Filler {
			filler[e.Seq] = true
		}
	}
	var rows []eventRow
	for _, m := range transcript.EventMessages(events) {
		row := eventRow{Role: m.Role, Synthetic: m.Synthetic}
		body := m.Content
		switch {
		case len(m.Calls) > 0:
			var b strings.Builder
			b.WriteString(m.Content)
			for _, c := range m.Calls {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				fmt.Fprintf(&b, "call %s: %s(%s)", c.ID, c.Name, c.Arguments)
			}
			body = b.String()
			row.Head = "assistant"
		case m.Role == transcript.Tool:
			row.Head = "tool " + m.CallID
		default:
			row.Head = m.Role
		}
		for k, q := range m.Seqs {
			if k == 0 {
				row.Seq, row.ID = q, eventID(n, q)
			} else {
				row.Anchors = append(row.Anchors, eventID(n, q))
			}
			row.Filler = row.Filler || filler[q]
			if m := em.bySeq[q]; m != nil {
				row.Checks = strings.TrimSpace(row.Checks + " " + strings.Join(m.anchors, " "))
				row.Title = strings.TrimPrefix(row.Title+"; "+strings.Join(m.labels, "; "), "; ")
				row.Class = worseClass(row.Class, result.Status(m.class))
			}
		}
		row.HTML = markTexts(body, em.texts)
		rows = append(rows, row)
	}
	return rows
}

// markTexts escapes s and marks every occurrence of texts in it.
func markTexts(s string, texts []string) template.HTML {
	esc := template.HTMLEscapeString(s)
	done := map[string]bool{}
	for _, t := range texts {
		if done[t] || !strings.Contains(s, t) {
			continue
		}
		done[t] = true
		et := template.HTMLEscapeString(t)
		esc = strings.ReplaceAll(esc, et, "<mark>"+et+"</mark>")
	}
	return template.HTML(esc)
}

// Windowing of a generation's events: a history of thousands of events is
// not sent whole. Shown are the first and last messages before the cut,
// every message that holds evidence, with its neighbours, and the start of
// the events sent to the generation; each run of messages left out is one
// row, linked to the page of those events.
const (
	windowAll    = 60 // at most this many messages are shown whole
	windowHead   = 3
	windowTail   = 12
	windowAround = 2
)

func window(rows []eventRow, eventsURL string) []eventRow {
	if len(rows) <= windowAll {
		return rows
	}
	show := make([]bool, len(rows))
	mark := func(i int) {
		for j := max(0, i-windowAround); j <= min(len(rows)-1, i+windowAround); j++ {
			show[j] = true
		}
	}
	for i := range rows {
		switch {
		case i < windowHead || i >= len(rows)-windowTail:
			show[i] = true
		case rows[i].Checks != "" || rows[i].Divider != "":
			mark(i)
		}
	}
	var out []eventRow
	for i := 0; i < len(rows); {
		if show[i] {
			out = append(out, rows[i])
			i++
			continue
		}
		j := i
		gap := eventRow{Gap: true}
		for ; j < len(rows) && !show[j]; j++ {
			if rows[j].Divider != "" || rows[j].Seq == 0 {
				continue
			}
			if gap.From == 0 {
				gap.From = rows[j].Seq
			}
			gap.To = max(gap.To, rows[j].Seq)
			gap.N++
		}
		if gap.N > 0 {
			gap.Href = eventsURL + "&from=" + strconv.Itoa(gap.From) + "&to=" + strconv.Itoa(gap.To)
			out = append(out, gap)
		}
		i = j
	}
	return out
}

// maxEventRows is how many messages the events page shows at once.
const maxEventRows = 500

// eventsView is the events page: one generation's events seqs From–To.
type eventsView struct {
	Title, Nav string
	UnitURL    string
	Unit       *result.Unit
	Gen        int
	From, To   int
	Rows       []eventRow
	Next       string
	Note       string
}

// eventsPage is GET /run/{root}/{name}/unit/{anchor}/events?g=N&from=A&to=B:
// generation N's events through its cut with seqs A–B (every one when
// neither is given), maxEventRows at a time; with part=1 the rows alone,
// which the unit page's script puts in place of the gap it opens.
func (s *Server) eventsPage(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run, x, ok := s.runIndex(w, r, id)
	if !ok {
		return
	}
	i, found := x.byAnchor[r.PathValue("anchor")]
	if !found {
		s.problem(w, http.StatusNotFound, "run "+id, "no unit "+r.PathValue("anchor")+" in this run")
		return
	}
	u, err := x.unit(i)
	if err != nil {
		s.problem(w, http.StatusInternalServerError, "run "+id, err.Error())
		return
	}
	q := r.URL.Query()
	n, _ := strconv.Atoi(q.Get("g"))
	gi := slices.IndexFunc(u.Generations, func(g result.Generation) bool { return g.N == n })
	if gi < 0 {
		s.problem(w, http.StatusNotFound, "run "+id, fmt.Sprintf("unit %s has no generation %q", r.PathValue("anchor"), q.Get("g")))
		return
	}
	g := u.Generations[gi]
	from, _ := strconv.Atoi(q.Get("from"))
	to, err := strconv.Atoi(q.Get("to"))
	if err != nil || to <= 0 || to > g.Cut {
		to = g.Cut
	}
	page := unitPath(run.ID, u.Scenario.ID, u.Summarizer, u.Trial)
	v := &eventsView{Title: fmt.Sprintf("%s × %s, trial %d: generation %d's events", u.Scenario.ID, u.Summarizer, u.Trial+1, n), Nav: "runs",
		UnitURL: page, Unit: u, Gen: n, From: max(from, 1), To: to}
	ls, changed, note := s.units.scenarios.scenarioOf(u, run.Dir)
	if ls == nil || changed && q.Get("stale") != "1" {
		v.Note = note
	} else {
		invSeqs := map[string][]int{}
		for _, inv := range ls.sc.Invariants {
			invSeqs[inv.InvariantID()] = scenarios.EvidenceSeqs(inv)
		}
		ug := buildGenRows(g, invSeqs, ls.sc)
		for _, row := range ug {
			if row.Divider != "" || row.Seq == 0 && len(v.Rows) == 0 {
				continue
			}
			if row.Seq != 0 && (row.Seq < v.From || row.Seq > v.To) {
				continue
			}
			if len(v.Rows) == maxEventRows && row.Seq != 0 {
				v.Next = fmt.Sprintf("%s/events?g=%d&from=%d&to=%d", page, n, row.Seq, v.To)
				break
			}
			v.Rows = append(v.Rows, row)
		}
	}
	if q.Get("part") == "1" {
		s.page(w, "eventrows", v)
		return
	}
	s.page(w, "events", v)
}
