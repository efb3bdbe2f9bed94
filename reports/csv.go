package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/result"
)

// CSVColumns are the columns of WriteCSV, in order (docs/formats.md,
// "CSV").
var CSVColumns = []string{"run_id", "scenario", "summarizer", "trial", "generation", "check", "kind", "name", "status", "class", "message", "pointer", "evidence", "file", "line", "decided_by"}

// WriteCSV writes one row per check outcome of r (every check of every
// generation, every probe, and a row for each unit that did not finish,
// with its first evidence: the place in the summary and the text there),
// in result order, under a header of CSVColumns. Trials count from 1, as
// in every report. A text cell that a spreadsheet would read as a formula
// (it starts with =, +, -, @, a tab or a carriage return) gets a leading
// apostrophe: summaries and messages quote what a model wrote.
func WriteCSV(w io.Writer, r *result.Result) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVColumns)
	row := func(u *result.Unit, gen, check, kind, name, status, class, msg string, ev []result.Evidence, line int, decided string) {
		var ptr, text string
		for _, e := range ev {
			if e.Pointer != "" || e.Text != "" {
				ptr, text = e.Pointer, e.Text
				break
			}
		}
		l := ""
		if line > 0 {
			l = strconv.Itoa(line)
		}
		cw.Write([]string{cell(r.RunID), cell(u.Scenario.ID), cell(u.Summarizer), strconv.Itoa(u.Trial + 1), gen,
			cell(check), kind, cell(name), status, class, cell(msg), cell(ptr), cell(text), cell(u.Scenario.File), l, decided})
	}
	for i := range r.Units {
		u := &r.Units[i]
		if u.Status != result.UnitOK {
			row(u, "", "unit", "unit", "", u.Status, "", u.Error, nil, 0, "")
		}
		for _, g := range u.Generations {
			n := strconv.Itoa(g.N)
			for _, c := range g.Checks {
				row(u, n, c.Check, c.Kind, c.Invariant, string(c.Status), "", c.Message, c.Evidence, c.Pos.Line, c.DecidedBy)
			}
		}
		for _, p := range u.Probes {
			row(u, "", result.CheckDecisions, result.KindDecision, p.ID, string(result.DecisionStatus(p.Class)), p.Class, probeMessage(p), nil, p.Pos.Line, "")
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	return nil
}

// cell keeps a spreadsheet from reading s as a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
