// softmax.cu: the softmax denominator Z = sum exp(x_i) of the
// atomics-vs-warp-shuffle course notes, two ways.
//
//   denom_atomic   every thread: atomicAdd(denom, expf(x[i]))
//   denom_shuffle  expf, 5-step warp shuffle-down, warp partials in shared,
//                  warp 0 reduces the 8 partials, one atomicAdd per block
// 256 threads per block, one element per thread, N = 65536, 1048576, 4194304,
// 16777216. Input uniform in [-1, 1) from a fixed-seed LCG (seed 2024), made on
// the host. 3 warm-ups + 10 timed launches, a fresh accumulator per launch.
// Checked against a double reference sum of exp((double)x): the relative
// error must be within 1e-5 + (adds * ulp(Z) / 2) / Z, where adds is the
// number of float additions into the accumulator (N for the per-thread
// atomics, one per block for the shuffle version): the worst-case rounding
// bound. At large N the per-thread version's running total is so large that
// each add rounds coarsely; its relative error is reported in any case.
#include "common.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

__global__ void denom_atomic(const float* __restrict__ x, float* denom, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(denom, expf(x[i]));
}

__global__ void denom_shuffle(const float* __restrict__ x, float* denom, int n) {
    __shared__ float part[kWarps];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    float v = (i < n) ? expf(x[i]) : 0.0f;
    v += __shfl_down_sync(0xffffffffu, v, 16);
    v += __shfl_down_sync(0xffffffffu, v, 8);
    v += __shfl_down_sync(0xffffffffu, v, 4);
    v += __shfl_down_sync(0xffffffffu, v, 2);
    v += __shfl_down_sync(0xffffffffu, v, 1);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float b = (lane < kWarps) ? part[lane] : 0.0f;
        b += __shfl_down_sync(0xffffffffu, b, 4);
        b += __shfl_down_sync(0xffffffffu, b, 2);
        b += __shfl_down_sync(0xffffffffu, b, 1);
        if (lane == 0) atomicAdd(denom, b);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "softmax", "softmax denominator: per-thread atomicAdd(expf) vs shuffle + 1 atomic/block",
        argc, argv);
    mb::Budget budget(40.0);

    const int ns[] = {65536, 1048576, 4194304, 16777216};
    const int max_n = 16777216;
    const int warm = 3, reps = 10;

    std::vector<float> h_x(max_n);
    mb::Lcg rng(2024);
    for (int i = 0; i < max_n; ++i) h_x[i] = rng.uniform(-1.0f, 1.0f);
    float* d_x = nullptr;
    float* d_acc = nullptr;
    CK(cudaMalloc(&d_x, max_n * sizeof(float)));
    CK(cudaMalloc(&d_acc, (warm + reps) * sizeof(float)));
    CK(cudaMemcpy(d_x, h_x.data(), max_n * sizeof(float), cudaMemcpyHostToDevice));

    std::printf("# block: %d input: uniform [-1,1) from Lcg(2024), host-generated\n", kBlock);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("kernel,n,grid,global_atomics,warm,reps,mean_ms,median_ms,min_ms,max_ms,stdev_ms,"
                "result,reference,rel_err,tolerance,check\n");
    std::fflush(stdout);

    for (int n : ns) {
        double ref = 0;
        for (int i = 0; i < n; ++i) ref += std::exp(static_cast<double>(h_x[i]));
        const unsigned grid = static_cast<unsigned>((n + kBlock - 1) / kBlock);
        double mean_ms[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            if (budget.over("softmax config")) break;
            CK(cudaMemset(d_acc, 0, (warm + reps) * sizeof(float)));
            auto setup = [](int) {};
            auto launch = [&](int slot) {
                if (k == 0) denom_atomic<<<grid, kBlock>>>(d_x, d_acc + slot, n);
                else denom_shuffle<<<grid, kBlock>>>(d_x, d_acc + slot, n);
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            std::vector<float> got(warm + reps);
            CK(cudaMemcpy(got.data(), d_acc, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
            // ulp of a float near ref: 2^(e - 23) where ref = m * 2^e, m in [1, 2).
            const double ulp = std::ldexp(1.0, std::ilogb(ref) - 23);
            // Each float add into the accumulator rounds by at most ulp/2, plus
            // a little for expf and the in-block tree.
            const double adds = (k == 0) ? static_cast<double>(n) : static_cast<double>(grid);
            const double tol = 1e-5 + 0.5 * adds * ulp / ref;
            double worst = 0;
            for (float g : got) worst = std::max(worst, std::fabs(g - ref) / ref);
            mean_ms[k] = s.mean;
            std::printf("%s,%d,%u,%u,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.9g,%.6f,%.3g,%.3g,%s\n",
                        k == 0 ? "denom_atomic" : "denom_shuffle", n, grid,
                        k == 0 ? static_cast<unsigned>(n) : grid, warm, reps, s.mean, s.median,
                        s.min, s.max, s.stdev, static_cast<double>(got.back()), ref, worst, tol,
                        mb::note_check(worst <= tol));
            std::fflush(stdout);
        }
        if (mean_ms[1] > 0)
            std::printf("# S n=%d atomic %.4f ms shuffle %.4f ms ratio %.1fx\n", n, mean_ms[0],
                        mean_ms[1], mean_ms[0] / mean_ms[1]);
    }

    CK(cudaFree(d_acc));
    CK(cudaFree(d_x));
    return mb::finish("softmax", budget);
}
