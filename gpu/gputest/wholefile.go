package gputest

// wholeFileSrc is a whole .cu file as people write one: includes, a
// host-side error-checking macro, host globals, a host helper, main with
// cudaMalloc and a launch. Its host code is skipped and its kernel runs.
const wholeFileSrc = `
#include <cstdio>
#include <vector>
#include <iostream>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    std::cerr << cudaGetErrorString(err_) << std::endl; exit(1); } } while (0)

constexpr int kBlock = 128;
static std::vector<float> hostData;
float* d_in = nullptr;

__device__ float square(float x) { return x * x; }

__global__ void squares(const float* in, float* out, int n) {
    int i = blockIdx.x * kBlock + threadIdx.x;
    if (i < n) out[i] = square(in[i]);
}

template <typename T>
void fill(std::vector<T>& v, T start) {
    for (auto& x : v) x = start++;
}

class Timer {
public:
    Timer() { cudaEventCreate(&start_); }
private:
    cudaEvent_t start_;
};

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    hostData.resize(n);
    fill(hostData, 0.0f);
    float* d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, hostData.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    squares<<<(n + kBlock - 1) / kBlock, kBlock>>>(d_in, d_out, n);
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
`

// testWholeFile runs a kernel from a file that also holds host code.
func testWholeFile(e *env) {
	const n = 300
	in := make([]float32, n)
	for i := range in {
		in[i] = float32(i%50) - 20
	}
	out := zeros[float32](e, n)
	e.launch(e.kernel(wholeFileSrc, "squares"), (n+127)/128, 128, upload(e, in), out, int32(n))
	got := download(e, out)
	for i, v := range in {
		if got[i] != v*v {
			e.Fatalf("out[%d] = %v, want %v", i, got[i], v*v)
		}
	}
}

const defaultArgsSrc = `
__global__ void fillDefaults(int* out, int n, int value = -7, float scale = 0.5f, double offset = 2.0) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value + (int)(scale * 4.0f) + (int)offset;
}`

// testKernelDefaultArguments launches with trailing arguments left to
// their defaults.
func testKernelDefaultArguments(e *env) {
	k := e.kernel(defaultArgsSrc, "fillDefaults")
	out := zeros[int32](e, 4)
	e.launch(k, 1, 32, out, int32(4))
	sameSlice(e, "all defaults", download(e, out), []int32{-3, -3, -3, -3})
	e.launch(k, 1, 32, out, int32(4), int32(10), float32(1))
	sameSlice(e, "two given", download(e, out), []int32{16, 16, 16, 16})
}
