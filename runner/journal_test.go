package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compact-eval/compact-eval/result"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/reports"
	"github.com/compact-eval/compact-eval/summarizers"
)

// gate is a summarizer that waits, on its first call, until released: the
// run holding it is certainly in flight.
type gate struct {
	once             sync.Once
	entered, release chan struct{}
	inner            summarizers.Summarizer
}

func newGate(inner summarizers.Summarizer) *gate {
	return &gate{entered: make(chan struct{}), release: make(chan struct{}), inner: inner}
}

func (g *gate) Summarize(ctx context.Context, req *summarizers.Request) (*summarizers.Response, error) {
	g.once.Do(func() {
		close(g.entered)
		<-g.release
	})
	return g.inner.Summarize(ctx, req)
}

// checkIntact reads the result of a finished run and checks it holds every
// planned unit exactly once (reports.Read refuses duplicates).
func checkIntact(t *testing.T, dir string, planned int) {
	t.Helper()
	r, err := reports.Read(filepath.Join(dir, ResultFile))
	if err != nil {
		t.Fatalf("result: %v", err)
	}
	if len(r.Units) != planned || r.Interrupted {
		t.Fatalf("result holds %d units (interrupted %v), want all %d", len(r.Units), r.Interrupted, planned)
	}
}

// The fifth finding: two --resume on one folder. One holds the
// folder; the other is refused at once, naming the holder's pid; the result
// is intact. Run many times (the race tests run it under -race).
func TestConcurrentResume(t *testing.T) {
	list := builtinSuite(t)[:3]
	for i := range 20 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			first := baseOptions(t, out)
			first.StopAfter = 2
			if _, err := Run(context.Background(), list, first); !errors.Is(err, ErrInterrupted) {
				t.Fatalf("first run: %v, want interrupted", err)
			}
			a, b := baseOptions(t, out), baseOptions(t, out)
			a.Resume, b.Resume = true, true
			g := newGate(a.Summarizers[1].Summarizer)
			a.Summarizers[1].Summarizer = g
			done := make(chan error, 1)
			var res *Outcome
			go func() {
				var err error
				res, err = Run(context.Background(), list, a)
				done <- err
			}()
			<-g.entered // a holds the folder and is in flight
			_, err := Run(context.Background(), list, b)
			if !errors.Is(err, ErrFolderLocked) {
				t.Fatalf("second resume while the first runs: err = %v, want ErrFolderLocked", err)
			}
			if want := fmt.Sprintf("run folder in use by pid %d", os.Getpid()); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
			close(g.release)
			if err := <-done; err != nil {
				t.Fatalf("first resume: %v", err)
			}
			checkIntact(t, out, res.Planned)
			// Released: the folder can be resumed again (nothing left to do).
			if _, err := Run(context.Background(), list, b); err != nil {
				t.Fatalf("resume after the first ended: %v", err)
			}
			checkIntact(t, out, res.Planned)
		})
	}
}

