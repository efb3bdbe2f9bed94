package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The steps of interrupts: the first signal cancels, the second abandons
// and exits after the grace period, a third exits at once.
func TestInterrupts(t *testing.T) {
	for _, third := range []bool{false, true} {
		sigs := make(chan os.Signal, 3)
		ctx, cancel := context.WithCancel(context.Background())
		abort, cancelAbort := context.WithCancel(context.Background())
		exited := make(chan int, 1)
		var stderr bytes.Buffer
		grace := time.Hour
		if !third {
			grace = 50 * time.Millisecond
		}
		go interrupts(sigs, cancel, cancelAbort, &stderr, func(code int) { exited <- code }, grace)
		sigs <- os.Interrupt
		<-ctx.Done()
		if abort.Err() != nil {
			t.Fatal("the first signal abandoned the work in flight")
		}
		sigs <- syscall.SIGTERM
		<-abort.Done()
		if third {
			sigs <- os.Interrupt
		}
		select {
		case code := <-exited:
			if code != exitInfra {
				t.Errorf("exit code %d, want %d", code, exitInfra)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no exit (third signal %v)", third)
		}
		if !strings.Contains(stderr.String(), "interrupted again") {
			t.Errorf("stderr %q", stderr.String())
		}
	}
}

// Signals end the process whatever main is blocked on (the sixth
// finding: blocked on a FIFO, SIGINT and SIGTERM were ignored). Here it is
// blocked reading a standard input that never ends; Ctrl-C three times
// ends it at once, with exit 3.
func TestSignalsEndABlockedProcess(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "compact-eval")
	if err := os.Symlink(exe, link); err != nil {
		t.Skip("symlink:", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close() // stdin stays open: the import never sees its end
	cmd := exec.Command(link, "import", "--from", "openai", "-")
	cmd.Stdin = r
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	waitIdle(cmd.Process.Pid) // let it block in the read, its handler installed
	start := time.Now()
	for range 3 {
		cmd.Process.Signal(os.Interrupt)
		time.Sleep(50 * time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInfra {
			t.Errorf("exit %v, want status %d; stderr:\n%s", err, exitInfra, stderr.String())
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("took %v to exit after three interrupts", d)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 10 s after three interrupts; stderr:\n%s", stderr.String())
	}
}

// waitIdle waits until every thread of process pid has been asleep at
// three looks in a row, 20 ms apart (at least 300 ms, at most 5 s): the
// process has done its start-up work, installed its signal handlers and
// blocked in a read. A fixed pause instead let a loaded machine deliver the
// interrupt before the handler was there, and the default action killed
// the process. Where /proc is missing it waits 300 ms.
func waitIdle(pid int) {
	min := time.Now().Add(300 * time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	quiet := 0
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		if err != nil || len(tasks) == 0 {
			time.Sleep(time.Until(min))
			return
		}
		asleep := true
		for _, t := range tasks {
			b, err := os.ReadFile(t)
			// the state follows the command name in parentheses
			i := bytes.LastIndexByte(b, ')')
			if err != nil || i < 0 || i+2 >= len(b) || b[i+2] != 'S' {
				asleep = false
				break
			}
		}
		if asleep {
			quiet++
		} else {
			quiet = 0
		}
		if quiet >= 3 && time.Now().After(min) {
			return
		}
	}
}
