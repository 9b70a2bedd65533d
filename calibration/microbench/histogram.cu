// histogram.cu: global-atomic histogram vs privatised shared histogram (the atomic-operations
// reference).
//
// n = 16M bin indices, bins = 1, 8, 64, 256, 4096, two input distributions:
//   uniform  bin = hash(i) % bins
//   skewed   geometric: bin = min(ctz(hash(i)), bins - 1), so bin 0 gets 1/2,
//            bin 1 1/4, ... (a hot bin and a long tail)
// The bin indices are precomputed on the device (outside the timed region) and
// the kernels read them:
//   hist_global  grid-stride, atomicAdd(&hist[bin], 1u) per element
//   hist_shared  per-block shared histogram (dynamic shared memory, bins
//                words), zeroed, barrier, grid-stride atomicAdd into it,
//                barrier, then one global atomicAdd per non-empty bin
// 256 threads per block, grid SMs * 8 (both kernels), 3 warm-ups + 10 timed,
// the histogram zeroed before each launch; the last one is compared with a
// host histogram bin by bin.
#include "common.cuh"

namespace {

__host__ __device__ inline unsigned bin_of(uint32_t i, unsigned bins, int skewed) {
    const uint32_t h = mb::hash32(i ^ 0x9e3779b9u);
    if (!skewed) return h % bins;
    unsigned z = 0;
    uint32_t x = h;
    while (z < 31 && (x & 1u) == 0) {
        x >>= 1;
        ++z;
    }
    return z < bins - 1 ? z : bins - 1;
}

__global__ void make_bins(unsigned* out, size_t n, unsigned bins, int skewed) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        out[i] = bin_of(static_cast<uint32_t>(i), bins, skewed);
}

__global__ void hist_global(const unsigned* __restrict__ bin, size_t n, unsigned* hist) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        atomicAdd(&hist[bin[i]], 1u);
}

__global__ void hist_shared(const unsigned* __restrict__ bin, size_t n, unsigned* hist,
                            unsigned bins) {
    extern __shared__ unsigned local[];
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "histogram", "global-atomic vs privatised shared-memory histogram", argc, argv);
    mb::Budget budget(45.0);

    const size_t n = 16777216;
    const unsigned bins_list[] = {1, 8, 64, 256, 4096};
    const int block = 256;
    const int grid = dev.sms * 8;
    const int warm = 3, reps = 10;

    unsigned* d_bin = nullptr;
    unsigned* d_hist = nullptr;
    CK(cudaMalloc(&d_bin, n * sizeof(unsigned)));
    CK(cudaMalloc(&d_hist, 4096 * sizeof(unsigned)));
    std::vector<unsigned> h_hist(4096);

    std::printf("# n: %zu block: %d grid: %d warm: %d reps: %d\n", n, block, grid, warm, reps);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("kernel,dist,bins,n,grid,block,shared_bytes,warm,reps,median_ms,mean_ms,min_ms,"
                "max_ms,stdev_ms,ns_per_element,gelements_per_s,max_bin_fraction,check\n");
    std::fflush(stdout);

    for (int skewed = 0; skewed < 2; ++skewed) {
        for (unsigned bins : bins_list) {
            if (budget.over("histogram config")) goto done;
            make_bins<<<grid, block>>>(d_bin, n, bins, skewed);
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            std::vector<unsigned long long> want(bins, 0);
            for (size_t i = 0; i < n; ++i) ++want[bin_of(static_cast<uint32_t>(i), bins, skewed)];
            const double max_frac =
                static_cast<double>(*std::max_element(want.begin(), want.end())) / n;

            for (int k = 0; k < 2; ++k) {
                const size_t smem = (k == 1) ? bins * sizeof(unsigned) : 0;
                auto setup = [&](int) {
                    CK(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned), 0));
                };
                auto launch = [&](int) {
                    if (k == 0) hist_global<<<grid, block>>>(d_bin, n, d_hist);
                    else hist_shared<<<grid, block, smem>>>(d_bin, n, d_hist, bins);
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                CK(cudaMemcpy(h_hist.data(), d_hist, bins * sizeof(unsigned),
                              cudaMemcpyDeviceToHost));
                bool ok = true;
                for (unsigned b = 0; b < bins; ++b) ok = ok && (h_hist[b] == want[b]);
                std::printf("%s,%s,%u,%zu,%d,%d,%zu,%d,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,%.3f,%.4f,"
                            "%s\n",
                            k == 0 ? "hist_global" : "hist_shared", skewed ? "skewed" : "uniform",
                            bins, n, grid, block, smem, warm, reps, s.median, s.mean, s.min, s.max,
                            s.stdev, s.median * 1e6 / n, n / (s.median * 1e6), max_frac,
                            mb::note_check(ok));
                std::fflush(stdout);
            }
        }
    }
done:
    CK(cudaFree(d_hist));
    CK(cudaFree(d_bin));
    return mb::finish("histogram", budget);
}
