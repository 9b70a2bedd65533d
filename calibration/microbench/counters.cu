// counters.cu: one count spread over k slices, packed or padded (the counters
// lab; the course notes' claim that slices sharing a 128-byte line serialise
// like one counter and that padding is what buys the speed-up).
//
// 16M threads, 256 per block, each adds 1 (unsigned or float) into slice
// s(k) of an array of k counters; the slices are packed (4 bytes apart, 32 per
// 128-byte line) or padded (128 bytes apart, one line each). k = 1, 2, 4, ...,
// 65536. Three ways of picking and adding:
//   thread_warp   every thread does an atomicAdd; slice = global warp % k, so
//                 the 32 lanes of a warp hit one slice (an address the
//                 compiler cannot prove uniform)
//   thread_lane   every thread does an atomicAdd; slice = global thread % k,
//                 so the lanes of a warp spread over min(k, 32) slices
//   warp          a warp sums its 32 ones with shuffles and lane 0 adds 32 into
//                 slice global warp % k: one atomic per warp
// The counters are zeroed before every launch; after the last one their sum
// must be 16M (exact in float too: each slice's count is at most 2^24).
#include "common.cuh"

namespace {

template <typename T>
__global__ void thread_warp(T* c, unsigned k, unsigned stride) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[((t >> 5) % k) * stride], (T)1);
}

template <typename T>
__global__ void thread_lane(T* c, unsigned k, unsigned stride) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c[(t % k) * stride], (T)1);
}

template <typename T>
__global__ void per_warp(T* c, unsigned k, unsigned stride) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    T v = (T)1;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[((t >> 5) % k) * stride], v);
}

template <typename T>
void run_type(const char* tname, mb::EvTimer& tm, mb::Budget& budget) {
    const unsigned threads = 1u << 24;
    const int block = 256, warm = 2, reps = 7;
    const unsigned maxk = 65536;
    T* c;
    CK(cudaMalloc(&c, (size_t)maxk * 32 * sizeof(T)));
    const char* modes[3] = {"thread_warp", "thread_lane", "warp"};
    for (int m = 0; m < 3; ++m) {
        for (int padded = 0; padded < 2; ++padded) {
            const unsigned stride = padded ? 128 / sizeof(T) : 1;
            for (unsigned k = 1; k <= maxk; k *= 2) {
                if (budget.over("counters")) break;
                const size_t bytes = (size_t)k * stride * sizeof(T);
                auto setup = [&](int) { CK(cudaMemset(c, 0, bytes)); };
                auto launch = [&](int) {
                    const unsigned grid = threads / block;
                    if (m == 0) thread_warp<T><<<grid, block>>>(c, k, stride);
                    else if (m == 1) thread_lane<T><<<grid, block>>>(c, k, stride);
                    else per_warp<T><<<grid, block>>>(c, k, stride);
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                std::vector<T> got((size_t)k * stride);
                CK(cudaMemcpy(got.data(), c, bytes, cudaMemcpyDeviceToHost));
                double sum = 0;
                for (unsigned i = 0; i < k; ++i) sum += (double)got[(size_t)i * stride];
                const double atomics = m == 2 ? threads / 32.0 : threads;
                const unsigned lines = padded ? k : (k + 31) / 32;
                std::printf("%s,%s,%s,%u,%u,%u,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,%s\n", tname, modes[m],
                            padded ? "padded" : "packed", k, lines, threads, atomics, s.median, s.mean, s.min, s.max,
                            s.stdev, s.median * 1e6 / atomics, mb::note_check(sum == (double)threads));
            }
        }
    }
    CK(cudaFree(c));
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "counters", "sliced counters: k slices packed vs padded, u32 and f32, per thread and per warp", argc, argv);
    mb::Budget budget(90.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    std::printf("type,mode,layout,k,lines,threads,atomics,median_ms,mean_ms,min_ms,max_ms,stdev_ms,ns_per_atomic,check\n");
    run_type<unsigned>("u32", tm, budget);
    run_type<float>("f32", tm, budget);
    return mb::finish("counters", budget);
}
