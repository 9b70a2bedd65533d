// queue_lab.cu: the queue lab's own kernels (labs/queue/kernels/queue.cu,
// included unchanged) built by nvcc and timed the way queue.cu times its own,
// at the shapes of the lab's GPU test (TestOnGPU: 4M items, SMs x 8 blocks of
// 256, k = 1, 4, 8, 64, 1024, even and uneven costs).
//
// Why: the lab's build of these kernels (NVRTC, through cudarun) ran 1.3 to
// 2x slower than queue.cu's nvcc build on the same GPU. The two sources
// differ: queue.cu's item cost is 32 or a hash-picked 16/2048 behind one
// runtime flag, which nvcc unswitches into a path whose FMA loop has a
// constant trip count; the lab's cost is light/heavy/period, all runtime
// values. This program times the lab's source under nvcc in the same harness
// as queue.cu, so that a run of both (MB_PROGS="queue queue_lab") says whether
// the difference is the source or the compiler (NVRTC vs nvcc); the lab's
// TestOnGPU and `warplab sass` of the same kernels give the NVRTC side.
//
// env MB_RESET=copy resets the head and the output before each launch with
// cudaMemcpy from host zeros, as warplab's gpu.Buffer.Zero does, in place of
// cudaMemset; MB_GATE=0 times the launches ungated (common.cuh's EvTimer).
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

unsigned host_hash(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

float host_work(unsigned i, int light, int heavy, unsigned period) {
    float x = (float)(i & 255);
    int c = light;
    if (light != heavy && (host_hash(i ^ 0x7f4a7c15u) & (period - 1)) == 0) c = heavy;
    for (int j = 0; j < c; ++j) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("queue_lab", "the queue lab's kernels (labs/queue/kernels/queue.cu) built by nvcc", argc, argv);
    mb::Budget budget(40.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22;
    const int grid = dev.sms * 8, block = 256, warm = 2, reps = 7;
    const unsigned ks[] = {1, 4, 8, 64, 1024};
    struct Costs {
        const char* name;
        int light, heavy;
        unsigned period;
    } costs[] = {{"even", 32, 32, 64}, {"uneven", 16, 2048, 64}};
    unsigned* head;
    float* out;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)n * 4));
    const char* reset_env = std::getenv("MB_RESET");
    const bool copy_reset = reset_env && std::strcmp(reset_env, "copy") == 0;
    std::vector<float> zeros(copy_reset ? n : 0, 0.0f);
    std::printf("# reset: %s before each launch\n", copy_reset ? "cudaMemcpy from host zeros (MB_RESET=copy)" : "cudaMemset");
    std::printf("costs,pop,k,items,grid,block,pops,median_ms,mean_ms,min_ms,max_ms,stdev_ms,check\n");
    for (const Costs& c : costs) {
        std::vector<float> want(n);
        for (unsigned i = 0; i < n; ++i) want[i] = host_work(i, c.light, c.heavy, c.period);
        for (int warp = 0; warp < 2; ++warp) {
            for (unsigned k : ks) {
                if (budget.over("queue_lab")) break;
                auto setup = [&](int) {
                    if (copy_reset) {
                        CK(cudaMemcpy(head, zeros.data(), 4, cudaMemcpyHostToDevice));
                        CK(cudaMemcpy(out, zeros.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
                    } else {
                        CK(cudaMemset(head, 0, 4));
                        CK(cudaMemset(out, 0, (size_t)n * 4));
                    }
                };
                auto launch = [&](int) {
                    if (warp) popWarp<<<grid, block>>>(head, n, k, c.light, c.heavy, c.period, out);
                    else popThread<<<grid, block>>>(head, n, k, c.light, c.heavy, c.period, out);
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                std::vector<float> got(n);
                CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
                bool ok = true;
                for (unsigned i = 0; i < n; ++i)
                    if (got[i] != want[i]) { ok = false; break; }
                const double per = warp ? 32.0 * k : k;
                std::printf("%s,%s,%u,%u,%d,%d,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%s\n", c.name, warp ? "warp" : "thread", k, n,
                            grid, block, std::ceil(n / per), s.median, s.mean, s.min, s.max, s.stdev, mb::note_check(ok));
            }
        }
    }
    CK(cudaFree(head));
    CK(cudaFree(out));
    return mb::finish("queue_lab", budget);
}
