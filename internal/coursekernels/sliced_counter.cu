// From the counters-and-aggregates course notes ("Atomics and Contention
// in Counters and Aggregates"), section "Aggregating before the atomic": a
// count reduced per warp with shuffles, then one atomic per warp into one
// of nslices counters, each padded to its own 128-byte line.

// One padded counter per slice; each occupies its own 128-byte line.
struct alignas(128) PaddedCount { unsigned long long v; };

__global__ void count_matches(const int* data, size_t n, int key,
                              PaddedCount* slices, int nslices) {
    unsigned long long local = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += (size_t)blockDim.x * gridDim.x) {
        local += (data[i] == key);
    }
    for (int off = 16; off > 0; off >>= 1)
        local += __shfl_down_sync(0xffffffffu, local, off);
    if ((threadIdx.x & 31) == 0) {
        // Blocks are spread across slices; one atomic per warp per slice.
        unsigned long long* p = &slices[blockIdx.x % nslices].v;
        atomicAdd(p, local);
    }
}
