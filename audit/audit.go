package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/guard"
	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/internal/tokens"
	"github.com/compact-eval/compact-eval/scenarios"
	"github.com/compact-eval/compact-eval/scenarios/transcript"
)

// ReportVersion is Report.Version.
const ReportVersion = 1

// DefaultWindow is Options.Window when it is zero.
const DefaultWindow = 20

// Options says what an audit checks against and how it reads.
type Options struct {
	// Guard gives the invariants each compaction is checked against (the
	// project's file, and the suggestions at a confidence).
	Guard guard.Options
	// Window bounds the tool calls compared on each side of a boundary
	// for the error rates; 0 means DefaultWindow.
	Window int
	// Jobs is how many logs are read at once; 0 means GOMAXPROCS.
	Jobs int
	// Progress, when set, is called after each log is read, from one
	// goroutine at a time.
	Progress func(Progress)
	// TempDir is where the import spills events; "" means os.TempDir().
	TempDir string
}

// Progress is how far an audit is.
type Progress struct {
	// Done of Files logs are read; Sessions and Compactions found so far.
	Files, Done, Sessions, Compactions int
}

// Report is the audit of a folder of logs: per session, per compaction,
// and in total.
type Report struct {
	Version int `json:"audit_version"`
	// Dir is the folder audited.
	Dir string `json:"dir"`
	// Files is how many logs were read.
	Files    int       `json:"files"`
	Totals   Totals    `json:"totals"`
	Sessions []Session `json:"sessions"`
	// Skipped are the files that hold no session the importer reads, with
	// why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Window is the tool calls compared on each side of a boundary.
	Window int `json:"window"`
	// Suggested and MinConfidence say whether the import's suggestions
	// were checked; Invariants names the project's file ("" none).
	Suggested     bool    `json:"suggested"`
	MinConfidence float64 `json:"min_confidence"`
	Invariants    string  `json:"invariants,omitempty"`
}

// Skipped is a file the audit could not read as a log.
type Skipped struct {
	File string `json:"file"`
	Why  string `json:"why"`
}

// Session is one log's figures.
type Session struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Events int    `json:"events"`
	// Tokens is the history's size as the log records it: its events
	// rendered as the agent reads them, in o200k tokens.
	Tokens int `json:"tokens"`
	// Compactions are the compactions the log records with their summary;
	// Unaudited counts those it records without one (a boundary alone),
	// which no check can judge.
	Compactions []Compaction `json:"compactions"`
	Unaudited   int          `json:"unaudited"`
	// Per100k is every compaction (audited or not) per 100,000 tokens of
	// history.
	Per100k float64 `json:"per_100k_tokens"`
	// Warnings are the import's.
	Warnings []string `json:"warnings,omitempty"`
}

