package viewer_test

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
	"github.com/compact-eval/compact-eval/viewer"
)

func TestRunsPage(t *testing.T) {
	dir := fixture(t, 4)
	corrupt := writeRun(t, dir, "corrupt", fixtureRun(9, 2))
	must(t, os.WriteFile(filepath.Join(corrupt, "result.json"), []byte("{"), 0o644))
	site := viewer.New([]string{dir})

	code, page := get(t, site, "/")
	if code != 200 {
		t.Fatalf("GET / = %d", code)
	}
	rows := regexp.MustCompile(`<tr class="run" data-state="([^"]+)" data-id="0/([^"]+)"`).FindAllStringSubmatch(page, -1)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r[2])
	}
	want := []string{"corrupt", fixtureRun(3, 4).RunID, fixtureRun(2, 4).RunID, fixtureRun(1, 4).RunID, fixtureRun(0, 4).RunID}
	// The corrupt run has no start time of its own: its folder's time,
	// now, puts it first.
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("rows %q, want newest first %q", ids, want)
	}
	for _, re := range []string{
		`<span class="state">unreadable</span>: <span class="reason">[^<]*corrupt/result.json: [^<]*invalid result`,
		`<code class="name" title="c0010{36}">c0010{6}</code><span class="dirty"[^>]*>\+dirty</span><br><span class="name muted">main</span>`,
		`<li><code class="name">builtin:truncate</code> \d+% \(\d+/\d+`,
		`<a class="name" href="/run/0/` + fixtureRun(3, 4).RunID + `">`,
		`<span class="muted" id="rcount">5 of 5</span>`,
	} {
		if !regexp.MustCompile(re).MatchString(page) {
			t.Errorf("the runs page lacks %s", re)
		}
	}

	// ?q= keeps the rows holding every word.
	_, page = get(t, site, "/?q=dirty+"+fixtureRun(3, 4).RunID[:13])
	if n := strings.Count(page, `<tr class="run"`); n != 1 || !strings.Contains(page, "3 of 5") && !strings.Contains(page, "1 of 5") {
		t.Errorf("filtered page has %d rows, want 1", n)
	}
	_, page = get(t, site, "/?q=nothing-matches-this")
	if strings.Count(page, `<tr class="run"`) != 0 {
		t.Error("a filter that matches nothing kept rows")
	}

	// The rows alone, for the page's refresh: a new run appears.
	writeRun(t, dir, "zz-new", fixtureRun(20, 2))
	code, frag := get(t, site, "/runs/rows")
	if code != 200 || strings.Contains(frag, "<html") || !strings.Contains(frag, `data-id="0/zz-new"`) {
		t.Errorf("GET /runs/rows = %d, new run listed: %v, a fragment: %v", code, strings.Contains(frag, "zz-new"), !strings.Contains(frag, "<html"))
	}
}

func TestTrendsPage(t *testing.T) {
	dir := fixture(t, 6)
	site := viewer.New([]string{dir})
	code, page := get(t, site, "/trends")
	if code != 200 || !strings.Contains(page, `<option selected>invariants kept</option>`) {
		t.Fatalf("GET /trends = %d; the default figure is not invariants kept", code)
	}
	links := regexp.MustCompile(`<a class="pt" href="/run/0/([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(links) != 12 {
		t.Errorf("%d points, want 6 runs × 2 summarizers", len(links))
	}
	for _, l := range links {
		if c, _ := get(t, site, "/run/0/"+l[1]); c != 200 {
			t.Errorf("point link /run/0/%s = %d", l[1], c)
		}
	}
	if !regexp.MustCompile(`<text class="n"[^>]*>n=\d+</text>`).MatchString(page) {
		t.Error("the points do not show n")
	}

	// By commit: one slot per commit (two runs each), labelled by it,
	// a dirty one marked.
	_, page = get(t, site, "/trends?order=commit&figure=constraint&summarizer=builtin:extractive")
	for _, want := range []string{">c000000000</text>", ">c002000000</text>", `<option selected>builtin:extractive</option>`, `<option selected>constraint</option>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the commit-ordered trend lacks %s", want)
		}
	}
	if n := strings.Count(page, `<a class="pt"`); n != 6 {
		t.Errorf("%d points for one summarizer, want 6", n)
	}
	// An unknown figure falls back to the default, never an error page.
	if code, _ := get(t, site, "/trends?figure=%3Cscript%3E"); code != 200 {
		t.Errorf("an unknown figure: %d", code)
	}
}

