package viewer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/compact-eval/compact-eval/internal/inputfile"
	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/result"
)

// The files of a run folder (runner.JournalFile, RunFile, ResultFile; a
// test keeps them equal).
const (
	journalFile = "journal.jsonl"
	runFile     = "run.json"
	resultFile  = "result.json"
)

// Run states.
const (
	StateDone        = "done"        // result.json read
	StateInterrupted = "interrupted" // result.json read; the run stopped early
	StateInProgress  = "in progress" // a journal and no result.json yet
	StateUnreadable  = "unreadable"  // Reason says why
)

// Run is one run folder as the runs table shows it: its headline figures,
// never its units.
type Run struct {
	// ID names the run in URLs: the index of its root folder, a slash and
	// the folder's name ("0/20261129T233000Z").
	ID  string
	Dir string
	// State is one of the State constants; Reason says why a run is not
	// done (unreadable, in progress, interrupted).
	State, Reason string
	RunID         string
	Started       time.Time
	Finished      time.Time
	Harness       string
	// Agent and Judge are the run's agent and judge names ("": none).
	Agent, Judge string
	Git          *result.Git
	// Suite is a short digest of the scenarios the run ran (their ids and
	// digests): two runs with the same Suite ran the same scenarios.
	Suite       string
	Summarizers []string
	Summaries   []result.SummarizerSummary
	Aggregates  []result.Aggregate
	Verdict     string
	// Failed: an invariant or structural check failed, a probe regressed
	// or something errored.
	Failed      bool
	Units       int
	Regressions int
	// Trials is the run's trial count (at least 1).
	Trials int
	// stamp is what the run was read from: it is read again when it changes.
	stamp string
}

// When is the run's time for ordering: its start, or for a run that has
// none, the folder's modification time.
func (r *Run) When() time.Time { return r.Started }

// Store reads the run folders under its roots, caching each run's headline
// figures until its files change. Safe for concurrent use.
type Store struct {
	roots []string
	// scanMu serialises scans; mu guards runs and full.
	scanMu sync.Mutex
	mu     sync.Mutex
	runs   map[string]*Run // by folder path
	full   []cached        // the results read in full, most recent first
}

type cached struct {
	id    string
	stamp string
	res   *result.Result
}

// maxFull is how many results the store keeps decoded in full, for the
// report and diff pages; maxFullUnits bounds their units, beyond the two
// opened last.
const maxFull = 4

var maxFullUnits = 50_000 // a variable for its test

// NewStore returns a store over roots: folders of run folders, or run
// folders themselves.
func NewStore(roots []string) *Store {
	return &Store{roots: slices.Clone(roots), runs: map[string]*Run{}}
}

// Roots are the folders the store reads.
func (s *Store) Roots() []string { return slices.Clone(s.roots) }

// folder is a run folder found by a scan.
type folder struct {
	id, dir string
	mod     time.Time
	err     error // the folder could not be listed
}

// folders lists the run folders under the roots: a root that is itself a
// run folder counts as one. A root that cannot be read is a folder too, so
// that its reason is listed.
func (s *Store) folders() []folder {
	var out []folder
	for i, root := range s.roots {
		prefix := strconv.Itoa(i) + "/"
		if isRunFolder(root) {
			st, _ := os.Stat(root)
			out = append(out, folder{id: prefix + filepath.Base(filepath.Clean(root)), dir: root, mod: modTime(st)})
			continue
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			out = append(out, folder{id: prefix + filepath.Base(filepath.Clean(root)), dir: root, err: err})
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(root, e.Name())
			if !isRunFolder(dir) {
				continue
			}
			info, _ := e.Info()
			out = append(out, folder{id: prefix + e.Name(), dir: dir, mod: modTime(info)})
		}
	}
	return out
}

func modTime(st fs.FileInfo) time.Time {
	if st == nil {
		return time.Time{}
	}
	return st.ModTime()
}

// isRunFolder reports whether dir holds a run: a result, a journal or a
// run header. A folder that cannot be listed counts, so its reason shows.
func isRunFolder(dir string) bool {
	for _, f := range []string{resultFile, journalFile, runFile} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil || errors.Is(err, fs.ErrPermission) {
			return true
		}
	}
	return false
}

// stampOf is what a run folder's state is read from: the size and time of
// its result, else of its journal and header. It changes when they do.
func stampOf(dir string) string {
	var b strings.Builder
	for _, f := range []string{resultFile, journalFile, runFile} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d@%d;", st.Size(), st.ModTime().UnixNano())
		if f == resultFile {
			break
		}
	}
	return b.String()
}

