package viewer_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/viewer"
)

// summaryControls is a summary text that a terminal would act on.
const summaryControls = "Deploy \x1b[31mblocked\x1b[0m;\x07 screen \u009b2J \u202eelif\u202c end"

// Every HTML page of the viewer shows control characters escaped and
// writes none raw: a summary's text in a run's report and on a unit's
// page, a run folder named with an escape sequence on the runs list, its
// grid, its report's bar, the trends
// and the head-to-head pages, and the problem page of a run that does not
// decode.
func TestPagesShowControlsEscaped(t *testing.T) {
	dir := t.TempDir()
	r := fixtureRun(1, 2)
	for i := range r.Units {
		for j := range r.Units[i].Generations {
			g := &r.Units[i].Generations[j]
			var doc map[string]any
			if len(g.Summary) == 0 || json.Unmarshal(g.Summary, &doc) != nil {
				continue
			}
			doc["text"] = summaryControls
			b, _ := json.Marshal(doc)
			g.Summary = b
		}
	}
	r.Units[0].Error = "exec ./s: exit status 3; stderr: " + summaryControls
	name := "run\x1b[2J\x07"
	writeRun(t, dir, name, r)
	writeRun(t, dir, "plain", fixtureRun(2, 2))
	bad := writeRun(t, dir, "bad\x1b[1m", fixtureRun(3, 2))
	must(t, os.WriteFile(filepath.Join(bad, "result.json"), []byte("{\"result_version\": 1, \"run_id\": \"\x1b[31m"), 0o644))

	site := viewer.New([]string{dir})
	id := "0/" + url.PathEscape(name)
	unit := "/run/" + id + "/unit/" + reports.UnitAnchor(r.Units[1].Scenario.ID, r.Units[1].Summarizer, r.Units[1].Trial)
	paths := []string{"/", "/runs/rows", "/trends", "/run/" + id, "/run/" + id + "/report", unit, "/run/0/" + url.PathEscape("bad\x1b[1m"),
		"/diff?base=" + url.QueryEscape("0/"+name) + "&new=0/plain", "/diff?run=" + url.QueryEscape("0/"+name) + "&a=builtin:truncate&b=builtin:extractive"}
	pages := map[string]string{}
	for _, p := range paths {
		code, body := get(t, site, p)
		if code != 200 && !strings.HasPrefix(p, "/run/0/bad") {
			t.Errorf("%s: status %d", p, code)
		}
		pages[p] = body
		for i, c := range body {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f || c >= 0x80 && c < 0xa0 || c >= 0x202a && c <= 0x202e {
				t.Errorf("%s: raw %U at %d: %q", p, c, i, body[max(0, i-40):min(len(body), i+20)])
				break
			}
		}
	}
	if want := `Deploy \x1b[31mblocked\x1b[0m;\x07 screen \x9b2J \u202eelif\u202c end`; !strings.Contains(pages["/run/"+id+"/report"], want) || !strings.Contains(pages[unit], want) {
		t.Errorf("the run's report or a unit's page does not show the summary's text escaped (%q)", want)
	}
	if want := `run\x1b[2J\x07`; !strings.Contains(pages["/"], want) {
		t.Errorf("the runs list does not show the run's folder name escaped (%q)", want)
	}
}
