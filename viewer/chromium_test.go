package viewer_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/browser"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/viewer"
)

// harness is a test page that loads path in a frame, runs script in the
// page once the frame has loaded (frame is the frame's window, done(text)
// writes the verdict into #out), and gives up after 20 s.
const harness = `<!DOCTYPE html><html><body><iframe id="f" width="%W" height="900" src="%SRC"></iframe><pre id="out">pending</pre>
<script>
var f = document.getElementById("f"), out = document.getElementById("out"), started = false;
function done(text) { out.textContent = text; }
function later(ms, fn) { setTimeout(fn, ms); }
f.addEventListener("load", function () {
  if (started) { return; }
  started = true;
  var frame = f.contentWindow;
  try { (function (frame) { %SCRIPT })(frame); } catch (e) { done("error: " + e); }
});
later(20000, function () { if (out.textContent === "pending") { done("timeout"); } });
</script></body></html>`

// harnessServer serves site with the harness pages beside it (and what
// more adds), and returns the server, page (the address of a harness page
// that loads src at a width and runs script on it) and run (that page's
// verdict, in headless Chromium bin, with no console error).
func harnessServer(t testing.TB, bin string, site http.Handler, more func(*http.ServeMux)) (*httptest.Server, func(name, src string, width int, script string) string, func(name, src string, width int, script string) string) {
	mux := http.NewServeMux()
	scripts := map[string]string{}
	mux.HandleFunc("GET /__t/{name}", func(w http.ResponseWriter, r *http.Request) {
		s := scripts[r.PathValue("name")]
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(s))
	})
	if more != nil {
		more(mux)
	}
	mux.Handle("/", site)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	page := func(name, src string, width int, script string) string {
		h := strings.NewReplacer("%W", strconv.Itoa(width), "%SRC", src, "%SCRIPT", script).Replace(harness)
		scripts[name] = h
		return srv.URL + "/__t/" + name
	}
	run := func(name, src string, width int, script string) string {
		t.Helper()
		dom, stderr := browser.Run(t, bin, page(name, src, width, script), "--dump-dom", "--virtual-time-budget=30000")
		if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
			t.Errorf("%s: console errors:\n%s", name, strings.Join(errs, "\n"))
		}
		m := regexp.MustCompile(`(?s)<pre id="out">(.*?)</pre>`).FindStringSubmatch(dom)
		if m == nil {
			t.Fatalf("%s: no verdict in the harness page", name)
		}
		return m[1]
	}
	return srv, page, run
}

