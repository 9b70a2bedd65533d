// The reproducible exercise's answer the way cuda-samples'
// threadFenceReduction does it: each block writes its partial, the last
// block to finish adds them in index order. The lab's tests and the
// grader's read it.
__global__ void sum(const float* in, int n, float* out, float* partials, unsigned* done) {
    __shared__ float s[256];
    __shared__ int last;
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        float t = 0.0f;
        for (int j = threadIdx.x; j < gridDim.x; j += blockDim.x) t += partials[j];
        s[threadIdx.x] = t;
        __syncthreads();
        for (int h = blockDim.x / 2; h > 0; h >>= 1) {
            if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
            __syncthreads();
        }
        if (threadIdx.x == 0) *out = s[0];
    }
}
