// The fourth way to sum an array in the H200 table of
// docs/measurements.md: each warp adds its 32 values with
// shuffles, the warps' totals meet in shared memory, the first warp adds
// those, and one thread per block does the single global atomicAdd.
constexpr unsigned int kThreadsPerBlock = 256;
constexpr unsigned int kWarps = kThreadsPerBlock / 32;

__global__ void sumShuffleAtomic(const float* __restrict__ in,
                                 float* __restrict__ total, size_t n) {
    __shared__ float warpTotals[kWarps];
    const unsigned int tid = threadIdx.x;
    const unsigned int lane = tid % 32;
    const unsigned int warp = tid / 32;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;

    float v = (i < n) ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if (lane == 0) {
        warpTotals[warp] = v;
    }
    __syncthreads();

    if (warp == 0) {
        v = (lane < kWarps) ? warpTotals[lane] : 0.0f;
        for (int offset = kWarps / 2; offset > 0; offset /= 2) {
            v += __shfl_down_sync(0xffffffffu, v, offset);
        }
        if (lane == 0) {
            atomicAdd(total, v);
        }
    }
}
