package gpusim

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// hostLimit is the most device memory a simulated device may hold: every
// simulated byte is a host byte, so a buffer the profile's device could
// hold (141 GB on an H200) but the host cannot is refused with a clear
// error instead of ending the process in the Go runtime's out-of-memory
// crash (or in the kernel's OOM killer, in a container). It is the
// smallest of the limits that apply to the process (0: none known):
//
//   - half of the host's memory (MemTotal in /proc/meminfo);
//   - three quarters of the memory cgroup's limit (cgroup v2 memory.max,
//     v1 memory.limit_in_bytes, the smallest on the way up from the
//     process's cgroup): the rest of a 2 GiB notebook pod runs Jupyter
//     and the Go kernel itself;
//   - half of RLIMIT_AS, the address space (the Go runtime reserves
//     address space it does not use);
//   - GOMEMLIMIT (or debug.SetMemoryLimit), when set.
var hostLimit = sync.OnceValue(func() int64 {
	soft := debug.SetMemoryLimit(-1)
	if soft == math.MaxInt64 {
		soft = 0
	}
	return smallestLimit(memTotal()/2, cgroupLimit("/", readSelfCgroup())*3/4, addressLimit()/2, soft)
})

// smallestLimit returns the smallest positive limit, or 0 when none is.
func smallestLimit(limits ...int64) int64 {
	var min int64
	for _, l := range limits {
		if l > 0 && (min == 0 || l < min) {
			min = l
		}
	}
	return min
}

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

// readSelfCgroup returns /proc/self/cgroup, or nil.
func readSelfCgroup() []byte {
	b, _ := os.ReadFile("/proc/self/cgroup")
	return b
}

// cgroupLimit returns the memory limit of the process's cgroup, given
// the contents of /proc/self/cgroup, with the cgroup file systems under
// root ("/" but in tests): the smallest limit of the cgroup and its
// ancestors, cgroup v2 (memory.max under root/sys/fs/cgroup) or v1
// (memory.limit_in_bytes under root/sys/fs/cgroup/memory). In a
// container whose cgroup namespace hides the path, the path given is "/"
// and the container's own limit is at the mount's top. 0 when there is
// none ("max", or v1's unlimited value, which exceeds any real memory).
func cgroupLimit(root string, self []byte) int64 {
	var limit int64
	for _, line := range bytes.Split(self, []byte("\n")) {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(string(line), ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			continue
		}
		var dir, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, file = filepath.Join(root, "sys/fs/cgroup"), "memory.max"
		case hasController(parts[1], "memory"):
			dir, file = filepath.Join(root, "sys/fs/cgroup/memory"), "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean(parts[2]); ; p = path.Dir(p) {
			limit = smallestLimit(limit, readLimit(filepath.Join(dir, filepath.FromSlash(p), file)))
			if p == "/" {
				break
			}
		}
	}
	return limit
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readLimit reads a cgroup limit file: a byte count, or "max"; 0 when
// there is no file, no limit, or a value no machine has (cgroup v1
// writes "unlimited" as a number near 2^63).
func readLimit(name string) int64 {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v <= 0 || v >= 1<<60 {
		return 0
	}
	return v
}
