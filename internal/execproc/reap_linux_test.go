//go:build linux

package execproc_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/execproc"
)

// harnessEnv makes this test binary a harness: it runs one exec call whose
// command starts a child and a setsid grandchild, then waits to be killed.
const harnessEnv = "EXECPROC_TEST_HARNESS"

func init() {
	if f := os.Getenv(harnessEnv); f != "" {
		execproc.Run(context.Background(), []string{"sh", "-c", familyScript}, nil,
			execproc.Options{Timeout: time.Hour, Env: []string{"PIDFILE=" + f}})
		os.Exit(0)
	}
}

// familyScript starts a child in its process group and a grandchild that
// leaves it with setsid, writes the three pids to $PIDFILE (the command's
// last, once the others are written), and waits.
const familyScript = `sleep 300 & echo $! >> "$PIDFILE"
setsid sleep 300 & echo $! >> "$PIDFILE"
echo $$ >> "$PIDFILE"
wait`

func needSetsid(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid (util-linux)")
	}
}

// readPids waits until path holds n pids.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %d pids after 10 s, want %d", path, len(pids), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone fails unless every pid is gone (or a zombie) within d.
func waitGone(t *testing.T, pids []int, d time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for alive(t, pid) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: process %d still runs %v later", what, pid, d)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// The tenth finding: a grandchild that calls setsid left the
// process group and survived its unit. The call now ends with nothing of
// it running.
func TestRunKillsSetsidGrandchild(t *testing.T) {
	needSetsid(t)
	pidFile := filepath.Join(t.TempDir(), "pids")
	// The command exits at once; its setsid grandchild would run 5 minutes.
	script := `setsid sleep 300 & echo $! > "$PIDFILE"; echo '{}'`
	res, err := execproc.Run(context.Background(), []string{"sh", "-c", script}, nil,
		execproc.Options{Timeout: 30 * time.Second, Env: []string{"PIDFILE=" + pidFile}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) != "{}" {
		t.Errorf("output %s", res.Output)
	}
	pids := readPids(t, pidFile, 1)
	waitGone(t, pids, time.Second, "setsid grandchild after the call")
}

// A daemon that double-forks out of the group, on a timeout.
func TestRunTimeoutKillsDetachedDescendants(t *testing.T) {
	needSetsid(t)
	pidFile := filepath.Join(t.TempDir(), "pids")
	script := `(setsid sh -c 'sleep 300 & echo $! >> "$PIDFILE"; sleep 300' &) ; sleep 300`
	_, err := execproc.Run(context.Background(), []string{"sh", "-c", script}, nil,
		execproc.Options{Timeout: 500 * time.Millisecond, Env: []string{"PIDFILE=" + pidFile}})
	if e, ok := err.(*execproc.Error); !ok || e.Kind != execproc.KindTimeout {
		t.Fatalf("error %v, want a timeout", err)
	}
	waitGone(t, readPids(t, pidFile, 1), time.Second, "double-forked descendant after a timeout")
}

// Calls running at once do not kill each other's detached descendants: a
// call that ends sweeps only what it left.
func TestRunSweepsOnlyItsOwn(t *testing.T) {
	needSetsid(t)
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow")
	// A long call whose detached grandchild must live while it runs.
	done := make(chan error, 1)
	go func() {
		_, err := execproc.Run(context.Background(), []string{"sh", "-c",
			`(setsid sleep 300 & echo $! > "$PIDFILE") ; sleep 5; echo '{}'`}, nil,
			execproc.Options{Timeout: 30 * time.Second, Env: []string{"PIDFILE=" + slow}})
		done <- err
	}()
	pids := readPids(t, slow, 1)
	// Short calls end meanwhile, each sweeping its own orphans.
	for range 3 {
		if _, err := execproc.Run(context.Background(), []string{"sh", "-c", `(setsid sleep 300 &); echo '{}'`}, nil, execproc.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !alive(t, pids[0]) {
		t.Fatal("another call's end killed a running call's descendant")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waitGone(t, pids, time.Second, "the long call's descendant after it ended")
}

// The harness killed with SIGKILL: its command, the command's child and a
// setsid grandchild are all gone within a second.
func TestHarnessKilledLeavesNoChildren(t *testing.T) {
	needSetsid(t)
	pidFile := filepath.Join(t.TempDir(), "pids")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := exec.Command(exe)
	h.Env = append(os.Environ(), harnessEnv+"="+pidFile)
	h.Stdout, h.Stderr = os.Stderr, os.Stderr
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, pidFile, 3)
	for _, p := range pids {
		if !alive(t, p) {
			t.Fatalf("process %d is not running before the kill", p)
		}
	}
	if err := h.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	h.Wait()
	waitGone(t, pids, time.Second, fmt.Sprintf("harness %d killed with SIGKILL", h.Process.Pid))
}
