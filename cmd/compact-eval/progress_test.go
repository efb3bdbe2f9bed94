package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/runner"
)

func TestProgressText(t *testing.T) {
	tests := []struct {
		name    string
		tally   runner.Tally
		c       llm.Counters
		elapsed time.Duration
		last    bool
		want    string
	}{
		{"nothing done yet", runner.Tally{Total: 8}, llm.Counters{}, 3 * time.Second, false,
			"progress: 0/8 units, 0 errored, 0 requests (0 retries, 0 from the cache), time left unknown"},
		{"the time left is the mean time per unit times the units left", runner.Tally{Done: 2, Total: 8, Errors: 1}, llm.Counters{Requests: 1, Retries: 1, CacheHits: 4}, 20 * time.Second, false,
			"progress: 2/8 units, 1 errored, 1 request (1 retry, 4 from the cache), about 1m0s left"},
		{"the last line says how long it took", runner.Tally{Done: 8, Total: 8}, llm.Counters{Requests: 12, Retries: 3}, 1500 * time.Millisecond, true,
			"progress: 8/8 units, 0 errored, 12 requests (3 retries, 0 from the cache), 2s elapsed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, progressText(tc.tally, tc.c, tc.elapsed, tc.last)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// auto is tty on a terminal only; every other mode is itself.
func TestResolveProgress(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		terminal bool
		want     string
	}{
		{"auto", true, "tty"}, {"auto", false, "plain"}, {"", false, "plain"},
		{"tty", false, "tty"}, {"plain", true, "plain"}, {"none", true, "none"},
	} {
		if got := resolveProgress(tc.mode, tc.terminal); got != tc.want {
			t.Errorf("resolveProgress(%q, %v) = %q, want %q", tc.mode, tc.terminal, got, tc.want)
		}
	}
}

// fixedClock advances by step at every reading.
func fixedClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

// The live line is redrawn in place at every unit (a carriage return, the
// line, blanks over the rest of a longer line before it) and blanked at the
// end: nothing is left on the terminal. The period is an hour, so only
// units draw.
func TestProgressTTY(t *testing.T) {
	var b bytes.Buffer
	p := startProgress(&b, progressTTY, 0, &llm.Meter{}, time.Hour, fixedClock(time.Second))
	p.update(runner.Tally{Total: 2})                     // "time left unknown": the longest
	p.update(runner.Tally{Done: 1, Total: 2, Errors: 1}) // "about 1s left"
	p.finish()
	got := b.String()
	if strings.ContainsAny(got, "\n\x1b") {
		t.Errorf("the live line wrote a newline or an escape: %q", got)
	}
	frames := strings.Split(got, "\r")
	if len(frames) != 5 || frames[0] != "" || frames[4] != "" {
		t.Fatalf("frames %q: want a carriage return before each of three frames and after the last", frames)
	}
	first, second, blank := frames[1], frames[2], frames[3]
	if !strings.HasPrefix(first, "progress: 0/2 units") || !strings.HasPrefix(second, "progress: 1/2 units, 1 errored") {
		t.Errorf("frames %q, %q", first, second)
	}
	if len(second) != len(first) || strings.TrimRight(second, " ") == second {
		t.Errorf("the shorter line does not blank the rest of the longer one: %q over %q", second, first)
	}
	if strings.TrimSpace(blank) != "" || len(blank) != len(first) {
		t.Errorf("the end does not blank the line: %q", blank)
	}
}

// Plain progress prints nothing at a unit (lines come with the period, an
// hour here), and one last line at the end; none for a run refused before
// it had units to run.
func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	p := startProgress(&b, progressPlain, 0, &llm.Meter{}, time.Hour, fixedClock(time.Second))
	p.update(runner.Tally{Total: 2})
	p.update(runner.Tally{Done: 2, Total: 2})
	p.finish()
	if got, want := b.String(), "progress: 2/2 units, 0 errored, 0 requests (0 retries, 0 from the cache), 1s elapsed\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	startProgress(&b, progressPlain, 0, &llm.Meter{}, time.Hour, fixedClock(time.Second)).finish()
	if b.Len() != 0 {
		t.Errorf("a run with no units printed %q", b.String())
	}
	if startProgress(&b, progressNone, 0, &llm.Meter{}, time.Hour, time.Now) != nil {
		t.Error("none started a reporter")
	}
}

// On a terminal narrower than the line, the line is cut one column short
// of the width, so that it never wraps (a wrapped line leaves one line per
// redraw).
func TestProgressTTYNarrow(t *testing.T) {
	var b bytes.Buffer
	p := startProgress(&b, progressTTY, 30, &llm.Meter{}, time.Hour, fixedClock(time.Second))
	p.update(runner.Tally{Total: 2})
	p.finish()
	frames := strings.Split(b.String(), "\r")
	if len(frames) != 4 || frames[1] != "progress: 0/2 units, 0 errore" || frames[2] != strings.Repeat(" ", 29) {
		t.Errorf("frames %q", frames)
	}
}
