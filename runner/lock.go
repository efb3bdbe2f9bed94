package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the file in a run folder that the process running or resuming
// the run holds locked; it names that process's pid.
const LockFile = "lock"

// ErrFolderLocked: another process is running or resuming the run in the
// folder. Two writers would append to one journal and write one result
// file, each missing the other's units.
var ErrFolderLocked = errors.New("run folder in use")

// folderLock is the exclusive lock of a run folder, held for the life of a
// run or resume: on Unix an flock of the folder itself, open for the
// writer's life (released by the kernel when the process dies, however it
// dies; deleting or replacing the lock file, which only names the holder's
// pid, admits no second writer), a lock file holding the owner's pid
// elsewhere (a file whose pid no longer runs is taken over).
type folderLock struct {
	f    *os.File
	path string
}

// lockFolder takes dir's lock, or fails with ErrFolderLocked naming the pid
// that holds it.
func lockFolder(dir string) (*folderLock, error) {
	path := filepath.Join(dir, LockFile)
	l, holder, err := tryLock(path)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if l == nil {
		who := "another process"
		if holder > 0 {
			who = "pid " + strconv.Itoa(holder)
		}
		return nil, fmt.Errorf("%s: run folder in use by %s (a run or resume is writing it; wait for it to end, or choose another --out): %w", dir, who, ErrFolderLocked)
	}
	return l, nil
}

// readPid reads the pid a lock file names (0 when it names none).
func readPid(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
