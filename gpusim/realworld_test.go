package gpusim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/internal/testenv"
)

// runF32 compiles src, launches kernel k<<<1, n>>>(out) and returns out.
func runF32(t *testing.T, src string, n int) []float32 {
	t.Helper()
	d := open(t, "sim:t4")
	k := kernel(t, d, src, "k")
	out := zeros[float32](t, d, n)
	launch(t, k, 1, n, out)
	return download(t, out)
}

// TestWholeFileHostCode runs files whose host code, in the shapes public
// repositories use, is skipped around the kernel: using-declarations,
// host string constants, function-pointer aliases, a typedef read twice,
// a parenthesised constexpr initializer and glibc's short type names.
func TestWholeFileHostCode(t *testing.T) {
	tests := []struct {
		name, src string
		want      float32
	}{
		{"using-declaration", "#include <iostream>\nusing std::cout;\nusing std::endl;\n" +
			"__global__ void k(float *out) { out[threadIdx.x] = 2; }\n" +
			"int main() { cout << 1 << endl; }\n", 2},
		{"host string constant", "static const char *usage = \"usage: prog N\";\nconst char *names[] = {\"a\", \"b\"};\n" +
			"__global__ void k(float *out) { out[threadIdx.x] = 3; }\n", 3},
		{"function-pointer alias", "using reduction_func_t = float (*)(float);\ntypedef float (*binop_t)(float, float);\n" +
			"float twice(float x) { return 2 * x; }\nfloat apply(reduction_func_t f, float x) { return f(x); }\n" +
			"__global__ void k(float *out) { out[threadIdx.x] = 4; }\n", 4},
		{"typedef twice", "typedef unsigned int myuint;\ntypedef float real;\ntypedef unsigned int myuint;\ntypedef float real;\n" +
			"__global__ void k(float *out) { myuint i = threadIdx.x; out[i] = (real)i; }\n", -1},
		{"parenthesised constexpr", "constexpr int WARPS = (128 / 32);\nconst int LANES = (32);\nstatic constexpr float SCALE = (0.5f * 2);\n" +
			"__global__ void k(float *out) { out[threadIdx.x] = WARPS * LANES * SCALE; }\n", 128},
		{"glibc names", "__global__ void k(float *out) { uint i = threadIdx.x; ushort s = 1; ulong l = 2; u_int u = 3; out[i] = i + s + l + u; }\n", -2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runF32(t, tc.src, 4)
			for i, v := range got {
				want := tc.want
				switch want {
				case -1:
					want = float32(i)
				case -2:
					want = float32(i + 6)
				}
				if v != want {
					t.Fatalf("out[%d] = %v, want %v", i, v, want)
				}
			}
		})
	}
}

// TestFuncPtrAliasInDeviceCode: device code that uses a function-pointer
// alias is refused with the construct named.
func TestFuncPtrAliasInDeviceCode(t *testing.T) {
	d := open(t, "sim:t4")
	for _, src := range []string{
		"using op_t = float (*)(float);\n__global__ void k(float *out) {\n  op_t f = 0;\n  out[0] = 1;\n}\n",
		"typedef float (*op_t)(float);\n__device__ float g(op_t f, float x) { return x; }\n__global__ void k(float *out) { out[0] = 1; }\n",
	} {
		_, err := d.Compile("fp.cu", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "'op_t' is a function pointer type: function pointers are not supported in device code") {
			t.Errorf("%q: got %v, want the function pointer type named", src, err)
		}
	}
}

// TestBraceValuesAndNamespaces runs brace-initialised arguments and
// returns, cg::plus<T>{}, the program's own namespaces and __VA_OPT__.
func TestBraceValuesAndNamespaces(t *testing.T) {
	tests := []struct {
		name, src string
		want      func(i int) float32
	}{
		{"return {a, b}", "struct P { float a, b; };\n__device__ P mk(float a) { return {a, a + 1}; }\n" +
			"__device__ float2 mk2(float a) { return {a, 2 * a}; }\n" +
			"__global__ void k(float *out) { P p = mk(threadIdx.x); out[threadIdx.x] = p.b + mk2(threadIdx.x).y; }\n",
			func(i int) float32 { return float32(3*i + 1) }},
		{"brace arguments", "struct P { float a, b; };\n__device__ float s(P p, float2 q, int r) { return p.a * p.b + q.x - q.y + r; }\n" +
			"__global__ void k(float *out) { float i = threadIdx.x; out[threadIdx.x] = s({2.f, i}, {i, 1.f}, {5}); }\n",
			func(i int) float32 { return float32(3*i + 4) }},
		{"cg::plus<float>{}", "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n" +
			"__global__ void k(float *out) {\n  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n" +
			"  out[threadIdx.x] = cg::reduce(tile, float(threadIdx.x), cg::plus<float>{});\n}\n",
			func(i int) float32 { return 496 }},
		{"namespaces", "namespace util {\n__device__ float twice(float x) { return 2 * x; }\nnamespace detail { constexpr int K = 3; }\n" +
			"void host_only() {}\n}\nnamespace { __device__ int one() { return 1; } }\nnamespace u = util;\nnamespace a::b { __device__ int seven() { return 7; } }\n" +
			"__global__ void k(float *out) { out[threadIdx.x] = util::twice(threadIdx.x) + util::detail::K + one() + u::twice(1) + a::b::seven(); }\n",
			func(i int) float32 { return float32(2*i + 13) }},
		{"__VA_OPT__", "#define LOG(fmt, ...) printf(fmt __VA_OPT__(,) __VA_ARGS__)\n" +
			"__global__ void k(float *out) { if (threadIdx.x == 0) { LOG(\"start\\n\"); LOG(\"%d\\n\", 5); } out[threadIdx.x] = 1; }\n",
			func(i int) float32 { return 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runF32(t, tc.src, 32)
			for i, v := range got {
				if want := tc.want(i); v != want {
					t.Fatalf("out[%d] = %v, want %v", i, v, want)
				}
			}
		})
	}
}

// straightLine is a kernel of n statements with no branch.
func straightLine(n int) []byte {
	var b strings.Builder
	b.WriteString("__global__ void k(float *out) {\n  float x = threadIdx.x;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  x = x * 1.0001f + %d.0f;\n", i%7)
	}
	b.WriteString("  out[threadIdx.x] = x;\n}\n")
	return []byte(b.String())
}

// TestStraightLineKernelScales checks that compiling and running a
// kernel of n straight-line statements costs time linear in n: four
// times the statements cost well under 16 times the CPU time (a search
// over the instructions that scanned them all for each one made a
// 50,000-statement kernel take minutes). The CPU time of the whole
// process is measured, the least of three tries, so that other load
// on the machine does not count.
func TestStraightLineKernelScales(t *testing.T) {
	if testenv.CPUTime() == 0 {
		t.Skip("no CPU time on this system")
	}
	d := open(t, "sim:t4")
	cost := func(n int) time.Duration {
		src := straightLine(n)
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := testenv.CPUTime()
			m, err := d.Compile("line.cu", src)
			if err != nil {
				t.Fatal(err)
			}
			k, err := m.Kernel("k")
			if err != nil {
				t.Fatal(err)
			}
			launch(t, k, 1, 32, zeros[float32](t, d, 32))
			best = min(best, testenv.CPUTime()-start)
		}
		return best
	}
	small, large := cost(2500), cost(10000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Errorf("10,000 statements cost %v of CPU time, 2,500 cost %v: %.1f times, want about 4 (linear)", large, small, ratio)
	}
}
