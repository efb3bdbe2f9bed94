// Package browser runs headless Chromium for the tests that open the HTML
// report and the viewer in a real browser. Only tests import it.
package browser

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Path returns the browser's path; it skips the test when there is none,
// except in CI (CI=true), where the browser is required.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed; .ci/run installs the Debian package chromium")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// ArtifactDir is where screenshots are kept: $COMPACT_EVAL_ARTIFACTS when
// set (CI), else the test's artifact directory (go test -artifacts).
func ArtifactDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("COMPACT_EVAL_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.ArtifactDir()
}

// Run runs headless Chromium bin on url with extra flags, with no network
// of its own and a fresh profile, and returns its stdout (the DOM with
// --dump-dom) and stderr (the console, through --enable-logging=stderr).
// A browser that fails or runs over two minutes fails the test.
func Run(t testing.TB, bin, url string, extra ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v %s: %v\n%s", extra, url, err, errb.String())
	}
	return out.String(), errb.String()
}

var consoleErrorRe = regexp.MustCompile(`(?i)uncaught|console error|:CONSOLE\(\d+\)\].*error`)

// ConsoleErrors returns the console lines of stderr that report a
// JavaScript error.
func ConsoleErrors(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if consoleErrorRe.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// Screenshot takes a screenshot of url at size ("1400,1200") into the
// artifact directory as name, and fails the test unless it is a plausible
// PNG (a blank page is smaller); it returns the file's path.
func Screenshot(t *testing.T, bin, url, name, size string) string {
	t.Helper()
	shot := filepath.Join(ArtifactDir(t), name)
	Run(t, bin, url, "--screenshot="+shot, "--window-size="+size, "--hide-scrollbars")
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 20_000 {
		t.Errorf("screenshot %s is not a plausible PNG (%d bytes)", shot, len(png))
	}
	t.Logf("screenshot: %s", shot)
	return shot
}
