package gpusim_test

import "testing"

// TestSharedQueueModeByArrival checks a block's shared float queue against
// when its warps reach it (calibration/evidence/2026-11-30-h200-microbench-blockq,
// blockq.csv, queue): 256 lanes whose warps arrive together run as a
// convoy (the H200: 83.8 cycles a lane), and warps that arrive tens of
// cycles apart interleave two successes per convoy interval (43.5 a lane;
// 0.53 of the convoy's queue with the warps 32 cycles apart). Here warp w
// runs 4w dependent multiply-adds before its add. Every warp reads the
// same line, so that only the stagger (and the barrier's, 2.1 cycles a
// warp) sets when they arrive: a block's lines come back apart by where
// they lie (TestLoadSpreadByLine).
func TestSharedQueueModeByArrival(t *testing.T) {
	const src = `
__global__ void q(const float* x, int stagger, float* out) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    float v = x[threadIdx.x & 31];
    int steps = stagger * (threadIdx.x / 32);
    for (int i = 0; i < steps; ++i) v = v * 0.5f + 0.5f;
    atomicAdd(&s, v);
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s;
}`
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "q")
	ones := make([]float32, 256)
	for i := range ones {
		ones[i] = 1
	}
	in, out := upload(t, d, ones), zeros[float32](t, d, 1)
	cycles := func(stagger int) float64 {
		t.Helper()
		res := launch(t, k, 1, 256, in, int32(stagger), out)
		if got := download(t, out)[0]; got != 256 {
			t.Fatalf("stagger %d: sum %v, want 256", stagger, got)
		}
		return term(t, res, "blocks").Ms * 1.98e6
	}
	together, apart := cycles(0), cycles(4)
	// The stagger itself, at most 7 x 4 multiply-adds and their loop,
	// is a few hundred cycles of the apart launch.
	if r := apart / together; r < 0.45 || r > 0.65 {
		t.Errorf("warps apart %.0f cycles, together %.0f: ratio %.2f, want the two-phase rate (the H200 0.53)", apart, together, r)
	}
}
