package gpusim_test

import (
	"strings"
	"testing"
)

// TestStoreSectors: a warp's store whose lanes are 32 bytes apart writes
// a word into each of the four sectors of 8 lines; the h200 profile's
// store path takes StoreLineCycles (4) a line request and
// StoreSectorCycles (2) for each further partly written sector, 80 cycles
// a warp store, where lanes 128 bytes apart (32 lines of one sector each)
// take 128 and a coalesced store (one line of four whole sectors) 4
// (docs/evidence/2026-11-30-h200-queue-loop). The t4 profile does not
// price the store path.
func TestStoreSectors(t *testing.T) {
	const src = `
__global__ void put(float* out, unsigned stride) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[(unsigned long long)i * stride] = 1.0f;
}`
	const threads = 1 << 18
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "put")
	out := zeros[float32](t, d, threads*32)
	stores := func(stride uint32) (float64, string) {
		res := launch(t, k, threads/256, 256, out, stride)
		for _, b := range res.Timing.Breakdown {
			if b.Resource == "l1 stores" {
				return b.Ms, b.Detail
			}
		}
		t.Fatalf("stride %d: no l1 stores term in %+v", stride, res.Timing.Breakdown)
		return 0, ""
	}
	coal, coalDetail := stores(1)
	s8, s8Detail := stores(8)
	s32, s32Detail := stores(32)
	if strings.Contains(coalDetail, "partly written") || strings.Contains(s32Detail, "partly written") || !strings.Contains(s8Detail, "partly written sectors") {
		t.Errorf("details:\nstride 1: %s\nstride 8: %s\nstride 32: %s", coalDetail, s8Detail, s32Detail)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"stride 8 / stride 32", s8 / s32, 80.0 / 128}, {"stride 1 / stride 32", coal / s32, 4.0 / 128}} {
		if c.got < c.want*0.97 || c.got > c.want*1.03 {
			t.Errorf("%s: the l1 stores terms' ratio is %.4f, want %.4f", c.name, c.got, c.want)
		}
	}

	t4 := open(t, "sim:t4")
	kt := kernel(t, t4, src, "put")
	res := launch(t, kt, threads/256, 256, zeros[float32](t, t4, threads*32), uint32(8))
	for _, b := range res.Timing.Breakdown {
		if b.Resource == "l1 stores" {
			t.Errorf("sim:t4 prices the store path: %+v", b)
		}
	}
}
