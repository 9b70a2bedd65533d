package gputest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

const warpReduceSrc = `
__global__ void reduces(const int* in, int* out, unsigned* uout) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned u = (unsigned)v;
    unsigned lane = threadIdx.x & 31;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    int* o = out + 8 * (blockIdx.x * blockDim.x + threadIdx.x);
    o[0] = __reduce_add_sync(0xffffffff, v);
    o[1] = __reduce_min_sync(0xffffffff, v);
    o[2] = __reduce_max_sync(0xffffffff, v);
    o[3] = __reduce_add_sync(half, v);
    o[4] = (int)__reduce_and_sync(0xffffffff, u | 0x10u);
    o[5] = (int)__reduce_or_sync(half, u & 0xf0u);
    o[6] = (int)__reduce_xor_sync(0xffffffff, u);
    if (lane < 8) o[7] = __reduce_max_sync(0xffu, (short)v);
    unsigned* q = uout + 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    q[0] = __reduce_min_sync(0xffffffff, u);
    q[1] = __reduce_max_sync(half, u);
}
`

// testWarpReduce checks __reduce_*_sync on sm_80 and newer (int and
// unsigned overloads, whole and partial masks) and that a target before
// sm_80 refuses them by name, as NVRTC does there.
func testWarpReduce(e *env) {
	arch := e.d.Info().Arch
	var cc int
	if _, err := fmt.Sscanf(arch, "sm_%d", &cc); err != nil {
		e.Fatalf("device arch %q is not sm_XY", arch)
	}
	if cc < 80 {
		_, err := e.d.Compile("conformance.cu", []byte(warpReduceSrc))
		if err == nil || !strings.Contains(err.Error(), "'__reduce_add_sync' needs compute capability 8.0") {
			e.Fatalf("on %s: %v, want __reduce_add_sync refused", arch, err)
		}
		return
	}
	const blocks, threads = 3, 64
	rng := rand.New(rand.NewPCG(10, 1))
	in := make([]int32, blocks*threads)
	for i := range in {
		in[i] = rng.Int32N(2001) - 1000
	}
	out, uout := zeros[int32](e, 8*len(in)), zeros[uint32](e, 2*len(in))
	e.launch(e.kernel(warpReduceSrc, "reduces"), blocks, threads, upload(e, in), out, uout)
	got, ugot := download(e, out), download(e, uout)
	for w := 0; w < len(in)/32; w++ {
		lanes := in[32*w : 32*w+32]
		red := func(from, to int, f func(a, b int32) int32) int32 {
			acc := lanes[from]
			for _, x := range lanes[from+1 : to] {
				acc = f(acc, x)
			}
			return acc
		}
		add := func(a, b int32) int32 { return a + b }
		for l := 0; l < 32; l++ {
			lo, hi := 0, 16
			if l >= 16 {
				lo, hi = 16, 32
			}
			i := 32*w + l
			want := []int32{
				red(0, 32, add), red(0, 32, func(a, b int32) int32 { return min(a, b) }),
				red(0, 32, func(a, b int32) int32 { return max(a, b) }), red(lo, hi, add),
				0, 0, red(0, 32, func(a, b int32) int32 { return a ^ b }), 0,
			}
			and, or := uint32(0xffffffff), uint32(0)
			umin, umax := uint32(0xffffffff), uint32(0)
			for k, x := range lanes {
				and &= uint32(x) | 0x10
				umin = min(umin, uint32(x))
				if k >= lo && k < hi {
					or |= uint32(x) & 0xf0
					umax = max(umax, uint32(x))
				}
			}
			want[4], want[5] = int32(and), int32(or)
			if l < 8 {
				want[7] = red(0, 8, func(a, b int32) int32 { return max(int32(int16(a)), int32(int16(b))) })
			}
			for k, wv := range want {
				if got[8*i+k] != wv {
					e.Fatalf("thread %d: out[%d] = %d, want %d", i, k, got[8*i+k], wv)
				}
			}
			if ugot[2*i] != umin || ugot[2*i+1] != umax {
				e.Fatalf("thread %d: unsigned min, max = %d, %d, want %d, %d", i, ugot[2*i], ugot[2*i+1], umin, umax)
			}
		}
	}
}
