package reports_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/internal/testkit/fake"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// copiedTrials is r's units copied into n trials: what a deterministic
// summarizer gives with --trials n.
func copiedTrials(r *result.Result, n int) *result.Result {
	out := *r
	out.Units = nil
	for _, u := range r.Units {
		for trial := range n {
			u.Trial = trial
			out.Units = append(out.Units, u)
		}
	}
	out.Config.Trials = n
	out.Aggregate()
	return &out
}

// TestIdenticalTrialsInReports: trials that copy one trial leave every
// p-value, interval and verdict of compare, the head-to-head and the pass
// rates as with one trial, and every report says so once.
func TestIdenticalTrialsInReports(t *testing.T) {
	one := fake.Result(fake.Config{Scenarios: 12, Seed: 9})
	three := copiedTrials(one, 3)
	sums := result.Summarizers(one)

	h1, h3 := reports.CompareSummarizers(one, sums[0], sums[1], 0.05), reports.CompareSummarizers(three, sums[0], sums[1], 0.05)
	if h1.TrialsIdentical || !h3.TrialsIdentical || h1.Verdict() != strings.Replace(h3.Verdict(), fmt.Sprintf("%d paired", h3.Paired), fmt.Sprintf("%d paired", h1.Paired), 1) {
		t.Errorf("head-to-head verdicts: one trial %q, three %q (identical %v)", h1.Verdict(), h3.Verdict(), h3.TrialsIdentical)
	}
	for i, r1 := range h1.Rows {
		r3 := h3.Rows[i]
		if r1.P != r3.P || r1.Low != r3.Low || r1.High != r3.High || r1.Scenarios != r3.Scenarios || r1.EffectiveN != r3.EffectiveN || r3.N != 3*r1.N {
			t.Errorf("%s: one trial %+v, three %+v", r1.Check, r1, r3)
		}
	}
	for _, a := range one.Aggregates {
		b := result.FindAggregate(three, a.Summarizer, a.Check)
		if a.Low != b.Low || a.High != b.High || a.EffectiveN != b.EffectiveN || a.PassRate != b.PassRate {
			t.Errorf("%s %s: one trial [%v, %v], three [%v, %v]", a.Summarizer, a.Check, a.Low, a.High, b.Low, b.High)
		}
	}
	lines := reports.TrialLines(three, func(s string) string { return s })
	if want := []string{reports.TrialsIdenticalLine(3)}; !slices.Equal(lines, want) {
		t.Errorf("trial lines %q, want %q", lines, want)
	}
	if reports.TrialLines(one, func(s string) string { return s }) != nil {
		t.Error("one trial has trial lines")
	}
	var md bytes.Buffer
	if err := reports.WriteMarkdown(&md, three, reports.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "trials identical: "); n != 1 {
		t.Errorf("the Markdown says trials identical %d times, want once", n)
	}
	var h bytes.Buffer
	if err := h3.WriteText(&h); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(h.String(), "trials identical: "); n != 1 {
		t.Errorf("the head-to-head says trials identical %d times, want once:\n%s", n, h.String())
	}
}

// TestFlakyTrialsInReports: trials that differ are counted as a figure of
// their own, per summarizer, in the console lines, the Markdown, the HTML
// and JUnit.
func TestFlakyTrialsInReports(t *testing.T) {
	r := fake.Result(fake.Config{Scenarios: 8, Trials: 3, Seed: 5})
	if reports.TrialsIdentical(r, nil) {
		t.Fatal("the fake's trials are identical")
	}
	rows := reports.TrialRows(r)
	if len(rows) != len(r.Summaries) {
		t.Fatalf("%d trial rows for %d summarizers", len(rows), len(r.Summaries))
	}
	lines := reports.TrialLines(r, func(s string) string { return "<" + s + ">" })
	if len(lines) != 1+len(rows) || !strings.HasPrefix(lines[0], "trials: scenarios whose outcomes changed between the 3 trials, and pass^3") {
		t.Fatalf("lines %q", lines)
	}
	for i, row := range rows {
		s := row.Spread
		if s.Scenarios != 8 || s.Changed > s.Scenarios || s.ChangedOutcomes > s.Outcomes || s.PassAll > s.Scenarios {
			t.Errorf("%s: %+v", row.Summarizer, s)
		}
		if want := "  <" + row.Summarizer + ">: "; !strings.HasPrefix(lines[i+1], want) || !strings.Contains(lines[i+1], "; pass^3 ") {
			t.Errorf("line %q, want it to start %q and give pass^3", lines[i+1], want)
		}
	}
	var md, html, junit bytes.Buffer
	for f, b := range map[string]*bytes.Buffer{"md": &md, "html": &html, "junit": &junit} {
		if err := reports.Write(b, r, f, reports.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(md.String(), "### Across the 3 trials") || strings.Contains(md.String(), "trials identical") {
		t.Error("the Markdown lacks the spread across trials")
	}
	if !strings.Contains(html.String(), `<table id="trials">`) {
		t.Error("the HTML lacks table#trials")
	}
	if !strings.Contains(junit.String(), `name="compact-eval.trials.`+rows[0].Summarizer+`" value="`+rows[0].Text()+`"`) {
		t.Errorf("JUnit lacks the property of %s: %s", rows[0].Summarizer, rows[0].Text())
	}
}
