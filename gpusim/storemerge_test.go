package gpusim_test

import "testing"

// TestStoreMergeRows: store_merge.cu's part path with every SM storing (8
// blocks of 256 on each of the h200 profile's 132 SMs), four stores a group
// to the same sectors of each lane or to four distinct lines, lanes 8 or
// 32 words apart, against the H200's SM cycles a line request as sent,
// less the launch (calibration/evidence/2026-12-01-h200-store-merge/csv/
// store_merge.csv, 132 SMs, bps 8, the least and most over groups of 1, 2
// and 4 stores and 0, 8 and 32 FMAs between them; validation: nothing was
// fitted to these rows). The simulator merges none of these stores; the
// L2 takes a four-sector request in 10 cycles (Cost.StoreLineCycles +
// 3 x Cost.StoreSectorCycles, fitted to queue_loop.csv) against 9.19 to
// 9.46 measured for distinct lines and 10.64 to 10.92 for the same
// sectors again, a one-sector request in 4 against 4.04 to 4.30. The
// kernel here has no %smid: every SM stores, as in those rows.
func TestStoreMergeRows(t *testing.T) {
	const src = `
__global__ void path(float* out, unsigned stride, int same, unsigned iters) {
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    float* w = out + (unsigned long long)warp * 4 * 32 * stride;
    float x = (float)lane;
    for (unsigned t = 0; t < iters; t += 4) {
        for (unsigned g = 0; g < 4; ++g) {
            const unsigned u = t + g;
            const unsigned long long off = same ? (unsigned long long)lane * stride + (u & 7u)
                                                : ((unsigned long long)(u & 3u) * 32 + lane) * stride;
            w[off] = x + (float)g;
        }
    }
}`
	const (
		sms, perSM, block = 132, 8, 256
		iters             = 32
		clockMHz          = 1980
	)
	d := open(t, "sim:h200")
	k := kernel(t, d, src, "path")
	warps := sms * perSM * block / 32
	out := zeros[float32](t, d, warps*4*32*32)
	run := func(stride uint32, same int32, it uint32) float64 {
		return launch(t, k, sms*perSM, block, out, stride, same, it).Timing.Ms
	}
	none := run(8, 1, 0)
	for _, c := range []struct {
		name         string
		stride       uint32
		same         int32
		lines        float64 // line requests a warp store
		measuredLow  float64 // the H200's cycles a request (min, max over gaps 0, 8, 32)
		measuredHigh float64
	}{
		{"stride 8, same sectors", 8, 1, 8, 10.64, 10.92},
		{"stride 8, distinct lines", 8, 0, 8, 9.19, 9.46},
		{"stride 32, same sectors", 32, 1, 32, 4.04, 4.30},
	} {
		ms := run(c.stride, c.same, iters)
		perSMLines := float64(perSM*block/32) * iters * c.lines
		got := (ms - none) * clockMHz * 1e3 / perSMLines
		mid := (c.measuredLow + c.measuredHigh) / 2
		t.Logf("%s: %.2f SM cycles a line request, the H200 %.2f-%.2f (%.2f)", c.name, got, c.measuredLow, c.measuredHigh, got/mid)
		if got < mid*0.85 || got > mid*1.15 {
			t.Errorf("%s: %.2f SM cycles a line request, the H200 %.2f to %.2f: outside ±15%%", c.name, got, c.measuredLow, c.measuredHigh)
		}
	}
}