// TestTrendIdenticalTrials: a run whose trials copy one trial (a
// deterministic summarizer run with --trials 3) draws the same point and
// interval as the one-trial run; Wilson over every trial's outcomes, as
// the trends drew before, would have narrowed it.
func TestTrendIdenticalTrials(t *testing.T) {
	dir := t.TempDir()
	one := fixtureRun(0, 6)
	one.Aggregate()
	writeRun(t, dir, one.RunID, one)
	three := fixtureRun(1, 6)
	three.Units = nil
	for _, u := range one.Units {
		for trial := range 3 {
			u.Trial = trial
			three.Units = append(three.Units, u)
		}
	}
	three.Config.Trials = 3
	three.Aggregate()
	writeRun(t, dir, three.RunID, three)
	tr := viewer.BuildTrend(viewer.NewStore([]string{dir}).Runs(), viewer.FigureInvariants, "time", nil)
	for _, se := range tr.Series {
		if len(se.Points) != 2 {
			t.Fatalf("%s: %d points, want 2", se.Summarizer, len(se.Points))
		}
		a, b := se.Points[0], se.Points[1]
		if b.N != 3*a.N || a.Rate != b.Rate || a.Low != b.Low || a.High != b.High || a.EffectiveN != b.EffectiveN || a.Scenarios != b.Scenarios {
			t.Errorf("%s: 3 identical trials %v [%v, %v] (n %d, worth %v), one trial %v [%v, %v] (n %d, worth %v)",
				se.Summarizer, b.Rate, b.Low, b.High, b.N, b.EffectiveN, a.Rate, a.Low, a.High, a.N, a.EffectiveN)
		}
		if _, lo, hi := result.Wilson(b.Pass, b.N); !(hi-lo < b.High-b.Low) {
			t.Errorf("%s: Wilson over the %d outcomes [%v, %v] is not narrower than the clustered [%v, %v]", se.Summarizer, b.N, lo, hi, b.Low, b.High)
		}
	}
}

// TestTrendFigures computes a trend's points by hand from the results.
func TestTrendFigures(t *testing.T) {
	dir := fixture(t, 3)
	runs := viewer.NewStore([]string{dir}).Runs()
	tr := viewer.BuildTrend(runs, "constraint", "time", nil)
	if len(tr.Series) != 2 || tr.Runs != 3 {
		t.Fatalf("series %d, runs %d", len(tr.Series), tr.Runs)
	}
	for _, se := range tr.Series {
		for k, p := range se.Points {
			r := fixtureRun(k, 4)
			r.Aggregate()
			a := result.FindAggregate(r, se.Summarizer, "constraint")
			n := a.Pass + a.Fail + a.Uncertain
			if p.Pass != a.Pass || p.N != n || p.X != k {
				t.Errorf("%s run %d: point %d/%d at %d, want %d/%d at %d", se.Summarizer, k, p.Pass, p.N, p.X, a.Pass, n, k)
			}
			// The interval is clustered by scenario: count each
			// scenario's constraint outcomes by hand.
			by := map[string]*result.ScenarioCount{}
			var ids []string
			for _, u := range r.Units {
				if u.Summarizer != se.Summarizer {
					continue
				}
				for _, g := range u.Generations {
					for _, c := range g.Checks {
						if c.Check != "constraint" || c.Status == result.Skip || c.Status == result.Error {
							continue
						}
						if by[u.Scenario.ID] == nil {
							by[u.Scenario.ID] = &result.ScenarioCount{Trials: 1}
							ids = append(ids, u.Scenario.ID)
						}
						by[u.Scenario.ID].N++
						if c.Status == result.Pass {
							by[u.Scenario.ID].Pass++
						}
					}
				}
			}
			slices.Sort(ids)
			var sc []result.ScenarioCount
			for _, id := range ids {
				sc = append(sc, *by[id])
			}
			rate, iv := result.ClusteredWilson(sc)
			if p.Rate != rate || p.Low != iv.Low || p.High != iv.High || p.Scenarios != len(ids) || p.EffectiveN != iv.EffectiveN {
				t.Errorf("%s run %d: point %v [%v, %v] over %d scenarios at n %v, want %v [%v, %v] over %d at n %v",
					se.Summarizer, k, p.Rate, p.Low, p.High, p.Scenarios, p.EffectiveN, rate, iv.Low, iv.High, len(ids), iv.EffectiveN)
			}
		}
	}
	// One outcome per point: the chart says so.
	one := t.TempDir()
	r := fixtureRun(0, 1)
	r.Units = r.Units[:1]
	r.Units[0].Generations = r.Units[0].Generations[:1]
	var keep []result.CheckResult
	for _, c := range r.Units[0].Generations[0].Checks {
		if c.Check == "constraint" {
			c.Status = result.Pass
			keep = append(keep, c)
			break
		}
	}
	r.Units[0].Generations[0].Checks = keep
	r.Aggregate()
	writeRun(t, one, "one", r)
	_, page := get(t, viewer.New([]string{one}), "/trends?figure=constraint")
	if !strings.Contains(page, `id="n1"`) || !strings.Contains(page, `>n=1</text>`) || !strings.Contains(page, "n = 1: one outcome") {
		t.Error("a point with n = 1 is not called out")
	}
}

