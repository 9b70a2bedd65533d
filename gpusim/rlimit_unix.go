//go:build unix

package gpusim

import (
	"math"
	"syscall"
)

// addressLimit returns the process's RLIMIT_AS soft limit, or 0 when it
// has none.
func addressLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= math.MaxInt64 {
		return 0
	}
	return int64(r.Cur)
}