// Compaction is one recorded compaction's figures.
type Compaction struct {
	// Boundary is the last seq it replaced.
	Boundary  int    `json:"boundary"`
	Tool      string `json:"tool,omitempty"`
	Trigger   string `json:"trigger,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
	// Compression is SummaryTokens / ReplacedTokens. ReplacedTokens is the
	// log's own count before the compaction (pre_tokens) where it records
	// one (Excerpt false); else the tokens of the context the log shows
	// the agent held, the previous summary and the events since it
	// (Excerpt true: an excerpt of what it held, without the system
	// prompt and tools). Summaries are counted in o200k, the log's counts
	// in the agent's own tokenizer.
	SummaryTokens  int     `json:"summary_tokens"`
	ReplacedTokens int     `json:"replaced_tokens"`
	Compression    float64 `json:"compression"`
	Excerpt        bool    `json:"excerpt"`
	// Verdict is the guard's, with its counts and the invariants lost.
	Verdict   guard.Status `json:"verdict"`
	Kept      int          `json:"kept"`
	Lost      int          `json:"lost"`
	Uncertain int          `json:"uncertain"`
	LostList  []Loss       `json:"lost_invariants,omitempty"`
	// Repeated and Reopened are the tool calls repeated and the questions
	// reopened after it (Repeat, Reopen).
	Repeated []Repeat `json:"repeated_calls,omitempty"`
	Reopened []Reopen `json:"reopened_questions,omitempty"`
	// Before and After are the tool calls, and how many failed, in the
	// windows on each side of the boundary.
	Before Window `json:"errors_before"`
	After  Window `json:"errors_after"`
}

// Loss is an invariant a compaction lost, or a structural check it failed.
type Loss struct {
	Invariant string `json:"invariant,omitempty"`
	Check     string `json:"check"`
	Origin    string `json:"origin"`
	SourceSeq int    `json:"source_seq,omitempty"`
	Message   string `json:"message"`
}

// Window is the tool calls of a stretch of the history and how many of
// their results were errors.
type Window struct {
	Calls  int `json:"calls"`
	Errors int `json:"errors"`
	// From and To are the seqs it spans (0 when empty).
	From int `json:"from,omitempty"`
	To   int `json:"to,omitempty"`
}

// Rate is Errors / Calls, 0 with no call.
func (w Window) Rate() float64 {
	if w.Calls == 0 {
		return 0
	}
	return float64(w.Errors) / float64(w.Calls)
}

// Totals are the figures over every session.
type Totals struct {
	Sessions int `json:"sessions"`
	// Compactions counts every compaction the logs record; Audited those
	// with a summary the guard checked.
	Compactions int `json:"compactions"`
	Audited     int `json:"audited"`
	Tokens      int `json:"tokens"`
	// PerSession and Per100k are compactions per session and per
	// 100,000 tokens of history.
	PerSession float64 `json:"compactions_per_session"`
	Per100k    float64 `json:"compactions_per_100k_tokens"`
	// MedianCompression is over the audited compactions; FromLog of them
	// were measured against the log's own count, the others on an
	// excerpt.
	MedianCompression float64 `json:"median_compression"`
	FromLog           int     `json:"compression_from_log"`
	// Lost, Uncertain and Kept are invariants over the audited
	// compactions; LostPerCompaction is Lost / Audited.
	Lost              int     `json:"lost"`
	Uncertain         int     `json:"uncertain"`
	Kept              int     `json:"kept"`
	LostPerCompaction float64 `json:"lost_per_compaction"`
	Repeated          int     `json:"repeated_calls"`
	Reopened          int     `json:"reopened_questions"`
	Before            Window  `json:"errors_before"`
	After             Window  `json:"errors_after"`
}

// logExts are the file names read as logs.
var logExts = []string{".jsonl", ".json", ".traj"}

// Dir audits every log under dir (files ending in .jsonl, .json or .traj,
// in sorted order, hidden folders left out): for each session the
// compactions it records, each checked by the guard, with the figures
// production watches (docs/guard.md, "Watching real sessions"). A file no
// format reads is skipped and named. It returns an error only when dir
// cannot be read or holds no log at all (a *guard.InputError).
func Dir(dir string, opts Options) (*Report, error) {
	files, err := logFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &guard.InputError{Err: fmt.Errorf("%s: no log in the folder (files ending in %s)", dir, strings.Join(logExts, ", "))}
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type result struct {
		sessions []Session
		skipped  []Skipped
	}
	results := make([]result, len(files))
	var mu sync.Mutex
	prog := Progress{Files: len(files)}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := &results[i]
				guard.ReadEach(files[i], guard.ReadOptions{TempDir: opts.TempDir}, func(name string, s *guard.Session, err error) error {
					if err != nil {
						why := strings.TrimPrefix(err.Error(), name+": ")
						r.skipped = append(r.skipped, Skipped{File: rel(dir, name), Why: strings.TrimPrefix(why, filepath.Base(name)+": ")})
						return nil
					}
					r.sessions = append(r.sessions, audit(rel(dir, name), s, opts))
					return nil
				})
				mu.Lock()
				prog.Done++
				prog.Sessions += len(r.sessions)
				for _, s := range r.sessions {
					prog.Compactions += len(s.Compactions) + s.Unaudited
				}
				if opts.Progress != nil {
					opts.Progress(prog)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	rep := &Report{Version: ReportVersion, Dir: dir, Files: len(files), Window: opts.Window,
		Suggested: opts.Guard.Suggested, MinConfidence: opts.Guard.MinConfidence}
	if opts.Guard.Invariants != nil {
		rep.Invariants = opts.Guard.Invariants.Path
	}
	for _, r := range results {
		rep.Sessions = append(rep.Sessions, r.sessions...)
		rep.Skipped = append(rep.Skipped, r.skipped...)
	}
	if len(rep.Sessions) == 0 {
		return rep, &guard.InputError{Err: fmt.Errorf("%s: none of its %d files is a log the importer reads (%s)", dir, len(files), rep.Skipped[0].Why)}
	}
	rep.total()
	return rep, nil
}

// logFiles lists the logs under dir, sorted; a file named as dir is the
// only log.
func logFiles(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, &guard.InputError{Err: err}
	}
	if !st.IsDir() {
		return []string{dir}, nil
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if slices.Contains(logExts, filepath.Ext(p)) && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &guard.InputError{Err: err}
		}
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// earlierSummary starts the event the importer writes for a compaction it
// cannot audit (a boundary with no summary).
const earlierSummary = "[earlier compaction summary]"

// audit measures one session.
func audit(name string, s *guard.Session, opts Options) Session {
	sc := s.Scenario
	counter := tokens.Default()
	out := Session{File: name, Format: s.Format, Events: len(sc.Events), Warnings: s.Warnings}
	out.Tokens = counter.Count(transcript.EventsText(sc.Events))
	for _, e := range sc.Events {
		if e.Role == scenarios.RoleSystem && strings.HasPrefix(e.Text, earlierSummary) {
			out.Unaudited++
		}
	}
	red := guard.Redactor(s, opts.Guard)
	bounds := s.Compactions()
	for k, b := range bounds {
		next := 0
		if k+1 < len(bounds) {
			next = bounds[k+1].Seq
		}
		prev := 0
		if k > 0 {
			prev = bounds[k-1].Seq
		}
		c := Compaction{Boundary: b.Seq, Tool: b.Recorded.Tool, Trigger: b.Recorded.Trigger, Timestamp: b.Recorded.Timestamp}
		c.SummaryTokens = counter.Count(b.Recorded.Summary)
		if b.Recorded.PreTokens > 0 {
			c.ReplacedTokens = b.Recorded.PreTokens
		} else {
			c.Excerpt = true
			c.ReplacedTokens = heldTokens(sc, counter, bounds, k)
		}
		if c.ReplacedTokens > 0 {
			c.Compression = float64(c.SummaryTokens) / float64(c.ReplacedTokens)
		}
		if v, err := guard.Check(s, b, opts.Guard); err == nil {
			c.Verdict, c.Kept, c.Lost, c.Uncertain = v.Status, v.Kept, v.Lost, v.Uncertain
			for _, f := range v.Findings {
				if f.Status == guard.Lost {
					c.LostList = append(c.LostList, Loss{Invariant: f.Invariant, Check: f.Check, Origin: f.Origin, SourceSeq: f.SourceSeq, Message: f.Message})
				}
			}
		} else {
			c.Verdict = guard.Uncertain
			out.Warnings = append(out.Warnings, fmt.Sprintf("the compaction after seq %d could not be checked: %v", b.Seq, err))
		}
		c.Repeated = repeatedCalls(sc, b.Seq, next)
		c.Reopened = reopenedQuestions(sc, b.Seq, next)
		quote(&c, red)
		c.Before, c.After = errorWindows(sc, prev, b.Seq, next, opts.Window)
		out.Compactions = append(out.Compactions, c)
	}
	if out.Tokens > 0 {
		out.Per100k = float64(len(out.Compactions)+out.Unaudited) * 100000 / float64(out.Tokens)
	}
	return out
}

// quote makes the calls and questions c quotes fit to print: each
// secret the session holds redacted first, then clipped to 200
// characters, so that a cut never leaves part of one.
func quote(c *Compaction, red *redact.Redactor) {
	for i := range c.Repeated {
		r := &c.Repeated[i]
		r.Tool, r.Args = red.String(r.Tool), clip.String(red.String(r.Args), 200)
	}
	for i := range c.Reopened {
		c.Reopened[i].Question = clip.String(red.String(c.Reopened[i].Question), 200)
	}
}

// heldTokens is what the log shows the agent held before compaction k:
// the previous compaction's summary and the events since it.
func heldTokens(sc *scenarios.Scenario, counter *tokens.Counter, bounds []guard.Boundary, k int) int {
	from, n := 0, 0
	if k > 0 {
		from = bounds[k-1].Seq
		n = counter.Count(bounds[k-1].Recorded.Summary)
	}
	var evs []scenarios.Event
	for _, e := range sc.Events {
		if e.Seq > from && e.Seq <= bounds[k].Seq {
			evs = append(evs, e)
		}
	}
	return n + counter.Count(transcript.EventsText(evs))
}

// total sums the sessions' figures.
func (r *Report) total() {
	t := &r.Totals
	var ratios []float64
	for _, s := range r.Sessions {
		t.Sessions++
		t.Tokens += s.Tokens
		t.Compactions += len(s.Compactions) + s.Unaudited
		for _, c := range s.Compactions {
			t.Audited++
			if c.ReplacedTokens > 0 {
				ratios = append(ratios, c.Compression)
			}
			if !c.Excerpt {
				t.FromLog++
			}
			t.Lost += c.Lost
			t.Uncertain += c.Uncertain
			t.Kept += c.Kept
			t.Repeated += len(c.Repeated)
			t.Reopened += len(c.Reopened)
			t.Before.Calls += c.Before.Calls
			t.Before.Errors += c.Before.Errors
			t.After.Calls += c.After.Calls
			t.After.Errors += c.After.Errors
		}
	}
	if t.Sessions > 0 {
		t.PerSession = float64(t.Compactions) / float64(t.Sessions)
	}
	if t.Tokens > 0 {
		t.Per100k = float64(t.Compactions) * 100000 / float64(t.Tokens)
	}
	if t.Audited > 0 {
		t.LostPerCompaction = float64(t.Lost) / float64(t.Audited)
	}
	t.MedianCompression = median(ratios)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
