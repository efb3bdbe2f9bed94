//go:build unix

package viewer_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: the
// benchmarks report it next to wall time, which the load of other jobs on
// a shared machine stretches.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
