// sumShared: privatise the accumulator. Each block adds its elements into a
// float of its own in shared memory, then one thread sends the block's
// partial sum to the global total: n shared atomics spread over the blocks,
// and one global atomic per block (n / blockDim.x in all).
//
// A shared float atomicAdd compiles to a compare-and-swap loop, so lanes
// of a warp that hit the same address retry one after another.
__global__ void sumShared(const float* __restrict__ in,
                          float* __restrict__ total, size_t n) {
    __shared__ float blockTotal;

    const unsigned int t = threadIdx.x;
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + t;

    if (t == 0) {
        blockTotal = 0.0f;
    }
    // An atomic is not a barrier: without this one, a thread could add
    // into blockTotal before thread 0 has cleared it.
    __syncthreads();

    if (i < n) {
        atomicAdd(&blockTotal, in[i]);
    }
    // Every add of the block must land before thread 0 reads the total.
    __syncthreads();

    if (t == 0) {
        atomicAdd(total, blockTotal);
    }
}
