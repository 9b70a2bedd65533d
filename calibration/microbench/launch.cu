// launch.cu: kernel launch overhead and empty-block dispatch cost.
//
// Tests (all with an empty kernel unless named otherwise):
//   event_single     events around ONE launch of <<<1,32>>>, synchronised
//                    after each; median of 500. What a lab's per-launch timing
//                    of a tiny kernel reports.
//   event_back2back  events around 1000 back-to-back launches of <<<1,32>>>;
//                    time / 1000, 10 repetitions (the launch-to-launch gap).
//   host_sync        host steady_clock around launch + cudaDeviceSynchronize,
//                    500 repetitions (the round trip a host sees).
//   host_submit      host clock around 1000 launches without waiting,
//                    divided by 1000 (CPU cost of a launch call).
//   graph_replay     1000 launches captured in a CUDA graph, events around
//                    one replay, / 1000 (10 repetitions).
//   event_grid       events around one launch of an empty kernel with G
//                    blocks of B threads (G up to 132*512), median of 100:
//                    block dispatch cost as the grid grows.
//   event_grid_store same with a kernel that stores one int per thread.
// Every launch's error is checked; the store kernel's output is verified.
#include "common.cuh"

namespace {

__global__ void empty_kernel() {}

__global__ void store_kernel(int* out) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    out[i] = static_cast<int>(i) * 3 + 1;
}

void row(const char* test, long long grid, int block, int launches_per_sample,
         const mb::Stats& us, const char* check) {
    std::printf("%s,%lld,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%s\n", test, grid, block,
                launches_per_sample, us.n, us.median, us.mean, us.min, us.max, us.stdev, check);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev =
        mb::print_header("launch", "launch overhead and empty-block dispatch", argc, argv);
    mb::Budget budget(40.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("test,grid,block,launches_per_sample,samples,median_us,mean_us,min_us,max_us,"
                "stdev_us,check\n");
    std::fflush(stdout);

    // Warm-up: module load (lazy loading) and the first launches.
    for (int i = 0; i < 50; ++i) {
        empty_kernel<<<1, 32>>>();
        CK_LAUNCH();
    }
    CK(cudaDeviceSynchronize());

    // event_single
    {
        std::vector<double> us;
        for (int i = 0; i < 500; ++i) us.push_back(1e3 * tm.ms([] { empty_kernel<<<1, 32>>>(); }));
        row("event_single", 1, 32, 1, mb::stats_of(us), "PASS");
    }
    // event_back2back
    {
        std::vector<double> us;
        for (int r = 0; r < 10; ++r) {
            double ms = tm.ms([] {
                for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 32>>>();
            });
            us.push_back(1e3 * ms / 1000.0);
        }
        row("event_back2back", 1, 32, 1000, mb::stats_of(us), "PASS");
    }
    // host_sync
    {
        std::vector<double> us;
        for (int i = 0; i < 500; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            empty_kernel<<<1, 32>>>();
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            auto t1 = std::chrono::steady_clock::now();
            us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
        row("host_sync", 1, 32, 1, mb::stats_of(us), "PASS");
    }
    // host_submit
    {
        std::vector<double> us;
        for (int r = 0; r < 10; ++r) {
            CK(cudaDeviceSynchronize());
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 32>>>();
            auto t1 = std::chrono::steady_clock::now();
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000.0);
        }
        row("host_submit", 1, 32, 1000, mb::stats_of(us), "PASS");
    }
    // graph_replay
    {
        cudaStream_t s;
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        cudaGraph_t g;
        cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 32, 0, s>>>();
        CK(cudaStreamEndCapture(s, &g));
#if CUDART_VERSION >= 12000
        CK(cudaGraphInstantiate(&ge, g, 0ull));
#else
        CK(cudaGraphInstantiateWithFlags(&ge, g, 0ull));
#endif
        cudaEvent_t a, b;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        CK(cudaGraphLaunch(ge, s));  // warm-up replay (uploads the graph)
        CK(cudaStreamSynchronize(s));
        std::vector<double> us;
        for (int r = 0; r < 10; ++r) {
            CK(cudaEventRecord(a, s));
            CK(cudaGraphLaunch(ge, s));
            CK(cudaEventRecord(b, s));
            CK(cudaEventSynchronize(b));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, a, b));
            us.push_back(1e3 * ms / 1000.0);
        }
        row("graph_replay", 1, 32, 1000, mb::stats_of(us), "PASS");
        CK(cudaEventDestroy(a));
        CK(cudaEventDestroy(b));
        CK(cudaGraphExecDestroy(ge));
        CK(cudaGraphDestroy(g));
        CK(cudaStreamDestroy(s));
    }
    // event_grid and event_grid_store
    {
        const int S = dev.sms;
        const long long grids[] = {1, S / 2, S, 2LL * S, 4LL * S, 8LL * S, 16LL * S, 32LL * S,
                                   64LL * S, 128LL * S, 512LL * S};
        const int blocks[] = {32, 256, 1024};
        const long long max_threads = 512LL * S * 1024;
        int* d_out = nullptr;
        CK(cudaMalloc(&d_out, static_cast<size_t>(max_threads) * sizeof(int)));
        std::vector<int> h_out;
        for (int store = 0; store < 2; ++store) {
            for (int b : blocks) {
                for (long long g : grids) {
                    if (g < 1) continue;
                    if (budget.over("event_grid")) break;
                    const unsigned gg = static_cast<unsigned>(g);
                    std::vector<double> us;
                    if (store) CK(cudaMemset(d_out, 0xff, static_cast<size_t>(g) * b * sizeof(int)));
                    for (int i = 0; i < 103; ++i) {
                        double ms = store ? tm.ms([&] { store_kernel<<<gg, b>>>(d_out); })
                                          : tm.ms([&] { empty_kernel<<<gg, b>>>(); });
                        if (i >= 3) us.push_back(1e3 * ms);
                    }
                    bool ok = true;
                    if (store) {
                        const size_t n = static_cast<size_t>(g) * b;
                        h_out.resize(n);
                        CK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
                        for (size_t i = 0; i < n && ok; ++i)
                            ok = (h_out[i] == static_cast<int>(i) * 3 + 1);
                    }
                    row(store ? "event_grid_store" : "event_grid", g, b, 1, mb::stats_of(us),
                        mb::note_check(ok));
                }
            }
        }
        CK(cudaFree(d_out));
    }
    return mb::finish("launch", budget);
}
