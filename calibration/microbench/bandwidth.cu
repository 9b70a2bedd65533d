// bandwidth.cu: achieved memory bandwidth against buffer size.
//
// Sizes from 16 KiB to 1 GiB in powers of 4. Kernels (256 threads per block,
// grid = min(SMs * 8, enough blocks for one element or float4 per thread)):
//   read_sum      grid-stride float loads, per-thread sum, warp shuffle and
//                 block reduction, one atomicAdd(double*) per block
//   read_sum_v4   the same with float4 loads
//   copy          grid-stride out[i] = in[i] (floats)
//   copy_v4       the same with float4
//   memcpy_d2d    cudaMemcpyAsync device to device
// Modes:
//   hot   the same buffer every run (L2-resident when it fits in L2)
//   cold  before every timed run (outside the timed region) a 256 MiB read
//         kernel sweeps another buffer, evicting the input from L2
// GB/s counts bytes read (read_sum) or read + written (copy, memcpy), 1e9 B/s.
// Input in[i] = i & 7 (never all zero); read sums are checked exactly (double
// accumulator), copies are checked element by element on the device.
#include "common.cuh"

namespace {

constexpr int kBlock = 256;

__global__ void init_kernel(float* a, size_t n) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        a[i] = static_cast<float>(i & 7);
}

// Sum of v over the block, valid in thread 0. blockDim.x must be a multiple of 32.
__device__ float block_sum(float v) {
    __shared__ float warp_sums[32];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int nw = blockDim.x >> 5;
        v = lane < nw ? warp_sums[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    }
    return v;
}

__global__ void read_sum(const float* __restrict__ in, size_t n, double* total) {
    float acc = 0.0f;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        acc += in[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) atomicAdd(total, static_cast<double>(acc));
}

__global__ void read_sum_v4(const float4* __restrict__ in, size_t n4, double* total) {
    float acc = 0.0f;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const float4 v = in[i];
        acc += (v.x + v.y) + (v.z + v.w);
    }
    acc = block_sum(acc);
    if (threadIdx.x == 0) atomicAdd(total, static_cast<double>(acc));
}

__global__ void copy(const float* __restrict__ in, float* __restrict__ out, size_t n) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

