package gputest

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/warplab/warplab/gpu"
)

const templatesSrc = `
template <int N>
__device__ int sumFirst(const int* p) {
    int s = 0;
    for (int i = 0; i < N; i++) s += p[i];
    return s;
}

template <int B>
__global__ void blockSum(const int* in, int* out) {
    __shared__ int tile[B];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * B + t];
    __syncthreads();
    for (int h = B / 2; h > 0; h /= 2) {
        if (t < h) tile[t] += tile[t + h];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tile[0];
}

template <int K, int M>
__global__ void affine(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = K * in[i] + M + sumFirst<3>(in);
}`

func testTemplates(e *env) {
	m := e.module(templatesSrc)
	in := make([]int32, 1024)
	for i := range in {
		in[i] = int32(i%17) - 8
	}
	dIn := upload(e, in)
	for _, b := range []int{64, 128, 256} {
		k := kernelOf(e, m, fmt.Sprintf("blockSum<%d>", b))
		blocks := len(in) / b
		out := zeros[int32](e, blocks)
		e.launch(k, blocks, b, dIn, out)
		got := download(e, out)
		for blk := 0; blk < blocks; blk++ {
			var want int32
			for _, v := range in[blk*b : (blk+1)*b] {
				want += v
			}
			eq(e, fmt.Sprintf("blockSum<%d> block %d", b, blk), got[blk], want)
		}
	}
	first3 := in[0] + in[1] + in[2]
	for _, km := range [][2]int32{{3, 5}, {-2, 100}} {
		k := kernelOf(e, m, fmt.Sprintf("affine<%d, %d>", km[0], km[1]))
		out := zeros[int32](e, 300)
		e.launch(k, 3, 128, dIn, out, 300)
		got := download(e, out)
		for i := 0; i < 300; i++ {
			if w := km[0]*in[i] + km[1] + first3; got[i] != w {
				e.Errorf("affine<%d, %d>: out[%d] = %d, want %d", km[0], km[1], i, got[i], w)
				break
			}
		}
	}
}

const deviceFunctionsSrc = `
__device__ int square(int x) { return x * x; }

__device__ void addTo(int* p, int v) { *p += v; }

__device__ int collatz(int x) {
    int steps = 0;
    while (x != 1) {
        x = (x % 2) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

__device__ int combine(int a, int b) { return square(a) - collatz(b); }

__global__ void devfuncs(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    int acc = combine(v, v + 1);
    addTo(&acc, collatz(v + 7) * 1000);
    out[t] = acc;
}`

func testDeviceFunctions(e *env) {
	const n = 96
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i*3 + 1)
	}
	out := zeros[int32](e, n)
	e.launch(e.kernel(deviceFunctionsSrc, "devfuncs"), 1, n, upload(e, in), out)
	collatz := func(x int32) int32 {
		var s int32
		for x != 1 {
			if x%2 != 0 {
				x = 3*x + 1
			} else {
				x /= 2
			}
			s++
		}
		return s
	}
	want := make([]int32, n)
	for i, v := range in {
		want[i] = v*v - collatz(v+1) + collatz(v+7)*1000
	}
	sameSlice(e, "devfuncs out", download(e, out), want)
}

const moduleVariablesSrc = `
__device__ int counter = 5;
__constant__ int table[4] = {10, 20, 30, 40};
__device__ unsigned long long big = 0x123456789abcdefull;
__device__ double scaleBy = 2.5;

__global__ void globals(int* out, unsigned long long* outU) {
    int t = threadIdx.x;
    atomicAdd(&counter, 1);
    out[t] = table[t % 4] + (int)(scaleBy * 2.0);
    if (t == 0) outU[0] = big;
}

__global__ void readCounter(int* out) { out[0] = counter; }`

const floatVariablesSrc = `
__device__ float scale = 2.5f;
__constant__ float weights[3] = {1.5f, 3, -0.25f};

__global__ void readFloats(float* out) {
    out[0] = scale;
    for (int i = 0; i < 3; i++) out[1 + i] = weights[i];
}`

// testFloatVariables checks float module variables' initial values.
func testFloatVariables(e *env) {
	out := zeros[float32](e, 4)
	e.launch(e.kernel(floatVariablesSrc, "readFloats"), 1, 1, out)
	sameSlice(e, "float module variables", download(e, out), []float32{2.5, 1.5, 3, -0.25})
}

