// reproducible.cu: sums that do not change from run to run, and what they
// cost (the reproducible lab, Day 68).
//
// n = 4M and 16M floats, in[i] = 1 + (i mod 1000) / 1000 (not exact in float:
// the order of the additions shows in the bits). 256 threads per block.
//   atomic_global  one atomicAdd(float) per element
//   tree_atomic    shared-memory tree per block, one atomicAdd per block
//   two_pass       the same tree writes each block's partial to a buffer; a
//                  second kernel of one block reduces the partials in a fixed
//                  order (strided per thread, then a shared tree)
//   two_pass_kahan the second pass with Kahan compensation in each thread's
//                  strided loop
//   fixed_point    each block's float tree partial converted to a 64-bit
//                  fixed-point integer with 20 fraction bits and added with one
//                  integer atomic per block: integer addition is associative,
//                  so any order gives the same bits
// 20 runs each after 3 warm-ups, each into a fresh accumulator; the number of
// distinct results, their range and the error against a Kahan double
// reference are reported. The times are medians of the 20 runs (both kernels
// of the two-pass sums between one pair of events).
#include "common.cuh"

namespace {

constexpr int B = 256;

__device__ inline float block_tree(float v) {
    __shared__ float s[B];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = B / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    return s[0];
}

__global__ void atomic_global(const float* in, unsigned n, float* out) {
    const unsigned i = blockIdx.x * B + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

__global__ void tree_atomic(const float* in, unsigned n, float* out) {
    const unsigned i = blockIdx.x * B + threadIdx.x;
    const float t = block_tree(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(out, t);
}

__global__ void tree_partials(const float* in, unsigned n, float* partials) {
    const unsigned i = blockIdx.x * B + threadIdx.x;
    const float t = block_tree(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) partials[blockIdx.x] = t;
}

template <bool KAHAN>
__global__ void reduce_partials(const float* partials, unsigned m, float* out) {
    float s = 0.0f, c = 0.0f;
    for (unsigned j = threadIdx.x; j < m; j += B) {
        if (KAHAN) {
            const float y = partials[j] - c;
            const float t = s + y;
            c = (t - s) - y;
            s = t;
        } else {
            s += partials[j];
        }
    }
    const float t = block_tree(s);
    if (threadIdx.x == 0) *out = t;
}

constexpr double SCALE = 1048576.0;  // 2^20: 20 fraction bits

__global__ void fixed_point(const float* in, unsigned n, unsigned long long* out) {
    const unsigned i = blockIdx.x * B + threadIdx.x;
    const float t = block_tree(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)llrint((double)t * SCALE));
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("reproducible", "fixed-order and fixed-point sums vs atomics: bits and time", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 3, reps = 20;
    const char* names[5] = {"atomic_global", "tree_atomic", "two_pass", "two_pass_kahan", "fixed_point"};
    std::printf("kernel,n,runs,distinct,min,max,range,ref,max_abs_err,median_ms,mean_ms,min_ms,max_ms,stdev_ms\n");
    for (unsigned n : {1u << 22, 1u << 24}) {
        std::vector<float> h(n);
        for (unsigned i = 0; i < n; ++i) h[i] = 1.0f + (float)(i % 1000) / 1000.0f;
        const double ref = mb::kahan_sum(h.data(), n);
        float *in, *out, *partials;
        unsigned long long* fx;
        const unsigned blocks = (n + B - 1) / B;
        CK(cudaMalloc(&in, (size_t)n * 4));
        CK(cudaMalloc(&out, (warm + reps) * 4));
        CK(cudaMalloc(&fx, (warm + reps) * 8));
        CK(cudaMalloc(&partials, (size_t)blocks * 4));
        CK(cudaMemcpy(in, h.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        for (int k = 0; k < 5; ++k) {
            if (budget.over("reproducible")) break;
            CK(cudaMemset(out, 0, (warm + reps) * 4));
            CK(cudaMemset(fx, 0, (warm + reps) * 8));
            auto none = [](int) {};
            auto launch = [&](int r) {
                switch (k) {
                case 0: atomic_global<<<blocks, B>>>(in, n, out + r); break;
                case 1: tree_atomic<<<blocks, B>>>(in, n, out + r); break;
                case 2: tree_partials<<<blocks, B>>>(in, n, partials); reduce_partials<false><<<1, B>>>(partials, blocks, out + r); break;
                case 3: tree_partials<<<blocks, B>>>(in, n, partials); reduce_partials<true><<<1, B>>>(partials, blocks, out + r); break;
                default: fixed_point<<<blocks, B>>>(in, n, fx + r); break;
                }
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, none, launch));
            std::vector<double> sums(reps);
            if (k == 4) {
                std::vector<unsigned long long> got(warm + reps);
                CK(cudaMemcpy(got.data(), fx, got.size() * 8, cudaMemcpyDeviceToHost));
                for (int r = 0; r < reps; ++r) sums[r] = (double)got[warm + r] / SCALE;
            } else {
                std::vector<float> got(warm + reps);
                CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
                for (int r = 0; r < reps; ++r) sums[r] = got[warm + r];
            }
            std::vector<double> d = sums;
            std::sort(d.begin(), d.end());
            const int distinct = (int)(std::unique(d.begin(), d.end()) - d.begin());
            double err = 0;
            for (double x : sums) err = std::max(err, std::fabs(x - ref));
            std::printf("%s,%u,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.5f,%.5f,%.5f,%.5f,%.5f\n", names[k], n, reps, distinct,
                        d.front(), d[distinct - 1], d[distinct - 1] - d.front(), ref, err, s.median, s.mean, s.min,
                        s.max, s.stdev);
            if (k >= 2) mb::note_check(distinct == 1);
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
        CK(cudaFree(fx));
        CK(cudaFree(partials));
    }
    return mb::finish("reproducible", budget);
}
