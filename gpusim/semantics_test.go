package gpusim_test

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

const warpSrc = `
__global__ void shuffles(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    out[0 * 64 + threadIdx.x] = __shfl_sync(0xffffffff, v, 3);
    out[1 * 64 + threadIdx.x] = __shfl_sync(0xffffffff, v, lane + 1, 8);
    out[2 * 64 + threadIdx.x] = __shfl_up_sync(0xffffffff, v, 2);
    out[3 * 64 + threadIdx.x] = __shfl_down_sync(0xffffffff, v, 5, 16);
    out[4 * 64 + threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
    out[5 * 64 + threadIdx.x] = __ballot_sync(0xffffffff, v % 3 == 0);
    out[6 * 64 + threadIdx.x] = __any_sync(0xffffffff, v == 70);
    out[7 * 64 + threadIdx.x] = __all_sync(0xffffffff, v >= 0);
    out[8 * 64 + threadIdx.x] = __match_any_sync(0xffffffff, v % 4);
    out[9 * 64 + threadIdx.x] = __popc(v) + 100 * __ffs(v) + 10000 * __clz(v);
    out[10 * 64 + threadIdx.x] = __brev(v);
    unsigned active = 0;
    if (lane < 10) active = __activemask();
    out[11 * 64 + threadIdx.x] = active;
}`

func TestWarpPrimitives(t *testing.T) {
	d := open(t, "sim:t4")
	k := kernel(t, d, warpSrc, "shuffles")
	in := make([]int32, 64)
	for i := range in {
		in[i] = int32(i*5 + 1)
	}
	out := zeros[int32](t, d, 12*64)
	launch(t, k, 1, 64, upload(t, d, in), out)
	got := download(t, out)
	row := func(r int) []int32 { return got[r*64 : (r+1)*64] }
	for i := 0; i < 64; i++ {
		w, lane := i/32*32, i%32
		v := func(l int) int32 { return in[w+l] }
		check := func(r int, want int32) {
			if row(r)[i] != want {
				t.Errorf("row %d thread %d = %d, want %d", r, i, row(r)[i], want)
			}
		}
		check(0, v(3))
		check(1, v(lane&^7+(lane+1)&7))
		if lane >= 2 {
			check(2, v(lane-2))
		} else {
			check(2, v(lane))
		}
		if lane+5 <= lane|15 {
			check(3, v(lane+5))
		} else {
			check(3, v(lane))
		}
		check(4, v(lane^1))
		var ballot uint32
		for l := 0; l < 32; l++ {
			if v(l)%3 == 0 {
				ballot |= 1 << l
			}
		}
		check(5, int32(ballot))
		any70 := int32(0)
		for l := 0; l < 32; l++ {
			if v(l) == 70 {
				any70 = 1
			}
		}
		check(6, any70)
		check(7, 1)
		var match uint32
		for l := 0; l < 32; l++ {
			if v(l)%4 == v(lane)%4 {
				match |= 1 << l
			}
		}
		check(8, int32(match))
		x := uint32(v(lane))
		check(9, int32(bits.OnesCount32(x)+100*(bits.TrailingZeros32(x)+1)+10000*bits.LeadingZeros32(x)))
		check(10, int32(bits.Reverse32(x)))
		if lane < 10 {
			check(11, 1<<10-1)
		} else {
			check(11, 0)
		}
	}
}

func TestShuffleDiagnostics(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void partial(const float* in, float* out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float v = in[i];
        v += __shfl_down_sync(0xffffffff, v, 16);
        out[i] = v;
    }
}`
	k := kernel(t, d, src, "partial")
	in := upload(t, d, make([]float32, 32))
	out := zeros[float32](t, d, 32)
	res := launch(t, k, 1, 32, in, out, 20)
	ds := diagnostics(res, "warp-sync")
	if len(ds) == 0 || !strings.Contains(ds[0].Msg, "20-31") {
		t.Errorf("want a diagnostic naming lanes 20-31 absent from the mask, got %v", res.Diagnostics)
	}
	res = launch(t, k, 1, 32, in, out, 32)
	if ds := diagnostics(res, "warp-sync"); len(ds) != 0 {
		t.Errorf("diagnostics for a converged warp: %v", ds)
	}
}

func TestFMAContraction(t *testing.T) {
	src := `
