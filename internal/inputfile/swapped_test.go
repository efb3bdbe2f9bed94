//go:build unix

package inputfile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A path that was a regular file when checked and is a FIFO when opened
// (replaced in between) neither blocks the open nor is read: the second
// half of Open, on its own, must refuse it at once.
func TestOpenAfterTheCheckRefusesASwappedFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := openChecked(fifo)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Fatalf("err = %v, want a NotRegularError", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO after the check blocked for 5 s")
	}
}
