//go:build !unix

package testenv

import "time"

// CPUTime is 0 where the process's CPU time is not read: benchmarks then
// report 0 CPU seconds.
func CPUTime() time.Duration { return 0 }
