package gputest

import "github.com/warplab/warplab/gpu"

const dim3Src = `
__device__ unsigned volume(dim3 d) { return d.x * d.y * d.z; }
__device__ dim3 swapXY(dim3 d) { return dim3(d.y, d.x, d.z); }

__global__ void dims(unsigned* out) {
    dim3 b = blockDim;
    dim3 g = gridDim;
    uint3 t = threadIdx;
    dim3 bi = blockIdx;        // uint3 to dim3
    dim3 two(7, 3);            // z is 1
    dim3 c = dim3(4);          // y and z are 1
    dim3 n = 9;                // an integer converts to dim3(9, 1, 1)
    unsigned block = bi.x + g.x * (bi.y + g.y * bi.z);
    unsigned thread = t.x + b.x * (t.y + b.y * t.z);
    unsigned i = block * volume(b) + thread;
    unsigned* o = out + 8 * i;
    o[0] = i;
    o[1] = volume(g);
    o[2] = swapXY(b).x;        // a member of a call's result
    o[3] = two.x * 10 + two.y + two.z * 100;
    o[4] = c.x + c.y * 10 + c.z * 100 + n.x * 1000 + n.y * 10000;
    o[5] = dim3(2, 3, 4).z + volume(dim3(2, 3));
    o[6] = uint3(blockDim).z;
    o[7] = g.y;
}

__device__ float4 scaled(float4 v, float s) { return make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }
struct Pair { int lo; int hi; };
__device__ Pair split(int v) { Pair p; p.lo = v & 0xff; p.hi = v >> 8; return p; }

__global__ void rvalues(const float* inF, float* out, int* parts, int n) {
    const float4* in = reinterpret_cast<const float4*>(inF);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = scaled(in[i], 2.0f).y + make_float4(1.0f, 2.0f, 3.0f, (float)i).w + make_int2(i, -i).y;
    parts[2 * i] = split(i * 300).lo;
    parts[2 * i + 1] = split(i * 300).hi;
}
`

// testDim3Values uses blockDim, gridDim, threadIdx and blockIdx as values,
// dim3 locals, parameters, results and constructors on a 3-D launch, and
// members of struct and vector values that calls return.
func testDim3Values(e *env) {
	m := e.module(dim3Src)
	grid, block := gpu.Dim3{X: 2, Y: 3, Z: 2}, gpu.Dim3{X: 4, Y: 2, Z: 3}
	const threads = 12 * 24
	out := zeros[uint32](e, 8*threads)
	e.launchCfg(kernelOf(e, m, "dims"), gpu.LaunchConfig{Grid: grid, Block: block}, out)
	got := download(e, out)
	for i := 0; i < threads; i++ {
		o := got[8*i : 8*i+8]
		want := []uint32{uint32(i), 12, 2, 73 + 100, 4 + 10 + 100 + 9000 + 10000, 4 + 6, 3, 3}
		for k := range want {
			if o[k] != want[k] {
				e.Fatalf("thread %d: out[%d] = %d, want %d (all: %v)", i, k, o[k], want[k], o)
			}
		}
	}
	// rvalue members
	const n = 100
	in := make([]float32, 4*n)
	for i := range in {
		in[i] = float32(i%13) - 6
	}
	fout := zeros[float32](e, n)
	parts := zeros[int32](e, 2*n)
	e.launch(kernelOf(e, m, "rvalues"), 1, 128, upload(e, in), fout, parts, int32(n))
	gf, gp := download(e, fout), download(e, parts)
	for i := 0; i < n; i++ {
		want := in[4*i+1]*2 + float32(i) + float32(-i)
		if gf[i] != want {
			e.Fatalf("out[%d] = %v, want %v", i, gf[i], want)
		}
		if lo, hi := gp[2*i], gp[2*i+1]; lo != int32(i*300&0xff) || hi != int32(i*300>>8) {
			e.Fatalf("parts[%d] = %d, %d, want %d, %d", i, lo, hi, i*300&0xff, i*300>>8)
		}
	}
}
