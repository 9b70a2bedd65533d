package gpusim_test

import (
	"strings"
	"testing"
)

// TestLoneGranules: lanes 64 bytes apart read both 64-byte granules of
// every 128-byte line they touch, lanes 128 bytes apart one granule a
// line. The DRAM moves the same bytes for both, and on the H200 the
// second takes 1.13 times as long (access.cu: 0.0685 and 0.0775 ms;
// calibration/evidence/2026-11-30-h200-ncu-sums-stride: 8.39M DRAM sectors each,
// at 90% and 78% of the DRAM's peak). The h200 profile prices the lone
// granules by Cost.DRAMLoneGranuleFactor; the t4 profile, which does not
// model it, prices the two alike.
func TestLoneGranules(t *testing.T) {
	const src = `
__global__ void readStride(const float* in, float* out, int threads, int stride, unsigned len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < threads) out[i] = in[((unsigned long long)i * stride) % len];
}`
	const threads = 1 << 20
	for _, c := range []struct {
		spec     string
		min, max float64
	}{{"sim:h200", 1.08, 1.16}, {"sim:t4", 0.99, 1.01}} {
		d := open(t, c.spec)
		k := kernel(t, d, src, "readStride")
		in := zeros[float32](t, d, threads*32)
		out := zeros[float32](t, d, threads)
		dram := func(stride int32) float64 {
			res := launch(t, k, threads/256, 256, in, out, int32(threads), stride, uint32(threads*32))
			for _, b := range res.Timing.Breakdown {
				if b.Resource == "dram" {
					if stride == 32 && c.spec == "sim:h200" && !strings.Contains(b.Detail, "without the other half") {
						t.Errorf("%s stride 32: the dram term %q does not say which granules were read alone", c.spec, b.Detail)
					}
					return b.Ms
				}
			}
			t.Fatalf("%s stride %d: no dram term in %+v", c.spec, stride, res.Timing.Breakdown)
			return 0
		}
		d16, d32 := dram(16), dram(32)
		if r := d32 / d16; r < c.min || r > c.max {
			t.Errorf("%s: the DRAM term at stride 32 is %.4f ms, at 16 %.4f ms (%.3fx): want %.2f to %.2fx", c.spec, d32, d16, r, c.min, c.max)
		}
	}
}
