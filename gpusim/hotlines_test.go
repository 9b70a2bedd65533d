package gpusim_test

import (
	"math"
	"testing"
)

// TestHotLinesMoveWithBlocks checks the L2's window of queued operations
// (the h200 profile's Cost.L2InFlight): atomicMax from 4M threads in groups
// of 4096 per address takes 1.725 ms on the H200 with the groups 4 bytes
// apart (32 to a line: the lines hot together are the few the current
// blocks use) and 0.165 ms with one group per line (the same operations
// over 32 times the lines), calibration/evidence/2026-11-30-h200-hotlines,
// hotlines.csv sweep max_packed and max_padded at C = 4096. The packed row
// is validation; the padded one is among those Cost.L2InFlight was fitted
// to. A window of arrival time alone, as before, priced the packed row at
// 2.87 ms.
func TestHotLinesMoveWithBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 4M threads twice")
	}
	const src = `
__global__ void maxOf(int* m, unsigned n, unsigned C, unsigned stride) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMax(&m[(i / C) * stride], (int)(i * 2654435761u));
}`
	const n, C = 1 << 22, 4096
	h := open(t, "sim:h200")
	k := kernel(t, h, src, "maxOf")
	for _, c := range []struct {
		stride int
		want   float64 // measured ms
	}{{1, 1.72490}, {32, 0.16541}} {
		m := zeros[int32](t, h, n/C*c.stride)
		got := launch(t, k, n/256, 256, m, uint32(n), uint32(C), uint32(c.stride)).Timing.Ms
		if r := got / c.want; math.Abs(math.Log(r)) > math.Log(1.3) {
			t.Errorf("atomicMax, 4096 threads per address, groups %d words apart: %.4f ms, the H200 %.4f: ratio %.2f, want within 30%%",
				c.stride, got, c.want, r)
		}
	}
}
