// sliced.cu: sliced counters and false sharing (the counters-and-aggregates
// course notes).
//
// Counting the elements equal to a key in n = 16M ints (data[i] = hash(i) & 15,
// key 3, so about 1/16 match) into S slices, S = 1, 2, 4, ..., 128, summed on
// the host afterwards. Two counter layouts:
//   padded    struct alignas(128) { unsigned long long v; }: one 128-byte line each
//   unpadded  struct { unsigned long long v; }: 8 bytes apart, 16 per line
// Kernels (256 threads per block):
//   warp_agg          the course notes' count_matches: grid-stride count per thread,
//                     warp shuffle sum, lane 0 does one atomicAdd into slice
//                     blockIdx.x % S. Two grids: n/1024 blocks (4 elements per
//                     thread, many atomics) and SMs*8 blocks.
//   thread_lanes      one element per thread, every thread does
//                     atomicAdd(&slice[i & (S-1)].v, data[i] == key): the lanes of
//                     a warp spread round-robin over the S slices
//   thread_blockslice the same but slice = blockIdx.x % S: one slice per warp
//                     (not provably uniform to the compiler)
// The counters are zeroed before every launch (outside the timed region); the
// last launch's total is checked against the host count.
#include "common.cuh"

namespace {

struct alignas(128) PaddedCount {
    unsigned long long v;
};
struct PlainCount {
    unsigned long long v;
};

template <typename C>
__global__ void count_matches(const int* __restrict__ data, size_t n, int key, C* slices,
                              int nslices) {
    unsigned long long local = 0;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(blockDim.x) * gridDim.x)
        local += (data[i] == key) ? 1ull : 0ull;
    for (int off = 16; off > 0; off >>= 1) local += __shfl_down_sync(0xffffffffu, local, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(&slices[blockIdx.x % nslices].v, local);
}

template <typename C>
__global__ void count_thread_lanes(const int* __restrict__ data, size_t n, int key, C* slices,
                                   unsigned mask) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const unsigned s = static_cast<unsigned>(i) & mask;
        atomicAdd(&slices[s].v, (data[i] == key) ? 1ull : 0ull);
    }
}

template <typename C>
__global__ void count_thread_blockslice(const int* __restrict__ data, size_t n, int key,
                                        C* slices, unsigned nslices) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&slices[blockIdx.x % nslices].v, (data[i] == key) ? 1ull : 0ull);
}

__global__ void fill_data(int* data, size_t n) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        data[i] = static_cast<int>(mb::hash32(static_cast<uint32_t>(i)) & 15u);
}

enum K { K_WARP_AGG = 0, K_WARP_AGG_SMALLGRID, K_THREAD_LANES, K_THREAD_BLOCKSLICE, K_NUM };
const char* kName[K_NUM] = {"warp_agg", "warp_agg", "thread_lanes", "thread_blockslice"};

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "sliced", "sliced counters: padded vs unpadded slices, warp-aggregated vs per-thread",
        argc, argv);
    mb::Budget budget(45.0);

    const size_t n = 16777216;
    const int key = 3;
    const int block = 256;
    const int warm = 3, reps = 10;

    int* d_data = nullptr;
    CK(cudaMalloc(&d_data, n * sizeof(int)));
    fill_data<<<dev.sms * 8, block>>>(d_data, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    unsigned long long expected = 0;
    for (size_t i = 0; i < n; ++i)
        expected += ((mb::hash32(static_cast<uint32_t>(i)) & 15u) == static_cast<uint32_t>(key));

    const int max_slices = 128;
    void* d_slices = nullptr;
    CK(cudaMalloc(&d_slices, max_slices * sizeof(PaddedCount)));
    std::vector<unsigned long long> h_slices(max_slices * sizeof(PaddedCount) / 8);

    std::printf("# n: %zu key: %d expected_count: %llu block: %d warm: %d reps: %d\n", n, key,
                expected, block, warm, reps);
    std::printf("# sizeof(PaddedCount): %zu sizeof(PlainCount): %zu\n", sizeof(PaddedCount),
                sizeof(PlainCount));
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("kernel,layout,slices,slice_stride_bytes,lines,grid,block,atomics,warm,reps,"
                "median_ms,mean_ms,min_ms,max_ms,stdev_ms,ns_per_atomic,count,expected,check\n");
    std::fflush(stdout);

    for (int k = 0; k < K_NUM; ++k) {
        for (int padded = 1; padded >= 0; --padded) {
            for (int S = 1; S <= max_slices; S *= 2) {
                if (budget.over("sliced config")) goto done;
                const size_t stride = padded ? sizeof(PaddedCount) : sizeof(PlainCount);
                const size_t bytes = S * stride;
                unsigned grid;
                unsigned long long atomics;
                if (k == K_WARP_AGG) grid = static_cast<unsigned>(n / (block * 4));
                else if (k == K_WARP_AGG_SMALLGRID) grid = static_cast<unsigned>(dev.sms * 8);
                else grid = static_cast<unsigned>((n + block - 1) / block);
                if (k == K_WARP_AGG || k == K_WARP_AGG_SMALLGRID) atomics = 1ull * grid * (block / 32);
                else atomics = n;

                auto setup = [&](int) { CK(cudaMemsetAsync(d_slices, 0, bytes, 0)); };
                auto launch = [&](int) {
                    PaddedCount* pp = static_cast<PaddedCount*>(d_slices);
                    PlainCount* pl = static_cast<PlainCount*>(d_slices);
                    switch (k) {
                        case K_WARP_AGG:
                        case K_WARP_AGG_SMALLGRID:
                            if (padded) count_matches<<<grid, block>>>(d_data, n, key, pp, S);
                            else count_matches<<<grid, block>>>(d_data, n, key, pl, S);
                            break;
                        case K_THREAD_LANES:
                            if (padded)
                                count_thread_lanes<<<grid, block>>>(d_data, n, key, pp, S - 1u);
                            else
                                count_thread_lanes<<<grid, block>>>(d_data, n, key, pl, S - 1u);
                            break;
                        default:
                            if (padded)
                                count_thread_blockslice<<<grid, block>>>(d_data, n, key, pp, S);
                            else
                                count_thread_blockslice<<<grid, block>>>(d_data, n, key, pl, S);
                    }
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                CK(cudaMemcpy(h_slices.data(), d_slices, bytes, cudaMemcpyDeviceToHost));
                unsigned long long total = 0;
                for (int j = 0; j < S; ++j) total += h_slices[j * (stride / 8)];
                // Padding words must still be zero.
                bool ok = (total == expected);
                for (size_t w = 0; w < bytes / 8; ++w)
                    if (w % (stride / 8) != 0 && h_slices[w] != 0) ok = false;
                const unsigned long long lines = padded ? S : (S * 8 + 127) / 128;
                std::printf("%s,%s,%d,%zu,%llu,%u,%d,%llu,%d,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,%llu,"
                            "%llu,%s\n",
                            kName[k], padded ? "padded" : "unpadded", S, stride, lines, grid, block,
                            atomics, warm, reps, s.median, s.mean, s.min, s.max, s.stdev,
                            s.median * 1e6 / static_cast<double>(atomics), total, expected,
                            mb::note_check(ok));
                std::fflush(stdout);
            }
        }
        std::fprintf(stderr, "[sliced] kernel %d done (%.1f s)\n", k, budget.elapsed());
    }
done:
    CK(cudaFree(d_slices));
    CK(cudaFree(d_data));
    return mb::finish("sliced", budget);
}