func TestDiffPage(t *testing.T) {
	dir := fixture(t, 2)
	site := viewer.New([]string{dir})
	a, b := fixtureRun(0, 4), fixtureRun(1, 4)
	code, page := get(t, site, "/diff?base=0/"+a.RunID+"&new=0/"+b.RunID)
	if code != 200 {
		t.Fatalf("diff: %d\n%s", code, page)
	}
	base, _ := reports.Read(filepath.Join(dir, a.RunID, "result.json"))
	next, _ := reports.Read(filepath.Join(dir, b.RunID, "result.json"))
	p, _ := reports.ParsePairing(nil, result.Summarizers(base), result.Summarizers(next))
	c := reports.CompareWith(base, next, reports.CompareOptions{Alpha: reports.DefaultAlpha, Pairing: p, MapFlag: "--map"})
	if len(c.Regressions) == 0 || len(c.Fixes) == 0 {
		t.Fatal("the fixture runs differ in nothing: the test would prove little")
	}
	for id, n := range map[string]int{"n-paired": c.Paired, "n-regressions": len(c.Regressions), "n-fixes": len(c.Fixes), "n-missing": c.Missing} {
		if !strings.Contains(page, `id="`+id+`">`+strconv.Itoa(n)+`<`) {
			t.Errorf("%s is not %d", id, n)
		}
	}
	var text bytes.Buffer
	c.WriteText(&text)
	if pre := regexp.MustCompile(`(?s)<pre>(.*)</pre>`).FindStringSubmatch(page); pre == nil || html.UnescapeString(pre[1]) != text.String() {
		t.Error("the page does not hold the comparison as compare prints it")
	}
	// Each regression links to its unit's page in the new run, at its
	// generation or decisions.
	m := regexp.MustCompile(`<table class="changes" id="regressions">.*?<a class="name" href="(/run/[^"#]+)#([^"]+)"`).FindStringSubmatch(strings.ReplaceAll(page, "\n", " "))
	if m == nil {
		t.Fatal("no link from a regression to its unit")
	}
	if _, rep := get(t, site, m[1]); !strings.Contains(rep, `id="`+m[2]+`"`) {
		t.Errorf("the unit page has no element %s", m[2])
	}

	// Head-to-head: the counts of reports.CompareSummarizers.
	code, page = get(t, site, "/diff?run=0/"+a.RunID+"&a=builtin:truncate&b=builtin:extractive")
	h := reports.CompareSummarizers(base, "builtin:truncate", "builtin:extractive", reports.DefaultAlpha)
	if code != 200 || !strings.Contains(page, `id="n-paired">`+strconv.Itoa(h.Paired)+`<`) || !strings.Contains(page, `id="n-aonly">`+strconv.Itoa(len(h.AOnly))+`<`) || !strings.Contains(page, `id="n-bonly">`+strconv.Itoa(len(h.BOnly))+`<`) {
		t.Errorf("head-to-head: %d, counts differ from CompareSummarizers (paired %d)", code, h.Paired)
	}
	// A run alone offers its summarizers, the first two chosen.
	_, page = get(t, site, "/diff?run=0/"+a.RunID)
	if !strings.Contains(page, `<select name="a"><option selected>builtin:truncate</option>`) {
		t.Error("the head-to-head does not offer the run's summarizers")
	}

	for path, want := range map[string]int{
		"/diff":                              200,
		"/diff?base=0/nope&new=0/" + b.RunID: 404,
		"/diff?base=0/" + a.RunID:            400,
		"/diff?run=0/" + a.RunID + "&a=x&b=builtin:truncate":                400,
		"/diff?run=0/" + a.RunID + "&a=builtin:truncate&b=builtin:truncate": 400,
	} {
		if code, page := get(t, site, path); code != want || !strings.Contains(page, "</html>") {
			t.Errorf("GET %s = %d, want %d with a page", path, code, want)
		}
	}
}

