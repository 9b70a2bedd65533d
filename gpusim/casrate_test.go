package gpusim_test

import (
	"math"
	"os"
	"testing"
)

// casRateSrc is casrate.cu's traffic kernels as the simulator runs them
// (gpusim/profiles/testdata/microbench/casrate.cu, the same source).
const casRateSrc = `
__global__ void k_fail(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    const unsigned sub = (threadIdx.x & 31u) / k, subs = 32u / k;
    int old = load ? *ai : 0;
    for (unsigned t = 0; t < trips; ++t)
        for (unsigned s = 0; s < subs; ++s)
            if (sub == s) old = atomicCAS(ai, old + 1, (int)i);
    if (old == 12345) sink[0] = old;
}

__global__ void k_maxchain(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    const unsigned sub = (threadIdx.x & 31u) / k, subs = 32u / k;
    int old = load ? *ai : 0;
    for (unsigned t = 0; t < trips; ++t)
        for (unsigned s = 0; s < subs; ++s)
            if (sub == s) old = atomicMax(ai, (int)0x80000000 + (old & 1));
    if (old == 12345) sink[0] = old;
}

__global__ void k_red(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    for (unsigned t = 0; t < trips; ++t) atomicMax(ai, (int)0x80000000 + (int)(t & 1u));
}
`

// TestCASRateRows runs casrate.cu's traffic at 256 threads a word (512 hot
// lines, the cas lab's weakest CAS-loop cell) on the h200 profile against
// the H200 (docs/evidence/2026-12-01-h200-casrate/csv/casrate.csv;
// validation, nothing was fitted to these rows): compare-and-swaps that
// always fail and atomicMax chains with their results used (closed loops,
// one and two trips a lane) and the open loop (atomicMax unused), each
// within 30% (0.92 to 1.04 now). The lab's CAS loop (fidelity's cas_loop,
// cas.cu's, which computes its values) is a known miss at 0.77, just
// outside: the H200 serves the loop's lanes 11% slower than a two-trip
// chain's, the model 16% faster (its windows of Cost.L2InFlight operations
// hold more lines for the loop's spread-out trips: the evidence README).
// It is logged, and fails once within 20%, so that a fix updates this.
func TestCASRateRows(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 4M threads five times")
	}
	loopSrc, err := os.ReadFile("fidelity/kernels/microbench.cu")
	if err != nil {
		t.Fatal(err)
	}
	const (
		n, C  = 1 << 22, 256
		block = 256
	)
	d := open(t, "sim:h200")
	init := make([]int32, n/C)
	for i := range init {
		init[i] = int32(math.Float32bits(float32(math.Inf(-1))))
	}
	sink := zeros[int32](t, d, 2)
	for _, c := range []struct {
		kernel   string
		trips    uint32
		measured float64 // ms, the H200's median
	}{
		{"k_fail", 1, 0.30138},
		{"k_fail", 2, 0.67782},
		{"k_maxchain", 2, 0.68656},
		{"k_red", 2, 0.62982},
		{"cas_loop", 0, 0.74467}, // the known miss
	} {
		var ms float64
		if c.kernel == "cas_loop" {
			k := kernel(t, d, string(loopSrc), c.kernel)
			maxima := make([]float32, n/C)
			for i := range maxima {
				maxima[i] = float32(math.Inf(-1))
			}
			ms = launch(t, k, n/block, block, upload(t, d, maxima), uint32(n), uint32(C)).Timing.Ms
		} else {
			m := upload(t, d, init)
			k := kernel(t, d, casRateSrc, c.kernel)
			ms = launch(t, k, n/block, block, m, uint32(n), uint32(C), c.trips, uint32(32), uint32(0), sink).Timing.Ms
			for g, v := range download(t, m) {
				if v != init[g] {
					t.Fatalf("%s: word %d changed to %#x: the traffic is not what the H200 ran", c.kernel, g, v)
				}
			}
		}
		r := ms / c.measured
		t.Logf("%s (%d trips a lane; 0: the loop's own): %.4f ms, the H200 %.4f: %.2f", c.kernel, c.trips, ms, c.measured, r)
		if c.kernel == "cas_loop" {
			if r <= 1.2 && r >= 1/1.2 {
				t.Errorf("cas_loop at C = %d: %.4f ms modelled, the H200 %.4f: ratio %.2f, within 20%%: no longer the known miss this test describes", C, ms, c.measured, r)
			}
			continue
		}
		if r > 1.3 || r < 1/1.3 {
			t.Errorf("%s, %d trips at C = %d: %.4f ms modelled, the H200 %.4f: ratio %.2f, want within 30%%", c.kernel, c.trips, C, ms, c.measured, r)
		}
	}
}
