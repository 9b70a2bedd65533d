package gpusim_test

import "testing"

// TestL2SectorChains checks the L2 model of atomics on one line: one
// operation per warp on counter warp%k of k neighbouring counters. A float
// add waits for the previous add on its 32-byte sector, so k = 8 counters
// (one sector) cost what one counter costs, while k = 32 (four sectors)
// overlap and are markedly faster (the H200: 0.926, 0.926 and 0.510 ms,
// calibration/evidence/2026-11-30-h200-microbenchmarks-round2/csv/counters.csv,
// f32 warp packed). Integer adds issue at their own rate whichever
// sectors they hit (0.389, 0.389, 0.369 ms there).
func TestL2SectorChains(t *testing.T) {
	const src = `
__global__ void f32(float* c, unsigned k) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[(t >> 5) % k], 1.0f);
}
__global__ void u32(unsigned* c, unsigned k) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[(t >> 5) % k], 1u);
}`
	d := open(t, "sim:h200")
	const blocks = 2048 // 16,384 warps
	ms := func(name string, k uint32) float64 {
		t.Helper()
		if name == "u32" {
			return launch(t, kernel(t, d, src, name), blocks, 256, zeros[uint32](t, d, 32), k).Timing.Ms
		}
		return launch(t, kernel(t, d, src, name), blocks, 256, zeros[float32](t, d, 32), k).Timing.Ms
	}
	f1, f8, f32 := ms("f32", 1), ms("f32", 8), ms("f32", 32)
	if r := f8 / f1; r < 0.95 || r > 1.05 {
		t.Errorf("f32: 8 counters in one sector %.4f ms, one counter %.4f ms: want the same (ratio %.2f)", f8, f1, r)
	}
	if r := f32 / f1; r > 0.7 {
		t.Errorf("f32: 32 counters over four sectors %.4f ms, one counter %.4f ms: want at most 0.7 of it (ratio %.2f)", f32, f1, r)
	}
	u1, u32 := ms("u32", 1), ms("u32", 32)
	if r := u32 / u1; r < 0.9 || r > 1.05 {
		t.Errorf("u32: 32 counters %.4f ms, one counter %.4f ms: want about the same (ratio %.2f)", u32, u1, r)
	}
	if f1 < 1.7*u1 { // both with the launch term (Cost.LaunchUs)
		t.Errorf("one counter: f32 %.4f ms, u32 %.4f ms: want the float add's longer chain (2.4x)", f1, u1)
	}
}

// l2StrideSrc is l1reuse.cu's l2_stride: 64 loads per thread at word
// ((t + k T) * s) mod 4M of a 16 MB buffer.
const l2StrideSrc = `
__global__ void l2_stride(const unsigned* in, unsigned mask, unsigned stride, int iters, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int k = 0; k < iters; ++k) s += in[((t + (unsigned)k * T) * stride) & mask];
    out[t] = s;
}`

// TestL2Residency checks the L2 residency model on l1reuse.cu's l2_stride
// at s = 8 (one word per 32-byte sector, 32 sectors per warp request) on
// the H200 profile: the 16 MB buffer is read about 33 times over, its
// first touch of each 64-byte granule misses and the rest hit, so DRAM
// moves the buffer once and the L2's sector rate, not DRAM, bounds the
// time. The H200 measured 0.06306 ms
// (calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/l1reuse.csv;
// a calibration cell: Cost.L2ReadGBps comes from it); without the L2 model
// the simulator counted every reload as DRAM traffic and predicted 0.133.
func TestL2Residency(t *testing.T) {
	if testing.Short() {
		t.Skip("17M loads: about 2 s")
	}
	const words, grid, block = 1 << 22, 132 * 8, 256
	d := open(t, "sim:h200")
	in := zeros[uint32](t, d, words)
	out := zeros[uint32](t, d, grid*block)
	res := launch(t, kernel(t, d, l2StrideSrc, "l2_stride"), grid, block, in, uint32(words-1), uint32(8), int32(64), out)
	c := res.Counters
	if c.DRAMBytes < 4*words || c.DRAMBytes > 4*words+8*grid*block {
		t.Errorf("DRAM bytes %d, want the 16 MB buffer once (%d) and the output", c.DRAMBytes, 4*words)
	}
	// Sectors: every load misses the L1 (17,301,504 of one word each);
	// with the second partition's lookups Nsight Compute counts 17.4M
	// and a 94.2% hit rate (calibration/evidence/2026-11-30-h200-ncu-l2;
	// TestL2AgainstNsightCompute compares them).
	if want := int64(grid * block * 64); c.L2Sectors < want || c.L2Sectors > want*21/20 {
		t.Errorf("L2 sector accesses %d, want the %d loads' sectors and up to 5%% of partition lookups", c.L2Sectors, want)
	}
	rate, _ := c.L2HitRate()
	if rate < 0.93 || rate > 0.97 {
		t.Errorf("L2 hit rate %.4f, want about 0.94", rate)
	}
	if r := res.Timing.Ms / 0.06306; r < 0.8 || r > 1.2 {
		t.Errorf("modelled %.4f ms, measured 0.06306 ms (ratio %.2f): want within 20%%\n%s", res.Timing.Ms, r, res.Timing)
	}
}

// TestL2Capacity checks eviction on a profile with a small L2 (the GTX
// 1650's 1 MB): one warp reads a buffer twice over and hits on the second
// pass when the buffer fits, misses when it is twice the L2 (least
// recently used: the first pass's granules are gone when the second comes
// back). One warp, because the model sees each warp's accesses of a phase
// together (l2cache.go).
func TestL2Capacity(t *testing.T) {
	const src = `
__global__ void reread(const unsigned* in, unsigned n, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (unsigned i = t; i < n; i += T) s += in[i];
    out[t] = s;
}`
	d := open(t, "sim:gtx1650")
	k := kernel(t, d, src, "reread")
	for _, c := range []struct {
		bytes    int
		min, max float64
	}{{512 << 10, 0.45, 0.51}, {2 << 20, 0, 0.01}} {
		n := c.bytes / 4
		in := zeros[uint32](t, d, n)
		out := zeros[uint32](t, d, 32)
		res := launch(t, k, 1, 32, in, uint32(n), out)
		rate, _ := res.Counters.L2HitRate()
		if rate < c.min || rate > c.max {
			t.Errorf("%d KB read twice: L2 hit rate %.3f, want %.2f to %.2f", c.bytes>>10, rate, c.min, c.max)
		}
	}
}