// testModuleVariables checks initialised __device__ and __constant__
// variables, and that a module's variables keep their values from launch
// to launch while a new module starts afresh.
func testModuleVariables(e *env) {
	m := e.module(moduleVariablesSrc)
	out, outU, cnt := zeros[int32](e, 64), zeros[uint64](e, 1), zeros[int32](e, 1)
	g, r := kernelOf(e, m, "globals"), kernelOf(e, m, "readCounter")
	e.launch(g, 1, 64, out, outU)
	got := download(e, out)
	for t := 0; t < 64; t++ {
		if w := int32(10*(t%4+1) + 5); got[t] != w {
			e.Errorf("globals: out[%d] = %d, want %d", t, got[t], w)
		}
	}
	eq(e, "__device__ unsigned long long big", download(e, outU)[0], uint64(0x123456789abcdef))
	e.launch(r, 1, 1, cnt)
	eq(e, "counter after one launch of 64 threads", download(e, cnt)[0], int32(5+64))
	e.launch(g, 2, 32, out, outU)
	e.launch(r, 1, 1, cnt)
	eq(e, "counter after a second launch", download(e, cnt)[0], int32(5+128))

	m2 := e.module(moduleVariablesSrc)
	e.launch(kernelOf(e, m2, "readCounter"), 1, 1, cnt)
	eq(e, "counter of a newly compiled module", download(e, cnt)[0], int32(5))
}

const scalarsSrc = `
__global__ void scalars(char c, unsigned char uc, short s, unsigned short us, int i, unsigned u,
                        double d, long long ll, unsigned long long ull, float f, bool b, size_t z,
                        long long* outL, double* outD) {
    outL[0] = c; outL[1] = uc; outL[2] = s; outL[3] = us; outL[4] = i; outL[5] = u;
    outL[6] = ll; outL[7] = (long long)ull; outL[8] = b; outL[9] = (long long)z;
    outD[0] = f; outD[1] = d;
}`

// testScalarArguments passes one argument of every scalar type, in an
// order that mixes sizes, and reads each back.
func testScalarArguments(e *env) {
	outL, outD := zeros[int64](e, 10), zeros[float64](e, 2)
	k := e.kernel(scalarsSrc, "scalars")
	ull := uint64(1)<<63 + 5
	e.launch(k, 1, 1, int8(-5), uint8(200), int16(-30000), uint16(60000), int32(-2000000000), uint32(4000000000),
		-2.25e100, int64(-1)<<40, ull, float32(1.5), true, uint64(1)<<35, outL, outD)
	gl, gd := download(e, outL), download(e, outD)
	want := []int64{-5, 200, -30000, 60000, -2000000000, 4000000000, -1 << 40, int64(ull), 1, 1 << 35}
	names := []string{"char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long long", "unsigned long long", "bool", "size_t"}
	for i := range want {
		eq(e, names[i]+" argument", gl[i], want[i])
	}
	eq(e, "float argument", gd[0], 1.5)
	eq(e, "double argument", gd[1], -2.25e100)
}

const pointersSrc = `
struct Pair { int a; int b; };

__global__ void pointers(const int* in, int* maybe, int* out, Pair* pairs, void* raw) {
    int t = threadIdx.x;
    out[t] = in[t] * 10;
    if (t == 0) out[32] = maybe == nullptr ? 1 : 2;
    pairs[t].a = t;
    pairs[t].b = -t;
    ((unsigned char*)raw)[t] = (unsigned char)(t * 3);
}`

// testPointerArguments covers a pointer into a buffer, a null pointer,
// a struct pointer and a void pointer bound to plain buffers.
func testPointerArguments(e *env) {
	in := make([]int32, 100)
	for i := range in {
		in[i] = int32(i)
	}
	dIn := upload(e, in)
	out, pairs, raw := zeros[int32](e, 33), zeros[int32](e, 64), zeros[uint8](e, 32)
	k := e.kernel(pointersSrc, "pointers")
	e.launch(k, 1, 32, dIn.At(40), nil, out, pairs, raw)
	got := download(e, out)
	for t := 0; t < 32; t++ {
		eq(e, fmt.Sprintf("out[%d] through in + 40", t), got[t], int32((40+t)*10))
	}
	eq(e, "null pointer argument seen as", got[32], 1)
	e.launch(k, 1, 32, dIn, out, out, pairs, raw)
	eq(e, "non-null pointer argument seen as", download(e, out)[32], 2)
	gp, gr := download(e, pairs), download(e, raw)
	for t := 0; t < 32; t++ {
		eq(e, fmt.Sprintf("pairs[%d].a", t), gp[2*t], int32(t))
		eq(e, fmt.Sprintf("pairs[%d].b", t), gp[2*t+1], int32(-t))
		eq(e, fmt.Sprintf("raw[%d]", t), gr[t], uint8(t*3))
	}
}

