//go:build unix

package gpusim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// writeFile writes name under root, making its directories.
func writeFile(t *testing.T, root, name, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCgroupLimit(t *testing.T) {
	const gib = 1 << 30
	tests := []struct {
		name  string
		files map[string]string
		self  string
		want  int64
	}{
		{"v2 pod", map[string]string{"sys/fs/cgroup/kubepods/pod1/memory.max": "2147483648\n", "sys/fs/cgroup/kubepods/memory.max": "max\n"},
			"0::/kubepods/pod1\n", 2 * gib},
		{"v2 ancestor smaller", map[string]string{"sys/fs/cgroup/a/b/memory.max": "max\n", "sys/fs/cgroup/a/memory.max": "1073741824\n"},
			"0::/a/b\n", gib},
		{"v2 namespaced", map[string]string{"sys/fs/cgroup/memory.max": "3221225472\n"}, "0::/\n", 3 * gib},
		{"v2 no limit", map[string]string{"sys/fs/cgroup/memory.max": "max\n"}, "0::/\n", 0},
		{"v1", map[string]string{"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "536870912\n"},
			"12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n", gib / 2},
		{"v1 unlimited", map[string]string{"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}, "4:memory:/\n", 0},
		{"no cgroup files", nil, "0::/user.slice\n", 0},
		{"no /proc/self/cgroup", nil, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, data := range tc.files {
				writeFile(t, root, name, data)
			}
			if got := cgroupLimit(root, []byte(tc.self)); got != tc.want {
				t.Errorf("cgroupLimit = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestSmallestLimit(t *testing.T) {
	if got := smallestLimit(0, 8, 0, 3, 5); got != 3 {
		t.Errorf("smallestLimit = %d, want 3", got)
	}
	if got := smallestLimit(0, 0); got != 0 {
		t.Errorf("smallestLimit of none = %d, want 0", got)
	}
}

// TestHostLimitFollowsProcessLimits runs the test binary again under
// GOMEMLIMIT and under an RLIMIT_AS and checks that hostLimit follows
// each.
func TestHostLimitFollowsProcessLimits(t *testing.T) {
	if v := os.Getenv("WARPLAB_HOSTLIMIT_CHILD"); v != "" {
		if v == "rlimit" {
			// 16 GiB of address space: enough for the Go runtime, less
			// than half of most hosts' memory is not assumed.
			r := syscall.Rlimit{Cur: 16 << 30, Max: 16 << 30}
			if err := syscall.Setrlimit(syscall.RLIMIT_AS, &r); err != nil {
				t.Skipf("setrlimit: %v", err)
			}
		}
		os.Stdout.WriteString("LIMIT " + strconv.FormatInt(hostLimit(), 10) + "\n")
		return
	}
	run := func(mode string, env ...string) int64 {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostLimitFollowsProcessLimits$", "-test.count=1")
		cmd.Env = append(append(os.Environ(), "WARPLAB_HOSTLIMIT_CHILD="+mode), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
		var v int64
		for _, line := range strings.Split(string(out), "\n") {
			if n, ok := strings.CutPrefix(line, "LIMIT "); ok {
				v, _ = strconv.ParseInt(n, 10, 64)
				return v
			}
		}
		t.Skipf("%s: no limit printed (skipped?):\n%s", mode, out)
		return 0
	}
	if got, want := run("gomemlimit", "GOMEMLIMIT=1750MiB"), int64(1750<<20); got != want && !(got > 0 && got < want) {
		t.Errorf("under GOMEMLIMIT=1750MiB hostLimit = %d, want %d (or a smaller limit of this machine)", got, want)
	}
	if got := run("rlimit"); got <= 0 || got > 8<<30 {
		t.Errorf("under RLIMIT_AS of 16 GiB hostLimit = %d, want at most 8 GiB", got)
	}
}
