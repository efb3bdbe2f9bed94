//go:build !unix

package runner

import (
	"errors"
	"os"
	"strconv"
)

// tryLock creates path exclusively and writes this process's pid in it. l
// is nil when the file exists and names a process that still runs; holder
// is that pid. A file naming a process that is gone is taken over.
func tryLock(path string) (l *folderLock, holder int, err error) {
	for range 2 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			return &folderLock{f: f, path: path}, 0, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, 0, err
		}
		pid := readPid(path)
		if pid > 0 && running(pid) {
			return nil, pid, nil
		}
		os.Remove(path) // stale: its owner is gone
	}
	return nil, readPid(path), nil
}

// running reports whether a process with this pid exists.
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// unlock removes the lock file.
func (l *folderLock) unlock() error {
	if l == nil {
		return nil
	}
	l.f.Close()
	return os.Remove(l.path)
}