func TestRunPage(t *testing.T) {
	dir := fixture(t, 1)
	corrupt := writeRun(t, dir, "corrupt", fixtureRun(9, 2))
	must(t, os.WriteFile(filepath.Join(corrupt, "result.json"), []byte("{"), 0o644))
	site := viewer.New([]string{dir})
	id := fixtureRun(0, 4).RunID
	code, page := get(t, site, "/run/0/"+id+"/report")
	if code != 200 || !strings.Contains(page, `<nav class="viewer-bar"`) || !strings.Contains(page, `<h2>Leaderboard</h2>`) {
		t.Fatalf("GET /run/…/report = %d, the report with the bar: %v", code, strings.Contains(page, "viewer-bar"))
	}
	code, csv := get(t, site, "/run/0/"+id+"/report.csv")
	r, _ := reports.Read(filepath.Join(dir, id, "result.json"))
	var want bytes.Buffer
	reports.Write(&want, r, "csv", reports.Options{})
	if code != 200 || csv != want.String() {
		t.Errorf("GET report.csv = %d, equal to report --format csv: %v", code, csv == want.String())
	}
	for path, want := range map[string]int{"/run/0/nope": 404, "/run/0/corrupt": 409, "/run/0/corrupt/report": 409, "/run/0/corrupt/report.csv": 409,
		"/run/0/corrupt/units.csv": 404, "/run/0/corrupt/unit/u-000000000000": 409, "/run/7/" + id: 404, "/run/0/..%2F..%2Fetc": 404, "/nope": 404} {
		if code, _ := get(t, site, path); code != want {
			t.Errorf("GET %s = %d, want %d", path, code, want)
		}
	}
}

func TestStaticAndMethods(t *testing.T) {
	site := viewer.New([]string{t.TempDir()})
	rec := httptest.NewRecorder()
	site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/app.js", nil))
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Type"), "javascript") || !strings.Contains(rec.Body.String(), "/runs/rows") {
		t.Errorf("app.js: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest(m, "/", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s / = %d, want 405", m, rec.Code)
		}
	}
	// No page loads anything from elsewhere.
	_, page := get(t, site, "/")
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page loads an asset from another site")
	}
}

