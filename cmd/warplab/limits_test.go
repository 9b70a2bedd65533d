package main

import (
	"strings"
	"testing"
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
