//go:build !unix

package labtest

import "time"

// cpuTime is 0 where the process's CPU time is not read: the benchmarks'
// cpu-s/op is then 0.
func cpuTime() time.Duration { return 0 }
