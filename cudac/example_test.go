package cudac_test

import (
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/warplab/warplab/cudac"
)

func ExampleCompile() {
	src := `
constexpr unsigned int kThreadsPerBlock = 256;

__global__ void sumGlobalAtomic(const float* __restrict__ in,
                                float* __restrict__ total, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        atomicAdd(total, in[i]);
    }
}
`
	prog, err := cudac.Compile("sum.cu", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := prog.Kernel("sumGlobalAtomic")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(k.Signature())
	// Output: sumGlobalAtomic(const float* in, float* total, size_t n)
}

func ExampleCompile_error() {
	src := `__global__ void k(const float* in, float* out, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tidd < n) out[tid] = in[tid];
}
`
	_, err := cudac.Compile("copy.cu", []byte(src))
	fmt.Println(err)
	// Output:
	// copy.cu:3:9: undeclared identifier 'tidd' (did you mean 'tid'?)
	//         if (tidd < n) out[tid] = in[tid];
	//             ^
}

func ExampleProgram_Kernel() {
	src := `
template <unsigned int N>
__global__ void sumTree(const float* in, float* total, size_t n) {
    __shared__ float tile[N];
    unsigned tid = threadIdx.x;
    tile[tid] = tid < n ? in[tid] : 0.0f;
}
`
	prog, err := cudac.Compile("tree.cu", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prog.KernelNames())
	k, err := prog.Kernel("sumTree<256>")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(k.Signature(), k.Shared[0].T)
	// Output:
	// [sumTree<N>]
	// sumTree<256>(const float* in, float* total, size_t n) float[256]
}

func ExampleDump() {
	src := `__global__ void k(int i, size_t n, float* p) {
    p[i] += i < n;
}`
	prog, err := cudac.Compile("d.cu", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cudac.Dump(prog.Func("k")))
	// Output:
	// __global__ void k(int i, size_t n, float* p)
	// {
	//   (+= (index p (conv i):long long):float (conv (< (conv i):size_t n):bool):float)<float>:float
	// }
}

// Inspect walks a checked function: here it counts the atomics a kernel
// calls.
func ExampleInspect() {
	prog, err := cudac.Compile("count.cu", []byte(`
__global__ void count(const int* in, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[in[i] & 15], 1);
    if (i == 0) atomicAdd(&hist[16], n);
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := prog.Kernel("count")
	atomics := 0
	cudac.Inspect(k, func(n cudac.Node) bool {
		if b, ok := n.(*cudac.BuiltinCall); ok && b.Builtin.IsAtomic() {
			atomics++
		}
		return true
	})
	fmt.Println(atomics, "atomics")
	// Output: 2 atomics
}

// By default Compile reads no file: #include "name" is an error. IncludeFS
// (or IncludeRoot, for a directory tree) lets it read headers, and only
// those.
func ExampleIncludeFS() {
	headers := fstest.MapFS{"kernels/scale.cuh": {Data: []byte("#define SCALE 3\n")}}
	src := []byte("#include \"scale.cuh\"\n__global__ void k(int* p) { p[0] = SCALE; }\n")
	if _, err := cudac.Compile("kernels/main.cu", src); err != nil {
		fmt.Println(err)
	}
	if _, err := cudac.Compile("kernels/main.cu", src, cudac.IncludeFS(headers)); err == nil {
		fmt.Println("compiled with kernels/scale.cuh")
	}
	_, err := cudac.Compile("kernels/main.cu", []byte("#include \"/etc/passwd\"\n"), cudac.IncludeFS(headers))
	fmt.Println(strings.SplitN(err.Error(), "\n", 2)[0])
	// Output:
	// kernels/main.cu:1:10: #include "scale.cuh": this compilation reads no files (a kernel a lab checks or the grader compiles includes nothing: put the code in the source)
	//     #include "scale.cuh"
	//              ^
	// compiled with kernels/scale.cuh
	// kernels/main.cu:1:10: #include "/etc/passwd": an absolute path; #include reads only files beside the source
}