// TestChromium opens the viewer in headless Chromium: the runs list (a run
// written while it is open appears), a trend whose point opens its run, a
// diff whose regression opens the unit's drill-down, a report whose
// failure link opens its check, names whole at a narrow width; screenshots
// of each are kept.
func TestChromium(t *testing.T) {
	bin := browser.Path(t)
	dir := fixture(t, 4)
	prog := writeRun(t, dir, "being-written", fixtureRun(30, 2))
	must(t, os.Remove(filepath.Join(prog, "result.json")))
	corrupt := writeRun(t, dir, "corrupt", fixtureRun(31, 2))
	must(t, os.WriteFile(filepath.Join(corrupt, "result.json"), []byte(`{"result_version": 1,`), 0o644))

	site := viewer.New([]string{dir})
	srv, page, run := harnessServer(t, bin, site, func(mux *http.ServeMux) {
		mux.HandleFunc("GET /__add", func(w http.ResponseWriter, r *http.Request) {
			writeRun(t, dir, "arrived-later", fixtureRun(40, 2))
			w.Write([]byte("ok"))
		})
	})

	// Runs: every run listed, the two broken ones with their reasons; a
	// run written while the page is open appears.
	got := run("runs", "/", 1300, `
    var d = frame.document;
    var rows = d.querySelectorAll("#rows tr.run");
    var states = Array.prototype.map.call(rows, function (r) { return r.getAttribute("data-state"); }).join(",");
    var reasons = Array.prototype.map.call(d.querySelectorAll("#rows .reason"), function (r) { return r.textContent; }).join(" | ");
    fetch("/__add").then(function () {
      later(5000, function () {
        var now = frame.document.querySelectorAll('#rows tr.run[data-id="0/arrived-later"]').length;
        done("rows=" + rows.length + " states=" + states + " reasons=" + reasons + " arrived=" + now + " count=" + frame.document.getElementById("rcount").textContent);
      });
    });`)
	for _, want := range []string{"rows=6 ", "in progress", "unreadable", "no result.json yet: ", "invalid result", "arrived=1", "count=7 of 7"} {
		if !strings.Contains(got, want) {
			t.Errorf("runs page: %q lacks %q", got, want)
		}
	}

	// Trends: a point is a link that opens its run.
	got = run("trend", "/trends?figure=constraint", 1100, `
    var pts = frame.document.querySelectorAll("#trend a.pt");
    var n = frame.document.querySelectorAll("#trend text.n").length;
    var target = pts[pts.length - 1].getAttribute("data-run");
    f.addEventListener("load", function () {
      done("points=" + pts.length + " labels=" + n + " opened=" + frame.location.pathname + " want=/run/" + target + " report=" + (f.contentDocument.getElementById("leaderboard") !== null));
    });
    pts[pts.length - 1].dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: frame}));`)
	m := regexp.MustCompile(`opened=(\S+) want=(\S+)`).FindStringSubmatch(got)
	if !strings.Contains(got, "points=10 labels=10") || m == nil || m[1] != m[2] || !strings.Contains(got, "report=true") {
		t.Errorf("trend: %q; want 10 labelled points (5 runs × 2 summarizers), and a click opening its run's report", got)
	}

	// Diff: a regression links to its unit's page, at its generation or
	// its decisions.
	a, b := fixtureRun(0, 4).RunID, fixtureRun(1, 4).RunID
	got = run("diff", "/diff?base=0/"+a+"&new=0/"+b, 1300, `
    var d = frame.document;
    var counts = d.getElementById("n-regressions").textContent + "/" + d.getElementById("n-fixes").textContent;
    var link = d.querySelector("#regressions a.name");
    f.addEventListener("load", function () {
      var doc = f.contentDocument, at = doc.getElementById(frame.location.hash.slice(1));
      done("counts=" + counts + " path=" + frame.location.pathname + " hash=" + frame.location.hash + " there=" + (at !== null) + " unit=" + (doc.getElementById("figures") !== null));
    });
    link.click();`)
	if !regexp.MustCompile(`counts=\d+/\d+ path=/run/0/` + b + `/unit/u-[0-9a-f]{12} hash=#(g\d+|probes) there=true unit=true`).MatchString(got) {
		t.Errorf("diff: %q; want a regression link opening its unit's page at its generation", got)
	}

	// Diff with a pairing: two OLD=NEW entries typed in the form, one per
	// submission (each adds a field), give compare --map's counts.
	swap := []string{"builtin:truncate=builtin:extractive", "builtin:extractive=builtin:truncate"}
	baseRes, _ := reports.Read(filepath.Join(dir, a, "result.json"))
	newRes, _ := reports.Read(filepath.Join(dir, b, "result.json"))
	cmp, err := reports.CompareMapped(baseRes, newRes, swap, reports.CompareOptions{Alpha: reports.DefaultAlpha})
	must(t, err)
	got = run("diff-map", "/diff?base=0/"+a+"&new=0/"+b, 1300, `
    var submit = function (d, value) {
      var inputs = d.querySelectorAll('#pairing input[name="map"]');
      inputs[inputs.length - 1].value = value;
      d.querySelector('#pick-runs button[type="submit"]').click();
    };
    var step = 0;
    f.addEventListener("load", function () {
      var d = f.contentDocument;
      if (++step === 1) { submit(d, "`+swap[1]+`"); return; }
      var unlabelled = 0;
      d.querySelectorAll("#pairing input").forEach(function (i) { if (i.labels.length === 0) { unlabelled++; } });
      done("counts=" + d.getElementById("n-paired").textContent + "/" + d.getElementById("n-regressions").textContent + "/" + d.getElementById("n-fixes").textContent +
        " fields=" + d.querySelectorAll('#pairing input[name="map"]').length + " unlabelled=" + unlabelled + " used=" + d.getElementById("map-used").textContent);
    });
    submit(frame.document, "`+swap[0]+`");`)
	if want := fmt.Sprintf("counts=%d/%d/%d fields=3 unlabelled=0 used=summarizers paired as compact-eval compare --map %s --map %s", cmp.Paired, len(cmp.Regressions), len(cmp.Fixes), swap[0], swap[1]); got != want {
		t.Errorf("diff with a pairing typed in the form:\n got %q\nwant %q", got, want)
	}

	// Run: a failure link opens its check in a drill-down that was
	// closed, and no name breaks inside a word at a narrow width.
	reportScript := `
    var d = frame.document;
    var links = d.querySelectorAll("#findings a.flink");
    var link = null;
    for (var i = 0; i < links.length; i++) {
      var target = d.getElementById(links[i].getAttribute("href").slice(1));
      if (target && target.tagName === "TR" && !target.closest("details.unit").open) { link = links[i]; break; }
    }
    var broken = [];
    d.querySelectorAll("code, .name").forEach(function (c) { if (c.getClientRects().length > 1) { broken.push(c.textContent); } });
    if (!link) { done("no failure link to a check in a closed drill-down"); return; }
    var id = link.getAttribute("href").slice(1);
    link.click();
    later(300, function () {
      var row = d.getElementById(id);
      var r = row.getBoundingClientRect();
      done("links=" + links.length + " opened=" + d.documentElement.getAttribute("data-opened") + " want=" + id +
        " open=" + row.closest("details.unit").open + " marked=" + row.classList.contains("target") +
        " visible=" + (r.top >= 0 && r.bottom <= frame.innerHeight) + " broken=" + broken.length + ":" + broken.slice(0, 3).join("|"));
    });`
	got = run("report", "/run/0/"+b+"/report", 760, reportScript)
	m = regexp.MustCompile(`opened=(\S+) want=(\S+) open=true marked=true visible=true broken=0:`).FindStringSubmatch(got)
	if m == nil || m[1] != m[2] {
		t.Errorf("report: %q; want the failure link to open, mark and show its check, and no name broken", got)
	}

	// Screenshots, for a person to look at.
	art := browser.ArtifactDir(t)
	for name, path := range map[string]string{
		"view-runs.png":   "/",
		"view-trend.png":  "/trends?figure=constraint",
		"view-diff.png":   "/diff?base=0/" + a + "&new=0/" + b + "&map=" + swap[0] + "&map=" + swap[1],
		"view-report.png": "/run/0/" + b + "/report",
		// The report in a frame, after a click on a failure link: the
		// drill-down it opened (a screenshot of the page scrolled to
		// the hash comes out blank in headless mode).
		"view-drilldown.png": strings.TrimPrefix(page("report-wide", "/run/0/"+b+"/report", 1260, reportScript), srv.URL),
	} {
		shot := filepath.Join(art, name)
		browser.Run(t, bin, srv.URL+path, "--screenshot="+shot, "--window-size=1300,1400", "--hide-scrollbars", "--virtual-time-budget=5000")
		png, err := os.ReadFile(shot)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 20_000 {
			t.Errorf("screenshot %s: %d bytes, %v", shot, len(png), err)
		}
		t.Logf("screenshot: %s", shot)
	}
}
