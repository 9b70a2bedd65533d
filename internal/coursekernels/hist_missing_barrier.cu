// From the Day 26 course page ("Day 26, Module 3"), the opening: the
// r/CUDA poster's privatised histogram, asking why it needs a barrier
// between the atomics. Written for warplab (the post's code is not in the
// document): the shape of histPrivatized with the __syncthreads() between
// zeroing the shared bins and the shared atomicAdds left out.
//
// It is racy on purpose. A thread can add into a bin before the thread
// that zeroes that bin has run, and the zeroing store then wipes the count:
// the plain store of one thread and the atomicAdd of another touch the same
// shared address with no barrier between them. Atomicity orders atomics to
// one address; it does not order them against the other threads' stores.

__global__ void histMissingBarrier(const int* data, int n, int* globalHist, int nBins) {
    extern __shared__ int localHist[];
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) localHist[b] = 0;
    // Missing: __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&localHist[data[i]], 1);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < nBins; b += blockDim.x) {
        if (localHist[b] != 0) atomicAdd(&globalHist[b], localHist[b]);
    }
}
