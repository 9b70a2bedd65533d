// Level 2, registers: the register cache. Each warp adds its 32 values in
// five shuffle steps without touching memory; lane 0 of each warp leaves
// the warp's sum in shared memory; after one barrier, the first warp adds
// those sums with shuffles too, and one thread sends the block's total to
// the global accumulator. The block size must be a multiple of 32.
// The five steps are written out, as nvcc would unroll a loop over them:
// after each, lane i holds the sum of twice as many lanes' values.
__device__ float warpTotal(float v) {
    v += __shfl_down_sync(0xffffffff, v, 16);
    v += __shfl_down_sync(0xffffffff, v, 8);
    v += __shfl_down_sync(0xffffffff, v, 4);
    v += __shfl_down_sync(0xffffffff, v, 2);
    v += __shfl_down_sync(0xffffffff, v, 1);
    return v;
}

__global__ void denomShuffle(const float* x, float* denom, int n) {
    __shared__ float warpSums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int warps = blockDim.x / 32;

    float v = 0.0f;
    if (i < n) {
        v = expf(x[i]);
    }
    v = warpTotal(v);
    if (lane == 0) {
        warpSums[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        v = 0.0f;
        if (lane < warps) {
            v = warpSums[lane];
        }
        v = warpTotal(v);
        if (lane == 0) {
            atomicAdd(denom, v);
        }
    }
}
