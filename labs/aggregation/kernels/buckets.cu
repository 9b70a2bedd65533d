// Many counters: per-bucket append, the scatter pass of a counting sort.
// Element i belongs to bucket key[i]; bucket b owns out[start[b]] up to
// out[start[b] + size of b], and count[b] hands out its slots. The counter
// an element asks for depends on its data, so the compiler cannot see one
// address for the warp and aggregates nothing.

// bucketAtomic: every element asks its bucket's counter itself.
__global__ void bucketAtomic(const int* key, int n, const unsigned* start, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = key[i];
        unsigned slot = atomicAdd(&count[b], 1u);
        out[start[b] + slot] = i;
    }
}

// atomicAggInc: increments *ptr by one for every active lane that calls it
// and returns to each the value a lone atomicAdd(ptr, 1) would have given
// it. Lanes on one address form a group; each group's lowest lane adds the
// group's size once and shares the old value.
__device__ unsigned atomicAggInc(unsigned* ptr) {
    unsigned active = __activemask();
    unsigned group = __match_any_sync(active, (unsigned long long)ptr);
    int lane = threadIdx.x & 31;
    int leader = __ffs(group) - 1;
    unsigned first = 0;
    if (lane == leader) first = atomicAdd(ptr, (unsigned)__popc(group));
    first = __shfl_sync(group, first, leader);
    return first + __popc(group & ((1u << lane) - 1u));
}

// bucketAggInc: the same append through atomicAggInc: one atomic per
// distinct bucket in the warp.
__global__ void bucketAggInc(const int* key, int n, const unsigned* start, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = key[i];
        unsigned slot = atomicAggInc(&count[b]);
        out[start[b] + slot] = i;
    }
}
