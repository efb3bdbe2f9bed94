package viewer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compact-eval/compact-eval/runner"
	"github.com/compact-eval/compact-eval/viewer"
)

// TestFileNames: the viewer reads the files the runner writes.
func TestFileNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{runner.ResultFile, runner.JournalFile, runner.RunFile} {
		d := filepath.Join(dir, f+"-only")
		must(t, os.MkdirAll(d, 0o755))
		must(t, os.WriteFile(filepath.Join(d, f), []byte("x"), 0o644))
	}
	if n := len(viewer.NewStore([]string{dir}).Runs()); n != 3 {
		t.Errorf("the store found %d run folders, want 3 (one per file the runner writes)", n)
	}
}

// TestStoreStates: a finished run, an interrupted one, one being written
// (journal only), one that has not journaled a unit, a corrupt result, a
// result of a newer format and an unreadable folder are all listed, each
// with its state and reason; a folder that holds no run is not.
func TestStoreStates(t *testing.T) {
	dir := fixture(t, 2)
	intr := fixtureRun(5, 2)
	intr.Interrupted, intr.Resume = true, "compact-eval run --resume out/x"
	writeRun(t, dir, "interrupted", intr)

	prog := writeRun(t, dir, "in-progress", fixtureRun(6, 3))
	must(t, os.Remove(filepath.Join(prog, "result.json")))
	fresh := filepath.Join(dir, "starting")
	must(t, os.MkdirAll(fresh, 0o755))
	must(t, os.WriteFile(filepath.Join(fresh, "run.json"), []byte(`{"run_id": "x"}`), 0o644))

	corrupt := writeRun(t, dir, "corrupt", fixtureRun(7, 2))
	must(t, os.WriteFile(filepath.Join(corrupt, "result.json"), []byte(`{"result_version": 1, "units": [`), 0o644))
	newer := writeRun(t, dir, "newer", fixtureRun(8, 2))
	must(t, os.WriteFile(filepath.Join(newer, "result.json"), []byte(`{"result_version": 99}`), 0o644))
	fifo := writeRun(t, dir, "fifo", fixtureRun(9, 2))
	must(t, os.Remove(filepath.Join(fifo, "result.json")))
	must(t, os.Symlink("/dev/null", filepath.Join(fifo, "result.json")))
	must(t, os.MkdirAll(filepath.Join(dir, "not-a-run"), 0o755))

	runs := viewer.NewStore([]string{dir}).Runs()
	got := map[string]*viewer.Run{}
	for _, r := range runs {
		got[strings.TrimPrefix(r.ID, "0/")] = r
	}
	for name, want := range map[string]struct{ state, reason string }{
		fixtureRun(0, 4).RunID: {viewer.StateDone, ""},
		"interrupted":          {viewer.StateInterrupted, "resume with: compact-eval run --resume out/x"},
		"in-progress":          {viewer.StateInProgress, "no result.json yet: 6 units journaled"},
		"starting":             {viewer.StateInProgress, "no unit journaled yet"},
		"corrupt":              {viewer.StateUnreadable, "invalid result"},
		"newer":                {viewer.StateUnreadable, "newer than this compact-eval reads"},
		"fifo":                 {viewer.StateUnreadable, "result.json is a symlink that leads out of the run folder: not followed"}, // to /dev/null
	} {
		r := got[name]
		if r == nil {
			t.Errorf("%s is not listed", name)
			continue
		}
		if r.State != want.state || !strings.Contains(r.Reason, want.reason) {
			t.Errorf("%s: state %q, reason %q; want %q with %q", name, r.State, r.Reason, want.state, want.reason)
		}
	}
	if got["not-a-run"] != nil {
		t.Error("a folder without a run is listed")
	}
	if got[fixtureRun(1, 4).RunID].Git == nil || got["in-progress"].Git != nil && got["in-progress"].RunID == "" {
		t.Error("the git state of a run was not read")
	}
	for i := 1; i < len(runs); i++ {
		if runs[i].Started.After(runs[i-1].Started) {
			t.Errorf("runs not newest first: %s (%v) after %s (%v)", runs[i].ID, runs[i].Started, runs[i-1].ID, runs[i-1].Started)
		}
	}
}

// TestStoreSeesChanges: a run written after the first scan appears, a run
// finishing turns from in progress to done, and a removed run goes; a run
// that did not change is not read again.
func TestStoreSeesChanges(t *testing.T) {
	dir := fixture(t, 1)
	s := viewer.NewStore([]string{dir})
	first := s.Runs()
	if len(first) != 1 {
		t.Fatalf("%d runs, want 1", len(first))
	}
	r := fixtureRun(1, 4)
	d := writeRun(t, dir, "later", r)
	res, err := os.ReadFile(filepath.Join(d, "result.json"))
	must(t, err)
	must(t, os.Remove(filepath.Join(d, "result.json")))
	runs := s.Runs()
	if len(runs) != 2 || runs[0].State != viewer.StateInProgress {
		t.Fatalf("after a run started: %d runs, newest %q; want 2, in progress", len(runs), runs[0].State)
	}
	if runs[1] != first[0] {
		t.Error("an unchanged run was read again")
	}
	must(t, os.WriteFile(filepath.Join(d, "result.json"), res, 0o644))
	if runs := s.Runs(); runs[0].State != viewer.StateDone || runs[0].Regressions == 0 && runs[0].Units == 0 {
		t.Errorf("after the run finished: state %q, %d units", runs[0].State, runs[0].Units)
	}
	must(t, os.RemoveAll(d))
	if n := len(s.Runs()); n != 1 {
		t.Errorf("after a run was removed: %d runs, want 1", n)
	}
}

// TestStoreRootIsARun: a DIR that is itself a run folder is one run.
func TestStoreRootIsARun(t *testing.T) {
	d := writeRun(t, t.TempDir(), "solo", fixtureRun(0, 2))
	runs := viewer.NewStore([]string{d}).Runs()
	if len(runs) != 1 || runs[0].ID != "0/solo" || runs[0].State != viewer.StateDone {
		t.Fatalf("runs = %+v", runs)
	}
}

// TestStoreMissingRoot: a root that cannot be read is listed with why.
func TestStoreMissingRoot(t *testing.T) {
	runs := viewer.NewStore([]string{filepath.Join(t.TempDir(), "nope")}).Runs()
	if len(runs) != 1 || runs[0].State != viewer.StateUnreadable || !strings.Contains(runs[0].Reason, "no such file") {
		t.Fatalf("runs = %+v", runs)
	}
}
