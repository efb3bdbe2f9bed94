package viewer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/browser"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/viewer"
)

// TestChromiumUnits opens the grid and the unit page in headless
// Chromium: a cell opens its unit; on the unit page a run of events left
// out is fetched in place, and a click on a check marks its evidence in
// the events and in the summary. Screenshots of the grid and of two unit
// pages are kept.
func TestChromiumUnits(t *testing.T) {
	bin := browser.Path(t)
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "scenarios"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "scenarios", "long.yaml"), []byte(longScenario), 0o644))
	t.Chdir(root)
	out := filepath.Join(root, "compact-eval-out")
	realRun(t, out, "suite", 8, 3)
	realRun(t, out, "long", 0, 1, "scenarios/long.yaml")
	site := viewer.New([]string{out})
	srv, _, run := harnessServer(t, bin, site, nil)

	// The grid: a cell opens its unit.
	got := run("grid", "/run/0/suite", 1300, `
    var d = frame.document;
    var cells = d.querySelectorAll("#grid td.cell a.open");
    var marks = Array.prototype.map.call(d.querySelectorAll("#grid td.cell .mark"), function (m) { return m.textContent; }).join("");
    var fail = d.querySelector('#grid td.cell[data-verdict="fail"] a.open');
    var label = fail.getAttribute("aria-label");
    f.addEventListener("load", function () {
      var h = f.contentDocument.querySelector("h1");
      done("cells=" + cells.length + " marks=" + (/^[✓✗!?–]+$/.test(marks)) + " opened=" + frame.location.pathname.replace(/u-[0-9a-f]+$/, "u-X") + " h1=" + h.textContent.replace(/\s+/g, " ").trim() + " | " + label);
    });
    fail.click();`)
	m := regexp.MustCompile(`^cells=16 marks=true opened=/run/0/suite/unit/u-X h1=✗ (\S+) × (\S+), trial \d \| (\S+) × (\S+): fail; `).FindStringSubmatch(got)
	if m == nil || m[1] != m[3] || m[2] != m[4] {
		t.Errorf("grid: %q; want 8 × 2 cells with marks, a failing cell opening its unit", got)
	}

	// The unit page: a gap is filled in place; a check marks its
	// evidence in both panes.
	long := "/run/0/long/unit/" + reports.UnitAnchor("long-history", "builtin:extractive", 0)
	got = run("unit", long, 1300, `
    var d = frame.document, path = frame.location.pathname;
    var sec = d.getElementById("g1");
    var before = sec.querySelectorAll("tr.ev-row").length;
    var gap = sec.querySelector("a.gap");
    var n = parseInt(/⋯ (\d+)/.exec(gap.textContent)[1], 10);
    gap.click();
    later(1500, function () {
      var after = sec.querySelectorAll("tr.ev-row").length;
      var row = null;
      sec.querySelectorAll("tr.check").forEach(function (r) { if (!row && r.querySelector("a.seq") && r.querySelector("a.ptr")) { row = r; } });
      row.querySelector("td.msg").click();
      var ev = sec.querySelectorAll(".pane.events .focus").length, sum = sec.querySelectorAll(".pane.summary .focus").length;
      done("filled=" + (after - before === n) + " stayed=" + (frame.location.pathname === path) + " check=" + row.id + " focus=" + row.classList.contains("focus") + " events=" + (ev > 0) + " summary=" + (sum > 0));
    });`)
	if !regexp.MustCompile(`^filled=true stayed=true check=g1-c\d+ focus=true events=true summary=true$`).MatchString(got) {
		t.Errorf("unit page: %q; want a gap filled in place and a check's evidence marked in both panes", got)
	}

	// Screenshots, for a person to look at: the grid, the long unit, a
	// unit of the suite with trials, and the events page.
	_, grid := get(t, site, "/run/0/suite")
	cell := regexp.MustCompile(`<td class="cell v-fail"[^>]*><a class="open" href="([^"]+)"`).FindStringSubmatch(grid)
	if cell == nil {
		t.Fatal("no failing cell in the grid")
	}
	suiteUnit := cell[1]
	art := browser.ArtifactDir(t)
	for name, path := range map[string]string{
		"view-grid.png":        "/run/0/suite",
		"view-unit-long.png":   long,
		"view-unit-suite.png":  suiteUnit,
		"view-unit-events.png": long + "/events?g=2",
	} {
		shot := filepath.Join(art, name)
		browser.Run(t, bin, srv.URL+path, "--screenshot="+shot, "--window-size=1400,1800", "--hide-scrollbars", "--virtual-time-budget=5000")
		png, err := os.ReadFile(shot)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 20_000 {
			t.Errorf("screenshot %s: %d bytes, %v", shot, len(png), err)
		}
		t.Logf("screenshot: %s", shot)
	}
}
