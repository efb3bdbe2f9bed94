package viewer_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/agents"
	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/summarizers"
	"github.com/compact-eval/compact-eval/viewer"
)

// realRun runs scenarios (the built-in suite's first n when paths is nil,
// else the files at paths as given) through the truncate and extractive
// baselines, trials times, into dir/name, as `compact-eval run` does.
func realRun(t testing.TB, dir, name string, n, trials int, paths ...string) *result.Result {
	t.Helper()
	var list []*scenarios.Scenario
	if paths == nil {
		all, err := scenarios.Builtin()
		must(t, err)
		list = all[:n]
	}
	for _, p := range paths {
		sc, err := scenarios.LoadFile(p)
		must(t, err)
		must(t, scenarios.LintScenario(sc).Err())
		list = append(list, sc)
	}
	res, err := runner.Run(context.Background(), list, runner.Options{
		Summarizers: []runner.Summarizer{{Name: "builtin:truncate", Summarizer: summarizers.NewTruncate()}, {Name: "builtin:extractive", Summarizer: summarizers.NewExtractive()}},
		Agent:       agents.Reference{}, AgentName: "builtin:reference", Trials: trials,
		Out: filepath.Join(dir, name),
	})
	must(t, err)
	r, err := reports.Read(res.ResultPath)
	must(t, err)
	return r
}

// cellRe reads a grid cell: its verdict, link and invariants kept.
var cellRe = regexp.MustCompile(`<td class="cell v-(\w+)" title="([^"]*)" data-verdict="\w+"><a class="open" href="([^"]+)" aria-label="[^"]*"><span class="mark">(.)</span> (?:(\d+)/(\d+)|<span class="muted">–</span>)`)

// TestGridPage: the run page's grid has a row per scenario and a cell per
// summarizer, each the verdict of its unit's trials as reports.FiguresOf
// counts them, its mark, its invariants kept and a link to the worst
// trial's unit page.
func TestGridPage(t *testing.T) {
	dir := t.TempDir()
	r := realRun(t, dir, "run", 6, 2)
	site := viewer.New([]string{dir})
	code, page := get(t, site, "/run/0/run")
	if code != 200 || !strings.Contains(page, `<table id="leaderboard">`) || !strings.Contains(page, `</html>`) {
		t.Fatalf("GET /run/0/run = %d, with the leaderboard and the whole page: %v", code, strings.Contains(page, "leaderboard"))
	}
	rows := regexp.MustCompile(`<tr id="s-[0-9a-f]+" data-scenario="([^"]+)">`).FindAllStringSubmatch(page, -1)
	cells := cellRe.FindAllStringSubmatch(page, -1)
	if len(rows) != 6 || len(cells) != 12 {
		t.Fatalf("%d rows and %d cells, want 6 scenarios × 2 summarizers", len(rows), len(cells))
	}
	marks := map[string]string{"pass": "✓", "fail": "✗", "error": "!", "uncertain": "?", "skip": "–"}
	rank := map[string]int{"fail": 0, "error": 1, "uncertain": 2, "pass": 3, "skip": 4}
	for k, c := range cells {
		scen, sum := rows[k/2][1], result.Summarizers(r)[k%2]
		verdict, kept, judged, worst := "", 0, 0, -1
		for _, u := range r.Units {
			if u.Scenario.ID != scen || u.Summarizer != sum {
				continue
			}
			f := reports.FiguresOf(&u, reports.Pricing{})
			if v := f.Verdict(); verdict == "" || rank[v] < rank[verdict] {
				verdict, worst = v, u.Trial
			}
			kept += f.Invariants.Pass
			judged += f.Invariants.Judged()
		}
		want := []string{verdict, marks[verdict], fmt.Sprintf("/run/0/run/unit/%s", reports.UnitAnchor(scen, sum, worst))}
		if got := []string{c[1], c[4], html.UnescapeString(c[3])}; !slices.Equal(got, want) {
			t.Errorf("%s × %s: cell %q, want %q", scen, sum, got, want)
		}
		if judged > 0 && (c[5] != strconv.Itoa(kept) || c[6] != strconv.Itoa(judged)) {
			t.Errorf("%s × %s: kept %s/%s, want %d/%d", scen, sum, c[5], c[6], kept, judged)
		}
		if !strings.Contains(c[2], scen+" × "+sum+": "+verdict) {
			t.Errorf("%s × %s: the cell's words %q do not say its verdict", scen, sum, c[2])
		}
		if code, _ := get(t, site, html.UnescapeString(c[3])); code != 200 {
			t.Errorf("the cell's unit page %s: %d", c[3], code)
		}
	}

	// The HTML report moved one level down, with its bar; both CSVs are
	// what report writes.
	code, rep := get(t, site, "/run/0/run/report")
	if code != 200 || !strings.Contains(rep, `<nav class="viewer-bar"`) || !strings.Contains(rep, `<h2>Leaderboard</h2>`) || !strings.Contains(rep, `href="/run/0/run">grid</a>`) {
		t.Errorf("GET report = %d, the report with the bar back to the grid: %v", code, strings.Contains(rep, "viewer-bar"))
	}
	for path, format := range map[string]string{"/run/0/run/report.csv": "csv", "/run/0/run/units.csv": "units-csv"} {
		var want bytes.Buffer
		must(t, reports.Write(&want, r, format, reports.Options{}))
		if code, got := get(t, site, path); code != 200 || got != want.String() {
			t.Errorf("GET %s = %d, equal to report --format %s: %v", path, code, format, got == want.String())
		}
	}
}

