package gpusim_test

import (
	"math"
	"testing"
)

// TestLoadSpreadByLine checks Cost.LoadSpreadCycles: on the h200 profile
// a warp's load of its own line of one block's input comes back when the
// line's L2 latency says (calibration/evidence/2026-11-30-h200-l2sm: 259 to 342
// cycles by SM and line), so a block's warps reach the next instruction
// apart; the lines of one 256-byte unit, and the units 512 bytes apart
// (bit 9 of the address), come back together, as the H200's warps 0, 1, 4
// and 5 of a block do (blockq.csv, lab natural); over many units the
// offsets span the measured 77 cycles and average the profile's
// GlobalCycles. The t4 profile has no spread: every warp alike.
func TestLoadSpreadByLine(t *testing.T) {
	const src = `
__global__ void lines(const float* x, long long* t) {
    __shared__ float scratch[256];
    __syncthreads();
    long long b = clock64();
    float v = x[threadIdx.x];
    scratch[threadIdx.x] = v; // waits for the load (not volatile: no jitter)
    long long c = clock64();
    if ((threadIdx.x & 31) == 0) t[threadIdx.x / 32] = c - b;
}`
	const chunks = 64
	run := func(spec string) [][8]int64 {
		d := open(t, spec)
		k := kernel(t, d, src, "lines")
		x := zeros[float32](t, d, 256*chunks)
		out := zeros[int64](t, d, 8)
		var lat [][8]int64
		for c := range chunks {
			launch(t, k, 1, 256, x.At(256*c), out)
			var l [8]int64
			copy(l[:], download(t, out))
			lat = append(lat, l)
		}
		return lat
	}
	near := func(a, b int64) bool { return a-b <= 4 && b-a <= 4 }
	h := run("sim:h200")
	var all []float64
	split := 0
	for c, l := range h {
		for w := range 8 {
			if !near(l[w], l[w^1]) || !near(l[w], l[w^4]) {
				t.Fatalf("block %d: warps' latencies %v: want warps 0, 1, 4, 5 together and 2, 3, 6, 7 together", c, l)
			}
		}
		if d := l[0] - l[2]; d > 20 || d < -20 {
			split++
		}
		all = append(all, float64(l[0]), float64(l[2]))
	}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range all {
		lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
	}
	mean := sum / float64(len(all))
	t.Logf("h200: %d units, latency %.0f to %.0f cycles, mean %.1f; %d of %d blocks' halves more than 20 cycles apart", len(all), lo, hi, mean, split, chunks)
	if hi-lo < 50 || hi-lo > 80 {
		t.Errorf("latencies span %.0f cycles over %d units, want most of the measured 77", hi-lo, len(all))
	}
	// The spread's least is 40 cycles below the mean (l2sm.csv).
	if m := mean - lo; m < 30 || m > 50 {
		t.Errorf("mean %.1f cycles above the least, want about 40 (a zero-mean spread about GlobalCycles)", m)
	}
	if split == 0 || split == chunks {
		t.Errorf("%d of %d blocks' halves apart, want some and not all", split, chunks)
	}
	for c, l := range run("sim:t4") {
		for w := range 8 {
			if !near(l[w], l[0]) {
				t.Fatalf("t4 block %d: warps' latencies %v, want all alike", c, l)
			}
		}
	}
}
