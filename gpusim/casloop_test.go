package gpusim_test

import (
	"math"
	"testing"
)

// casLoopSrc is cas_wait.cu's CAS loop (the cas lab's float maximum over
// groups of C threads, values from a hash of the thread index), each warp
// counting its lanes' failed compares.
const casLoopSrc = `
__device__ unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
__device__ float value_of(unsigned i) {
    unsigned h = hash32(i ^ 0x6a09e667u);
    if ((h & 1023u) == 7u) return -0.0f;
    float mag = (float)(h >> 8) * (1.0f / 16777216.0f) * 1000.0f;
    return (h & 1u) ? -mag - 1.0f : mag;
}
__global__ void casLoop(float* m, unsigned n, unsigned C) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = value_of(i);
    int* ai = (int*)&m[i / C];
    int old = *ai;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(v));
        if (old == assumed) break;
    }
}`

// TestCASLoopFailures runs cas_wait.cu's CAS loop on the h200 profile at
// the contentions the H200 measured it at and compares the failed
// compares a warp with docs/evidence/2026-11-30-h200-cas-wait
// (cas_wait.csv total): C = 4096 and 65,536 threads per word fit the
// profile's Cost.CASOrderedCycles (within 20%), C = 256 and 4M are
// validation (within 30%). Compared at issue, or in arrival order alone,
// the loop failed 1.4 to 5 times as often at 4096 and 65,536.
func TestCASLoopFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 4M threads four times")
	}
	d := open(t, "sim:h200")
	k := kernel(t, d, casLoopSrc, "casLoop")
	const n = 1 << 22
	for _, c := range []struct {
		C    int
		want float64 // failed compares a warp on the H200
		tol  float64
	}{{256, 61.895, 1.3}, {4096, 27.361, 1.2}, {65536, 10.482, 1.2}, {n, 2.131, 1.3}} {
		init := make([]float32, n/c.C)
		for i := range init {
			init[i] = float32(math.Inf(-1))
		}
		m := upload(t, d, init)
		res := launch(t, k, n/256, 256, m, uint32(n), uint32(c.C))
		got := float64(res.Counters.CASFailures) / (n / 32)
		if r := got / c.want; r > c.tol || r < 1/c.tol {
			t.Errorf("C = %d: %.2f failed compares a warp, the H200 %.2f: ratio %.2f, want within %.0f%%", c.C, got, c.want, r, 100*(c.tol-1))
		}
		got32 := download(t, m)
		for g := 0; g < n/c.C && g < 4; g++ {
			want := float32(math.Inf(-1))
			for i := g * c.C; i < (g+1)*c.C; i++ {
				want = max(want, casLoopValue(uint32(i)))
			}
			if got32[g] != want {
				t.Errorf("C = %d: group %d's maximum %v, want %v", c.C, g, got32[g], want)
			}
		}
	}
}

// casLoopValue is casLoopSrc's value_of.
func casLoopValue(i uint32) float32 {
	x := i ^ 0x6a09e667
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	if x&1023 == 7 {
		return float32(math.Copysign(0, -1))
	}
	mag := float32(x>>8) * (1.0 / 16777216.0) * 1000
	if x&1 != 0 {
		return -mag - 1
	}
	return mag
}
