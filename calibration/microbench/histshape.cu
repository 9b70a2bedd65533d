// histshape.cu: a privatised histogram's launch shape, partitioning and skew
// (the histogram lab; cost model round 2: many short blocks, per-thread runs).
//
// n = 16M bin indices (precomputed, outside the timed region), bins = 256 and
// 4096, three inputs:
//   uniform  bin = hash(i) % bins
//   runs     bin = hash(i / 64) % bins: 64 neighbours share a bin
//   hot      90% of the elements in bin 0, the rest uniform
// Kernels, 256 threads per block:
//   global        one element per thread, atomicAdd(&hist[bin], 1) per element
//   priv_small    one block per 256 elements (n / 256 blocks): each block zeroes
//                 its shared bins, adds its 256 elements, merges every non-empty
//                 bin with one global atomic
//   priv_resident grid = resident blocks (SMs x blocks per SM from the occupancy
//                 API), grid-stride interleaved loop (element i in thread i mod T)
//   priv_contig   the same grid, each thread walks a contiguous chunk of
//                 ceil(n / T) elements (coalescing lost across the warp, but each
//                 thread's line is reused by its next 31 iterations)
//   global_contig the global histogram with the contiguous partitioning
// 3 warm-ups + 10 timed; the histogram is zeroed before each launch and the
// last one is compared with a host histogram bin by bin.
#include "common.cuh"

namespace {

__host__ __device__ inline unsigned bin_of(uint32_t i, unsigned bins, int input) {
    switch (input) {
    case 1: return mb::hash32((i / 64u) ^ 0x51ed270bu) % bins;
    case 2: {
        const uint32_t h = mb::hash32(i ^ 0x2545f491u);
        return (h % 10u) != 0 ? 0u : mb::hash32(h) % bins;
    }
    default: return mb::hash32(i ^ 0x9e3779b9u) % bins;
    }
}

__global__ void make_bins(unsigned* out, unsigned n, unsigned bins, int input) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = bin_of(i, bins, input);
}

__global__ void hist_global(const unsigned* __restrict__ bin, unsigned n, unsigned* hist) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[bin[i]], 1u);
}

__global__ void hist_global_contig(const unsigned* __restrict__ bin, unsigned n, unsigned* hist) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    const unsigned chunk = (n + T - 1) / T;
    const unsigned lo = t * chunk, hi = min(n, lo + chunk);
    for (unsigned i = lo; i < hi; ++i) atomicAdd(&hist[bin[i]], 1u);
}

__device__ inline void merge(unsigned* local, unsigned* hist, unsigned bins) {
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

__device__ inline void zero(unsigned* local, unsigned bins) {
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
}

__global__ void priv_small(const unsigned* __restrict__ bin, unsigned n, unsigned* hist, unsigned bins) {
    extern __shared__ unsigned local[];
    zero(local, bins);
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[bin[i]], 1u);
    merge(local, hist, bins);
}

__global__ void priv_resident(const unsigned* __restrict__ bin, unsigned n, unsigned* hist, unsigned bins) {
    extern __shared__ unsigned local[];
    zero(local, bins);
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    merge(local, hist, bins);
}

__global__ void priv_contig(const unsigned* __restrict__ bin, unsigned n, unsigned* hist, unsigned bins) {
    extern __shared__ unsigned local[];
    zero(local, bins);
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    const unsigned chunk = (n + T - 1) / T;
    const unsigned lo = t * chunk, hi = min(n, lo + chunk);
    for (unsigned i = lo; i < hi; ++i) atomicAdd(&local[bin[i]], 1u);
    merge(local, hist, bins);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "histshape", "privatised histogram: launch shape, contiguous vs interleaved, skew", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 24;
    const int block = 256, warm = 3, reps = 10;
    unsigned *bin, *hist;
    CK(cudaMalloc(&bin, (size_t)n * 4));
    CK(cudaMalloc(&hist, 4096 * 4));
    const char* inputs[3] = {"uniform", "runs", "hot"};
    const char* names[5] = {"global", "priv_small", "priv_resident", "priv_contig", "global_contig"};
    std::printf("input,bins,kernel,grid,block,median_ms,mean_ms,min_ms,max_ms,stdev_ms,ns_per_element,check\n");
    for (unsigned bins : {256u, 4096u}) {
        for (int in = 0; in < 3; ++in) {
            if (budget.over("histshape")) break;
            make_bins<<<dev.sms * 8, 256>>>(bin, n, bins, in);
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            std::vector<unsigned> want(bins, 0);
            for (unsigned i = 0; i < n; ++i) ++want[bin_of(i, bins, in)];
            const size_t smem = bins * 4;
            int per_sm = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, priv_resident, block, smem));
            const int resident = dev.sms * per_sm;
            for (int k = 0; k < 5; ++k) {
                const int grid = (k == 0 || k == 1) ? (int)((n + block - 1) / block) : resident;
                auto setup = [&](int) { CK(cudaMemset(hist, 0, bins * 4)); };
                auto launch = [&](int) {
                    switch (k) {
                    case 0: hist_global<<<grid, block>>>(bin, n, hist); break;
                    case 1: priv_small<<<grid, block, smem>>>(bin, n, hist, bins); break;
                    case 2: priv_resident<<<grid, block, smem>>>(bin, n, hist, bins); break;
                    case 3: priv_contig<<<grid, block, smem>>>(bin, n, hist, bins); break;
                    default: hist_global_contig<<<grid, block>>>(bin, n, hist); break;
                    }
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                std::vector<unsigned> got(bins);
                CK(cudaMemcpy(got.data(), hist, bins * 4, cudaMemcpyDeviceToHost));
                const bool ok = got == want;
                std::printf("%s,%u,%s,%d,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%s\n", inputs[in], bins, names[k], grid,
                            block, s.median, s.mean, s.min, s.max, s.stdev, s.median * 1e6 / n, mb::note_check(ok));
            }
        }
    }
    CK(cudaFree(bin));
    CK(cudaFree(hist));
    return mb::finish("histshape", budget);
}
