package gputest

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
)

const barriersSrc = `
__global__ void barriers(const int* in, int* out, int total) {
    __shared__ int tile[256];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int v = in[g];
    tile[t] = v;
    __syncthreads();
    out[g] = tile[blockDim.x - 1 - t];
    int c = __syncthreads_count(v % 3 == 0);
    int a1 = __syncthreads_and(v >= 0);
    int a2 = __syncthreads_and(v % 2 == 0);
    int o1 = __syncthreads_or(v == 77);
    int o2 = __syncthreads_or(v < 0);
    if (t == 0) {
        int b = blockIdx.x;
        out[total + b * 5 + 0] = c;
        out[total + b * 5 + 1] = a1 != 0;
        out[total + b * 5 + 2] = a2 != 0;
        out[total + b * 5 + 3] = o1 != 0;
        out[total + b * 5 + 4] = o2 != 0;
    }
}`

func testBarriers(e *env) {
	const block, blocks = 256, 4
	total := block * blocks
	in := make([]int32, total)
	for i := range in {
		in[i] = int32(i*13) % 500
	}
	in[3*block+5] = 77
	for i := 2 * block; i < 3*block; i++ {
		in[i] = 2 * int32(i) // block 2: all even
	}
	out := zeros[int32](e, total+5*blocks)
	e.launch(e.kernel(barriersSrc, "barriers"), blocks, block, upload(e, in), out, total)
	got := download(e, out)
	for b := 0; b < blocks; b++ {
		var count, allEven int32 = 0, 1
		var any77 int32
		for t := 0; t < block; t++ {
			v := in[b*block+t]
			if got[b*block+t] != in[b*block+block-1-t] {
				e.Errorf("block %d thread %d: reversed tile value %d, want %d", b, t, got[b*block+t], in[b*block+block-1-t])
			}
			if v%3 == 0 {
				count++
			}
			if v%2 != 0 {
				allEven = 0
			}
			if v == 77 {
				any77 = 1
			}
		}
		r := got[total+b*5:]
		eq(e, fmt.Sprintf("block %d __syncthreads_count", b), r[0], count)
		eq(e, fmt.Sprintf("block %d __syncthreads_and (true)", b), r[1], 1)
		eq(e, fmt.Sprintf("block %d __syncthreads_and (v even)", b), r[2], allEven)
		eq(e, fmt.Sprintf("block %d __syncthreads_or (v == 77)", b), r[3], any77)
		eq(e, fmt.Sprintf("block %d __syncthreads_or (false)", b), r[4], 0)
	}
}

const dynSharedSrc = `
__global__ void dynShared(const int* in, int* out, int n) {
    extern __shared__ int buf[];
    int base = blockIdx.x * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) buf[k] = in[base + k] * 2;
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[base + k] = buf[n - 1 - k];
}

__global__ void mixedShared(int* out, int n) {
    __shared__ int fixed[32];
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    if (t < 32) fixed[t] = 1000 + t;
    for (int k = t; k < n; k += blockDim.x) dyn[k] = -k;
    __syncthreads();
    if (t < 32) out[t] = fixed[t];
    for (int k = t; k < n; k += blockDim.x) out[32 + k] = dyn[k];
}`

// testDynamicShared sizes extern __shared__ arrays at launch: small, just
// under the 48 KiB every device gives without opting in, and 64 KiB where
// the device allows that much per block.
func testDynamicShared(e *env) {
	m := e.module(dynSharedSrc)
	k := kernelOf(e, m, "dynShared")
	sizes := []int{1000, 12000}
	if e.d.Info().MaxSharedPerBlock >= 64<<10 {
		sizes = append(sizes, 16384)
	}
	for _, n := range sizes {
		const blocks = 3
		in := make([]int32, blocks*n)
		for i := range in {
			in[i] = int32(i*7 - 5000)
		}
		out := zeros[int32](e, blocks*n)
		e.launchCfg(k, gpu.LaunchConfig{Grid: gpu.D1(blocks), Block: gpu.D1(256), SharedBytes: 4 * n}, upload(e, in), out, n)
		got := download(e, out)
		bad := 0
		for b := 0; b < blocks; b++ {
			for j := 0; j < n; j++ {
				if w := in[b*n+n-1-j] * 2; got[b*n+j] != w {
					if bad < 5 {
						e.Errorf("n=%d block %d: out[%d] = %d, want %d", n, b, j, got[b*n+j], w)
					}
					bad++
				}
			}
		}
	}
	n := 500
	out := zeros[int32](e, 32+n)
	e.launchCfg(kernelOf(e, m, "mixedShared"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(128), SharedBytes: 4 * n}, out, n)
	got := download(e, out)
	for t := 0; t < 32; t++ {
		eq(e, fmt.Sprintf("static shared fixed[%d] beside dynamic shared", t), got[t], int32(1000+t))
	}
	for k := 0; k < n; k++ {
		if got[32+k] != int32(-k) {
			e.Errorf("dynamic shared dyn[%d] = %d, want %d", k, got[32+k], -k)
			break
		}
	}
}