// TestUnitsCSVPrices: the viewer prices the calls as report --config does.
func TestUnitsCSVPrices(t *testing.T) {
	dir := t.TempDir()
	r := fake.Result(fake.Config{Scenarios: 4, Trials: 2, Seed: 3})
	writeRun(t, dir, "priced", r)
	prices := reports.Prices{"openai:gpt-4o-mini": {Input: 0.15, Output: 0.6}, "builtin:reference": {}}
	site := viewer.New([]string{dir})
	site.SetPrices(prices)
	var want bytes.Buffer
	must(t, reports.Write(&want, r, "units-csv", reports.Options{Prices: prices}))
	code, got := get(t, site, "/run/0/priced/units.csv")
	if code != 200 || got != want.String() || !regexp.MustCompile(`,0\.\d{6},`).MatchString(got) {
		t.Errorf("GET units.csv = %d, equal to report --format units-csv with prices: %v", code, got == want.String())
	}
}

// TestGridPaging: pages of ?per= scenarios with a pager; ?q= keeps the
// scenarios whose id, title or tags hold every word; ?show=failing the
// rows with a cell lost, errored or uncertain, ?show=differing those whose
// judging summarizers' verdicts differ, each paged alike.
func TestGridPaging(t *testing.T) {
	dir := t.TempDir()
	r := fake.Result(fake.Config{Scenarios: 130, Summarizers: []string{"builtin:none", "builtin:truncate", "builtin:extractive"}, Trials: 3, Seed: 11})
	for i := range r.Units {
		u := &r.Units[i]
		// a third kept by every summarizer, a third by truncate alone
		if n, _ := strconv.Atoi(strings.TrimPrefix(u.Scenario.ID, "scn-")); n%3 == 0 || n%3 == 1 && u.Summarizer == "builtin:truncate" {
			for gi := range u.Generations {
				for ci := range u.Generations[gi].Checks {
					if c := &u.Generations[gi].Checks[ci]; c.Status != result.Skip {
						c.Status = result.Pass
					}
				}
			}
			for pi := range u.Probes {
				u.Probes[pi].Class = result.Kept
			}
		}
	}
	r.Aggregate()
	writeRun(t, dir, "big", r)
	site := viewer.New([]string{dir})
	ids := func(page string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`data-scenario="([^"]+)"`).FindAllStringSubmatch(page, -1) {
			out = append(out, m[1])
		}
		return out
	}
	var all []string
	for i := range 130 {
		all = append(all, fmt.Sprintf("scn-%03d", i))
	}
	_, p1 := get(t, site, "/run/0/big")
	_, p3 := get(t, site, "/run/0/big?page=3")
	if got := ids(p1); !slices.Equal(got, all[:50]) {
		t.Errorf("page 1: %v", got)
	}
	if got := ids(p3); !slices.Equal(got, all[100:]) || !strings.Contains(p3, "scenarios 101–130 of 130") || !strings.Contains(p3, `<b aria-current="page">3</b>`) || strings.Contains(p3, `rel="next"`) {
		t.Errorf("page 3: %v, the count, the pager and no next page", got)
	}
	if _, p := get(t, site, "/run/0/big?per=20&page=2"); !slices.Equal(ids(p), all[20:40]) || !strings.Contains(p, `href="/run/0/big?page=3&amp;per=20"`) {
		t.Errorf("per=20 page 2: %v, its next page keeping per", ids(p))
	}
	if _, p := get(t, site, "/run/0/big?q=scn-12"); !slices.Equal(ids(p), all[120:130]) || !strings.Contains(p, "of 10 matching (130 in the run)") {
		t.Errorf("q=scn-12: %v", ids(p))
	}

	// The verdict filters, against the cells computed here.
	for _, show := range []string{"failing", "differing"} {
		var want []string
		for _, id := range all {
			verdicts := map[string]string{}
			judged := map[string]int{}
			rank := map[string]int{"fail": 0, "error": 1, "uncertain": 2, "pass": 3, "skip": 4}
			for _, u := range r.Units {
				if u.Scenario.ID != id {
					continue
				}
				f := reports.FiguresOf(&u, reports.Pricing{})
				if v, ok := verdicts[u.Summarizer]; !ok || rank[f.Verdict()] < rank[v] {
					verdicts[u.Summarizer] = f.Verdict()
				}
				judged[u.Summarizer] += f.Invariants.Judged()
			}
			keep := false
			seen := ""
			for _, s := range r.Config.Summarizers {
				v := verdicts[s]
				switch show {
				case "failing":
					keep = keep || v == "fail" || v == "error" || v == "uncertain"
				case "differing":
					if judged[s] == 0 {
						continue
					}
					keep = keep || seen != "" && v != seen
					seen = v
				}
			}
			if keep {
				want = append(want, id)
			}
		}
		if len(want) < 12 || len(want) == 130 {
			t.Fatalf("show=%s keeps %d of 130 rows: the fixture proves little", show, len(want))
		}
		var got []string
		for page := 1; page < 20; page++ {
			_, p := get(t, site, fmt.Sprintf("/run/0/big?show=%s&per=10&page=%d", show, page))
			got = append(got, ids(p)...)
			if !strings.Contains(p, `rel="next"`) {
				if !strings.Contains(p, fmt.Sprintf("of %d matching", len(want))) {
					t.Errorf("show=%s: the last page does not count the %d rows", show, len(want))
				}
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("show=%s: rows %v, want %v", show, got, want)
		}
	}
	// Nothing matches: a page that says so; an unknown filter is every row.
	if code, p := get(t, site, "/run/0/big?q=no-such-scenario"); code != 200 || !strings.Contains(p, "no scenario matches") {
		t.Errorf("a filter that matches nothing: %d", code)
	}
	if _, p := get(t, site, "/run/0/big?show=%3Cb%3E"); !slices.Equal(ids(p), all[:50]) {
		t.Error("an unknown ?show= is not every scenario")
	}
}