// Runs scans the roots and returns every run, newest first. Only the
// folders whose files changed since the last scan are read again, on one
// reader per CPU.
func (s *Store) Runs() []*Run {
	s.scanMu.Lock()
	defer s.scanMu.Unlock()
	fs := s.folders()
	type job struct {
		f     folder
		stamp string
	}
	var todo []job
	seen := map[string]bool{}
	var out []*Run
	s.mu.Lock()
	for _, f := range fs {
		seen[f.dir] = true
		st := stampOf(f.dir)
		if r := s.runs[f.dir]; r != nil && r.stamp == st && r.ID == f.id {
			out = append(out, r)
			continue
		}
		todo = append(todo, job{f, st})
	}
	for dir := range s.runs {
		if !seen[dir] {
			delete(s.runs, dir)
		}
	}
	s.mu.Unlock()

	read := make([]*Run, len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(len(todo), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				read[i] = readRun(todo[i].f, todo[i].stamp)
			}
		})
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()

	s.mu.Lock()
	for _, r := range read {
		s.runs[r.Dir] = r
	}
	s.mu.Unlock()
	out = append(out, read...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Started.Equal(b.Started) {
			return a.Started.After(b.Started)
		}
		return a.ID > b.ID
	})
	return out
}

// Run returns the run with id, scanning the roots; nil when there is none.
func (s *Store) Run(id string) *Run {
	for _, r := range s.Runs() {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Result reads the run with id in full (or takes it from the few kept).
// It fails for a run that is not done or interrupted.
func (s *Store) Result(id string) (*Run, *result.Result, error) {
	r := s.Run(id)
	if r == nil {
		return nil, nil, fmt.Errorf("no run %q under %s", id, strings.Join(s.roots, ", "))
	}
	if r.State != StateDone && r.State != StateInterrupted {
		return r, nil, fmt.Errorf("run %s is %s: %s", id, r.State, r.Reason)
	}
	s.mu.Lock()
	for i, c := range s.full {
		if c.id == id && c.stamp == r.stamp {
			s.full = append(s.full[:i:i], s.full[i+1:]...)
			s.full = append([]cached{c}, s.full...)
			s.mu.Unlock()
			return r, c.res, nil
		}
	}
	s.mu.Unlock()
	if err := confined(r.Dir, resultFile); err != nil {
		return r, nil, err
	}
	res, err := reports.Read(filepath.Join(r.Dir, resultFile))
	if err != nil {
		return r, nil, err
	}
	// The listing took its figures from the stored summaries (readLight):
	// from now on it shows the units' own.
	fresh := &Run{ID: r.ID, Dir: r.Dir, stamp: r.stamp, Started: r.Started, Trials: 1}
	fresh.fill(res)
	s.mu.Lock()
	if s.runs[r.Dir] == r {
		s.runs[r.Dir] = fresh
		r = fresh
	}
	s.full = slices.DeleteFunc(s.full, func(c cached) bool { return c.id == id })
	s.full = append([]cached{{id, r.stamp, res}}, s.full...)
	if len(s.full) > maxFull {
		s.full = s.full[:maxFull]
	}
	// A result of 20,000 units holds about 500 MB decoded: keep fewer of
	// the large ones, never less than the two a diff reads.
	units := 0
	for n := range s.full {
		if units += len(s.full[n].res.Units); n >= 2 && units > maxFullUnits {
			s.full = s.full[:n]
			break
		}
	}
	s.mu.Unlock()
	return r, res, nil
}

// readRun reads one run folder's state and headline figures; it never
// fails: what goes wrong becomes the run's Reason.
func readRun(f folder, stamp string) *Run {
	r := &Run{ID: f.id, Dir: f.dir, stamp: stamp, Started: f.mod, Trials: 1}
	if f.err != nil {
		r.State, r.Reason = StateUnreadable, "cannot list the folder: "+f.err.Error()
		return r
	}
	if err := confined(f.dir, resultFile); err != nil {
		r.State, r.Reason = StateUnreadable, err.Error()
		return r
	}
	path := filepath.Join(f.dir, resultFile)
	if _, err := os.Stat(path); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.State, r.Reason = StateUnreadable, inputfile.Reason(err)
			return r
		}
		r.inProgress()
		return r
	}
	lr, err := readLight(path)
	switch {
	case err == nil:
		r.fillLight(lr)
		return r
	case !errors.Is(err, errNotLight):
		r.State, r.Reason = StateUnreadable, path+": "+inputfile.Reason(err)
		return r
	}
	res, err := reports.Read(path)
	if err != nil {
		r.State, r.Reason = StateUnreadable, err.Error()
		return r
	}
	r.fill(res)
	return r
}

