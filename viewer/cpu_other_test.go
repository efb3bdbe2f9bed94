//go:build !unix

package viewer_test

import "time"

// cpuTime is not measured here: the benchmarks report 0 CPU-s/op.
func cpuTime() time.Duration { return 0 }
