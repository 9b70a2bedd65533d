package gpusim_test

import (
	"math"
	"testing"
)

// TestGridStrideForms: a grid-stride loop costs the same whether its
// stride is written in the loop (i += gridDim.x * blockDim.x) or kept in
// a local, as on the H200, where nvcc hoists the product and runs either
// loop one iteration a trip (docs/evidence/2026-11-30-h200-l1reuse/sass:
// grid_sum). The model unrolled the local form by 4, with its loads in
// flight together, and charged it a quarter of the other's block time.
func TestGridStrideForms(t *testing.T) {
	const src = `
__global__ void inStep(const int* in, int n, unsigned* out) {
    unsigned s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void inLocal(const int* in, int n, unsigned* out) {
    unsigned s = 0;
    const int threads = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) s += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}`
	d := open(t, "sim:h200?racecheck=false")
	const n, grid, block = 1 << 20, 264, 256
	in := zeros[int32](t, d, n)
	out := zeros[uint32](t, d, grid*block)
	var ms [2]float64
	for i, name := range []string{"inStep", "inLocal"} {
		res := launch(t, kernel(t, d, src, name), grid, block, in, int32(n), out)
		for _, p := range res.Timing.Breakdown {
			if p.Resource == "blocks" {
				ms[i] = p.Ms
			}
		}
	}
	if ms[0] == 0 || math.Abs(ms[1]/ms[0]-1) > 0.05 {
		t.Errorf("blocks: %.5f ms with the stride in the step, %.5f ms with it in a local: want within 5%%", ms[0], ms[1])
	}
}
