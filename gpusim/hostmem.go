package gpusim

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// hostLimit is the most device memory a simulated device may hold: every
// simulated byte is a host byte, so a buffer the profile's device could
// hold (141 GB on an H200) but the host cannot is refused with a clear
// error instead of ending the process in the Go runtime's out-of-memory
// crash. It is half the host's memory (MemTotal in /proc/meminfo), and no
// more than GOMEMLIMIT when that is set; where neither is known, no limit.
var hostLimit = sync.OnceValue(func() int64 {
	limit := int64(0)
	if total := memTotal(); total > 0 {
		limit = total / 2
	}
	if soft := debug.SetMemoryLimit(-1); soft > 0 && soft < math.MaxInt64 && (limit == 0 || soft < limit) {
		limit = soft
	}
	return limit
})

// memTotal reads the host's memory from /proc/meminfo; 0 when unknown.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb * 1024
	}
	return 0
}
