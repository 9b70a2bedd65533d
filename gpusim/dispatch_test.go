package gpusim_test

import (
	"math"
	"testing"
)

// TestBlockDispatch checks that an SM starts its blocks one at a time past
// the first wave: 65,536 almost empty blocks take one dispatch time per
// block per SM (the H200: 0.0446 to 0.0449 ms for blocks of 64 to 512
// threads, 0.0623 ms for 1024, calibration/evidence/2026-11-30-h200-cas-timeline-
// sm-issue/csv/sm_issue.csv), while the T4 profile, which does not model
// the dispatch, lets the freed slots refill independently.
func TestBlockDispatch(t *testing.T) {
	const src = `
__global__ void empty(int* out, int flag) {
    if (flag == 12345 && threadIdx.x == 0) out[0] = blockIdx.x;
}`
	h := open(t, "sim:h200")
	k := kernel(t, h, src, "empty")
	out := zeros[int32](t, h, 1)
	for _, c := range []struct {
		threads int
		want    float64 // measured ms
	}{{256, 0.04467}, {1024, 0.06227}} {
		got := launch(t, k, 65536, c.threads, out, int32(0)).Timing.Ms
		if r := got / c.want; math.Abs(math.Log(r)) > math.Log(1.15) {
			t.Errorf("65,536 empty blocks of %d threads: %.4f ms, the H200 %.4f: ratio %.2f, want within 15%%", c.threads, got, c.want, r)
		}
	}
	// One wave is not dispatch-bound: 1056 blocks of 256 threads take
	// about the launch alone (the H200's waves.csv: 6.2 us).
	if got := launch(t, k, 1056, 256, out, int32(0)).Timing.Ms; got > 0.0075 {
		t.Errorf("one wave of 1056 empty blocks: %.4f ms, want under 0.0075 (the launch, 5.7 us, and one block's life)", got)
	}
	t4 := open(t, "sim:t4")
	kt := kernel(t, t4, src, "empty")
	small := launch(t, kt, 8192, 64, zeros[int32](t, t4, 1), int32(0)).Timing.Ms
	big := launch(t, kt, 8192, 1024, zeros[int32](t, t4, 1), int32(0)).Timing.Ms
	if small >= big {
		t.Errorf("t4, no dispatch model: 8192 blocks of 64 threads %.4f ms, of 1024 %.4f: want the small blocks faster (occupancy, not dispatch)", small, big)
	}
}

// TestOrderedUniformLoads checks that in a kernel that uses what its global
// atomics return, a warp's load of one global word sees every atomic
// earlier in virtual time, even one by a block that runs in the same batch:
// block 0 bumps the word at once; the other blocks read it after a chain
// of dependent FMAs (over 1000 cycles), so every one reads 1. Without the
// order, their loads ran before block 0's atomic was applied and read 0.
func TestOrderedUniformLoads(t *testing.T) {
	const src = `
__global__ void bump(unsigned* word, float* sink, unsigned* seen) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) seen[0] = atomicAdd(word, 1u);
        return;
    }
    float x = threadIdx.x;
    for (int k = 0; k < 300; ++k) x = fmaf(x, 0.999f, 0.5f);
    sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
    unsigned v = *word;
    if (threadIdx.x == 0) seen[blockIdx.x] = v;
}`
	for _, spec := range []string{"sim:h200", "sim:t4"} {
		d := open(t, spec)
		const blocks = 64
		word := zeros[uint32](t, d, 1)
		seen := zeros[uint32](t, d, blocks)
		launch(t, kernel(t, d, src, "bump"), blocks, 64, word, zeros[float32](t, d, blocks*64), seen)
		got := download(t, seen)
		if got[0] != 0 {
			t.Errorf("%s: block 0's atomicAdd returned %d, want 0", spec, got[0])
		}
		for b := 1; b < blocks; b++ {
			if got[b] != 1 {
				t.Errorf("%s: block %d read %d after block 0's atomic, want 1", spec, b, got[b])
				break
			}
		}
	}
}
