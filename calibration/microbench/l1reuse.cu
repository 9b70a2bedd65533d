// l1reuse.cu: per-thread sequential reads and the L1 (cost model round 2:
// "per-thread sequential runs are priced as if nothing caches them").
//
// The histogram lab's priv_contig kernel (each thread walks a contiguous
// chunk of ceil(n / T) elements) is 10% slower than the interleaved
// priv_resident at 256 bins and 27% slower at 4096 bins (histshape.csv),
// whatever the input. The 4096-bin kernel differs in its shared memory (16 KB
// per block instead of 1 KB), which the L1 gives up. This program separates
// the mechanisms:
//
// Part "pad": grid = SMs x 8 blocks of 256 threads (2048 threads per SM), n =
//   16M unsigned, dynamic shared memory per block padded by 0 ... 24 KB:
//     seq_sum        each thread sums its contiguous chunk (63 elements)
//     grid_sum       grid-stride interleaved sum (coalesced)
//     hist_contig    priv_contig of histshape.cu at 256 bins (uniform input)
//     hist_resident  priv_resident of histshape.cu at 256 bins
//   Only the L1's share of the SM's 256 KB changes with the padding.
// Part "occupancy": seq_sum and grid_sum with 1, 2, 4, 8 blocks per SM, no
//   padding: the lanes' lines (one 128-byte line per thread) need 32 to 256 KB.
// Part "l2": a 16 MB buffer (L2-resident after the warm-ups), grid SMs x 8,
//   256 threads, 64 loads per thread at word index ((t + k T) * s) mod 4M:
//   s = 1 coalesced (4 sectors per warp request), s = 8 (one word per 32-byte
//   sector, 32 sectors per request), s = 32 (one word per 128-byte line).
//   Nearly every load misses the L1 (an SM's 131k loads spread over a
//   buffer 64 times its L1), so this is the rate at which the L2 serves the
//   SMs' sector requests.
// 3 warm-ups + 10 timed launches per row; every sum and histogram is checked
// against the host.
#include "common.cuh"

namespace {

__global__ void fill(unsigned* a, unsigned n, unsigned bins) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = mb::hash32(i ^ 0x9e3779b9u) % bins;
}

__global__ void seq_sum(const unsigned* in, unsigned n, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    const unsigned chunk = (n + T - 1) / T;
    const unsigned lo = t * chunk, hi = min(n, lo + chunk);
    unsigned s = 0;
    for (unsigned i = lo; i < hi; ++i) s += in[i];
    out[t] = s;
}

__global__ void grid_sum(const unsigned* in, unsigned n, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
    for (unsigned i = t; i < n; i += gridDim.x * blockDim.x) s += in[i];
    out[t] = s;
}

__device__ void zero(unsigned* local, unsigned bins) {
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
}

__device__ void merge(unsigned* local, unsigned* hist, unsigned bins) {
    __syncthreads();
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x)
        if (local[b] != 0) atomicAdd(&hist[b], local[b]);
}

__global__ void hist_contig(const unsigned* bin, unsigned n, unsigned* hist, unsigned bins) {
    extern __shared__ unsigned local[];
    zero(local, bins);
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    const unsigned chunk = (n + T - 1) / T;
    const unsigned lo = t * chunk, hi = min(n, lo + chunk);
    for (unsigned i = lo; i < hi; ++i) atomicAdd(&local[bin[i]], 1u);
    merge(local, hist, bins);
}

__global__ void hist_resident(const unsigned* bin, unsigned n, unsigned* hist, unsigned bins) {
    extern __shared__ unsigned local[];
    zero(local, bins);
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bin[i]], 1u);
    merge(local, hist, bins);
}

