// queue.cu: a global work queue popped with atomicAdd on its head, one item
// or a batch of k per pop (the queue lab; cost model round 2: an integer
// atomic whose result is used, to a uniform address, which nvcc aggregates per
// warp).
//
// 4M items; item i costs c(i) dependent FMAs and writes out[i]. Two cost
// profiles: even (every item 32 FMAs) and uneven (1 item in 64 costs 2048,
// the rest 16). Persistent threads: grid = SMs x 8 blocks of 256; each thread
// loops `start = atomicAdd(head, k); if (start >= n) break; work [start,
// start + k)`. k = 1, 2, 4, ..., 4096. Also `warp` pops: lane 0 takes 32 * k
// items with one atomic and broadcasts the start with a shuffle, each lane
// then works k of them. The head is zeroed before each launch; every out[i] is
// checked after the last one.
#include "common.cuh"

namespace {

__host__ __device__ inline int cost_of(unsigned i, int uneven) {
    if (!uneven) return 32;
    return (mb::hash32(i ^ 0x7f4a7c15u) & 63u) == 0 ? 2048 : 16;
}

__device__ inline void work(unsigned i, int uneven, float* out) {
    float x = (float)(i & 255);
    const int c = cost_of(i, uneven);
    for (int k = 0; k < c; ++k) x = fmaf(x, 0.999f, 0.5f);
    out[i] = x;
}

__global__ void pop_thread(unsigned* head, unsigned n, unsigned k, int uneven, float* out) {
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, uneven, out);
    }
}

__global__ void pop_warp(unsigned* head, unsigned n, unsigned k, int uneven, float* out) {
    const unsigned lane = threadIdx.x & 31;
    for (;;) {
        unsigned start = 0;
        if (lane == 0) start = atomicAdd(head, 32 * k);
        start = __shfl_sync(0xffffffffu, start, 0);
        if (start >= n) break;
        const unsigned lo = start + lane * k, hi = min(n, lo + k);
        for (unsigned i = lo; i < hi; ++i) work(i, uneven, out);
    }
}

float host_work(unsigned i, int uneven) {
    float x = (float)(i & 255);
    const int c = cost_of(i, uneven);
    for (int k = 0; k < c; ++k) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("queue", "work queue: items per pop vs time, even and uneven costs", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22;
    const int grid = dev.sms * 8, block = 256, warm = 2, reps = 7;
    unsigned* head;
    float* out;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)n * 4));
    std::printf("costs,pop,k,items,grid,block,pops,median_ms,mean_ms,min_ms,max_ms,stdev_ms,check\n");
    for (int uneven = 0; uneven < 2; ++uneven) {
        std::vector<float> want(n);
        for (unsigned i = 0; i < n; ++i) want[i] = host_work(i, uneven);
        for (int warp = 0; warp < 2; ++warp) {
            for (unsigned k = 1; k <= 4096; k *= 2) {
                if (budget.over("queue")) break;
                auto setup = [&](int) {
                    CK(cudaMemset(head, 0, 4));
                    CK(cudaMemset(out, 0, (size_t)n * 4));
                };
                auto launch = [&](int) {
                    if (warp) pop_warp<<<grid, block>>>(head, n, k, uneven, out);
                    else pop_thread<<<grid, block>>>(head, n, k, uneven, out);
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                std::vector<float> got(n);
                CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
                bool ok = true;
                for (unsigned i = 0; i < n; ++i)
                    if (got[i] != want[i]) { ok = false; break; }
                const double per = warp ? 32.0 * k : k;
                std::printf("%s,%s,%u,%u,%d,%d,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%s\n", uneven ? "uneven" : "even",
                            warp ? "warp" : "thread", k, n, grid, block, std::ceil(n / per), s.median, s.mean, s.min,
                            s.max, s.stdev, mb::note_check(ok));
            }
        }
    }
    CK(cudaFree(head));
    CK(cudaFree(out));
    return mb::finish("queue", budget);
}
