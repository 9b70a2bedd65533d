package cudac

import (
	"strings"
	"sync"
	"testing"
)

const sumTreeSrc = `constexpr unsigned int kBlock = 128;

template <unsigned int N>
__device__ float warpSum(float v) {
    for (int off = N / 2; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

template <int N>
__global__ void sumTree(const float* in, float* total, size_t n) {
    __shared__ float tile[N];
    const unsigned int tid = threadIdx.x;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;
    tile[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned half = N / 2; half > 0; half /= 2) {
        if (tid < half) tile[tid] += tile[tid + half];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(total, warpSum<32>(tile[0]));
}

template <unsigned int N, int M = 2>
__global__ void reduce(float* out) {
    static_assert(N % 32 == 0, "N must be a multiple of 32");
    float acc[M] = {};
    out[threadIdx.x] = N * M + acc[0];
}

__global__ void plain(float* out) { out[0] = warpSum<16>(out[1]); }
`

func TestTemplates(t *testing.T) {
	p, err := Compile("tmpl.cu", []byte(sumTreeSrc))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(p.KernelNames(), " "), "sumTree<N> reduce<N, M> plain"; got != want {
		t.Errorf("KernelNames = %q, want %q", got, want)
	}
	if p.Func("sumTree") != nil || p.Func("warpSum") != nil {
		t.Errorf("Func returned a template")
	}
	if got := len(p.Funcs); got != 1 {
		t.Errorf("len(Funcs) = %d, want 1 (only plain)", got)
	}
	f, err := p.Kernel("sumTree<256>")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Signature(), "sumTree<256>(const float* in, float* total, size_t n)"; got != want {
		t.Errorf("Signature = %q, want %q", got, want)
	}
	if got, want := f.Shared[0].T.String(), "float[256]"; got != want {
		t.Errorf("tile is %s, want %s", got, want)
	}
	if got, want := Dump(f.Body.Stmts[5]), "for decl unsigned int half = 128:unsigned int; (> half 0:unsigned int):bool; (/= half 2:unsigned int)<unsigned int>:unsigned int"; !strings.HasPrefix(got, want) {
		t.Errorf("loop = %q, want prefix %q", got, want)
	}
	// The same instance, however the name is spelt.
	for _, name := range []string{"sumTree<256>", "sumTree< 256 >", "sumTree<256u>", "sumTree<0x100>", "sumTree<kBlock * 2>", " sumTree<2*128ull> "} {
		g, err := p.Kernel(name)
		if err != nil {
			t.Errorf("Kernel(%q): %v", name, err)
		} else if g != f {
			t.Errorf("Kernel(%q) is a different instance from sumTree<256>", name)
		}
	}
	// The device template instantiated inside.
	call := f.Body.Stmts[len(f.Body.Stmts)-1].(*If).Then.(*ExprStmt).X.(*BuiltinCall).Args[1].(*Call)
	if got, want := call.Func.Name, "warpSum<32>"; got != want {
		t.Errorf("called %q, want %q", got, want)
	}
	if got, want := Dump(call.Func.Body.Stmts[0]), "for decl int off = 16:int; (> off 0:int):bool; (>>= off 1:int)<int>:int"; !strings.HasPrefix(got, want) {
		t.Errorf("warpSum<32> loop = %q, want prefix %q", got, want)
	}
	plain := p.Func("plain")
	if got := plain.Body.Stmts[0].(*ExprStmt).X.(*Assign).RHS.(*Call).Func.Name; got != "warpSum<16>" {
		t.Errorf("plain calls %q, want warpSum<16>", got)
	}

	r, err := p.Kernel("reduce<64>")
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "reduce<64, 2>" {
		t.Errorf("default argument instance named %q, want reduce<64, 2>", r.Name)
	}
	if r2, _ := p.Kernel("reduce<64,2>"); r2 != r {
		t.Errorf("reduce<64,2> is a different instance from reduce<64>")
	}
	if got, want := Dump(r.Body.Stmts[1]), "(= (index out (conv threadIdx.x):long long):float (+ 128:float (index (conv acc):float* 0:long long):float):float):float"; got != want {
		t.Errorf("reduce body:\n got %s\nwant %s", got, want)
	}
}