__global__ void copy_v4(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

// Counts elements of out[0..n) that differ from the input pattern i & 7.
__global__ void verify_copy(const float* out, size_t n, unsigned long long* bad) {
    unsigned long long local = 0;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        local += (out[i] != static_cast<float>(i & 7)) ? 1ull : 0ull;
    if (local) atomicAdd(bad, local);
}

enum Kern { K_READ = 0, K_READ_V4, K_COPY, K_COPY_V4, K_MEMCPY, K_NUM };
const char* kKernName[K_NUM] = {"read_sum", "read_sum_v4", "copy", "copy_v4", "memcpy_d2d"};

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev =
        mb::print_header("bandwidth", "read and copy bandwidth vs buffer size", argc, argv);
    mb::Budget budget(60.0);

    const size_t max_bytes = static_cast<size_t>(1) << 30;
    const size_t flush_bytes = static_cast<size_t>(256) << 20;
    const size_t max_n = max_bytes / sizeof(float);
    const int warm = 3, reps = 20;
    const int full_grid = dev.sms * 8;

    float *d_in = nullptr, *d_out = nullptr, *d_flush = nullptr;
    double *d_total = nullptr, *d_flush_total = nullptr;
    unsigned long long* d_bad = nullptr;
    CK(cudaMalloc(&d_in, max_bytes));
    CK(cudaMalloc(&d_out, max_bytes));
    CK(cudaMalloc(&d_flush, flush_bytes));
    CK(cudaMalloc(&d_total, sizeof(double) * 64));
    CK(cudaMalloc(&d_flush_total, sizeof(double)));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    init_kernel<<<full_grid, kBlock>>>(d_in, max_n);
    CK_LAUNCH();
    init_kernel<<<full_grid, kBlock>>>(d_flush, flush_bytes / sizeof(float));
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());

    std::printf("# block: %d full_grid: %d flush_bytes: %zu warm: %d reps: %d\n", kBlock,
                full_grid, flush_bytes, warm, reps);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("kernel,mode,bytes_buffer,elements,bytes_moved,grid,block,warm,reps,median_ms,"
                "mean_ms,min_ms,max_ms,stdev_ms,gbps_median,gbps_mean,gbps_best,check\n");
    std::fflush(stdout);

    for (size_t bytes = 16 * 1024; bytes <= max_bytes; bytes *= 4) {
        const size_t n = bytes / sizeof(float);
        const size_t n4 = n / 4;
        for (int mode = 0; mode < 2; ++mode) {
            for (int k = 0; k < K_NUM; ++k) {
                if (budget.over(kKernName[k])) goto done;
                const bool v4 = (k == K_READ_V4 || k == K_COPY_V4);
                const size_t items = v4 ? n4 : n;
                const size_t need = (items + kBlock - 1) / kBlock;
                const int grid = static_cast<int>(std::min<size_t>(full_grid, need));
                const bool is_read = (k == K_READ || k == K_READ_V4);
                const size_t moved = is_read ? bytes : 2 * bytes;
                if (!is_read) CK(cudaMemset(d_out, 0xff, bytes));  // poison
                CK(cudaMemset(d_total, 0, sizeof(double) * 64));

                auto setup = [&](int) {
                    if (mode == 1) {
                        read_sum<<<full_grid, kBlock>>>(d_flush, flush_bytes / sizeof(float),
                                                        d_flush_total);
                        CK_LAUNCH();
                    }
                };
                auto launch = [&](int i) {
                    switch (k) {
                        case K_READ: read_sum<<<grid, kBlock>>>(d_in, n, d_total + i); break;
                        case K_READ_V4:
                            read_sum_v4<<<grid, kBlock>>>(reinterpret_cast<const float4*>(d_in),
                                                          n4, d_total + i);
                            break;
                        case K_COPY: copy<<<grid, kBlock>>>(d_in, d_out, n); break;
                        case K_COPY_V4:
                            copy_v4<<<grid, kBlock>>>(reinterpret_cast<const float4*>(d_in),
                                                      reinterpret_cast<float4*>(d_out), n4);
                            break;
                        default:
                            CK(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice, 0));
                    }
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));

                bool ok = true;
                if (is_read) {
                    // Each slot got one launch's sum; every one must be exact.
                    std::vector<double> h(warm + reps);
                    CK(cudaMemcpy(h.data(), d_total, sizeof(double) * h.size(),
                                  cudaMemcpyDeviceToHost));
                    const double want = static_cast<double>(n / 8) * 28.0;
                    for (double x : h) ok = ok && (x == want);
                } else {
                    CK(cudaMemset(d_bad, 0, sizeof(unsigned long long)));
                    verify_copy<<<full_grid, kBlock>>>(d_out, n, d_bad);
                    CK_LAUNCH();
                    unsigned long long bad = 1;
                    CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
                    ok = (bad == 0);
                }
                std::printf("%s,%s,%zu,%zu,%zu,%d,%d,%d,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.1f,%.1f,"
                            "%.1f,%s\n",
                            kKernName[k], mode ? "cold" : "hot", bytes, n, moved,
                            k == K_MEMCPY ? 0 : grid, k == K_MEMCPY ? 0 : kBlock, warm, reps,
                            s.median, s.mean, s.min, s.max, s.stdev, moved / (s.median * 1e6),
                            moved / (s.mean * 1e6), moved / (s.min * 1e6), mb::note_check(ok));
                std::fflush(stdout);
            }
        }
        std::fprintf(stderr, "[bandwidth] %zu bytes done (%.1f s)\n", bytes, budget.elapsed());
    }
done:
    CK(cudaFree(d_bad));
    CK(cudaFree(d_flush_total));
    CK(cudaFree(d_total));
    CK(cudaFree(d_flush));
    CK(cudaFree(d_out));
    CK(cudaFree(d_in));
    return mb::finish("bandwidth", budget);
}
