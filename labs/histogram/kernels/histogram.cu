// The histogram lab's kernels. bin[i] is element i's bin, in [0, bins);
// hist has bins counters, zeroed before the launch.

// histGlobal: one element per thread, one global atomicAdd per element.
__global__ void histGlobal(const int* bin, int n, unsigned* hist, int bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[bin[i]], 1u);
}

// histGlobalContig: the global histogram with contiguous partitioning:
// each thread walks its own chunk of ceil(n / threads) elements.
__global__ void histGlobalContig(const int* bin, int n, unsigned* hist, int bins) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;
    int chunk = (n + threads - 1) / threads;
    int lo = t * chunk;
    int hi = min(n, lo + chunk);
    for (int i = lo; i < hi; i++) atomicAdd(&hist[bin[i]], 1u);
}

// histPrivate: privatised, one block per blockDim.x elements. Each block
// zeroes its own bins in shared memory, adds its elements there, and
// merges every non-empty bin with one global atomic.
__global__ void histPrivate(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

// histNoBarrier: histPrivate without the barrier between zeroing the bins
// and adding to them: a thread may add to a bin that another thread of
// its block has not zeroed yet, and the zero then wipes the count.
__global__ void histNoBarrier(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

// histResident: privatised, with a grid of as many blocks as the device
// holds at once and a grid-stride (interleaved) loop: thread t takes
// elements t, t + T, t + 2T, ... for T threads in all.
__global__ void histResident(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

// histContig: histResident with contiguous partitioning: thread t takes
// the chunk [t * chunk, (t + 1) * chunk).
__global__ void histContig(const int* bin, int n, unsigned* hist, int bins) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;
    int chunk = (n + threads - 1) / threads;
    int lo = t * chunk;
    int hi = min(n, lo + chunk);
    for (int i = lo; i < hi; i++) atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}
