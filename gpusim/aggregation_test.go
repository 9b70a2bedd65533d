package gpusim_test

import (
	"slices"
	"testing"
)

// TestCompilerAggregation checks the counters of nvcc's warp aggregation
// as the simulator models it (calibration/evidence/2026-11-30-h200-nvcc-atomics-sass.txt):
// a ticket counter whose result every lane uses is one atomic per warp;
// a per-lane value with the result used is aggregated in full warps only;
// a data-dependent address never is. The tickets are the same either way.
func TestCompilerAggregation(t *testing.T) {
	const src = `
__global__ void tickets(int n, unsigned* c, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = atomicAdd(c, 1u);
}
__global__ void lanes(int n, unsigned* c, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = atomicAdd(c, (unsigned)(i & 3));
}
__global__ void keyed(int n, const int* key, unsigned* c, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = atomicAdd(&c[key[i]], 1u);
}`
	d := open(t, "sim:t4")
	const n = 1000 // 31 full warps and one of 8 lanes
	const warps, full = 32, 31

	c, out := zeros[uint32](t, d, 1), zeros[uint32](t, d, n)
	res := launch(t, kernel(t, d, src, "tickets"), (n+127)/128, 128, n, c, out)
	k := res.Counters
	if k.GlobalAtomicOps != n || k.GlobalAtomicIssued != warps || k.GlobalAtomicAggregatedUsed != n {
		t.Errorf("tickets: %d ops, %d issued, %d aggregated with the result used; want %d, %d, %d",
			k.GlobalAtomicOps, k.GlobalAtomicIssued, k.GlobalAtomicAggregatedUsed, n, warps, n)
	}
	got := download(t, out)
	slices.Sort(got)
	for i, v := range got {
		if v != uint32(i) {
			t.Fatalf("tickets are not a permutation of 0..%d: sorted position %d holds %d", n-1, i, v)
		}
	}

	c, out = zeros[uint32](t, d, 1), zeros[uint32](t, d, n)
	res = launch(t, kernel(t, d, src, "lanes"), (n+127)/128, 128, n, c, out)
	k = res.Counters
	if want := int64(full + n - 32*full); k.GlobalAtomicIssued != want || k.GlobalAtomicAggregatedUsed != 32*full {
		t.Errorf("per-lane values: %d issued, %d aggregated; want %d (one per full warp, one per lane of the partial warp), %d",
			k.GlobalAtomicIssued, k.GlobalAtomicAggregatedUsed, want, 32*full)
	}

	keys := make([]int32, n)
	c = zeros[uint32](t, d, 4)
	out = zeros[uint32](t, d, n)
	res = launch(t, kernel(t, d, src, "keyed"), (n+127)/128, 128, n, upload(t, d, keys), c, out)
	k = res.Counters
	if k.GlobalAtomicIssued != n || k.GlobalAtomicAggregated != 0 {
		t.Errorf("data-dependent address: %d issued, %d aggregated; want %d, 0 (the compiler cannot see one address, even when every key is 0)",
			k.GlobalAtomicIssued, k.GlobalAtomicAggregated, n)
	}
}

// TestSharedPopcInc checks the model of nvcc's ATOMS.POPC.INC: a shared
// atomicAdd of 1 whose result is unused adds each address's lane count at
// once, so 256 threads on one shared address cost about what 256 addresses
// do (calibration/evidence/2026-11-29-h200-microbenchmarks/csv/atomics_shared.csv,
// u32_atomic_one against u32_atomic_lane), while adding a per-lane value,
// or using the result, serialises the lanes of an address. The counts are
// the same either way.
func TestSharedPopcInc(t *testing.T) {
	const src = `
__global__ void one(unsigned* out, int iters) {
    __shared__ unsigned s[1];
    if (threadIdx.x == 0) s[0] = 0;
    __syncthreads();
    for (int i = 0; i < iters; ++i) atomicAdd(&s[0], 1u);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
__global__ void lane(unsigned* out, int iters) {
    __shared__ unsigned s[1];
    if (threadIdx.x == 0) s[0] = 0;
    __syncthreads();
    for (int i = 0; i < iters; ++i) atomicAdd(&s[0], (threadIdx.x >> 8) + 1u); // 1, but not a constant
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
__global__ void used(unsigned* out, int iters) {
    __shared__ unsigned s[1];
    if (threadIdx.x == 0) s[0] = 0;
    __syncthreads();
    unsigned last = 0;
    for (int i = 0; i < iters; ++i) last = atomicAdd(&s[0], 1u);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + (last >> 31);
}`
	d := open(t, "sim:h200")
	const blocks, threads, iters = 132, 256, 64
	ms := map[string]float64{}
	for _, name := range []string{"one", "lane", "used"} {
		out := zeros[uint32](t, d, blocks)
		res := launch(t, kernel(t, d, src, name), blocks, threads, out, iters)
		for b, v := range download(t, out) {
			if v != threads*iters {
				t.Fatalf("%s: block %d counted %d, want %d", name, b, v, threads*iters)
			}
		}
		k := res.Counters
		wantConflicts := int64(blocks * threads / 32 * 31 * iters)
		if name == "one" {
			wantConflicts = 0
		}
		if k.SharedAtomicOps != blocks*threads*iters || k.SharedAtomicConflicts != wantConflicts {
			t.Errorf("%s: %d shared atomic ops, %d conflicts; want %d, %d", name, k.SharedAtomicOps, k.SharedAtomicConflicts, blocks*threads*iters, wantConflicts)
		}
		ms[name] = res.Timing.Ms
	}
	if ms["one"]*4 > ms["lane"] || ms["one"]*4 > ms["used"] {
		t.Errorf("atomicAdd(&s, 1u) %.4f ms, a per-lane value %.4f ms, the result used %.4f ms: want the first at least 4x faster", ms["one"], ms["lane"], ms["used"])
	}
}