const shapesSrc = `
__global__ void shapes(int* out, int total) {
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int g = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
    out[g] = blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z
           + 1000 * threadIdx.x + 10000 * threadIdx.y + 100000 * threadIdx.z;
    out[total + g] = gridDim.x + 10 * gridDim.y + 100 * gridDim.z
           + 1000 * blockDim.x + 10000 * blockDim.y + 100000 * blockDim.z + 1000000 * warpSize;
}

__global__ void wide(int* out) {
    if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}`

func testGridShapes(e *env) {
	m := e.module(shapesSrc)
	gridDim, blockDim := gpu.Dim3{X: 3, Y: 2, Z: 2}, gpu.Dim3{X: 4, Y: 3, Z: 2}
	total := gridDim.Count() * blockDim.Count()
	out := zeros[int32](e, 2*total)
	e.launchCfg(kernelOf(e, m, "shapes"), gpu.LaunchConfig{Grid: gridDim, Block: blockDim}, out, total)
	got := download(e, out)
	g := 0
	for bz := 0; bz < gridDim.Z; bz++ {
		for by := 0; by < gridDim.Y; by++ {
			for bx := 0; bx < gridDim.X; bx++ {
				for tz := 0; tz < blockDim.Z; tz++ {
					for ty := 0; ty < blockDim.Y; ty++ {
						for tx := 0; tx < blockDim.X; tx++ {
							w := int32(bx + 10*by + 100*bz + 1000*tx + 10000*ty + 100000*tz)
							if got[g] != w {
								e.Errorf("block (%d,%d,%d) thread (%d,%d,%d): ids %d, want %d", bx, by, bz, tx, ty, tz, got[g], w)
							}
							g++
						}
					}
				}
			}
		}
	}
	dims := int32(3 + 10*2 + 100*2 + 1000*4 + 10000*3 + 100000*2 + 1000000*32)
	for i := total; i < 2*total; i++ {
		if got[i] != dims {
			e.Errorf("gridDim/blockDim/warpSize seen as %d, want %d", got[i], dims)
			break
		}
	}

	const blocks = 70000 // more than 65535 in x
	wide := zeros[int32](e, blocks)
	e.launch(kernelOf(e, m, "wide"), blocks, 32, wide)
	gw := download(e, wide)
	for b := 0; b < blocks; b++ {
		if gw[b] != int32(b) {
			e.Errorf("wide grid: out[%d] = %d, want %d", b, gw[b], b)
			break
		}
	}
}

const integerSrc = `
__global__ void ints(int* out, int zero) {
    int big = 2147483647 + zero;
    out[0] = big + 1;
    unsigned u = 0u;
    out[1] = (int)(u - 1u);
    out[2] = -7 / (2 + zero);
    out[3] = -7 % (3 + zero);
    out[4] = (int)(-2.7f + zero);
    float huge = 3.0e10f + zero;
    out[5] = (int)huge;
    out[6] = (int)(-huge);
    char c = (char)(200 + zero);
    out[7] = c;
    unsigned short s = 65535 + zero;
    s++;
    out[8] = s;
    out[9] = (int)((unsigned)(-8 + zero) >> 1);
    out[10] = (-8 + zero) >> 1;
    long long ll = (1LL << 40) + zero;
    out[11] = (int)(ll >> 38);
    out[12] = sizeof(long) + 10 * sizeof(size_t) + 100 * sizeof(long long) + 1000 * sizeof(int*);
    out[13] = (int)(unsigned char)(-1 + zero);
    out[14] = min(-3 + zero, 2) * 100 + max(-3 + zero, 2);
    out[15] = abs(-17 + zero);
    double dd = 1e300 * (1 + zero);
    out[16] = (int)(float)(dd) == 0x7fffffff;
}`

