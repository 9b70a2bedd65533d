package main

import (
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRunMemoryLimits checks that sizes past the device's memory fail
// before anything is allocated, with a message naming the buffer or the
// variable and the device's memory, and exit status 1 (not a Go crash).
func TestRunMemoryLimits(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	k := writeFile(t, "k.cu", "__global__ void k(float* in) { in[0] = 1; }\n")
	dev := writeFile(t, "dev.cu", "__device__ float g[1LL << 36];\n__global__ void k(float* in) { in[0] = g[0]; }\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"buffer of 10^12 floats", []string{"run", k, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "in=f32:1000000000000:zero"},
			[]string{"--buf in:", "out of device memory", "3.64 TiB requested", "the device has 16 GiB"}},
		{"buffer whose size overflows", []string{"run", k, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "in=f64:4611686018427387904:iota"},
			[]string{"--buf in:", "overflows"}},
		{"--print of a large buffer whole", []string{"run", k, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "in=f32:2000000:zero", "--print", "in"},
			[]string{"--print in: in has 2000000 elements, more than warplab prints (1048576): give --print in:K"}},
		{"__device__ array of 256 GiB", []string{"run", dev, "--kernel", "k", "--grid", "1", "--block", "1", "--buf", "in=f32:1:zero"},
			[]string{"dev.cu:1:", "module variable g", "out of device memory", "the device has 16 GiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := warplab(t, append(tc.args, "--device", "sim:t4")...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
		})
	}
}

// spinCu spins in every warp: p[0] is zero and nothing sets it.
const spinCu = "__global__ void spin(int* p) {\n    while (atomicAdd(p, 0) == 0) {\n    }\n}\n"

// TestRunTimeout checks that warplab run stops a simulated kernel at
// --timeout, and at its own 10s default when the device spec sets no
// limit, with a message naming the limit and the loop's line; that the
// spec's timeout= wins over the default; and that bad values are errors.
func TestRunTimeout(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	spin := writeFile(t, "spin.cu", spinCu)
	args := []string{"run", spin, "--kernel", "spin", "--grid", "65536", "--block", "1024", "--buf", "p=i32:1:zero"}
	start := time.Now()
	code, _, errs := warplab(t, append(args, "--device", "sim:t4", "--timeout", "300ms")...)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("--timeout 300ms: returned after %v", el)
	}
	for _, want := range []string{"spin.cu:2:", "time limit exceeded in kernel spin", "time limit of 300ms", "--timeout"} {
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("--timeout 300ms: exit %d, stderr lacks %q:\n%s", code, want, errs)
		}
	}
	code, _, errs = warplab(t, append(args, "--device", "sim:t4?timeout=200ms")...)
	if code != 1 || !strings.Contains(errs, "time limit of 200ms") {
		t.Errorf("sim:t4?timeout=200ms: exit %d, stderr %q; want its 200ms limit, not --timeout's default", code, errs)
	}
	for _, bad := range [][]string{{"--timeout", "-1s"}, {"--timeout", "5"}, {"--timeout", "1ms"}, {"--device", "sim:t4?timeout=soon"}} {
		code, _, errs := warplab(t, append(args, bad...)...)
		if code == 0 || !strings.Contains(errs, "timeout") {
			t.Errorf("%v: exit %d, stderr %q; want an error naming the timeout", bad, code, errs)
		}
	}
	if testing.Short() {
		return
	}
	start = time.Now()
	code, _, errs = warplab(t, append(args, "--device", "sim:t4")...)
	if el := time.Since(start); code != 1 || !strings.Contains(errs, "time limit of 10s") || el > 20*time.Second {
		t.Errorf("the default limit: exit %d after %v, stderr %q; want exit 1 near 10s naming the 10s limit", code, el, errs)
	}
}

// TestRunProgress checks that --progress shows a long launch's progress
// on stderr (blocks finished of the grid's), and that without it a
// stderr that is not a terminal shows none.
func TestRunProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a launch of more than two seconds")
	}
	t.Setenv("WARPLAB_DEVICE", "")
	spin := writeFile(t, "spin.cu", spinCu)
	args := []string{"run", spin, "--kernel", "spin", "--grid", "65536", "--block", "1024", "--buf", "p=i32:1:zero", "--device", "sim:t4", "--timeout", "3s"}
	_, _, errs := warplab(t, append(args, "--progress")...)
	if !strings.Contains(errs, "warplab run spin: ") || !strings.Contains(errs, "/65536 (") || !strings.Contains(errs, "blocks") {
		t.Errorf("--progress: stderr lacks a progress line:\n%q", errs)
	}
	_, _, errs = warplab(t, args...)
	if strings.Contains(errs, "/65536 (") {
		t.Errorf("without --progress, stderr that is not a terminal shows progress:\n%q", errs)
	}
}

// TestRunBufHostMemory checks that a --buf costs its size in host memory
// plus a small constant: the contents are generated a piece at a time
// straight into device memory, with no host copy kept for resets.
func TestRunBufHostMemory(t *testing.T) {
	t.Setenv("WARPLAB_DEVICE", "")
	k := writeFile(t, "k.cu", "__global__ void k(float* in) { in[0] = 1; }\n")
	const count = 1 << 24 // 64 MiB of f32
	for _, init := range []string{"iota", "uniform:0:1:3"} {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		metrics.Read(s)
		before := s[0].Value.Uint64()
		code, out, errs := warplab(t, "run", k, "--kernel", "k", "--grid", "1", "--block", "1", "--device", "sim:t4",
			"--buf", "in="+"f32:"+strconv.Itoa(count)+":"+init, "--print", "in:2")
		metrics.Read(s)
		host, device := s[0].Value.Uint64()-before, uint64(4*count)
		if code != 0 {
			t.Fatalf("--buf in=f32:%d:%s: exit %d: %s", count, init, code, errs)
		}
		if bound := device + device/20 + 8<<20; host > bound {
			t.Errorf("--buf in=f32:%d:%s allocated %d bytes of host memory for %d of device memory (%.2fx), more than %d:\n%s",
				count, init, host, device, float64(host)/float64(device), bound, out)
		}
	}
}
