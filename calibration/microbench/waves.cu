// waves.cu: wave quantisation of the grid.
//
// Two kernels, each thread writing one float:
//   store      out[i] = f(i): almost no work per block (dispatch-bound)
//   fma_store  a chain of ITERS = 4096 dependent FMAs x = x * a + b (a, b
//              kernel arguments, 1 and 1, so the result is exact), then the
//              store: every block takes the same, measurable time
// Block sizes 256 and 1024. With R = resident blocks per SM (from the
// occupancy API) and W = SMs * R blocks per full wave, grids are
// W/2, and w*W - 1, w*W, w*W + 1 for w = 1..8. Time should step up at each
// w*W + 1 for fma_store. 3 warm-ups + 10 timed launches; output checked.
#include "common.cuh"

namespace {

constexpr int kIters = 4096;

__global__ void store_kernel(float* out) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    out[i] = static_cast<float>(i & 1023u) + 0.5f;
}

__global__ void fma_store_kernel(float* out, float a, float b, int iters) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    float x = static_cast<float>(i & 1023u);
#pragma unroll 8
    for (int k = 0; k < iters; ++k) x = fmaf(x, a, b);
    out[i] = x;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev =
        mb::print_header("waves", "wave quantisation: time vs grid size around full waves", argc,
                         argv);
    mb::Budget budget(40.0);
    const int warm = 3, reps = 10;
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    // Largest grid: 8 waves + 1 block at the largest per-SM residency.
    const size_t max_threads = static_cast<size_t>(9) * dev.max_threads_per_sm * dev.sms + 1024;
    float* d_out = nullptr;
    CK(cudaMalloc(&d_out, max_threads * sizeof(float)));
    std::vector<float> h_out;

    std::printf("# fma iters: %d\n", kIters);
    std::printf("kernel,block,resident_per_sm,wave_blocks,grid,waves,warm,reps,median_us,mean_us,"
                "min_us,max_us,stdev_us,us_per_wave_ceil,check\n");
    std::fflush(stdout);

    for (int kern = 0; kern < 2; ++kern) {
        for (int block : {256, 1024}) {
            int resident = 0;
            if (kern == 0)
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, store_kernel, block, 0));
            else
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fma_store_kernel,
                                                                 block, 0));
            const long long W = static_cast<long long>(resident) * dev.sms;
            std::vector<long long> grids = {W / 2};
            for (int w = 1; w <= 8; ++w) {
                grids.push_back(w * W - 1);
                grids.push_back(w * W);
                grids.push_back(w * W + 1);
            }
            for (long long g : grids) {
                if (budget.over("waves config")) goto done;
                if (g < 1) continue;
                const size_t threads = static_cast<size_t>(g) * block;
                if (threads > max_threads) continue;
                CK(cudaMemset(d_out, 0xff, threads * sizeof(float)));
                const unsigned gg = static_cast<unsigned>(g);
                auto setup = [](int) {};
                auto launch = [&](int) {
                    if (kern == 0) store_kernel<<<gg, block>>>(d_out);
                    else fma_store_kernel<<<gg, block>>>(d_out, 1.0f, 1.0f, kIters);
                };
                std::vector<double> ms = mb::time_runs(tm, warm, reps, setup, launch);
                for (double& m : ms) m *= 1e3;  // to microseconds
                const mb::Stats s = mb::stats_of(ms);
                h_out.resize(threads);
                CK(cudaMemcpy(h_out.data(), d_out, threads * sizeof(float), cudaMemcpyDeviceToHost));
                bool ok = true;
                for (size_t i = 0; i < threads && ok; ++i) {
                    const float base = static_cast<float>(i & 1023u);
                    const float want = kern == 0 ? base + 0.5f : base + static_cast<float>(kIters);
                    ok = (h_out[i] == want);
                }
                const double waves = static_cast<double>(g) / W;
                const double wave_ceil = std::ceil(waves);
                std::printf("%s,%d,%d,%lld,%lld,%.4f,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s\n",
                            kern == 0 ? "store" : "fma_store", block, resident, W, g, waves, warm,
                            reps, s.median, s.mean, s.min, s.max, s.stdev, s.median / wave_ceil,
                            mb::note_check(ok));
                std::fflush(stdout);
            }
        }
    }
done:
    CK(cudaFree(d_out));
    return mb::finish("waves", budget);
}
