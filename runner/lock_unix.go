//go:build unix

package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// tryLock locks the run folder that holds path with flock, without
// waiting, and writes this process's pid into path. The lock is held on
// the folder itself, open for the writer's whole life, not on the file: a
// file deleted or replaced while a run holds it (issue 26, finding 5) would
// let a second writer lock a new one beside it; a folder that holds the
// journal cannot be deleted under it. l is nil when another open file
// holds the lock; holder is then the pid written in the file.
func tryLock(path string) (l *folderLock, holder int, err error) {
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil, 0, err
	}
	if err := syscall.Flock(int(dir.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		dir.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, readPid(path), nil
		}
		return nil, 0, err
	}
	// Ours now: say who holds it.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644); err == nil {
		f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		f.Close()
	}
	return &folderLock{f: dir, path: path}, 0, nil
}

// unlock releases the lock. The file stays (it only says who held it).
func (l *folderLock) unlock() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
