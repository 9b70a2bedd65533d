package gpusim_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// TestL2ServesABurstAfterTheBlocks checks Cost.L2Timed: the L2 serves
// atomics when they arrive. The same global atomics (one per bin per
// block, as a privatised histogram merges) cost a launch their drain when
// every block issues them after its work, as the H200's resident
// histogram grid merges after its walk (calibration/evidence/2026-11-30-h200-microbench-sharedq:
// the merge adds 12.4 us to the walk at 4096 bins, where the merge alone
// takes 19.1), and next to nothing when the blocks issue them before it:
// the L2 drains them while the blocks work.
func TestL2ServesABurstAfterTheBlocks(t *testing.T) {
	const src = `
__global__ void work(unsigned* hist, int bins, int iters, int first, float* sink) {
    float x = threadIdx.x * 0.001f;
    if (first)
        for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&hist[b], 1u);
    for (int i = 0; i < iters; i++) x = __sinf(x) + 0.5f;
    if (!first)
        for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&hist[b], 1u);
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}`
	const grid, block, bins, iters = 264, 256, 2048, 220
	d := open(t, "sim:h200?racecheck=false")
	k := kernel(t, d, src, "work")
	hist := zeros[uint32](t, d, bins)
	sink := zeros[float32](t, d, grid*block)
	run := func(bins, iters, first int) gpu.Timing {
		t.Helper()
		return launch(t, k, grid, block, hist, int32(bins), int32(iters), int32(first), sink).Timing
	}
	part := func(tm gpu.Timing, res string) gpu.TimeComponent {
		t.Helper()
		for _, p := range tm.Breakdown {
			if p.Resource == res {
				return p
			}
		}
		t.Fatalf("no %q in the breakdown", res)
		return gpu.TimeComponent{}
	}
	merge := run(bins, 0, 0)    // the merge alone
	compute := run(0, iters, 0) // the work alone
	late, early := run(bins, iters, 0), run(bins, iters, 1)
	drain := part(merge, "l2 throughput").Ms
	blocks := part(compute, "blocks").Ms
	launchMs := compute.Ms - blocks
	t.Logf("merge alone %.4f ms (L2 %.4f), work alone %.4f ms (blocks %.4f), merge after the work %.4f ms, before it %.4f ms",
		merge.Ms, drain, compute.Ms, blocks, late.Ms, early.Ms)
	if drain < 0.5*blocks || drain > 2*blocks {
		t.Fatalf("the merge's L2 time %.4f ms and the work %.4f ms are not alike: the test's sizes need mending", drain, blocks)
	}
	if want := launchMs + blocks + 0.8*drain; late.Ms < want {
		t.Errorf("merge after the work: %.4f ms, want at least the work and most of the merge's drain, %.4f", late.Ms, want)
	}
	if want := launchMs + 1.15*max(blocks, drain); early.Ms > want {
		t.Errorf("merge before the work: %.4f ms, want about the longer of the two, at most %.4f", early.Ms, want)
	}
	if d := part(late, "l2 throughput").Detail; !strings.Contains(d, "after the last block ended") {
		t.Errorf("merge after the work: the L2's detail %q does not say it ran after the blocks", d)
	}
}
