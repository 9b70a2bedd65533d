// Level 1, shared memory: each block adds its threads' exp(x) into one
// float of its own in shared memory (a shared atomic per element, spread
// over the blocks), then one thread sends the block's total to the global
// accumulator: n / blockDim.x global atomics.
__global__ void denomShared(const float* x, float* denom, int n) {
    __shared__ float blockSum;
    if (threadIdx.x == 0) {
        blockSum = 0.0f;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&blockSum, expf(x[i]));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(denom, blockSum);
    }
}
