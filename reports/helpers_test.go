package reports_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// small is the fixture of the golden tests: 3 scenarios × 4 summarizers,
// 3 generations, one leaked secret, redacted.
func small(t testing.TB) *result.Result {
	t.Helper()
	r := fake.Result(fake.Config{Scenarios: 3, Seed: 1})
	fake.Redact(r)
	return r
}

func render(t testing.TB, r *result.Result, format string, opts reports.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := reports.Write(&b, r, format, opts); err != nil {
		t.Fatalf("Write %s: %v", format, err)
	}
	return b.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got); rerun with -update if the change is intended:\n%s", name, d)
	}
}

var (
	durationRe = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|m)\b`)
	timeAttrRe = regexp.MustCompile(`time="[0-9.]+"`)
)

// normalise strips what varies with timing: durations and time attributes.
func normalise(s string) string {
	s = timeAttrRe.ReplaceAllString(s, `time="T"`)
	return durationRe.ReplaceAllString(s, "D")
}

var (
	outlineTagRe = regexp.MustCompile(`<(h1|h2|h3|table|svg|details|figure|figcaption|summary|script|style|pre)\b([^>]*)>`)
	idRe         = regexp.MustCompile(`\bid="([^"]*)"`)
	classRe      = regexp.MustCompile(`\bclass="([^"]*)"`)
	tagRe        = regexp.MustCompile(`<[^>]*>`)
)

// htmlOutline reduces an HTML page to its structure: the landmark elements
// with their ids and classes, and the text of headings and summaries.
func htmlOutline(page string) string {
	var b strings.Builder
	for _, m := range outlineTagRe.FindAllStringSubmatchIndex(page, -1) {
		tag, attrs := page[m[2]:m[3]], page[m[4]:m[5]]
		b.WriteString(tag)
		if id := idRe.FindStringSubmatch(attrs); id != nil {
			b.WriteString("#" + id[1])
		}
		if c := classRe.FindStringSubmatch(attrs); c != nil {
			b.WriteString("." + strings.ReplaceAll(c[1], " ", "."))
		}
		switch tag {
		case "h1", "h2", "h3", "figcaption", "summary":
			end := strings.Index(page[m[1]:], "</"+tag+">")
			if end >= 0 {
				text := tagRe.ReplaceAllString(page[m[1]:m[1]+end], "")
				b.WriteString(": " + strings.Join(strings.Fields(text), " "))
			}
		}
		b.WriteString("\n")
	}
	return normalise(b.String())
}
