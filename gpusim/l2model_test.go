package gpusim_test

import "testing"

// TestL2SectorChains checks the L2 model of atomics on one line: one
// operation per warp on counter warp%k of k neighbouring counters. A float
// add waits for the previous add on its 32-byte sector, so k = 8 counters
// (one sector) cost what one counter costs, while k = 32 (four sectors)
// overlap and are markedly faster (the H200: 0.926, 0.926 and 0.510 ms,
// docs/evidence/2026-11-30-h200-microbenchmarks-round2/csv/counters.csv,
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
