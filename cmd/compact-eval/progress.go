package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/compact-eval/compact-eval/internal/llm"
	"github.com/compact-eval/compact-eval/runner"
)

// Progress modes (--progress, progress: in the config file).
const (
	progressAuto  = "auto"  // tty when stderr is a terminal, plain otherwise
	progressTTY   = "tty"   // one line redrawn in place, cleared at the end
	progressPlain = "plain" // one line every progressEvery, and one at the end
	progressNone  = "none"  // nothing
)

// progressModes are the values --progress takes.
var progressModes = []string{progressAuto, progressTTY, progressPlain, progressNone}

// progressFlag is --progress.
type progressFlag string

func (p *progressFlag) String() string { return string(*p) }
func (p *progressFlag) Set(v string) error {
	for _, m := range progressModes {
		if v == m {
			*p = progressFlag(v)
			return nil
		}
	}
	return fmt.Errorf("%q: want auto (a live line on a terminal, plain lines otherwise), tty, plain or none", v)
}

// progressEvery is how often a plain progress line is printed.
// progressEveryEnv overrides it, for tests (a testscript cannot wait 10 s).
const (
	progressEvery    = 10 * time.Second
	progressEveryEnv = "COMPACT_EVAL_PROGRESS_EVERY"
	// ttyRedraw is how often the live line is redrawn between units, so
	// that its ETA and request count move while a unit waits on a model.
	ttyRedraw = time.Second
)

// progressPeriod reads COMPACT_EVAL_PROGRESS_EVERY: the period of the plain
// lines (progressEvery when unset).
func progressPeriod(env *Env) (time.Duration, error) {
	v := env.Getenv(progressEveryEnv)
	if v == "" {
		return progressEvery, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, usagef("%s=%q: want a positive duration such as 50ms", progressEveryEnv, v)
	}
	return d, nil
}

// resolveProgress turns a mode into tty, plain or none: auto is tty when
// stderr is a terminal.
func resolveProgress(mode string, terminal bool) string {
	if mode == progressAuto || mode == "" {
		if terminal {
			return progressTTY
		}
		return progressPlain
	}
	return mode
}

// progress prints how far a run is on stderr, never on stdout, where the
// verdict and the machine outputs go: on a terminal one line redrawn in
// place and cleared at the end; elsewhere (a CI log) one line every period
// and one at the end. Each line has the units done of the total, the units
// that errored, the model requests sent (retries and cache hits apart) and
// the time left, estimated from the mean time per unit so far.
type progress struct {
	w     io.Writer
	tty   bool
	width int // the terminal's columns, 0 when unknown: a longer line is cut
	meter *llm.Meter
	now   func() time.Time
	start time.Time

	// text, when set, is the line in place of a run's (audit's):
	// what it says of the work so far, elapsed since the start.
	text func(elapsed time.Duration, last bool) string

	mu    sync.Mutex
	tally runner.Tally
	told  bool // the runner has said how many units there are
	drawn int  // the width of the tty line on screen, 0 when none

	stop chan struct{}
	done chan struct{}
}

// startProgress starts reporting in mode (tty, plain or none; nil for
// none) every period; a live line is cut to width columns (0: not cut), so
// that it never wraps, which would leave a line per redraw.
func startProgress(w io.Writer, mode string, width int, meter *llm.Meter, period time.Duration, now func() time.Time) *progress {
	return startTextProgress(w, mode, width, meter, period, now, nil)
}

// startTextProgress is startProgress whose lines text writes (nil: a
// run's); the caller calls touched as the work moves.
func startTextProgress(w io.Writer, mode string, width int, meter *llm.Meter, period time.Duration, now func() time.Time, text func(time.Duration, bool) string) *progress {
	if mode == progressNone {
		return nil
	}
	p := &progress{w: w, tty: mode == progressTTY, width: width, meter: meter, now: now, start: now(), text: text,
		stop: make(chan struct{}), done: make(chan struct{})}
	if p.tty {
		period = ttyRedraw
	}
	go p.tick(period)
	return p
}

func (p *progress) tick(period time.Duration) {
	defer close(p.done)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			if p.told {
				p.print(false)
			}
			p.mu.Unlock()
		}
	}
}

// update is runner.Options.Progress: the live line is redrawn at once; a
// plain line waits for its period.
func (p *progress) update(t runner.Tally) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tally, p.told = t, true
	if p.tty {
		p.print(false)
	}
}

// finish stops the reporting: the live line is cleared, and a plain report
// ends with one last line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.tty && p.drawn > 0:
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.drawn)+"\r")
	case !p.tty && p.told:
		// A run refused before its first unit prints no progress.
		p.print(true)
	}
}

// touched says the work moved, for a progress with its own text: the
// live line is redrawn at once, a plain line waits for its period.
func (p *progress) touched() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.told = true
	if p.tty {
		p.print(false)
	}
}

// print writes the line: redrawn in place on a tty (a carriage return,
// the line, and blanks over what is left of a longer line before it: no
// escape sequence, which the console guard would print as text), a line of
// its own otherwise. Called with mu held.
func (p *progress) print(last bool) {
	var line string
	if p.text != nil {
		line = p.text(p.now().Sub(p.start), last)
	} else {
		line = progressText(p.tally, p.meter.Counters(), p.now().Sub(p.start), last)
	}
	if p.tty {
		if p.width > 1 && utf8.RuneCountInString(line) > p.width-1 {
			line = string([]rune(line)[:p.width-1])
		}
		width := utf8.RuneCountInString(line)
		fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", max(p.drawn-width, 0)))
		p.drawn = max(p.drawn, width)
		return
	}
	fmt.Fprintln(p.w, line)
}

// progressText is one progress line: "progress: 3/8 units, 1 errored, 12
// requests (2 retries, 4 from the cache), about 1m20s left", or on the last
// line "… 2m3s elapsed".
func progressText(t runner.Tally, c llm.Counters, elapsed time.Duration, last bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "progress: %d/%d units, %d errored, %s (%s, %d from the cache)",
		t.Done, t.Total, t.Errors, plural(c.Requests, "request", "requests"), plural(c.Retries, "retry", "retries"), c.CacheHits)
	switch {
	case last:
		fmt.Fprintf(&b, ", %s elapsed", roundDuration(elapsed))
	case t.Done == 0:
		b.WriteString(", time left unknown")
	default:
		left := time.Duration(float64(elapsed) / float64(t.Done) * float64(t.Total-t.Done))
		fmt.Fprintf(&b, ", about %s left", roundDuration(left))
	}
	return b.String()
}

// roundDuration rounds d for a human: to the second, or to the millisecond
// under a second.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// plural is "1 retry" or "3 retries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// terminalWidth is the width of the terminal stderr is, 0 when it is none
// or the width cannot be read.
func terminalWidth(env *Env) int {
	if !env.Terminal {
		return 0
	}
	w, _, err := term.GetSize(int(os.Stderr.Fd()))
	if err != nil {
		return 0
	}
	return w
}
