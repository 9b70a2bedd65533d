// From the atomics-vs-warp-shuffle course notes ("Atomic Operations, Warp
// Shuffle, and the Register Cache: A Deep Dive with Online Softmax"),
// section "Applying the Register Cache to Online Softmax": the softmax
// denominator Z = sum(exp(x)) with one atomicAdd per thread, and with a
// warp shuffle tree and one atomicAdd per block.

// Added: the article uses 256-thread blocks, so 8 warps per block.
#define WARPS_PER_BLOCK 8

__global__ void onlineSoftmaxDenom_Atomic(
    const float* input, float* denom, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        float val = expf(input[tid]);
        atomicAdd(denom, val);  // N = 16M threads, one address - maximum contention
    }
}

__global__ void onlineSoftmaxDenom_WarpShuffle(
    const float* input, float* denom, int n)
{
    __shared__ float warp_partial[WARPS_PER_BLOCK];
    int tid     = blockIdx.x * blockDim.x + threadIdx.x;
    int lane    = threadIdx.x & 31;
    int warp_id = threadIdx.x >> 5;

    float val = (tid < n) ? expf(input[tid]) : 0.0f;

    val += __shfl_down_sync(0xffffffff, val, 16);
    val += __shfl_down_sync(0xffffffff, val, 8);
    val += __shfl_down_sync(0xffffffff, val, 4);
    val += __shfl_down_sync(0xffffffff, val, 2);
    val += __shfl_down_sync(0xffffffff, val, 1);

    if (lane == 0) warp_partial[warp_id] = val;
    __syncthreads();

    if (warp_id == 0) {
        float block_val = (lane < WARPS_PER_BLOCK) ? warp_partial[lane] : 0.0f;
        block_val += __shfl_down_sync(0xffffffff, block_val, 4);
        block_val += __shfl_down_sync(0xffffffff, block_val, 2);
        block_val += __shfl_down_sync(0xffffffff, block_val, 1);
        if (lane == 0) atomicAdd(denom, block_val);
    }
}