// TestUnitPage: a unit's page puts each generation's summary beside the
// events it replaced, rendered as the agent saw them, each check's
// evidence marked and linked in both (the events its seqs name, the
// summary's place its pointer names), with decided_by, the unit's
// figures and its decisions; the other trials and summarizers are a click
// away.
func TestUnitPage(t *testing.T) {
	dir := t.TempDir()
	r := realRun(t, dir, "run", 3, 2)
	site := viewer.New([]string{dir})
	var u *result.Unit
	for i := range r.Units {
		for _, g := range r.Units[i].Generations {
			for _, c := range g.Checks {
				if u == nil && c.Status == result.Pass && c.DecidedBy != "" && r.Units[i].Summarizer == "builtin:extractive" {
					u = &r.Units[i]
				}
			}
		}
	}
	if u == nil {
		t.Fatal("no unit with a decided pass: the fixture proves little")
	}
	path := "/run/0/run/unit/" + reports.UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial)
	code, page := get(t, site, path)
	if code != 200 {
		t.Fatalf("GET %s = %d\n%s", path, code, page)
	}
	sc, err := scenarios.LoadBuiltin(u.Scenario.File)
	must(t, err)
	for _, g := range u.Generations {
		sec := section(t, page, fmt.Sprintf(`<section class="gen" id="g%d">`, g.N))
		// Every event through the cut is rendered, or in a gap that links
		// to them; none after it.
		for _, e := range sc.Events {
			row := fmt.Sprintf(`id="g%d-e%d"`, g.N, e.Seq)
			if e.Seq > g.Cut && strings.Contains(sec, row) {
				t.Errorf("g%d shows event #%d, past its cut #%d", g.N, e.Seq, g.Cut)
			}
		}
		for j, c := range g.Checks {
			anchor := fmt.Sprintf("g%d-c%d", g.N, j)
			row := regexp.MustCompile(`(?s)<tr id="` + anchor + `" class="check s-` + string(c.Status) + `"[^>]*>(.*?)</tr>`).FindStringSubmatch(sec)
			if row == nil {
				t.Errorf("g%d: no row for check %d (%s %s)", g.N, j, c.Check, c.Status)
				continue
			}
			if c.DecidedBy != "" && !strings.Contains(row[1], "<td>"+c.DecidedBy+"</td>") {
				t.Errorf("%s: decided_by %s not shown", anchor, c.DecidedBy)
			}
			for _, e := range c.Evidence {
				if e.Seq > 0 && e.Seq <= g.Cut {
					if !strings.Contains(row[1], fmt.Sprintf(`href="#g%d-e%d"`, g.N, e.Seq)) {
						t.Errorf("%s: evidence seq %d not linked", anchor, e.Seq)
					}
					// The event row is marked with the check.
					ev := regexp.MustCompile(fmt.Sprintf(`<tr id="g%d-e%d" class="ev-row [a-z]+[^"]*"[^>]* data-checks="([^"]*)"`, g.N, e.Seq)).FindStringSubmatch(sec)
					if ev == nil || !slices.Contains(strings.Fields(ev[1]), anchor) {
						t.Errorf("%s: event #%d is not marked with it", anchor, e.Seq)
					}
				}
				if e.Pointer != "" && len(g.Summary) > 0 {
					m := regexp.MustCompile(`href="#(g\d+-[pr][0-9a-f]+)">` + regexp.QuoteMeta(html.EscapeString(e.Pointer)) + `<`).FindStringSubmatch(row[1])
					if m == nil {
						t.Errorf("%s: pointer %s not linked", anchor, e.Pointer)
					} else if !strings.Contains(sec, `id="`+m[1]+`"`) {
						t.Errorf("%s: pointer %s links to %s, not in the summary", anchor, e.Pointer, m[1])
					}
				}
			}
		}
	}
	for _, want := range []string{`<table id="figures"`, `<table class="probes" id="probes">`, "trials: ", "the same scenario with: ", `class="pane events"`, `class="pane summary"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the unit page lacks %s", want)
		}
	}
	// The old address of the unit in the report still opens it.
	if !strings.Contains(page, `href="/run/0/run/report#`+reports.UnitAnchor(u.Scenario.ID, u.Summarizer, u.Trial)+`"`) {
		t.Error("no link to the unit in the HTML report")
	}
	for p, want := range map[string]int{"/run/0/run/unit/u-000000000000": 404, "/run/0/nope/unit/x": 404, path + "/events?g=99": 404, path + "/events?g=1": 200} {
		if code, _ := get(t, site, p); code != want {
			t.Errorf("GET %s = %d, want %d", p, code, want)
		}
	}
}

// section is the part of page from start to the next section or the end.
func section(t *testing.T, page, start string) string {
	t.Helper()
	i := strings.Index(page, start)
	if i < 0 {
		t.Fatalf("no %s in the page", start)
	}
	rest := page[i+len(start):]
	if j := strings.Index(rest, `<section class="gen"`); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// longScenario is a scenario of 420 filler events around a rule, a
// secret the user hands over and a correction, cut twice.
const longScenario = `version: 1
id: long-history
title: A long history with a key in it
goal: Find why the export is slow.
rules: You are an on-call assistant.
compaction:
  at: [203, 418]
events:
  - {role: user, text: "This is read-only: never write to prod. Use the staging key sk-live-7Hq2RwZ8vN4bLc9XyT for test calls."}
  - filler: {count: 400, seed: 3, topic: data}
  - {role: user, text: "The port is 6432, not 5432."}
  - {role: assistant, text: "Noted, 6432."}
  - filler: {count: 20, seed: 4, topic: data}
  - {role: user, text: "Keep going."}
invariants:
  - {id: ro, type: constraint, source_seq: 1, match: ['read[- ]?only']}
  - {id: key, type: secret, value: sk-live-7Hq2RwZ8vN4bLc9XyT}
  - {id: port, type: correction, subject: db port, source_seq: 402, old: "5432", new: "6432"}
probes:
  - id: write
    question: "Write the fix to prod now?"
    options:
      write: write to prod
      ask: ask first
    expect: ask
    requires: {ask: ['read[- ]?only']}
`

// TestUnitPageLongHistory: a history of hundreds of events is not sent
// whole: the first and last events, those that hold evidence and their
// neighbours are shown, each run left out is a link to the events page,
// which lists them (and, with part=1, is the rows alone); the events
// come from the scenario file found from the run folder, their secret
// redacted; a file whose meaning changed since the run is said so, its
// events shown only when asked.
func TestUnitPageLongHistory(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "scenarios"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "scenarios", "long.yaml"), []byte(longScenario), 0o644))
	t.Chdir(root)
	realRun(t, filepath.Join(root, "compact-eval-out"), "run", 0, 1, "scenarios/long.yaml")
	t.Chdir(t.TempDir()) // the viewer started elsewhere: found from the run folder
	site := viewer.New([]string{filepath.Join(root, "compact-eval-out")})
	path := "/run/0/run/unit/" + reports.UnitAnchor("long-history", "builtin:extractive", 0)
	code, page := get(t, site, path)
	if code != 200 {
		t.Fatalf("GET %s = %d", path, code)
	}
	if strings.Contains(page, "sk-live-") || strings.Contains(page, "7Hq2RwZ8") || !strings.Contains(page, "[redacted:key]") {
		t.Error("the key is not redacted in the events")
	}
	g1 := section(t, page, `<section class="gen" id="g1">`)
	shown := strings.Count(g1, `<tr id="g1-e`)
	gaps := regexp.MustCompile(`<a class="gap" href="([^"]+)" data-part="([^"]+)">⋯ (\d+) more events, #(\d+)–#(\d+)`).FindAllStringSubmatch(g1, -1)
	if shown > 60 || len(gaps) == 0 || !strings.Contains(g1, `id="g1-e1"`) {
		t.Fatalf("g1 shows %d event rows and %d gaps, with event #1: %v", shown, len(gaps), strings.Contains(g1, `id="g1-e1"`))
	}
	left := 0
	for _, m := range gaps {
		n, _ := strconv.Atoi(m[3])
		left += n
		_, part := get(t, site, html.UnescapeString(m[2]))
		if got := strings.Count(part, `<tr id="g1-e`); got != n || strings.Contains(part, "<html") {
			t.Errorf("the gap %s–%s: %d rows as a fragment, want %d", m[4], m[5], got, n)
		}
		if code, full := get(t, site, html.UnescapeString(m[1])); code != 200 || !strings.Contains(full, "</html>") {
			t.Errorf("the gap's events page: %d", code)
		}
	}
	if shown+left < 170 { // messages: a call and its result are one
		t.Errorf("%d event rows shown and %d in gaps: some of the 203 events through the cut are lost", shown, left)
	}
	// g2 marks where the events sent to it start, after g1's summary.
	if g2 := section(t, page, `<section class="gen" id="g2">`); !strings.Contains(g2, `<tr class="divider"><td colspan="2">from #204 on`) || !strings.Contains(g2, `id="g2-e402"`) {
		t.Error("g2 does not mark where its events start, or leaves out the correction's event #402")
	}
	// Every event through the cut, on the events page.
	if _, all := get(t, site, path+"/events?g=1"); strings.Count(all, `<tr id="g1-e`) < 150 {
		t.Errorf("the events page of g1 lists %d rows", strings.Count(all, `<tr id="g1-e`))
	}

	// The file changes meaning: the page says so and shows its events
	// only when asked.
	must(t, os.WriteFile(filepath.Join(root, "scenarios", "long.yaml"), []byte(strings.Replace(longScenario, "Keep going.", "Keep going, please.", 1)), 0o644))
	_, page = get(t, site, path)
	if !strings.Contains(page, "changed meaning since the run") || strings.Contains(page, `id="g1-e1"`) || !strings.Contains(page, "?stale=1") {
		t.Error("a changed scenario file is not called out, or its events shown unasked")
	}
	if _, page = get(t, site, path+"?stale=1"); !strings.Contains(page, `id="g1-e1"`) {
		t.Error("?stale=1 does not show the file's events")
	}
	must(t, os.Remove(filepath.Join(root, "scenarios", "long.yaml")))
	if _, page = get(t, site, path); !strings.Contains(page, "is not found (looked for ") {
		t.Error("a missing scenario file is not said")
	}
}

