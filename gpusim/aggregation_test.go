package gpusim_test

import (
	"slices"
	"testing"
)

// TestCompilerAggregation checks the counters of nvcc's warp aggregation
// as the simulator models it (docs/evidence/2026-11-30-h200-nvcc-atomics-sass.txt):
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
