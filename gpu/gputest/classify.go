package gputest

import "math"

const classifySrc = `
__global__ void classifyF(const float* x, int n, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = isnan(x[i]) | isinf(x[i]) << 1 | isfinite(x[i]) << 2 | signbit(x[i]) << 3;
}
__global__ void classifyD(const double* x, int n, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        bool s = signbit(x[i]);
        out[i] = (isnan(x[i]) ? 1 : 0) + (isinf(x[i]) ? 2 : 0) + (isfinite(x[i]) ? 4 : 0) + (s ? 8 : 0);
    }
}
`

// classBits is what classifyF and classifyD write for x: isnan, isinf,
// isfinite and signbit in bits 0 to 3.
func classBits(x float64) int32 {
	var w int32
	if math.IsNaN(x) {
		w |= 1
	}
	if math.IsInf(x, 0) {
		w |= 2
	}
	if !math.IsNaN(x) && !math.IsInf(x, 0) {
		w |= 4
	}
	if math.Signbit(x) {
		w |= 8
	}
	return w
}

// testClassify checks isnan, isinf, isfinite and signbit on the values
// where they differ: NaNs of both signs, both zeros, both infinities,
// subnormals and the extremes, in float and in double.
func testClassify(e *env) {
	negNaN := math.Float64frombits(math.Float64bits(math.NaN()) | 1<<63)
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), negNaN,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1e-40, -1e-40, 3e38}
	f32 := make([]float32, len(vals))
	for i, v := range vals {
		f32[i] = float32(v)
	}
	f32[7] = math.Float32frombits(math.Float32bits(float32(math.NaN())) | 1<<31)
	n := len(vals)
	out := zeros[int32](e, n)
	e.launch(e.kernel(classifySrc, "classifyF"), 1, 32, upload(e, f32), n, out)
	for i, got := range download(e, out) {
		if w := classBits(float64(f32[i])); got != w {
			e.Errorf("float %v (bits %#08x): got %04b, want %04b (bits: nan, inf, finite, sign from the right)", f32[i], math.Float32bits(f32[i]), got, w)
		}
	}
	out = zeros[int32](e, n)
	e.launch(e.kernel(classifySrc, "classifyD"), 1, 32, upload(e, vals), n, out)
	for i, got := range download(e, out) {
		if w := classBits(vals[i]); got != w {
			e.Errorf("double %v (bits %#016x): got %04b, want %04b", vals[i], math.Float64bits(vals[i]), got, w)
		}
	}
}

const llrintSrc = `
__global__ void roundF(const float* x, int n, long long* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = llrintf(x[i]) + 0 * lrint(x[i]);
}
__global__ void roundD(const double* x, int n, long long* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = llrint(x[i]);
}
`

// testLlrint checks llrint and llrintf on halves (rounded to even),
// negatives, large values and both zeros.
func testLlrint(e *env) {
	vals := []float64{0, math.Copysign(0, -1), 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 1e15 + 0.5, -7.75, 123456789}
	want := func(x float64) int64 { return int64(math.RoundToEven(x)) }
	f32 := make([]float32, len(vals))
	for i, v := range vals {
		f32[i] = float32(v)
	}
	n := len(vals)
	out := zeros[int64](e, n)
	e.launch(e.kernel(llrintSrc, "roundF"), 1, 32, upload(e, f32), n, out)
	for i, got := range download(e, out) {
		if w := want(float64(f32[i])); got != w {
			e.Errorf("llrintf(%v) = %d, want %d", f32[i], got, w)
		}
	}
	out = zeros[int64](e, n)
	e.launch(e.kernel(llrintSrc, "roundD"), 1, 32, upload(e, vals), n, out)
	for i, got := range download(e, out) {
		if w := want(vals[i]); got != w {
			e.Errorf("llrint(%v) = %d, want %d", vals[i], got, w)
		}
	}
}
