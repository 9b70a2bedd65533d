// queue.cu: a global work queue. n items sit in a queue whose head is one
// counter; a thread pops a batch of k items with atomicAdd(head, k) and
// works through them, until the queue is empty.
//
// Item i costs `light` fused multiply-adds, except one item in `period`
// (picked by a hash of i, so the heavy ones are scattered) which costs
// `heavy`. light == heavy gives even costs.
//
//   popThread   every thread pops its own batches of k
//   popWarp     lane 0 pops 32 * k items for the warp and shares the start
//               with a shuffle; each lane takes k of them
//
// The same kernels as gpusim/profiles/testdata/microbench/queue.cu, which
// measured them on the H200 (even: light = heavy = 32; uneven: light 16,
// heavy 2048, period 64).

__device__ unsigned hashItem(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ int costOf(unsigned i, int light, int heavy, unsigned period) {
    if (light == heavy) return light;
    return (hashItem(i ^ 0x7f4a7c15u) & (period - 1)) == 0 ? heavy : light;
}

__device__ void work(unsigned i, int light, int heavy, unsigned period, float* out) {
    float x = (float)(i & 255);
    int c = costOf(i, light, heavy, period);
    for (int j = 0; j < c; ++j) x = fmaf(x, 0.999f, 0.5f);
    out[i] = x;
}

__global__ void popThread(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out) {
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
}

__global__ void popWarp(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out) {
    unsigned lane = threadIdx.x & 31;
    for (;;) {
        unsigned start = 0;
        if (lane == 0) start = atomicAdd(head, 32 * k);
        start = __shfl_sync(0xffffffffu, start, 0);
        if (start >= n) break;
        unsigned lo = start + lane * k;
        unsigned hi = min(n, lo + k);
        for (unsigned i = lo; i < hi; ++i) work(i, light, heavy, period, out);
    }
}