// Two resumes started together, with no ordering: whichever order they
// take the lock in, the result is intact and the journal holds each unit
// once.
func TestConcurrentResumeFree(t *testing.T) {
	list := builtinSuite(t)[:3]
	for i := range 20 {
		out := filepath.Join(t.TempDir(), "run")
		first := baseOptions(t, out)
		first.StopAfter = 1
		if _, err := Run(context.Background(), list, first); !errors.Is(err, ErrInterrupted) {
			t.Fatalf("%d: first run: %v", i, err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for k := range 2 {
			wg.Go(func() {
				o := baseOptions(t, out)
				o.Resume = true
				<-start
				_, errs[k] = Run(context.Background(), list, o)
			})
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, ErrFolderLocked) {
				t.Fatalf("%d: %v", i, err)
			}
		}
		if errs[0] != nil && errs[1] != nil {
			t.Fatalf("%d: both resumes refused: %v; %v", i, errs[0], errs[1])
		}
		planned := len(list) * len(first.Summarizers)
		checkIntact(t, out, planned)
		j, _ := os.ReadFile(filepath.Join(out, JournalFile))
		if n := bytes.Count(j, []byte("\n")); n != planned {
			t.Fatalf("%d: journal holds %d lines, want %d (each unit once)", i, n, planned)
		}
	}
}

// A fresh run into a folder another run is writing is refused the same way.
func TestRunIntoLockedFolder(t *testing.T) {
	list := builtinSuite(t)[:1]
	out := filepath.Join(t.TempDir(), "run")
	a, b := baseOptions(t, out), baseOptions(t, out)
	g := newGate(a.Summarizers[0].Summarizer)
	a.Summarizers[0].Summarizer = g
	done := make(chan error, 1)
	go func() { _, err := Run(context.Background(), list, a); done <- err }()
	<-g.entered
	if _, err := Run(context.Background(), list, b); !errors.Is(err, ErrFolderLocked) {
		t.Errorf("err = %v, want ErrFolderLocked", err)
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// tearLine replaces journal line n (1-based) with its first half, still
// followed by a newline: what a crash or a second writer leaves.
func tearLine(t *testing.T, path string, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	l := lines[n-1]
	lines[n-1] = append(l[:len(l)/2:len(l)/2], '\n')
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The eleventh finding, in part: a torn journal line followed by a
// newline stopped --resume with no hint. The error names the line and says
// how to repair; Repair drops it, the unit runs again, and the result is
// that of an uninterrupted run.
func TestTornJournalLine(t *testing.T) {
	list := builtinSuite(t)[:2]
	dir := t.TempDir()
	whole := baseOptions(t, filepath.Join(dir, "whole"))
	if _, err := Run(context.Background(), list, whole); err != nil {
		t.Fatal(err)
	}
	part := baseOptions(t, filepath.Join(dir, "part"))
	part.Jobs, part.StopAfter = 1, 4
	if _, err := Run(context.Background(), list, part); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	tearLine(t, filepath.Join(part.Out, JournalFile), 2)

	part.Resume, part.StopAfter = true, 0
	_, err := Run(context.Background(), list, part)
	if !errors.Is(err, ErrNotResumable) {
		t.Fatalf("resume over a torn line: err = %v, want ErrNotResumable", err)
	}
	for _, want := range []string{"journal.jsonl line 2 is corrupt (not JSON", "--repair"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}

	part.Repair = true
	res, err := Run(context.Background(), list, part)
	if err != nil {
		t.Fatalf("resume --repair: %v", err)
	}
	if res.Reused != 3 || res.Ran != res.Planned-3 {
		t.Errorf("repair: reused %d, ran %d of %d; want the torn unit to run again", res.Reused, res.Ran, res.Planned)
	}
	r, err := reports.Read(res.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, "\n"), "repair: dropped journal.jsonl line 2 (not JSON") {
		t.Errorf("warnings %q: want the dropped line named", r.Warnings)
	}
	r.Warnings = nil
	w, err := reports.Read(filepath.Join(whole.Out, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(len(w.Units), len(r.Units)); d != "" {
		t.Errorf("units (-whole +repaired):\n%s", d)
	}
	for i := range w.Units {
		a, b := w.Units[i], r.Units[i]
		if a.Scenario.ID != b.Scenario.ID || a.Summarizer != b.Summarizer || a.Status != b.Status {
			t.Errorf("unit %d: %s × %s %s, want %s × %s %s", i, b.Scenario.ID, b.Summarizer, b.Status, a.Scenario.ID, a.Summarizer, a.Status)
		}
	}
}

// Lines that are valid JSON but no unit are corrupt too; Repair without
// Resume is refused.
func TestJournalLineNotAUnit(t *testing.T) {
	list := builtinSuite(t)[:1]
	part := baseOptions(t, filepath.Join(t.TempDir(), "part"))
	part.StopAfter = 1
	if _, err := Run(context.Background(), list, part); !errors.Is(err, ErrInterrupted) {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(part.Out, JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"scenario": {"id": "x"}, "summarizer": "s", "status": "exploded"}` + "\n")
	f.Close()
	part.Resume, part.StopAfter = true, 0
	if _, err := Run(context.Background(), list, part); err == nil || !strings.Contains(err.Error(), `line 2 is corrupt (not a unit: status "exploded")`) {
		t.Errorf("err = %v", err)
	}
	o := baseOptions(t, filepath.Join(t.TempDir(), "x"))
	o.Repair = true
	if _, err := Run(context.Background(), list, o); err == nil || !strings.Contains(err.Error(), "repair without resume") {
		t.Errorf("repair without resume: err = %v", err)
	}
}

// TestKeptUnitsSameResult: writing the result from the units kept in
// memory gives the same file, and hands OnUnit units with the same
// findings, as reading every unit back from the journal (keptBudget 0).
// A unit holding a string that is not UTF-8 is never kept: its journal
// line says U+FFFD where the memory holds the raw byte.
func TestKeptUnitsSameResult(t *testing.T) {
	notUnderRace(t, "TestJobsDeterministic and TestConcurrentResume")
	list := builtinSuite(t)
	run := func(budget int) (string, []string) {
		defer func(b int) { keptBudget = b }(keptBudget)
		keptBudget = budget
		opts := baseOptions(t, filepath.Join(t.TempDir(), "run"))
		var findings []string
		opts.OnUnit = func(u *result.Unit) {
			for _, f := range reports.UnitFindings(u) {
				findings = append(findings, fmt.Sprintf("%s/%s/%d/%s/%s: %s", f.Scenario, f.Summarizer, f.Trial, f.Check, f.Name, f.Message))
			}
		}
		res, err := Run(context.Background(), list, opts)
		if err != nil {
			t.Fatal(err)
		}
		return normalised(t, res.ResultPath), findings
	}
	keptFile, keptFindings := run(keptBudget)
	readFile, readFindings := run(0)
	if diff := cmp.Diff(readFile, keptFile); diff != "" {
		t.Errorf("result from kept units differs (-read back +kept):\n%s", diff)
	}
	if diff := cmp.Diff(readFindings, keptFindings); diff != "" {
		t.Errorf("OnUnit findings differ (-read back +kept):\n%s", diff)
	}
	if len(keptFindings) == 0 {
		t.Fatal("the suite gave no finding to compare")
	}

	j := &journal{}
	bad := result.Unit{Error: "caf\xe9"}
	j.keep("bad", &bad, []byte(`{"error":"caf\ufffd"}`))
	good := result.Unit{Error: "café"}
	j.keep("good", &good, []byte(`{"error":"café"}`))
	if _, ok := j.kept["bad"]; ok {
		t.Error("a unit whose line holds \\ufffd was kept")
	}
	if _, ok := j.kept["good"]; !ok {
		t.Error("a plain unit was not kept")
	}
}
