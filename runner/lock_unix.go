//go:build unix

package runner

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// tryLock locks path with flock, without waiting. l is nil when another
// open file holds the lock; holder is then the pid written in the file.
func tryLock(path string) (l *folderLock, holder int, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, readPid(path), nil
		}
		return nil, 0, err
	}
	// Ours now: say who holds it.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &folderLock{f: f, path: path}, 0, nil
}

// unlock releases the lock. The file stays: removing it would let a third
// process lock a new file while a second still waits on the old one.
func (l *folderLock) unlock() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
