//go:build linux

package execproc_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/compact-eval/compact-eval/internal/execproc"
)

// clearedHarnessEnv makes this test binary a harness whose command starts
// a setsid grandchild with an emptied environment (env -i, as sudo and
// env-sanitising wrappers do), so it carries no ExecIDEnv marker.
const clearedHarnessEnv = "EXECPROC_TEST_HARNESS_ENV_CLEARED"

func init() {
	if f := os.Getenv(clearedHarnessEnv); f != "" {
		execproc.Run(context.Background(), []string{"sh", "-c", `setsid env -i sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> "$PIDFILE"
echo $$ >> "$PIDFILE"
wait`}, nil, execproc.Options{Timeout: time.Hour, Env: []string{"PIDFILE=" + f}})
		os.Exit(0)
	}
}

// A descendant that dropped its environment (and with it the marker the
// watchdog looks for) is still killed when the harness dies with SIGKILL.
func TestHarnessKilledLeavesNoUnmarkedDescendant(t *testing.T) {
	needSetsid(t)
	if _, err := exec.LookPath("env"); err != nil {
		t.Skip("needs env")
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := exec.Command(exe)
	h.Env = append(os.Environ(), clearedHarnessEnv+"="+pidFile)
	h.Stdout, h.Stderr = os.Stderr, os.Stderr
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, pidFile, 2)
	// The watchdog learns the harness's descendants by looking: give it
	// time to see this one (it looks every 100 ms).
	time.Sleep(300 * time.Millisecond)
	for _, p := range pids {
		if !alive(t, p) {
			t.Fatalf("process %d is not running before the kill", p)
		}
	}
	if err := h.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	h.Wait()
	defer func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL) // what the test started, if it failed
		}
	}()
	waitGone(t, pids, time.Second, fmt.Sprintf("harness %d killed with SIGKILL", h.Process.Pid))
}
