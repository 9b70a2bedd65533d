// cas.cu: compare-and-swap loops under contention (the cas lab).
//
// 4M threads each fold one float (random sign and magnitude, some -0.0) into
// a per-group maximum, group = thread / C, C = 1, 32, 256, 4096, 65536, 4M
// threads contending per address. Kernels:
//   cas_loop     the correct atomicMaxFloat: read, compare as floats,
//                atomicCAS of the bits until it succeeds or the stored value is
//                already larger
//   int_trick    the course reference's cast: atomicMax((int*)addr,
//                __float_as_int(v)): one hardware atomic, wrong for negatives
//   signaware    the sign-aware integer trick: atomicMax on the int bits for
//                v >= 0, atomicMin on the unsigned bits for v < 0
//   cas_count    cas_loop that also counts its failed CAS attempts (one warp
//                sum and one atomic per warp, so the count itself adds little)
// The maxima start at -infinity; the last launch is compared with the host
// (int_trick is expected to fail where a group holds only negatives).
#include "common.cuh"

namespace {

__device__ inline float max_cas(float* addr, float v, unsigned* retries) {
    int* ai = (int*)addr;
    int old = *ai;
    unsigned fails = 0;
    while (__int_as_float(old) < v) {
        const int assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(v));
        if (old == assumed) break;
        ++fails;
    }
    if (retries) {
        for (int off = 16; off > 0; off >>= 1) fails += __shfl_down_sync(0xffffffffu, fails, off);
        if ((threadIdx.x & 31) == 0 && fails) atomicAdd(retries, fails);
    }
    return __int_as_float(old);
}

__global__ void k_cas(float* m, unsigned n, unsigned C, unsigned* retries) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) max_cas(&m[i / C], mb::cas_value(i), retries);
}

__global__ void k_int_trick(float* m, unsigned n, unsigned C) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMax((int*)&m[i / C], __float_as_int(mb::cas_value(i)));
}

__global__ void k_signaware(float* m, unsigned n, unsigned C) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = mb::cas_value(i);
    if (!signbit(v)) atomicMax((int*)&m[i / C], __float_as_int(v));
    else atomicMin((unsigned*)&m[i / C], __float_as_uint(v));
}

__global__ void fill(float* m, unsigned groups) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < groups) m[i] = -INFINITY;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("cas", "CAS-loop float max vs integer tricks under contention", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22;
    const int block = 256, warm = 2, reps = 7;
    float* m;
    unsigned* retries;
    CK(cudaMalloc(&m, (size_t)n * 4));
    CK(cudaMalloc(&retries, 4));
    const char* names[4] = {"cas_loop", "int_trick", "signaware", "cas_count"};
    std::printf("kernel,contenders,groups,threads,median_ms,mean_ms,min_ms,max_ms,stdev_ms,retries,retries_per_thread,wrong_groups,check\n");
    for (unsigned C : {1u, 32u, 256u, 4096u, 65536u, n}) {
        const unsigned groups = n / C;
        std::vector<float> want(groups, -INFINITY);
        for (unsigned i = 0; i < n; ++i) {
            const float v = mb::cas_value(i);
            float& w = want[i / C];
            if (v > w || (v == 0.0f && w == 0.0f && !std::signbit(v))) w = v;
        }
        for (int k = 0; k < 4; ++k) {
            if (budget.over("cas")) break;
            auto setup = [&](int) {
                fill<<<(groups + 255) / 256, 256>>>(m, groups);
                CK_LAUNCH();
                CK(cudaMemset(retries, 0, 4));
            };
            auto launch = [&](int) {
                const unsigned grid = n / block;
                switch (k) {
                case 0: k_cas<<<grid, block>>>(m, n, C, nullptr); break;
                case 1: k_int_trick<<<grid, block>>>(m, n, C); break;
                case 2: k_signaware<<<grid, block>>>(m, n, C); break;
                default: k_cas<<<grid, block>>>(m, n, C, retries); break;
                }
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            std::vector<float> got(groups);
            CK(cudaMemcpy(got.data(), m, (size_t)groups * 4, cudaMemcpyDeviceToHost));
            unsigned r = 0;
            CK(cudaMemcpy(&r, retries, 4, cudaMemcpyDeviceToHost));
            unsigned wrong = 0;
            for (unsigned g = 0; g < groups; ++g)
                if (!(got[g] == want[g])) ++wrong;  // -0.0 == +0.0 counts as right
            const bool expect_ok = k != 1;
            const char* check = expect_ok ? mb::note_check(wrong == 0) : (wrong ? "WRONG_AS_EXPECTED" : "RIGHT");
            std::printf("%s,%u,%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f,%u,%.4f,%u,%s\n", names[k], C, groups, n, s.median,
                        s.mean, s.min, s.max, s.stdev, r, k == 3 ? (double)r / n : 0.0, wrong, check);
        }
    }
    CK(cudaFree(m));
    CK(cudaFree(retries));
    return mb::finish("cas", budget);
}
