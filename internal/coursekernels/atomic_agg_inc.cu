// From the atomics-vs-warp-shuffle course notes ("Atomic Operations, Warp
// Shuffle, and the Register Cache: A Deep Dive with Online Softmax"),
// section "Where Atomic Operation Logic Lives Today": atomicAggInc, the
// warp-aggregated increment built on __match_any_sync (after NVIDIA's
// "Using CUDA Warp-Level Primitives"). The article's two en-dashes are
// written as minus signs.

// Added: the article assumes lane_id(), the thread's lane in its warp.
__device__ int lane_id() { return threadIdx.x & 31; }

// increment the value at ptr by 1 and return the old value
__device__ int atomicAggInc(int *ptr) {
    int mask = __match_any_sync(__activemask(), (unsigned long long)ptr);
    int leader = __ffs(mask) - 1;    // select a leader
    int res;
    if(lane_id() == leader)                  // leader does the update
        res = atomicAdd(ptr, __popc(mask));
    res = __shfl_sync(mask, res, leader);    // get leader's old value
    return res + __popc(mask & ((1 << lane_id()) - 1)); //compute old value
}

// Added so atomicAggInc can be launched: stream compaction, the use the
// NVIDIA post makes of it. Each thread whose element is positive appends it
// to out, at an index taken from *count.
__global__ void filterPositive(const int* in, int n, int* out, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        out[atomicAggInc(count)] = in[i];
    }
}