// TestReadOnly: serving every page changes nothing in the run folders.
func TestReadOnly(t *testing.T) {
	dir := fixture(t, 3)
	prog := writeRun(t, dir, "in-progress", fixtureRun(7, 2))
	must(t, os.Remove(filepath.Join(prog, "result.json")))
	snap := func() string {
		var b strings.Builder
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			info, _ := d.Info()
			b.WriteString(p + " " + info.Mode().String() + " " + strconv.FormatInt(info.Size(), 10) + " " + info.ModTime().String() + "\n")
			return nil
		})
		return b.String()
	}
	before := snap()
	site := viewer.New([]string{dir})
	a, b := fixtureRun(0, 4).RunID, fixtureRun(1, 4).RunID
	unit := "/run/0/" + a + "/unit/" + reports.UnitAnchor("scn-000", "builtin:truncate", 0)
	for _, p := range []string{"/", "/runs/rows", "/trends", "/trends?order=commit", "/diff?base=0/" + a + "&new=0/" + b, "/diff?run=0/" + a, "/run/0/" + a,
		"/run/0/" + a + "?show=failing", "/run/0/" + a + "/report", "/run/0/" + a + "/report.csv", "/run/0/" + a + "/units.csv", unit, unit + "/events?g=1", "/run/0/in-progress"} {
		get(t, site, p)
	}
	if after := snap(); after != before {
		t.Errorf("the folders changed:\n%s\nthen\n%s", before, after)
	}
}

// TestDiffMap: ?map=OLD=NEW (repeatable) pairs the two runs' summarizers
// as `compare --map` does, with the same counts; a blank pairing (a form's
// empty field) is left out; a pairing that names no summarizer is refused
// with compare's message; the form holds the pairings given.
func TestDiffMap(t *testing.T) {
	dir := fixture(t, 2)
	site := viewer.New([]string{dir})
	a, b := fixtureRun(0, 4), fixtureRun(1, 4)
	base, _ := reports.Read(filepath.Join(dir, a.RunID, "result.json"))
	next, _ := reports.Read(filepath.Join(dir, b.RunID, "result.json"))
	swap := []string{"builtin:truncate=builtin:extractive", "builtin:extractive=builtin:truncate"}
	c, err := reports.CompareMapped(base, next, swap, reports.CompareOptions{Alpha: reports.DefaultAlpha})
	must(t, err)
	byName, _ := reports.CompareMapped(base, next, nil, reports.CompareOptions{Alpha: reports.DefaultAlpha})
	if len(c.Regressions) == len(byName.Regressions) && len(c.Fixes) == len(byName.Fixes) {
		t.Fatal("the swapped pairing counts as pairing by name does: the test would prove little")
	}
	q := url.Values{"base": {"0/" + a.RunID}, "new": {"0/" + b.RunID}, "map": {swap[0], "", swap[1]}}
	code, page := get(t, site, "/diff?"+q.Encode())
	if code != 200 {
		t.Fatalf("diff with --map: %d\n%s", code, page)
	}
	for id, n := range map[string]int{"n-paired": c.Paired, "n-regressions": len(c.Regressions), "n-fixes": len(c.Fixes), "n-missing": c.Missing} {
		if !strings.Contains(page, `id="`+id+`">`+strconv.Itoa(n)+`<`) {
			t.Errorf("%s is not %d, compare --map's", id, n)
		}
	}
	var text bytes.Buffer
	c.WriteText(&text)
	if pre := regexp.MustCompile(`(?s)<pre>(.*)</pre>`).FindStringSubmatch(page); pre == nil || html.UnescapeString(pre[1]) != text.String() {
		t.Error("the page does not hold the comparison as compare --map prints it")
	}
	for _, m := range swap {
		if !strings.Contains(page, `<input name="map" value="`+html.EscapeString(m)+`"`) {
			t.Errorf("the form does not hold the pairing %s", m)
		}
	}
	if !strings.Contains(page, `--map builtin:truncate=builtin:extractive --map builtin:extractive=builtin:truncate`) {
		t.Error("the page does not say the pairing as a command")
	}

	q["map"] = []string{"builtin:truncate=nope"}
	code, page = get(t, site, "/diff?"+q.Encode())
	_, want := reports.CompareMapped(base, next, q["map"], reports.CompareOptions{Alpha: reports.DefaultAlpha})
	if code != 400 || want == nil || !strings.Contains(page, html.EscapeString(want.Error())) {
		t.Errorf("a pairing naming no summarizer: %d, want 400 with %q", code, want)
	}
}
