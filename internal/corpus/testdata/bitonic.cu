// A bitonic sort of one block's keys in shared memory; the
// compare-and-exchange takes its two keys by reference.
#define KEYS 256

__device__ __forceinline__ void compareExchange(unsigned int& a, unsigned int& b, bool ascending) {
    if ((a > b) == ascending) {
        unsigned int t = a;
        a = b;
        b = t;
    }
}

__global__ void bitonicSortBlock(unsigned int* keys) {
    __shared__ unsigned int s[KEYS];
    unsigned int* mine = keys + blockIdx.x * KEYS;
    for (int i = threadIdx.x; i < KEYS; i += blockDim.x) s[i] = mine[i];
    __syncthreads();
    for (unsigned int size = 2; size <= KEYS; size <<= 1) {
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            for (unsigned int t = threadIdx.x; t < KEYS / 2; t += blockDim.x) {
                unsigned int lo = 2 * t - (t & (stride - 1));
                bool ascending = (lo & size) == 0;
                compareExchange(s[lo], s[lo + stride], ascending);
            }
            __syncthreads();
        }
    }
    for (int i = threadIdx.x; i < KEYS; i += blockDim.x) mine[i] = s[i];
}
