// One counter: stream compaction. Every element that passes the filter
// (its value is odd) takes a ticket from one global counter and is written
// to out[ticket]. The three kernels hand out the same tickets; they differ
// in who asks the counter.

// compactAtomic: every kept element asks the counter itself. The address
// is the same for the whole warp and the value is 1, so nvcc already turns
// this into one atomic per warp plus a warp prefix sum of the kept lanes.
__global__ void compactAtomic(const int* in, int n, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (in[i] & 1)) {
        unsigned ticket = atomicAdd(count, 1u);
        out[ticket] = in[i];
    }
}

// compactBallot: the same aggregation written by hand. The kept lanes vote;
// the lowest of them takes popc(votes) tickets at once and broadcasts the
// first; each lane adds the number of kept lanes below it.
__global__ void compactBallot(const int* in, int n, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && (in[i] & 1);
    unsigned votes = __ballot_sync(0xffffffffu, keep);
    if (keep) {
        int leader = __ffs(votes) - 1;
        unsigned first = 0;
        if (lane == leader) first = atomicAdd(count, (unsigned)__popc(votes));
        first = __shfl_sync(votes, first, leader);
        unsigned below = votes & ((1u << lane) - 1u);
        out[first + __popc(below)] = in[i];
    }
}

// atomicAggInc: increments *ptr by one for every active lane that calls it
// and returns to each the value a lone atomicAdd(ptr, 1) would have given
// it. The lanes are grouped by address with __match_any_sync; each group's
// lowest lane adds the group's size once and shares the old value.
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

// compactAggInc: compaction through atomicAggInc; with one counter every
// kept lane of a warp is in one group.
__global__ void compactAggInc(const int* in, int n, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (in[i] & 1)) {
        out[atomicAggInc(count)] = in[i];
    }
}

// compactHidden: compactAtomic with the counter's address read from memory
// (slot[i] is always 0). The hardware does the same work per element, but
// the compiler can no longer prove the address is one: every kept lane
// sends its own atomic. This is what compactAtomic would cost without the
// compiler's aggregation.
__global__ void compactHidden(const int* in, int n, const int* slot, unsigned* count, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (in[i] & 1)) {
        unsigned ticket = atomicAdd(&count[slot[i]], 1u);
        out[ticket] = in[i];
    }
}
