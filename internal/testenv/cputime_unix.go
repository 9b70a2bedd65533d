//go:build unix

package testenv

import (
	"syscall"
	"time"
)

// CPUTime returns the process's user and system CPU time so far, for
// benchmarks that report CPU seconds beside wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