var _ = httptest.NewRecorder

// TestDiffHidesUnchanged: the Diff page lists only the rows by check that
// something changed in, and only the scenarios whose grid cells changed,
// until ?unchanged=1 (its link) shows every row; each side of a cell opens
// its run's unit.
func TestDiffHidesUnchanged(t *testing.T) {
	dir := t.TempDir()
	a := fake.Result(fake.Config{Scenarios: 12, Summarizers: []string{"builtin:truncate", "builtin:extractive"}, Seed: 1})
	b := fake.Result(fake.Config{Scenarios: 12, Summarizers: []string{"builtin:truncate", "builtin:extractive"}, Seed: 1})
	// The new run differs in the extractive units of three scenarios.
	for i := range b.Units {
		u := &b.Units[i]
		if u.Summarizer != "builtin:extractive" || u.Scenario.ID > "scn-002" {
			continue
		}
		for gi := range u.Generations {
			for ci := range u.Generations[gi].Checks {
				if c := &u.Generations[gi].Checks[ci]; c.Check == "constraint" {
					c.Status = map[result.Status]result.Status{result.Pass: result.Fail, result.Fail: result.Pass}[c.Status]
				}
			}
		}
	}
	b.Aggregate()
	a.RunID, b.RunID = "a", "b"
	writeRun(t, dir, "a", a)
	writeRun(t, dir, "b", b)
	site := viewer.New([]string{dir})
	c, err := reports.CompareMapped(a, b, nil, reports.CompareOptions{Alpha: reports.DefaultAlpha})
	must(t, err)
	changed := 0
	for _, r := range c.Rows {
		if r.B+r.C > 0 {
			changed++
		}
	}
	if changed == 0 || changed == len(c.Rows) {
		t.Fatalf("%d of %d rows changed: the fixture proves little", changed, len(c.Rows))
	}
	rowsOf := func(page string) int {
		m := regexp.MustCompile(`(?s)<table id="rows">(.*?)</table>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatal("no table of rows")
		}
		return strings.Count(m[1], "<tr>") - 1
	}
	gridOf := func(page string) []string {
		var out []string
		for _, m := range regexp.MustCompile(`<tr(?: class="unchanged")?><th scope="row"><span class="name">([^<]+)</span>`).FindAllStringSubmatch(page, -1) {
			out = append(out, m[1])
		}
		return out
	}
	_, page := get(t, site, "/diff?base=0/a&new=0/b")
	if n := rowsOf(page); n != changed {
		t.Errorf("%d rows by check shown, want the %d that changed", n, changed)
	}
	if got := gridOf(page); !slices.Equal(got, []string{"scn-000", "scn-001", "scn-002"}) {
		t.Errorf("grid rows %v, want the three scenarios that changed", got)
	}
	if !strings.Contains(page, "3 of 12 scenarios changed") {
		t.Error("the grid does not count the changed scenarios")
	}
	toggle := regexp.MustCompile(`<a href="([^"]+)">show the unchanged rows</a>`).FindStringSubmatch(page)
	if toggle == nil || !strings.Contains(page, fmt.Sprintf("%d rows where nothing changed are hidden", len(c.Rows)-changed)) {
		t.Fatal("no link to show the unchanged rows, or it does not count them")
	}
	_, all := get(t, site, html.UnescapeString(toggle[1]))
	if n := rowsOf(all); n != len(c.Rows) {
		t.Errorf("with the unchanged: %d rows, want %d", n, len(c.Rows))
	}
	if got := gridOf(all); len(got) != 12 {
		t.Errorf("with the unchanged: %d grid rows, want 12", len(got))
	}
	if !strings.Contains(all, "hide the unchanged rows") {
		t.Error("no link back")
	}
	// A changed cell opens the unit of each run.
	for _, run := range []string{"a", "b"} {
		want := `href="/run/0/` + run + `/unit/` + reports.UnitAnchor("scn-000", "builtin:extractive", 0) + `"`
		if !strings.Contains(page, want) {
			t.Errorf("the grid does not link to the unit of run %s", run)
		}
	}
	// From a run's page: "diff against another run" compares it with the
	// run before it.
	if code, p := get(t, site, "/diff?new=0/b"); code != 200 || !strings.Contains(p, `id="n-paired">`+strconv.Itoa(c.Paired)+`<`) {
		t.Errorf("/diff?new= alone: %d", code)
	}
}