// testIntegerSemantics checks C's integer rules as the GPU applies them:
// wrapping, truncating division, conversions that saturate (float to int
// on a GPU) or wrap (to a narrower integer). zero is 0, passed at run time
// so that nothing folds at compile time.
func testIntegerSemantics(e *env) {
	out := zeros[int32](e, 17)
	e.launch(e.kernel(integerSrc, "ints"), 1, 1, out, 0)
	want := []int32{math.MinInt32, -1, -3, -1, -2, math.MaxInt32, math.MinInt32, -56, 0, 0x7ffffffc, -4, 4,
		8 + 80 + 800 + 8000, 255, -300 + 2, 17, 1}
	names := []string{"INT_MAX + 1", "0u - 1", "-7 / 2", "-7 % 3", "(int)-2.7f", "(int)3e10f", "(int)-3e10f",
		"(char)200", "(unsigned short)65535 + 1", "(unsigned)-8 >> 1", "-8 >> 1", "(1LL << 40) >> 38",
		"sizes of long, size_t, long long, int*", "(unsigned char)-1", "min/max", "abs",
		"(int)(float)1e300 saturates"}
	got := download(e, out)
	for i := range want {
		eq(e, names[i], got[i], want[i])
	}
}

const contractionSrc = `
__global__ void muladd(const float* a, const float* b, const float* c, float* out) {
    out[0] = a[0] * b[0] + c[0];
    out[1] = __fadd_rn(__fmul_rn(a[0], b[0]), c[0]);
    out[2] = fmaf(a[0], b[0], c[0]);
}`

// testFloatContraction checks that a*b+c is contracted into one fused
// multiply-add, as nvcc does by default, unless the device's spec says
// fmad=false; and that __fmul_rn/__fadd_rn are never fused and fmaf always is.
func testFloatContraction(e *env) {
	// a*b = 1 + 2^-11 + 2^-24 is not a float: rounding it before adding c
	// loses the last term, the fused form keeps it.
	a, b, c := float32(1+0x1p-12), float32(1+0x1p-12), float32(-1)
	fused := float32(float64(a)*float64(b) + float64(c))
	unfused := float32(float64(float32(float64(a)*float64(b))) + float64(c))
	if fused == unfused {
		e.Fatal("test values do not tell fused from unfused")
	}
	out := zeros[float32](e, 3)
	e.launch(e.kernel(contractionSrc, "muladd"), 1, 1, upload(e, []float32{a}), upload(e, []float32{b}), upload(e, []float32{c}), out)
	got := download(e, out)
	want := fused
	if !e.d.Spec().FMAD() {
		want = unfused
	}
	eq(e, "a*b+c on "+e.d.Info().Spec, got[0], want)
	eq(e, "__fadd_rn(__fmul_rn(a, b), c)", got[1], unfused)
	eq(e, "fmaf(a, b, c)", got[2], fused)
}

const printfSrc = `
__global__ void hello(int k, float x) {
    int t = threadIdx.x;
    if (blockIdx.x == 0 && t == 0) {
        printf("first %d\n", k);
        printf("x=%.3f u=%u hex=%x ll=%lld\n", x, 4000000000u, 255, -1234567890123LL);
        printf("last %d%%\n", k + 1);
    }
    if (t < 4) printf("block %d thread %d\n", blockIdx.x, t);
}`

// testPrintf checks device printf's text, and the order of one thread's
// calls. The order of lines from different threads is the hardware's to
// choose, so they are compared as a set.
func testPrintf(e *env) {
	res := e.launch(e.kernel(printfSrc, "hello"), 2, 64, 7, float32(1.5))
	got := lines(res.Printf)
	first := []string{"first 7", "x=1.500 u=4000000000 hex=ff ll=-1234567890123", "last 8%", "block 0 thread 0"}
	want := slices.Clone(first)
	for b := 0; b < 2; b++ {
		for t := 0; t < 4; t++ {
			if b != 0 || t != 0 {
				want = append(want, fmt.Sprintf("block %d thread %d", b, t))
			}
		}
	}
	var seq []string
	for _, l := range got {
		if slices.Contains(first, l) {
			seq = append(seq, l)
		}
	}
	sameSlice(e, "thread (0,0)'s printf lines in order", seq, first)
	gs, ws := slices.Clone(got), slices.Clone(want)
	slices.Sort(gs)
	slices.Sort(ws)
	if !slices.Equal(gs, ws) {
		e.Errorf("printf output\n%s\nwant these lines in any order\n%s", res.Printf, strings.Join(want, "\n"))
	}
	res = e.launch(e.kernel(printfSrc, "hello"), 1, 1, 1, float32(0))
	if !strings.HasPrefix(res.Printf, "first 1\n") {
		e.Errorf("second launch printed %q; each Result holds its own launch's output", res.Printf)
	}
}
