// From the atomic-operations reference ("Atomic Operations"), section
// "Privatization": a histogram privatised per block in dynamic shared
// memory (at least nBins ints), merged with one global atomic per bin per
// block.

__global__ void histPrivatized(const int* data, int n, int* globalHist, int nBins) {
    extern __shared__ int localHist[];   // one private histogram per block
    for (int b = threadIdx.x; b < nBins; b += blockDim.x) localHist[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&localHist[data[i]], 1);   // cheap: contends only within the block
    }
    __syncthreads();

    for (int b = threadIdx.x; b < nBins; b += blockDim.x) {
        if (localHist[b] != 0) atomicAdd(&globalHist[b], localHist[b]);   // one global atomic per bin per block
    }
}
