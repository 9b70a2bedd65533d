package gpusim_test

import (
	"math"
	"os"
	"testing"
)

// TestGridStrideForms: a grid-stride loop costs the same whether its
// stride is written in the loop (i += gridDim.x * blockDim.x) or kept in
// a local, as on the H200, where nvcc hoists the product and runs either
// loop one iteration a trip (calibration/evidence/2026-11-30-h200-l1reuse/sass:
// grid_sum). The model unrolled the local form by 4, with its loads in
// flight together, and charged it a quarter of the other's block time.
// The kernels are the engine's (internal/engine/testdata/stride.cu), whose
// TestRuntimeStepNotUnrolled checks the unroll decision itself.
func TestGridStrideForms(t *testing.T) {
	src, err := os.ReadFile("internal/engine/testdata/stride.cu")
	if err != nil {
		t.Fatal(err)
	}
	d := open(t, "sim:h200?racecheck=false")
	const n, grid, block = 1 << 20, 264, 256
	in := zeros[int32](t, d, n)
	out := zeros[uint32](t, d, grid*block)
	var ms [2]float64
	for i, name := range []string{"inline_stride", "local_stride"} {
		res := launch(t, kernel(t, d, string(src), name), grid, block, in, int32(n), out)
		ms[i] = term(t, res, "blocks").Ms
	}
	if ms[0] == 0 || math.Abs(ms[1]/ms[0]-1) > 0.05 {
		t.Errorf("blocks: %.5f ms with the stride in the step, %.5f ms with it in a local: want within 5%%", ms[0], ms[1])
	}
}
