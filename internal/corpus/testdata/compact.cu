// Stream compaction with warp-aggregated reservations: each warp counts
// its kept elements, one lane reserves room for them with an atomic_ref,
// and every kept element is written after the warp's earlier ones. The
// predicate is a lambda; the warp count uses __reduce_add_sync where the
// architecture has it and a shuffle reduction elsewhere.
#include <cuda/atomic>

__device__ unsigned warpCount(unsigned mask, unsigned keep) {
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(mask, keep);
#else
    unsigned v = keep;
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(mask, v, d);
    return v;
#endif
}

__global__ void compact(const int* in, int n, int threshold, int* out, unsigned* count) {
    dim3 block = blockDim;
    unsigned stride = block.x * gridDim.x;
    auto keepIt = [threshold](int v) { return v >= threshold && (v & 1) == 0; };
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> total(*count);
    unsigned lane = threadIdx.x & 31;
    // Every lane of a warp runs the same number of rounds, so the whole
    // warp takes part in each reduction and shuffle.
    unsigned first = blockIdx.x * block.x + (threadIdx.x & ~31u);
    for (unsigned base = first; base < (unsigned)n; base += stride) {
        unsigned i = base + lane;
        int v = i < (unsigned)n ? in[i] : 0;
        unsigned keep = i < (unsigned)n && keepIt(v);
        unsigned ballot = __ballot_sync(0xffffffffu, keep);
        unsigned warpTotal = warpCount(0xffffffffu, keep);
        unsigned start = 0;
        if (lane == 0 && warpTotal > 0) start = total.fetch_add(warpTotal, cuda::memory_order_relaxed);
        start = __shfl_sync(0xffffffffu, start, 0);
        if (keep) out[start + __popc(ballot & ((1u << lane) - 1))] = v;
    }
}
