package gputest

import "github.com/warplab/warplab/gpu"

// vectorsSrc moves data as vector types: float4 loads and stores through
// reinterpret_cast, make_* constructors, vector members, vector values
// passed to and returned from __device__ functions.
const vectorsSrc = `
__device__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__device__ float4 scale4(float4 v, float s) { return make_float4(v.x * s, v.y * s, v.z * s, v.w * s); }

__global__ void vectors(const float* in, float* out, float* dots, int2* pairs, uint4* quads,
                        uchar4* pixels, double2* wide, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = reinterpret_cast<const float4*>(in)[i];
    float4 w = scale4(v, 3.0f);
    reinterpret_cast<float4*>(out)[i] = w;
    dots[i] = dot4(v, w);
    pairs[i] = make_int2(i, -2 * i);
    uint4 q = make_uint4(i, i + 1, i + 2, 0xffffffffu - i);
    quads[i] = q;
    uchar4 p;
    p.x = (unsigned char)i; p.y = 7; p.z = (unsigned char)(i * 3); p.w = 255;
    pixels[i] = p;
    double2 d = make_double2(v.x, (double)v.y / 4.0);
    wide[i] = d;
}

// Every member is used, so the compiler loads the float4 in one 16-byte
// access (a load of .x alone would be a 4-byte load, which is aligned).
__global__ void misalignedFloat4(const float* in, float* out) {
    float4 v = reinterpret_cast<const float4*>(in + 1)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}`

func testVectorTypes(e *env) {
	const n4 = 100
	in := make([]float32, 4*n4)
	for i := range in {
		in[i] = float32(i%17) - 5
	}
	out, dots := zeros[float32](e, 4*n4), zeros[float32](e, n4)
	pairs, quads, pixels, wide := zeros[int32](e, 2*n4), zeros[uint32](e, 4*n4), zeros[uint8](e, 4*n4), zeros[float64](e, 2*n4)
	m := e.module(vectorsSrc)
	e.launch(kernelOf(e, m, "vectors"), 2, 64, upload(e, in), out, dots, pairs, quads, pixels, wide, int32(n4))
	gotOut, gotDots := download(e, out), download(e, dots)
	gotPairs, gotQuads, gotPixels, gotWide := download(e, pairs), download(e, quads), download(e, pixels), download(e, wide)
	for i := 0; i < n4; i++ {
		var dot float32
		for k := 0; k < 4; k++ {
			v := in[4*i+k]
			if gotOut[4*i+k] != v*3 {
				e.Errorf("out[%d] = %v, want %v", 4*i+k, gotOut[4*i+k], v*3)
			}
			dot += v * (v * 3) // small integers: exact in any order
		}
		eq(e, "dot", gotDots[i], dot)
		eq(e, "pair.x", gotPairs[2*i], int32(i))
		eq(e, "pair.y", gotPairs[2*i+1], int32(-2*i))
		for k, w := range []uint32{uint32(i), uint32(i + 1), uint32(i + 2), 0xffffffff - uint32(i)} {
			eq(e, "quad", gotQuads[4*i+k], w)
		}
		for k, w := range []uint8{uint8(i), 7, uint8(i * 3), 255} {
			eq(e, "pixel", gotPixels[4*i+k], w)
		}
		eq(e, "wide.x", gotWide[2*i], float64(in[4*i]))
		eq(e, "wide.y", gotWide[2*i+1], float64(in[4*i+1])/4)
	}
	// A float4 load from an address that is not a multiple of 16 faults.
	e.launchErr(kernelOf(e, m, "misalignedFloat4"), gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(4)},
		[]error{gpu.ErrMisaligned}, upload(e, in), zeros[float32](e, 4))
}
