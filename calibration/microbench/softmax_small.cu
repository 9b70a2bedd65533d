// softmax_small.cu: the softmax lab's three denominators at small sizes, and
// the shared-memory float atomic on its own against the number of blocks.
//
// The simulator's h200 profile predicted the lab's shared-atomic kernel 1.45x
// too slow in a single block (n = 256) while it is right from 16 blocks on
// (calibration/evidence/2026-11-30-h200-gpu-evidence.txt): the per-lane cost of a
// block's compare-and-swap queue on one shared float seems to grow with the
// number of blocks running elsewhere. This program measures that directly.
//
// Part 1, the lab's kernels (labs/softmax/kernels/*.cu, included):
//   denomAtomic, denomShared, denomShuffle, 256 threads, one element per
//   thread, n = 32 ... 65536, x uniform in [-1, 1) from Lcg(2024), a fresh
//   accumulator slot per launch, 5 warm-ups + 50 timed launches (small
//   kernels are noisy).
// Part 2, the shared CAS queue alone: shared_cas adds 1.0f from each of the
//   block's 256 threads into one __shared__ float and thread 0 stores the
//   block's total with a plain store (no global atomic, no input); empty is
//   the same launch doing nothing. Grids 1, 2, 4, 8, 16, 32, 64, SMs, 2*SMs.
//   The difference of the medians is the queue's cost at that grid.
// Every result is checked (denominators within the float rounding bound,
// every shared_cas block total exactly 256).
#include "common.cuh"

namespace {

constexpr int kBlock = 256;

// The lab's kernels, the same source the lab runs.
#include "../../../../labs/softmax/kernels/atomic.cu"
#include "../../../../labs/softmax/kernels/shared.cu"
#include "../../../../labs/softmax/kernels/shuffle.cu"

__global__ void shared_cas(float* out) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    atomicAdd(&s, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void empty(float* out) {
    if (out == nullptr) out[threadIdx.x] = 0.0f;  // never: keeps the parameter
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "softmax_small", "softmax lab kernels at small n; shared float atomic queue vs blocks",
        argc, argv);
    mb::Budget budget(40.0);
    const int warm = 5, reps = 50;
    const int ns[] = {32, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536};
    const int max_n = 65536;

    std::vector<float> h_x(max_n);
    mb::Lcg rng(2024);
    for (int i = 0; i < max_n; ++i) h_x[i] = rng.uniform(-1.0f, 1.0f);
    float* d_x = nullptr;
    float* d_acc = nullptr;
    CK(cudaMalloc(&d_x, max_n * sizeof(float)));
    CK(cudaMalloc(&d_acc, (warm + reps) * sizeof(float)));
    CK(cudaMemcpy(d_x, h_x.data(), max_n * sizeof(float), cudaMemcpyHostToDevice));
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("part,kernel,n,grid,warm,reps,mean_ms,median_ms,min_ms,max_ms,stdev_ms,result,reference,rel_err,check\n");
    std::fflush(stdout);
    const char* names[3] = {"denomAtomic", "denomShared", "denomShuffle"};
    for (int n : ns) {
        double ref = 0;
        for (int i = 0; i < n; ++i) ref += std::exp(static_cast<double>(h_x[i]));
        const int grid = (n + kBlock - 1) / kBlock;
        for (int k = 0; k < 3; ++k) {
            if (budget.over("softmax_small part 1")) break;
            CK(cudaMemset(d_acc, 0, (warm + reps) * sizeof(float)));
            auto setup = [](int) {};
            auto launch = [&](int slot) {
                if (k == 0) denomAtomic<<<grid, kBlock>>>(d_x, d_acc + slot, n);
                else if (k == 1) denomShared<<<grid, kBlock>>>(d_x, d_acc + slot, n);
                else denomShuffle<<<grid, kBlock>>>(d_x, d_acc + slot, n);
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            std::vector<float> got(warm + reps);
            CK(cudaMemcpy(got.data(), d_acc, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
            const double ulp = std::ldexp(1.0, std::ilogb(ref) - 23);
            const double adds = (k == 0) ? static_cast<double>(n) : static_cast<double>(grid + kBlock);
            const double tol = 1e-5 + 0.5 * adds * ulp / ref;
            double worst = 0;
            for (float g : got) worst = std::max(worst, std::fabs(g - ref) / ref);
            std::printf("lab,%s,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.9g,%.6f,%.3g,%s\n", names[k], n, grid,
                        warm, reps, s.mean, s.median, s.min, s.max, s.stdev,
                        static_cast<double>(got.back()), ref, worst, mb::note_check(worst <= tol));
            std::fflush(stdout);
        }
    }

    const int grids[] = {1, 2, 4, 8, 16, 32, 64, dev.sms, 2 * dev.sms};
    float* d_out = nullptr;
    CK(cudaMalloc(&d_out, 2 * dev.sms * sizeof(float) + 64 * sizeof(float)));
    for (int grid : grids) {
        double median[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            if (budget.over("softmax_small part 2")) break;
            CK(cudaMemset(d_out, 0, grid * sizeof(float)));
            auto setup = [](int) {};
            auto launch = [&](int) {
                if (k == 0) shared_cas<<<grid, kBlock>>>(d_out);
                else empty<<<grid, kBlock>>>(d_out);
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            median[k] = s.median;
            bool ok = true;
            if (k == 0) {
                std::vector<float> got(grid);
                CK(cudaMemcpy(got.data(), d_out, grid * sizeof(float), cudaMemcpyDeviceToHost));
                for (float g : got) ok = ok && g == static_cast<float>(kBlock);
            }
            std::printf("cas,%s,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,,,,%s\n", k == 0 ? "shared_cas" : "empty",
                        grid * kBlock, grid, warm, reps, s.mean, s.median, s.min, s.max, s.stdev,
                        mb::note_check(ok));
            std::fflush(stdout);
        }
        if (median[1] > 0)
            std::printf("# S grid=%d shared CAS queue of %d lanes: %.2f us over the empty launch, %.1f ns per lane\n",
                        grid, kBlock, (median[0] - median[1]) * 1e3, (median[0] - median[1]) * 1e6 / kBlock);
    }

    CK(cudaFree(d_out));
    CK(cudaFree(d_acc));
    CK(cudaFree(d_x));
    return mb::finish("softmax_small", budget);
}
