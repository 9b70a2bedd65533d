// counters.cu: one count, spread over k slices of an array of counters.
//
// Every thread adds 1 to slice s of c; the slices are `stride` words
// apart: stride 1 packs 32 four-byte slices into one 128-byte line, stride
// 32 gives each slice a line of its own. The rungs differ in who adds and
// how the slice is picked:
//
//   sliceByWarp   each thread adds 1; slice = global warp % k, so the
//                 32 lanes of a warp all hit one slice
//   sliceByLane   each thread adds 1; slice = global thread % k, so the
//                 lanes of a warp spread over min(k, 32) slices
//   perWarp       the warp sums its ones with shuffles; lane 0 adds the
//                 total to slice global warp % k: one atomic per warp
//   perBlock      the block sums in shared memory; thread 0 adds the
//                 block's total to slice block % k: one atomic per block
//
// The same kernels as calibration/microbench/counters.cu,
// which measured them on the H200.

__global__ void sliceByWarp(unsigned* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[((t >> 5) % k) * stride], 1u);
}

__global__ void sliceByLane(unsigned* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[(t % k) * stride], 1u);
}

__global__ void perWarp(unsigned* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = 1u;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[((t >> 5) % k) * stride], v);
}

__global__ void perBlock(unsigned* c, unsigned k, unsigned stride) {
    __shared__ unsigned warpSums[32];
    unsigned v = 1u;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += warpSums[w];
        atomicAdd(&c[(blockIdx.x % k) * stride], total);
    }
}

__global__ void sliceByWarpFloat(float* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[((t >> 5) % k) * stride], 1.0f);
}

__global__ void sliceByLaneFloat(float* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[(t % k) * stride], 1.0f);
}

__global__ void perWarpFloat(float* c, unsigned k, unsigned stride) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 1.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[((t >> 5) % k) * stride], v);
}

// The last rung, one add per grid, needs no atomic at all: blockPartials
// writes each block's total to partial[blockIdx.x], then sumPartials (one
// block) adds them up and stores the count in c[0]. Two launches.
__global__ void blockPartials(unsigned* partial) {
    __shared__ unsigned warpSums[32];
    unsigned v = 1u;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += warpSums[w];
        partial[blockIdx.x] = total;
    }
}

__global__ void sumPartials(const unsigned* partial, unsigned blocks, unsigned* c) {
    __shared__ unsigned warpSums[32];
    unsigned v = 0;
    for (unsigned i = threadIdx.x; i < blocks; i += blockDim.x) v += partial[i];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (unsigned w = 0; w < (blockDim.x + 31) / 32; ++w) total += warpSums[w];
        c[0] = total;
    }
}
