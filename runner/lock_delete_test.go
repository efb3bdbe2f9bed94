//go:build unix

package runner

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Issue 26, finding 5: the lock was a file's lock, and a deleted file let a
// second writer lock a new one. The lock is the folder's now.
func TestLockSurvivesItsFile(t *testing.T) {
	dir := t.TempDir()
	first, err := lockFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tamper := range []func() error{
		func() error { return os.Remove(filepath.Join(dir, LockFile)) },
		func() error { return os.WriteFile(filepath.Join(dir, LockFile), []byte("1\n"), 0o644) },
	} {
		if err := tamper(); err != nil {
			t.Fatal(err)
		}
		if second, err := lockFolder(dir); !errors.Is(err, ErrFolderLocked) {
			second.unlock()
			t.Fatalf("a second writer locked the folder after its lock file changed: %v", err)
		}
	}
	if err := first.unlock(); err != nil {
		t.Fatal(err)
	}
	again, err := lockFolder(dir)
	if err != nil {
		t.Fatalf("the folder stays locked after the writer let go: %v", err)
	}
	again.unlock()
}