__global__ void muladd(const float* a, const float* b, const float* c, float* out) {
    out[0] = a[0] * b[0] + c[0];
    out[1] = __fadd_rn(__fmul_rn(a[0], b[0]), c[0]);
    out[2] = fmaf(a[0], b[0], c[0]);
}`
	// a*b = 1 + 2^-12 + 2^-24 is not a float: rounding it before the
	// subtraction loses the last term, the fused form keeps it.
	a := float32(1 + 0x1p-12)
	b := float32(1 + 0x1p-12)
	c := float32(-1)
	exact := float32(float64(a)*float64(b) + float64(c))
	separate := (a * b) + c
	for _, tc := range []struct {
		spec string
		want float32
	}{{"sim:t4", exact}, {"sim:t4?fmad=false", float32(float64(float32(float64(a)*float64(b))) + float64(c))}} {
		d := open(t, tc.spec)
		out := zeros[float32](t, d, 3)
		launch(t, kernel(t, d, src, "muladd"), 1, 1, upload(t, d, []float32{a}), upload(t, d, []float32{b}), upload(t, d, []float32{c}), out)
		got := download(t, out)
		if got[0] != tc.want {
			t.Errorf("%s: a*b+c = %g, want %g", tc.spec, got[0], tc.want)
		}
		if got[1] != float32(float64(float32(float64(a)*float64(b)))+float64(c)) {
			t.Errorf("%s: __fadd_rn(__fmul_rn) = %g, want the unfused %g", tc.spec, got[1], separate)
		}
		if got[2] != exact {
			t.Errorf("%s: fmaf = %g, want %g", tc.spec, got[2], exact)
		}
	}
	if exact == float32(float64(float32(float64(a)*float64(b)))+float64(c)) {
		t.Fatal("test values do not distinguish fused from unfused")
	}
}

func TestIntegerSemantics(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void ints(int* out, int zero) {
    int big = 2147483647;
    out[0] = big + 1;                 // wraps
    unsigned u = 0u;
    out[1] = (int)(u - 1u);           // 0xffffffff
    out[2] = 7 / zero;                // no trap on a GPU
    out[3] = -7 / 2;                  // truncates toward zero
    out[4] = -7 % 3;
    out[5] = (int)(-2.7f);
    float huge = 3.0e10f + zero;
    out[6] = (int)huge;               // saturates
    char c = (char)200;
    out[7] = c;
    unsigned short s = 65535;
    s++;
    out[8] = s;
    out[9] = 1 << 31;
    out[10] = (int)((unsigned)(-8) >> 1);
    out[11] = -8 >> 1;
    long long ll = 1LL << 40;
    out[12] = (int)(ll >> 38);
    out[13] = sizeof(long) + 10 * sizeof(size_t);
}`
	out := zeros[int32](t, d, 14)
	launch(t, kernel(t, d, src, "ints"), 1, 1, out, 0)
	want := []int32{math.MinInt32, -1, -1, -3, -1, -2, math.MaxInt32, -56, 0, math.MinInt32, 0x7ffffffc, -4, 4, 88}
	if got := download(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestControlFlow(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__device__ int classify(int v) {
    if (v < 0) return -1;
    for (int i = 0; i < 10; i++) {
        if (i == v) return i * 10;
        if (i > 5 && v > 100) break;
    }
    switch (v % 4) {
    case 0: return 1000;
    case 1:
    case 2: v += 1;
    default: return 2000 + v;
    }
}
__global__ void flow(const int* in, int* out) {
    int i = threadIdx.x;
    int acc = 0;
    int j = 0;
    do {
        if (j % 3 == 1) { j++; continue; }
        acc += j;
        j++;
    } while (j < in[i] % 7);
    out[i] = classify(in[i]) + 100000 * acc;
}`
	ref := func(v int32) int32 {
		acc := int32(0)
		j := int32(0)
		for {
			if j%3 == 1 {
				j++
			} else {
				acc += j
				j++
			}
			if !(j < v%7) {
				break
			}
		}
		cls := func(v int32) int32 {
			if v < 0 {
				return -1
			}
			for i := int32(0); i < 10; i++ {
				if i == v {
					return i * 10
				}
				if i > 5 && v > 100 {
					break
				}
			}
			switch v % 4 {
			case 0:
				return 1000
			case 1, 2:
				v++
			}
			return 2000 + v
		}
		return cls(v) + 100000*acc
	}
	in := make([]int32, 96)
	for i := range in {
		in[i] = int32(i*37%211) - 20
	}
	out := zeros[int32](t, d, len(in))
	launch(t, kernel(t, d, src, "flow"), 1, len(in), upload(t, d, in), out)
	got := download(t, out)
	for i, v := range in {
		if w := ref(v); got[i] != w {
			t.Errorf("thread %d (in %d): got %d, want %d", i, v, got[i], w)
		}
	}
}

func TestPrintfOrder(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
__global__ void hello(float x) {
    if (threadIdx.x < 2) printf("block %d thread %d x=%.2f %s\n", blockIdx.x, threadIdx.x, x, "ok");
}`
	res := launch(t, kernel(t, d, src, "hello"), 2, 64, float32(1.5))
	want := "block 0 thread 0 x=1.50 ok\nblock 0 thread 1 x=1.50 ok\nblock 1 thread 0 x=1.50 ok\nblock 1 thread 1 x=1.50 ok\n"
	if res.Printf != want {
		t.Errorf("printf output\n%q\nwant\n%q", res.Printf, want)
	}
}

// sumSrc is a float atomic sum whose result depends on the order atomics arrive.
const sumSrc = `
__global__ void sum(const float* in, float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, in[i]);
}`

func floatSum(t *testing.T, spec string, in []float32) (float32, gpu.Counters) {
	d := open(t, spec)
	total := zeros[float32](t, d, 1)
	res := launch(t, kernel(t, d, sumSrc, "sum"), (len(in)+255)/256, 256, upload(t, d, in), total, len(in))
	return download(t, total)[0], *res.Counters
}

func TestSeedsAndReplay(t *testing.T) {
	in := make([]float32, 1<<16)
	for i := range in {
		in[i] = 1.5 + float32(i%7)*0.1
	}
	a, ca := floatSum(t, "sim:t4?seed=7", in)
	prev := runtime.GOMAXPROCS(1)
	b, cb := floatSum(t, "sim:t4?seed=7", in)
	runtime.GOMAXPROCS(2)
	c, cc := floatSum(t, "sim:t4?seed=7", in)
	runtime.GOMAXPROCS(prev)
	if a != b || a != c || !reflect.DeepEqual(ca, cb) || !reflect.DeepEqual(ca, cc) {
		t.Errorf("same seed, different results: %v %v %v", a, b, c)
	}
	distinct := map[float32]bool{}
	for seed := 1; seed <= 8; seed++ {
		s, _ := floatSum(t, "sim:t4?seed="+string(rune('0'+seed)), in)
		distinct[s] = true
	}
	if len(distinct) < 4 {
		t.Errorf("8 seeds gave %d distinct float sums; the atomic order should vary with the seed", len(distinct))
	}
	det := map[float32]bool{}
	for seed := 1; seed <= 4; seed++ {
		s, _ := floatSum(t, "sim:t4?order=deterministic&seed="+string(rune('0'+seed)), in)
		det[s] = true
	}
	if len(det) != 1 {
		t.Errorf("order=deterministic gave %d distinct sums, want 1", len(det))
	}
}

func TestSpinOnOtherBlock(t *testing.T) {
	d := open(t, "sim:t4")
	// Block 1 waits for a flag that block 0 sets: resident blocks run
	// concurrently, so it must make progress.
	src := `
__global__ void handoff(volatile int* flag, int* out) {
    if (blockIdx.x == 1) {
        if (threadIdx.x == 0) {
            while (flag[0] == 0) { }
            out[1] = flag[0] + 1;
        }
    } else if (threadIdx.x == 0) {
        out[0] = 41;
        __threadfence();
        atomicExch((int*)flag, 41);
    }
}`
	out := zeros[int32](t, d, 2)
	launch(t, kernel(t, d, src, "handoff"), 2, 32, zeros[int32](t, d, 1), out)
	if got := download(t, out); got[1] != 42 {
		t.Errorf("out = %v, want [41 42]", got)
	}
}

func TestAggregates(t *testing.T) {
	d := open(t, "sim:t4")
	src := `
struct Pair { int a; float b[2]; };
__device__ int table[2][3] = {{1, 2, 3}, {4, 5, 6}};
__constant__ Pair g = {7, {0.5f, 1.5f}};
__global__ void agg(int* out, float* fout) {
    int m[2][3] = {{10, 20, 30}, {40}};
    Pair p = {1, {2.0f, 3.0f}};
    Pair q;
    q = p;
    q.a += 1;
    Pair r = g;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            out[i * 3 + j] = m[i][j] + table[i][j];
    out[6] = q.a;
    out[7] = r.a;
    fout[0] = q.b[0] + q.b[1];
    fout[1] = r.b[1];
}`
	out := zeros[int32](t, d, 8)
	fout := zeros[float32](t, d, 2)
	launch(t, kernel(t, d, src, "agg"), 1, 1, out, fout)
	if got, want := download(t, out), []int32{11, 22, 33, 44, 5, 6, 2, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("ints %v, want %v", got, want)
	}
	if got, want := download(t, fout), []float32{5, 1.5}; !reflect.DeepEqual(got, want) {
		t.Errorf("floats %v, want %v", got, want)
	}
}

// TestParallelBatchesReplay runs kernels whose blocks run side by side on
// the host's cores with one core and with two: every result, counter and
// modelled time must be the same.
func TestParallelBatchesReplay(t *testing.T) {
	in := make([]float32, 1<<18)
	for i := range in {
		in[i] = 1 + float32(i%1000)*0.001
	}
	run := func(name string) (float32, gpu.Counters, float64, string) {
		d := open(t, "sim:t4?seed=11")
		total := zeros[float32](t, d, 1)
		res := launch(t, courseKernel(t, d, "day26_sums.cu", name), len(in)/256, 256, upload(t, d, in), total, uint64(len(in)))
		return download(t, total)[0], *res.Counters, res.Timing.Ms, fmt.Sprint(res.Diagnostics)
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	for _, name := range []string{"sumGlobalAtomic", "sumSharedAtomic", "sumTreeAtomic"} {
		runtime.GOMAXPROCS(1)
		s1, c1, t1, d1 := run(name)
		runtime.GOMAXPROCS(2)
		s2, c2, t2, d2 := run(name)
		if math.Float32bits(s1) != math.Float32bits(s2) || !reflect.DeepEqual(c1, c2) || t1 != t2 || d1 != d2 {
			t.Errorf("%s: one core and two differ: sum %v vs %v, time %v vs %v\n%+v\n%+v", name, s1, s2, t1, t2, c1, c2)
		}
	}
}

// TestBarrierWaitCycles: warps that reach a __syncthreads early wait for
// the block's slowest warp, and the counter adds up that wait.
func TestBarrierWaitCycles(t *testing.T) {
	d := open(t, "sim:t4?order=deterministic")
	src := `__global__ void wait(float* out, int work) {
    float v = threadIdx.x;
    if (threadIdx.x < 32) for (int i = 0; i < work; i++) v = v * 0.5f + 1.0f;
    __syncthreads();
    out[threadIdx.x] = v;
}`
	k := kernel(t, d, src, "wait")
	out := zeros[float32](t, d, 256)
	wait := func(work int) int64 {
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(256)}, out, work)
		if err != nil {
			t.Fatal(err)
		}
		return res.Counters.BarrierWaitCycles
	}
	balanced, skewed := wait(0), wait(1000)
	// Seven warps wait while warp 0 runs 1000 dependent iterations.
	if skewed < 7*1000*4 || skewed <= 10*balanced {
		t.Errorf("barrier wait %d warp-cycles with one slow warp, %d balanced", skewed, balanced)
	}
}
