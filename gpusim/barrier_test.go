package gpusim_test

import "testing"

// TestBarrierCostGrowsWithWarps checks a barrier's cost against the warps
// it waits for (calibration/evidence/2026-11-30-h200-microbench-blockq,
// blockq.csv, bar loop at one block): __syncthreads back to back in one
// block take 15.6 SM cycles each with 1 warp, 29.7 with 8 and 78.1 with
// 32 on the H200, 13.6 + 2.015 cycles a warp. The h200 profile's barrier
// costs the same at 8 warps as before (the Day 26 sums at 256 threads
// calibrated it) and grows by 2.015 cycles a warp from there.
func TestBarrierCostGrowsWithWarps(t *testing.T) {
	const src = `
__global__ void bars(int iters, float* out) {
    for (int i = 0; i < iters; ++i) __syncthreads();
    if (threadIdx.x == 0) out[0] = 1.0f;
}`
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "bars")
	out := zeros[float32](t, d, 1)
	const iters = 256
	cycles := func(block int) float64 {
		t.Helper()
		res := launch(t, k, 1, block, int32(iters), out)
		return term(t, res, "blocks").Ms * 1.98e6
	}
	c256, c1024 := cycles(256), cycles(1024)
	// The H200: (78.11 - 29.71) cycles a barrier from 8 to 32 warps.
	const want = 78.11 - 29.71
	if got := (c1024 - c256) / iters; got < 0.9*want || got > 1.1*want {
		t.Errorf("a barrier of 32 warps costs %.1f cycles more than one of 8, the H200 %.1f", got, want)
	}
	if c32 := cycles(32); c32 >= c256 {
		t.Errorf("a block of one warp: %.0f cycles for %d barriers, 8 warps %.0f: want fewer", c32, iters, c256)
	}
}
