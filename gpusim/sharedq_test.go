package gpusim_test

import "testing"

// TestSharedQueuesShareTheSM checks the shared float queue against the
// blocks beside it on its SM (calibration/evidence/2026-11-30-h200-microbench-sharedq,
// sharedq.csv, queue const): 256 lanes adding 1.0f into one shared float
// run side by side at their latency with up to 4 blocks an SM (the H200:
// 0.0139 ms at one block an SM, 0.0159 at four) and are bound by the SM's
// pipeline at 8 (0.0176 ms; 4096 blocks, four waves of 8: 0.0556). A lane
// that adds zero takes none of the pipeline: the Day 26 input (i mod 4)
// at 8 blocks an SM costs three quarters of the 1.0f one's pipeline.
func TestSharedQueuesShareTheSM(t *testing.T) {
	const src = `
__global__ void q(const float* x, float* out) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    atomicAdd(&s, x[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}`
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "q")
	const most = 4096
	ones := make([]float32, most*256)
	mod4 := make([]float32, most*256)
	for i := range ones {
		ones[i] = 1
		mod4[i] = float32(i % 4)
	}
	in1, in4 := upload(t, d, ones), upload(t, d, mod4)
	out := zeros[float32](t, d, most)
	ms := func(in any, grid int) float64 {
		t.Helper()
		return launch(t, k, grid, 256, in, out).Timing.Ms
	}
	one, four, eight, waves := ms(in1, 132), ms(in1, 528), ms(in1, 1056), ms(in1, 4096)
	if r := four / one; r > 1.05 {
		t.Errorf("4 blocks an SM %.4f ms, 1 block %.4f ms: want the queues side by side (ratio %.2f)", four, one, r)
	}
	// The pipeline: 8 blocks x 256 lanes x 12.45 cycles at 1980 MHz, 12.9
	// us a wave, against the latency's 256 x 74.5 cycles, 9.6 us.
	if r := eight / one; r < 1.2 || r > 1.45 {
		t.Errorf("8 blocks an SM %.4f ms, 1 block %.4f ms: want the SM's pipeline to bind (ratio %.2f, the H200 1.27)", eight, one, r)
	}
	if r := waves / eight; r < 3.3 || r > 4.1 {
		t.Errorf("4 waves of 8 blocks an SM %.4f ms, one wave %.4f ms: ratio %.2f, the H200 3.16", waves, eight, r)
	}
	if z := ms(in4, 1056); z > 0.95*eight {
		t.Errorf("8 blocks an SM adding i mod 4: %.4f ms, adding 1: %.4f ms: want the zero lanes to take none of the pipeline", z, eight)
	}
}

// TestPopcIncFloor checks that a warp's ATOMS.POPC.INC takes at least
// Cost.SharedPopcWavefronts of the SM's shared pipeline however few banks
// its lanes hit: the H200's contiguous histogram walk costs the same on
// uniform and hot input (sharedq.csv, walk histContig).
func TestPopcIncFloor(t *testing.T) {
	const src = `
__global__ void count(const unsigned* bin, int n, unsigned* hist) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = t; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    hist[t] = local[threadIdx.x];
}`
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "count")
	const n = 1 << 20
	spread, hot := make([]uint32, n), make([]uint32, n)
	for i := range spread {
		// A mixed hash: a warp's 32 bins fall on the banks at random,
		// 3 or so on the busiest bank, fewer than the floor.
		x := uint32(i) * 0x9e3779b1
		x ^= x >> 15
		spread[i] = (x * 0x85ebca6b >> 24) % 256
	}
	hist := zeros[uint32](t, d, 1056*256)
	wavefronts := func(bins []uint32) float64 {
		t.Helper()
		res := launch(t, k, 1056, 256, upload(t, d, bins), int32(n), hist)
		return term(t, res, "l1/shared").Ms
	}
	if s, h := wavefronts(spread), wavefronts(hot); h < 0.97*s || h > 1.03*s {
		t.Errorf("l1/shared: one bin %.4f ms, bins spread over the banks %.4f ms: want the same", h, s)
	}
}
