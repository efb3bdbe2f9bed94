package main

import (
	"bytes"
	"context"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a buffer the command writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startView runs `compact-eval view --addr 127.0.0.1:0 args…` until the
// test ends and returns the site's address.
func startView(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb lockedBuffer
	env := newEnv(strings.NewReader(""), &out, &errb)
	done := make(chan int)
	go func() { done <- run(ctx, append([]string{"view", "--addr", "127.0.0.1:0"}, args...), env) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("view exited %d after the interrupt\n%s", code, errb.String())
			}
		case <-time.After(5 * time.Second):
			t.Error("view did not stop within 5 s of the interrupt")
		}
	})
	re := regexp.MustCompile(`serving \d+ runs at (http://127\.0\.0\.1:\d+/)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("view exited %d: %s%s", code, out.String(), errb.String())
		default:
		}
	}
	t.Fatalf("view did not say where it serves: %q %q", out.String(), errb.String())
	return ""
}

func fetch(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestViewCompareSameAsCLI runs two real runs, serves them, and checks that
// the viewer's diff of the two, and its head-to-head of two summarizers,
// say exactly what `compact-eval compare` prints for them.
func TestViewCompareSameAsCLI(t *testing.T) {
	t.Chdir(t.TempDir())
	cli := func(want int, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, newEnv(strings.NewReader(""), &out, &errb)); code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out.String(), errb.String())
		}
		return out.String()
	}
	cli(exitOK, "run", "--out", "compact-eval-out/a", "--run", "^(readonly|correction)-", "--summarizer", "ours=builtin:extractive", "--summarizer", "builtin:truncate")
	cli(exitOK, "run", "--out", "compact-eval-out/b", "--run", "^(readonly|correction)-", "--summarizer", "ours=builtin:truncate", "--summarizer", "builtin:truncate")
	site := startView(t)

	want := cli(exitGate, "compare", "compact-eval-out/a/result.json", "compact-eval-out/b/result.json")
	code, page := fetch(t, site+"diff?base=0/a&new=0/b")
	pre := regexp.MustCompile(`(?s)<pre>(.*)</pre>`).FindStringSubmatch(page)
	if code != 200 || pre == nil || html.UnescapeString(pre[1]) != want {
		t.Errorf("the viewer's diff differs from compare's:\n%s\nwant:\n%s", page, want)
	}
	if !strings.Contains(want, "regressions (pass→fail)") {
		t.Fatalf("the two runs do not differ: the test would prove little\n%s", want)
	}
	// With summarizers paired across names, --map OLD=NEW and ?map=OLD=NEW.
	var mapped bytes.Buffer
	run(context.Background(), []string{"compare", "--map", "ours=builtin:truncate", "--map", "builtin:truncate=ours", "compact-eval-out/a/result.json", "compact-eval-out/b/result.json"}, newEnv(strings.NewReader(""), &mapped, io.Discard))
	if mapped.String() == want || !strings.Contains(mapped.String(), "paired") {
		t.Fatalf("compare --map prints what compare without it does: the test would prove little\n%s", mapped.String())
	}
	code, page = fetch(t, site+"diff?base=0/a&new=0/b&map="+url.QueryEscape("ours=builtin:truncate")+"&map="+url.QueryEscape("builtin:truncate=ours"))
	pre = regexp.MustCompile(`(?s)<pre>(.*)</pre>`).FindStringSubmatch(page)
	if code != 200 || pre == nil || html.UnescapeString(pre[1]) != mapped.String() {
		t.Errorf("the viewer's diff with map= differs from compare --map's:\n%s\nwant:\n%s", page, mapped.String())
	}
	want = cli(exitOK, "compare", "--a", "ours", "--b", "builtin:truncate", "compact-eval-out/a/result.json")
	_, page = fetch(t, site+"diff?run=0/a&a="+url.QueryEscape("ours")+"&b="+url.QueryEscape("builtin:truncate"))
	pre = regexp.MustCompile(`(?s)<pre>(.*)</pre>`).FindStringSubmatch(page)
	if pre == nil || html.UnescapeString(pre[1]) != want {
		t.Errorf("the viewer's head-to-head differs from compare --a --b")
	}
	// A run started while the viewer is open is listed without a restart.
	cli(exitOK, "run", "--out", "compact-eval-out/c", "--run", "^readonly-", "--summarizer", "builtin:extractive")
	if _, rows := fetch(t, site+"runs/rows"); !strings.Contains(rows, `data-id="0/c"`) {
		t.Error("a new run is not listed")
	}
}

// TestViewUsage: a folder that does not exist is bad input, and the
// default folder is compact-eval-out.
func TestViewUsage(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"view"}, newEnv(strings.NewReader(""), &out, &errb)); code != exitUsage || !strings.Contains(errb.String(), "compact-eval-out") {
		t.Errorf("view without compact-eval-out/: exit %d, %q", code, errb.String())
	}
	os.WriteFile("file", nil, 0o644)
	errb.Reset()
	if code := run(context.Background(), []string{"view", "file"}, newEnv(strings.NewReader(""), &out, &errb)); code != exitUsage || !strings.Contains(errb.String(), "not a folder") {
		t.Errorf("view FILE: exit %d, %q", code, errb.String())
	}
	os.MkdirAll(filepath.Join("compact-eval-out"), 0o755)
	site := startView(t)
	if code, page := fetch(t, site); code != 200 || !strings.Contains(page, "No run folder here yet") {
		t.Errorf("an empty folder: %d", code)
	}
}

// TestViewUnitsCSVSameAsReport: the viewer's units.csv is what `report
// --format units-csv` writes for the same run, both pricing the calls with
// the prices: of ./compact-eval.yaml; the run page's grid links each cell
// to a unit page that serves.
func TestViewUnitsCSVSameAsReport(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	env := newEnv(strings.NewReader(""), &out, &errb)
	if code := run(context.Background(), []string{"run", "--out", "compact-eval-out/a", "--run", "^readonly-", "--trials", "2"}, env); code != exitOK && code != exitGate {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	os.WriteFile("compact-eval.yaml", []byte("prices:\n  builtin:reference: {input: 1, output: 2}\n"), 0o644)
	out.Reset()
	if code := run(context.Background(), []string{"report", "compact-eval-out/a/result.json", "--format", "units-csv"}, env); code != exitOK {
		t.Fatalf("report: exit %d\n%s", code, errb.String())
	}
	want := out.String()
	site := startView(t)
	code, got := fetch(t, site+"run/0/a/units.csv")
	if code != 200 || got != want || !regexp.MustCompile(`,0\.000000,`).MatchString(got) {
		t.Errorf("units.csv: %d, equal to report --format units-csv: %v\n%s", code, got == want, got)
	}
	_, grid := fetch(t, site+"run/0/a")
	links := regexp.MustCompile(`<a class="open" href="/(run/0/a/unit/u-[0-9a-f]{12})"`).FindAllStringSubmatch(grid, -1)
	if len(links) == 0 {
		t.Fatal("the grid links to no unit")
	}
	for _, l := range links {
		if code, page := fetch(t, site+l[1]); code != 200 || !strings.Contains(page, `class="pane events"`) {
			t.Errorf("%s: %d", l[1], code)
		}
	}
}
