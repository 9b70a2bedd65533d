// sumTree<BLOCK>: no atomics inside the block at all. The block loads its
// BLOCK elements into shared memory and halves the active threads at each
// step, each adding the element BLOCK/2, BLOCK/4, ... places above it:
// log2(BLOCK) steps, one barrier each. Thread 0 then sends the block's sum
// to the global total with the only atomic: one per block, as in sumShared.
//
// The block size is a template parameter because it sizes the shared
// array; launch sumTree<256> with 256 threads per block.
template <unsigned int BLOCK>
__global__ void sumTree(const float* __restrict__ in,
                        float* __restrict__ total, size_t n) {
    static_assert(BLOCK >= 1 && (BLOCK & (BLOCK - 1)) == 0,
                  "sumTree halves the block at each step: BLOCK must be a power of two");
    __shared__ float part[BLOCK];

    const unsigned int t = threadIdx.x;
    const size_t i = static_cast<size_t>(blockIdx.x) * BLOCK + t;

    // Threads past the end add nothing.
    part[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            part[t] += part[t + stride];
        }
        __syncthreads();
    }

    if (t == 0) {
        atomicAdd(total, part[0]);
    }
}
