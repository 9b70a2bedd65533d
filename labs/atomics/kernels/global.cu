// sumGlobal: the naive sum. Thread i reads element i and adds it straight
// into the one global total, so a launch over n elements sends n atomic
// additions to a single address, however the grid is cut into blocks.
//
// The result of atomicAdd is not used, so nvcc emits a reduction (RED) per
// lane. Floats are not warp-aggregated: each lane's add reaches the L2 on
// its own.
__global__ void sumGlobal(const float* __restrict__ in,
                          float* __restrict__ total, size_t n) {
    // size_t arithmetic: blockIdx.x * blockDim.x overflows 32 bits past 4G.
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(total, in[i]);
    }
}
