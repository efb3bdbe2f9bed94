//go:build unix

package inputfile

import "syscall"

// nonblock makes opening a FIFO return at once instead of waiting for a
// writer; regular files ignore it.
const nonblock = syscall.O_NONBLOCK