// inProgress reads a run folder without a result: its header (run.json)
// and the number of units its journal holds.
func (r *Run) inProgress() {
	r.State = StateInProgress
	var head result.Result
	for _, f := range []string{runFile, journalFile} {
		if err := confined(r.Dir, f); err != nil {
			r.State, r.Reason = StateUnreadable, err.Error()
			return
		}
	}
	b, err := inputfile.ReadFile(filepath.Join(r.Dir, runFile))
	switch {
	case err == nil:
		if jerr := json.Unmarshal(b, &head); jerr == nil {
			r.RunID, r.Harness, r.Git = head.RunID, head.Harness, head.Git
			if !head.Started.IsZero() {
				r.Started = head.Started
			}
			r.Summarizers = head.Config.Summarizers
			r.Trials = max(1, head.Config.Trials)
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		r.State, r.Reason = StateUnreadable, "reading "+runFile+": "+inputfile.Reason(err)
		return
	}
	n, err := countLines(filepath.Join(r.Dir, journalFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Reason = "no " + resultFile + " and no unit journaled yet: a run starting, or one that stopped before its first unit"
	case err != nil:
		r.State, r.Reason = StateUnreadable, "reading "+journalFile+": "+inputfile.Reason(err)
	default:
		r.Reason = fmt.Sprintf("no %s yet: %s journaled (a run being written, or one that was killed: `compact-eval run --resume %s` finishes it)", resultFile, plural(n, "unit"), r.Dir)
	}
}

// countLines counts the complete lines of a file.
func countLines(path string) (int, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	br := bufio.NewReaderSize(f, 1<<16)
	buf := make([]byte, 1<<16)
	for {
		k, err := br.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// fill takes a decoded result's headline figures.
func (r *Run) fill(res *result.Result) {
	r.fillHead(res)
	r.Summarizers = result.Summarizers(res)
	r.Units = len(res.Units)
	c := reports.Count(res)
	r.Verdict = strings.TrimLeft(reports.Verdict(res, nil), "❌✅ ")
	r.Regressions = c.Regressions
	r.Failed = c.InvariantFail+c.Regressions+c.StructuralFail+c.Errors > 0 || res.Interrupted
	r.Suite = suiteDigest(scenarioLines(res))
}

// fillLight takes the headline figures of a result read lightly: the same
// as fill's from the whole result (a test keeps them equal).
func (r *Run) fillLight(lr *lightResult) {
	res := lr.head
	r.fillHead(res)
	r.Summarizers = append(slices.Clone(res.Config.Summarizers), lr.extra...)
	r.Units = lr.units
	c := lr.counts()
	r.Verdict = strings.TrimLeft(reports.VerdictOf(c, len(r.Summarizers), nil), "❌✅ ")
	r.Regressions = c.Regressions
	r.Failed = c.InvariantFail+c.Regressions+c.StructuralFail+c.Errors > 0 || res.Interrupted
	r.Suite = suiteDigest(slices.Clone(lr.scenarios))
}

// fillHead takes what the head and tail of a result say.
func (r *Run) fillHead(res *result.Result) {
	r.State = StateDone
	if res.Interrupted {
		r.State, r.Reason = StateInterrupted, "the run was interrupted; resume with: "+res.Resume
	}
	if len(res.MissingShards) > 0 {
		r.Reason = strings.TrimSpace(r.Reason + " missing shards " + strings.Join(res.MissingShards, ", "))
	}
	r.RunID, r.Started, r.Finished, r.Harness, r.Git = res.RunID, res.Started, res.Finished, res.Harness, res.Git
	r.Agent, r.Judge = res.Config.Agent, res.Config.Judge
	r.Summaries = res.Summaries
	r.Aggregates = res.Aggregates
	r.Trials = max(1, res.Config.Trials)
}

// scenarioLines are the scenarios of a result's units as "id digest", once
// each.
func scenarioLines(res *result.Result) []string {
	seen := map[string]bool{}
	var lines []string
	for _, u := range res.Units {
		l := u.Scenario.ID + " " + u.Scenario.Digest
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	return lines
}

// suiteDigest is a short digest of the scenarios a result ran, from their
// scenarioLines (sorted in place).
func suiteDigest(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%s (%s)", hex.EncodeToString(h[:])[:12], plural(len(lines), "scenario"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
