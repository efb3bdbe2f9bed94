package reports_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/compact-eval/compact-eval/internal/testkit/browser"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

func TestEscapeControls(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"none", "<p>plain\ttext\r\n</p>", "<p>plain\ttext\r\n</p>"},
		{"ESC sequences", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"other C0", "a\x00b\x07c\x08d\x0be\x0cf\x7f", `a\x00b\x07c\x08d\x0be\x0cf\x7f`},
		{"C1", "\u009b2J \u0085 \u009f", `\x9b2J \x85 \x9f`},
		{"bidi overrides and isolates", "a\u202eb\u2066c\u2069", `a\u202eb\u2066c\u2069`},
		{"letters of other scripts kept", "é ñ ж \u00a0 \u2014 \u2028", "é ñ ж \u00a0 \u2014 \u2028"},
		{"at the end", "x\x1b", `x\x1b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(reports.EscapeControls([]byte(tc.in))); got != tc.want {
				t.Errorf("EscapeControls(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// controlsText is a summary text that a terminal would act on: colours,
// a screen clear through the one-byte CSI, a bell, a backspace that hides
// a character, a right-to-left override.
const controlsText = "Deploy \x1b[31mblocked\x1b[0m by the rule;\x07 cleared\x08\x08 screen \u009b2J and \u202eelif.terces\u202c end."

// controlsShown is how the page shows it.
const controlsShown = `Deploy \x1b[31mblocked\x1b[0m by the rule;\x07 cleared\x08\x08 screen \x9b2J and \u202eelif.terces\u202c end.`

// withControls is the small fixture with controlsText in every summary's
// text and an extension, in every check message and in every call's
// stderr: what an exec summarizer may print.
func withControls(t *testing.T) *result.Result {
	t.Helper()
	r := small(t)
	n := 0
	for i := range r.Units {
		for j := range r.Units[i].Generations {
			g := &r.Units[i].Generations[j]
			g.Call.Stderr = "stderr: " + controlsText
			for k := range g.Checks {
				g.Checks[k].Message += " " + controlsText
			}
			if len(g.Summary) == 0 {
				continue
			}
			var doc map[string]any
			if json.Unmarshal(g.Summary, &doc) != nil {
				continue
			}
			doc["text"] = controlsText
			doc["extensions"] = map[string]any{"note\x1b[1m": controlsText}
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			g.Summary, n = b, n+1
		}
	}
	if n == 0 {
		t.Fatal("the fixture has no summary document to put controls in")
	}
	return r
}

// rawControls returns the control characters s holds raw (as
// EscapeControls defines them, read here rune by rune on its own).
func rawControls(s string) []string {
	var out []string
	for i, r := range s {
		bad := r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad || r == utf8.RuneError {
			out = append(out, fmt.Sprintf("%U at %d: %q", r, i, s[max(0, i-40):min(len(s), i+20)]))
		}
	}
	return out
}

// The HTML report writes no control character of the result raw: the
// summary's text (in its sections and its JSON), an extension's name, a
// check's message and an exec call's stderr show them as \x and \u
// escapes, visibly.
func TestHTMLShowsControlsEscaped(t *testing.T) {
	page := render(t, withControls(t), "html", reports.Options{})
	if bad := rawControls(page); len(bad) > 0 {
		t.Errorf("the page holds %d raw control characters, the first: %s", len(bad), bad[0])
	}
	if !strings.Contains(page, controlsShown) {
		t.Errorf("the page does not show the summary's text with its controls escaped (%q)", controlsShown)
	}
	if !strings.Contains(page, `stderr: `+controlsShown) {
		t.Error("the page does not show the call's stderr with its controls escaped")
	}
}

// In headless Chromium the page's text holds no control character and
// shows every one escaped.
func TestHTMLControlsChromium(t *testing.T) {
	bin := browser.Path(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, []byte(render(t, withControls(t), "html", reports.Options{})), 0o644); err != nil {
		t.Fatal(err)
	}
	// The script writes what the browser holds as the page's text into
	// the DOM: its controls found by a regular expression, and whether the
	// escaped text is there.
	probe := filepath.Join(filepath.Dir(page), "probe.html")
	if err := os.WriteFile(probe, []byte(controlsProbe), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, stderr := browser.Run(t, bin, "file://"+probe+"?page="+page, "--dump-dom", "--allow-file-access-from-files", "--virtual-time-budget=20000")
	if errs := browser.ConsoleErrors(stderr); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	m := regexp.MustCompile(`(?s)<pre id="out">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no verdict in the probe page:\n%s", dom)
	}
	if m[1] != "controls 0; shown yes" {
		t.Errorf("the browser's text of the page: %s, want no control and the escaped text shown", m[1])
	}
}

// controlsProbe loads the page named by ?page= in a frame and reports how
// many control characters its text (and its attributes) holds, and
// whether it shows the summary's text escaped.
const controlsProbe = `<!DOCTYPE html><html><body><iframe id="f" width="1200" height="900"></iframe><pre id="out">pending</pre>
<script>
var f = document.getElementById("f"), out = document.getElementById("out");
f.addEventListener("load", function () {
  try {
    var d = f.contentDocument, text = d.documentElement.textContent, attrs = "";
    d.querySelectorAll("*").forEach(function (e) { for (var i = 0; i < e.attributes.length; i++) { attrs += e.attributes[i].value; } });
    var bad = (text + attrs).match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g) || [];
    var shown = text.indexOf("Deploy \\x1b[31mblocked\\x1b[0m by the rule;\\x07 cleared\\x08\\x08 screen \\x9b2J") >= 0;
    out.textContent = "controls " + bad.length + "; shown " + (shown ? "yes" : "no");
  } catch (e) { out.textContent = "error: " + e; }
});
f.src = decodeURIComponent(location.search.replace(/^\?page=/, "file://"));
</script></body></html>`