func TestTemplateErrors(t *testing.T) {
	p, err := Compile("tmpl.cu", []byte(sumTreeSrc))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{
		{"nosuch", `cudac: no kernel named "nosuch" in tmpl.cu (kernels: sumTree<N>, reduce<N, M>, plain)`},
		{"sumTree", `cudac: kernel "sumTree" is a template: instantiate it as sumTree<N>`},
		{"plain<3>", `cudac: kernel "plain" is not a template (kernels: sumTree<N>, reduce<N, M>, plain)`},
		{"sumTree<256", `cudac: bad kernel name "sumTree<256": missing '>'`},
		{"sumTree<0>", "tmpl.cu:12:27: array size must be positive (it is 0) (in instantiation of 'sumTree<0>')\n        __shared__ float tile[N];\n                              ^"},
		{"reduce<48>", "tmpl.cu:26:5: static assertion failed: N must be a multiple of 32 (in instantiation of 'reduce<48, 2>')\n        static_assert(N % 32 == 0, \"N must be a multiple of 32\");\n        ^"},
		{"reduce<-1>", "kernel name:1:8: template argument -1 for 'N' does not fit its type 'unsigned int'\n    reduce<-1>\n           ^"},
		{"sumTree<1.5>", "kernel name:1:9: template argument 1 of 'sumTree' is not an integer constant expression\n    sumTree<1.5>\n            ^"},
		{"sumTree<x>", "kernel name:1:9: undeclared identifier 'x'\n    sumTree<x>\n            ^"},
		{"sumTree<1,2>", "kernel name:1:9: too many template arguments for 'sumTree' (want 1, have 2)\n    sumTree<1,2>\n            ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := p.Kernel(tt.name)
			if err == nil {
				t.Fatalf("Kernel(%q) = %v, want an error", tt.name, f.Name)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Kernel(%q) error:\n%s\nwant:\n%s", tt.name, got, tt.want)
			}
			// A failed instantiation fails the same way again.
			if _, err2 := p.Kernel(tt.name); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("second Kernel(%q) error = %v, want the same error", tt.name, err2)
			}
		})
	}
}

func TestTemplateRecursionAndConcurrency(t *testing.T) {
	src := `template <int N> __device__ int fact(int x) { return N <= 1 ? 1 : N * fact<N - 1>(x); }
template <int N> __global__ void k(int* out) { out[0] = fact<N>(1); }
`
	p, err := Compile("r.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Kernel("k<4>")
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("Kernel(k<4>) error = %v, want instantiation depth error", err)
	}

	p, err = Compile("tmpl.cu", []byte(sumTreeSrc))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	fns := make([]*Func, 8)
	for i := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fns[i], _ = p.Kernel("sumTree<512>")
		}()
	}
	wg.Wait()
	for _, f := range fns {
		if f == nil || f != fns[0] {
			t.Fatalf("concurrent Kernel calls returned %v", fns)
		}
	}
}

func TestExplicitInstantiation(t *testing.T) {
	src := `template <int N> __global__ void k(float* out) { out[0] = N; }
template __global__ void k<8>(float* out);
`
	p, err := Compile("x.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Kernel("k<8>"); err != nil {
		t.Error(err)
	}
	_, err = Compile("x.cu", []byte(`template <int N> __global__ void k(float* out) { float a[N]; }
template __global__ void k<0>(float* out);
`))
	if err == nil || !strings.Contains(err.Error(), "x.cu:1:58: array size must be positive (it is 0) (in instantiation of 'k<0>')") {
		t.Errorf("explicit instantiation error = %v", err)
	}
}

// A device template instance that failed once fails every later caller.
func TestFailedInstanceStaysFailed(t *testing.T) {
	src := `template <int N> __device__ int f() { int a[N]; return a[0]; }
template <int N> __global__ void k(int* o) { o[0] = f<N - N>(); }
`
	p, err := Compile("f.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Kernel("k<1>")
	if err == nil || !strings.Contains(err.Error(), "f.cu:1:45: array size must be positive (it is 0) (in instantiation of 'f<0>')") {
		t.Errorf("Kernel(k<1>) error = %v", err)
	}
	_, err = p.Kernel("k<2>")
	want := "f.cu:2:53: 'f<0>' cannot be instantiated: f.cu:1:45: array size must be positive (it is 0) (in instantiation of 'f<0>') (in instantiation of 'k<2>')"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Kernel(k<2>) error = %v, want %q", err, want)
	}
}

func TestTemplateNamesAtDefinition(t *testing.T) {
	src := `template <int N>
__global__ void k(float* out) {
    int tid = threadIdx.x;
    enum { A = 1 };
    for (int i = 0; i < N; i++) out[tidd] = i + A + warpSize;
}
`
	_, err := Compile("n.cu", []byte(src))
	want := "n.cu:5:37: undeclared identifier 'tidd' (did you mean 'tid'?)\n        for (int i = 0; i < N; i++) out[tidd] = i + A + warpSize;\n                                        ^"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
	// Names declared after the template are not visible in it (C++ binds
	// them at the definition).
	src = "template <int N> __device__ int f() { return g(); }\n__device__ int g() { return 1; }\n"
	_, err = Compile("n.cu", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "n.cu:1:46: undeclared identifier 'g'") {
		t.Errorf("error = %v", err)
	}
}
