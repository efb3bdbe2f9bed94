//go:build unix

package inputfile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The sixth finding: a FIFO as an input hung forever. Every kind
// of file that is not regular is refused at once, with a sentence.
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	sock := filepath.Join(dir, "s.yaml")
	l, err := net.Listen("unix", sock)
	if err == nil {
		defer l.Close()
	}
	link := filepath.Join(dir, "link.yaml")
	os.Symlink(fifo, link)
	tests := []struct{ path, kind string }{
		{fifo, "a named pipe (FIFO)"},
		{link, "a named pipe (FIFO)"},
		{"/dev/zero", "a character device"},
		{"/dev/null", "a character device"},
		{dir, "a directory"},
	}
	if err == nil {
		tests = append(tests, struct{ path, kind string }{sock, "a socket"})
	}
	for _, tc := range tests {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(tc.path)
			done <- err
		}()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), "is "+tc.kind+", not a regular file") {
				t.Errorf("%s: error %v, want it called %s", tc.path, err, tc.kind)
			}
			if !strings.HasPrefix(Reason(err), "is "+tc.kind) {
				t.Errorf("%s: reason %q", tc.path, Reason(err))
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still blocked after 5 s", tc.path)
		}
	}
}

func TestReadsRegularFilesAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.yaml")
	os.WriteFile(p, []byte("x: 1\n"), 0o644)
	link := filepath.Join(dir, "b.yaml")
	os.Symlink(p, link)
	for _, path := range []string{p, link} {
		b, err := ReadFile(path)
		if err != nil || string(b) != "x: 1\n" {
			t.Errorf("%s: %q, %v", path, b, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) || Reason(err) != "no such file or directory" {
		t.Errorf("missing file: %v (%q)", err, Reason(err))
	}
}
