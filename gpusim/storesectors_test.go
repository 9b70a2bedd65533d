package gpusim_test

import (
	"strings"
	"testing"
)

// TestStoreSectors: a warp's store whose lanes are 32 bytes apart writes
// a word into each of the four sectors of 8 lines. In the h200 profile the
// L2 takes StoreLineCycles (4) a line request, StoreSectorCycles (2) for
// each further partly written sector and StoreWholeSectorCycles (1.55) for
// each further whole one: 80 cycles a warp store, where lanes 128 bytes
// apart (32 lines of one sector each) take 128 and a coalesced store (one
// line of four whole sectors) 8.65 (calibration/evidence/2026-11-30-h200-queue-loop
// and -store-sm), counted over the SMs ("l2 writes"); the SM's own path
// takes StorePathLineCycles (2.02) a line request, StorePathSectorCycles
// (0.99) a further partly written sector and StorePathWholeSectorCycles
// (0.63) a further whole one: 39.92, 64.64 and 3.91 cycles a warp store
// (calibration/evidence/2026-11-30-h200-queue-sm and -store-sm; "l1 stores"). The
// t4 profile does not price the store path.
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
	type terms struct {
		sm, l2             float64
		smDetail, l2Detail string
	}
	stores := func(stride uint32) terms {
		res := launch(t, k, threads/256, 256, out, stride)
		var r terms
		for _, b := range res.Timing.Breakdown {
			switch b.Resource {
			case "l1 stores":
				r.sm, r.smDetail = b.Ms, b.Detail
			case "l2 writes":
				r.l2, r.l2Detail = b.Ms, b.Detail
			}
		}
		if r.sm == 0 || r.l2 == 0 {
			t.Fatalf("stride %d: no l1 stores or l2 writes term in %+v", stride, res.Timing.Breakdown)
		}
		return r
	}
	coal, s8, s32 := stores(1), stores(8), stores(32)
	if strings.Contains(coal.l2Detail, "partly written") || strings.Contains(s32.l2Detail, "partly written") || !strings.Contains(s8.l2Detail, "partly written sectors") ||
		!strings.Contains(s8.smDetail, "partly written sectors") || !strings.Contains(coal.l2Detail, "whole sectors") || !strings.Contains(coal.smDetail, "whole sectors") ||
		strings.Contains(s8.l2Detail, "whole") || strings.Contains(s32.smDetail, "sectors") {
		t.Errorf("details:\nstride 1: %s; %s\nstride 8: %s; %s\nstride 32: %s; %s", coal.smDetail, coal.l2Detail, s8.smDetail, s8.l2Detail, s32.smDetail, s32.l2Detail)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"l2 writes, stride 8 / stride 32", s8.l2 / s32.l2, 80.0 / 128}, {"l2 writes, stride 1 / stride 32", coal.l2 / s32.l2, (4 + 3*1.55) / 128},
		{"l1 stores, stride 8 / stride 32", s8.sm / s32.sm, 8 * (2.02 + 3*0.99) / (32 * 2.02)}, {"l1 stores, stride 1 / stride 32", coal.sm / s32.sm, (2.02 + 3*0.63) / (32 * 2.02)},
		// The busiest SM runs 8 of the 1,024 blocks, the L2 takes all
		// 132 SMs' requests.
		{"stride 32, l1 stores / l2 writes", s32.sm / s32.l2, 2.02 * 8 / (4 * 1024.0 / 132)},
	} {
		if c.got < c.want*0.97 || c.got > c.want*1.03 {
			t.Errorf("%s: ratio %.4f, want %.4f", c.name, c.got, c.want)
		}
	}

	t4 := open(t, "sim:t4")
	kt := kernel(t, t4, src, "put")
	res := launch(t, kt, threads/256, 256, zeros[float32](t, t4, threads*32), uint32(8))
	for _, b := range res.Timing.Breakdown {
		if b.Resource == "l1 stores" || b.Resource == "l2 writes" {
			t.Errorf("sim:t4 prices the store path: %+v", b)
		}
	}
}
