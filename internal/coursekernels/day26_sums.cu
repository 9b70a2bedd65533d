// From the Day 26 course page ("Day 26, Module 3: CUDA atomicAdd and what
// contention costs"), section "Three ways to add up an array": one sum
// three ways (global atomic, shared atomic, shared tree + one atomic per
// block).

// Added: the page's program defines the block size elsewhere; the
// exercise changes it to 64 and 1024.
constexpr unsigned int kThreadsPerBlock = 256;

__global__ void sumGlobalAtomic(const float* __restrict__ in,
                                float* __restrict__ total, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        atomicAdd(total, in[i]);
    }
}

__global__ void sumSharedAtomic(const float* __restrict__ in,
                                float* __restrict__ total, size_t n) {
    __shared__ float blockSum;

    const unsigned int tid = threadIdx.x;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;

    if (tid == 0) {
        blockSum = 0.0f;
    }
    __syncthreads();

    if (i < n) {
        atomicAdd(&blockSum, in[i]);
    }
    __syncthreads();

    if (tid == 0) {
        atomicAdd(total, blockSum);
    }
}

__global__ void sumTreeAtomic(const float* __restrict__ in,
                              float* __restrict__ total, size_t n) {
    __shared__ float tile[kThreadsPerBlock];

    const unsigned int tid = threadIdx.x;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;

    tile[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int half = kThreadsPerBlock / 2; half > 0; half /= 2) {
        if (tid < half) {
            tile[tid] += tile[tid + half];
        }
        __syncthreads();
    }

    if (tid == 0) {
        atomicAdd(total, tile[0]);
    }
}
