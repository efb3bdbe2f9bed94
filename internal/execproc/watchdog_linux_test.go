//go:build linux

package execproc

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// The watchdog walks the harness's process tree only while the harness it
// was told of (pid and start time) is still its parent. A harness that died
// before the watchdog could look has handed it to another parent (a
// subreaper such as a test binary or a CI agent, or init), whose tree is
// not the run's: walking and then killing it would take down unrelated
// processes. The bug this pins: the watchdog took os.Getppid() as the
// harness, so a harness that exited at once made it kill its new parent's
// whole tree.
func TestParseWatchdogTrustsOnlyItsLiveParent(t *testing.T) {
	ppid := os.Getppid()
	st, ok := startTime(ppid)
	if !ok {
		t.Skip("no start time of the parent")
	}
	for _, tc := range []struct {
		v    string
		want int
	}{
		{"run1:" + strconv.Itoa(ppid) + ":" + st, ppid},                        // the parent, as it started
		{"run1:" + strconv.Itoa(ppid) + ":1", 0},                               // a new process under the parent's pid
		{"run1:" + strconv.Itoa(os.Getpid()) + ":" + st, 0},                    // not the parent
		{"run1:1:" + st, 0},                                                    // init is never a harness
		{"run1", 0},                                                            // the old form: no harness named
		{"run1:x:" + st, 0},                                                    // garbage
		{"run1:" + strconv.Itoa(ppid), 0},                                      // no start time
		{"run1:" + strconv.Itoa(ppid) + ":" + st + ":extra", 0},                // start time must match exactly
		{"run1:" + strconv.Itoa(ppid) + "::" + st, 0},                          // empty start time
		{"run1:" + strconv.Itoa(ppid) + ":" + st + "0", 0},                     // another start time
		{"run1:" + strconv.Itoa(ppid+1000000) + ":" + st, 0},                   // no such process
		{"run1:-" + strconv.Itoa(ppid) + ":" + st, 0},                          // negative
		{"run1:0:" + st, 0},                                                    // zero
		{"run1:" + strconv.Itoa(ppid) + ":" + st + " ", 0},                     // trailing blank
		{" run1:" + strconv.Itoa(ppid) + ":" + st, ppid},                       // the run id is opaque
		{"run1:" + strconv.Itoa(ppid) + ":" + st[:max(0, len(st)-1)] + "x", 0}, // altered
	} {
		run, got := parseWatchdog(tc.v)
		if got != tc.want {
			t.Errorf("parseWatchdog(%q) harness = %d, want %d", tc.v, got, tc.want)
		}
		if run == "" {
			t.Errorf("parseWatchdog(%q): no run id", tc.v)
		}
	}
}

// A watchdog whose harness is already gone when it starts kills nothing
// but the run's marked processes: a process that merely shares its new
// parent survives.
func TestOrphanedWatchdogSparesItsNewParentsTree(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bystander := exec.Command("sleep", "30")
	if err := bystander.Start(); err != nil {
		t.Fatal(err)
	}
	defer bystander.Process.Kill()
	// The watchdog is told of a harness that is not its parent (this
	// process is), as when its harness died before it looked and it was
	// handed to this process: it must walk nothing. The old watchdog took
	// its parent for the harness and killed this process's whole tree.
	st, _ := startTime(bystander.Process.Pid)
	dog := exec.Command(exe)
	dog.Env = append(os.Environ(), watchdogEnv+"=orphan-test:"+strconv.Itoa(bystander.Process.Pid)+":"+st)
	in, err := dog.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := dog.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // several of its looks
	in.Close()                         // the "harness" is gone
	if err := dog.Wait(); err != nil {
		t.Fatalf("watchdog: %v", err)
	}
	// A killed child stays a zombie until waited for, and a zombie still
	// takes signals: wait for it instead.
	exited := make(chan error, 1)
	go func() { exited <- bystander.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("the watchdog killed a process outside its run: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
}
