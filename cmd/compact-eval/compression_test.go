package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/reports"
)

// TestCompressionOneFigure: "compression" is the median ratio, named so,
// in every report: the console table, the Markdown and HTML reports and
// the head-to-head. The run has a summarizer whose mean and median differ
// at two decimals, so a report showing the mean is caught.
func TestCompressionOneFigure(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cli := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		if code := run(context.Background(), args, env); code != 0 {
			t.Fatalf("compact-eval %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
		return out.String()
	}
	console := cli("run", "--summarizer", "builtin:extractive", "--summarizer", "builtin:mask", "--out", "out")
	cli("report", "out/result.json", "--format", "md", "-o", "report.md")
	cli("report", "out/result.json", "--format", "html", "-o", "report.html")
	h2h := cli("compare", "--a", "builtin:extractive", "--b", "builtin:mask", "out/result.json")
	r, err := reports.Read("out/result.json")
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile("report.md")
	html, _ := os.ReadFile("report.html")
	if !strings.Contains(console, "compression (median)") || !strings.Contains(string(md), "compression (median)") ||
		!strings.Contains(string(html), "<th>compression (median)</th>") || !strings.Contains(h2h, "compression (median)") {
		t.Errorf("every report must name the figure \"compression (median)\"")
	}
	differ := 0
	medians := map[string]string{}
	for _, s := range r.Summaries {
		med, mean := fmt.Sprintf("%.2f", s.MedianCompression), fmt.Sprintf("%.2f", s.MeanCompression)
		medians[s.Summarizer] = med
		if med == mean {
			continue
		}
		differ++
		rows := map[string]string{
			"console":  lineWith(console, "^ +"+regexp.QuoteMeta(s.Summarizer)+" "),
			"markdown": lineWith(string(md), "^\\| `"+regexp.QuoteMeta(s.Summarizer)+"` \\|"),
			"html":     lineWith(strings.ReplaceAll(string(html), "\n<td", "<td"), "^<tr><td><code>"+regexp.QuoteMeta(s.Summarizer)+"</code>"),
		}
		for where, row := range rows {
			if row == "" {
				t.Errorf("%s: no leaderboard row for %s", where, s.Summarizer)
				continue
			}
			if !strings.Contains(row, med) || strings.Contains(row, mean) {
				t.Errorf("%s shows compression %s for %s, want the median %s (not the mean %s):\n%s", where, row, s.Summarizer, med, mean, row)
			}
		}
	}
	if differ == 0 {
		t.Fatal("no summarizer's mean and median compression differ: the test would not notice a mean")
	}
	line := lineWith(h2h, "^compression \\(median\\)")
	if want := medians["builtin:extractive"] + " +" + medians["builtin:mask"]; !regexp.MustCompile(want).MatchString(line) {
		t.Errorf("head-to-head: %q, want the medians %s", line, want)
	}
}

// lineWith returns the first line of s that matches the expression, or "".
func lineWith(s, expr string) string {
	re := regexp.MustCompile(expr)
	for _, l := range strings.Split(s, "\n") {
		if re.MatchString(l) {
			return l
		}
	}
	return ""
}
