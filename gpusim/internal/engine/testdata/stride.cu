// Grid-stride loops for the unroll decision (engine's
// TestRuntimeStepNotUnrolled) and their timing (gpusim's
// TestGridStrideForms): the stride computed in the loop's step, the same
// loop with the stride in a local, and a loop of constant step.
__global__ void inline_stride(const int* in, int n, unsigned* out) {
    unsigned s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void local_stride(const int* in, int n, unsigned* out) {
    unsigned s = 0;
    const int threads = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) s += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void const_stride(const int* in, int n, unsigned* out) {
    unsigned s = 0;
    for (int i = threadIdx.x; i < n; i += 256) s += in[i];
    out[threadIdx.x] = s;
}