__global__ void l2_stride(const unsigned* in, unsigned mask, unsigned stride, int iters, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int k = 0; k < iters; ++k) s += in[((t + (unsigned)k * T) * stride) & mask];
    out[t] = s;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "l1reuse", "per-thread sequential reads: L1 share, footprint, L2 sector rate", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 24, bins = 256, l2words = 1u << 22;
    const int block = 256, warm = 3, reps = 10, maxGrid = dev.sms * 8;
    unsigned *in, *out, *hist;
    CK(cudaMalloc(&in, (size_t)n * 4));
    CK(cudaMalloc(&out, (size_t)maxGrid * block * 4));
    CK(cudaMalloc(&hist, bins * 4));
    fill<<<dev.sms * 8, 256>>>(in, n, bins);
    CK_LAUNCH();
    std::vector<unsigned> host(n);
    CK(cudaMemcpy(host.data(), in, (size_t)n * 4, cudaMemcpyDeviceToHost));
    unsigned wantSum = 0;
    std::vector<unsigned> wantHist(bins, 0);
    for (unsigned i = 0; i < n; ++i) {
        wantSum += host[i];
        ++wantHist[host[i]];
    }
    std::printf("part,kernel,blocks_per_sm,grid,block,smem_bytes,n,param,median_ms,mean_ms,min_ms,max_ms,stdev_ms,check\n");

    // row runs kernel k (0 seq_sum, 1 grid_sum, 2 hist_contig, 3
    // hist_resident, 4 l2_stride) and prints its line.
    auto row = [&](const char* part, int k, int grid, size_t smem, unsigned param) {
        const char* names[5] = {"seq_sum", "grid_sum", "hist_contig", "hist_resident", "l2_stride"};
        const void* fns[5] = {(const void*)seq_sum, (const void*)grid_sum, (const void*)hist_contig,
                              (const void*)hist_resident, (const void*)l2_stride};
        int per_sm = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fns[k], block, smem));
        const int iters = 64;
        auto setup = [&](int) { CK(cudaMemset(hist, 0, bins * 4)); };
        auto launch = [&](int) {
            switch (k) {
            case 0: seq_sum<<<grid, block, smem>>>(in, n, out); break;
            case 1: grid_sum<<<grid, block, smem>>>(in, n, out); break;
            case 2: hist_contig<<<grid, block, smem>>>(in, n, hist, bins); break;
            case 3: hist_resident<<<grid, block, smem>>>(in, n, hist, bins); break;
            default: l2_stride<<<grid, block>>>(in, l2words - 1, param, iters, out); break;
            }
        };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
        bool ok = true;
        if (k <= 1) {
            std::vector<unsigned> got((size_t)grid * block);
            CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
            unsigned sum = 0;
            for (unsigned v : got) sum += v;
            ok = sum == wantSum;
        } else if (k <= 3) {
            std::vector<unsigned> got(bins);
            CK(cudaMemcpy(got.data(), hist, bins * 4, cudaMemcpyDeviceToHost));
            ok = got == wantHist;
        } else {
            std::vector<unsigned> got((size_t)grid * block);
            CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
            const unsigned T = (unsigned)grid * block;
            for (unsigned t = 0; t < T && ok; t += 997) {
                unsigned want = 0;
                for (int j = 0; j < iters; ++j) want += host[((t + (unsigned)j * T) * param) & (l2words - 1)];
                ok = got[t] == want;
            }
        }
        std::printf("%s,%s,%d,%d,%d,%zu,%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f,%s\n", part, names[k], per_sm, grid, block,
                    smem, k == 4 ? l2words : n, param, s.median, s.mean, s.min, s.max, s.stdev, mb::note_check(ok));
        std::fflush(stdout);
    };

    for (unsigned pad : {0u, 2048u, 4096u, 8192u, 12288u, 16384u, 20480u, 24576u}) {
        if (budget.over("pad")) break;
        for (int k = 0; k < 4; ++k) {
            const size_t smem = (k >= 2 ? bins * 4 : 0) + pad;
            row("pad", k, maxGrid, smem, pad);
        }
    }
    for (int per : {1, 2, 4, 8}) {
        if (budget.over("occupancy")) break;
        for (int k = 0; k < 2; ++k) row("occupancy", k, dev.sms * per, 0, per);
    }
    for (unsigned stride : {1u, 8u, 32u}) {
        if (budget.over("l2")) break;
        row("l2", 4, maxGrid, 0, stride);
    }
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(hist));
    return mb::finish("l1reuse", budget);
}
