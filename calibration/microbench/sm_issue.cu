// sm_issue.cu: what an SM spends per dependent FMA and per block it starts
// (the cost model's ALU latency, its per-SM issue limit and its block
// dispatch, issue 11).
//
// fma: every warp runs one dependent chain of x = fmaf(x, 0.999f, 0.5f) for
//   a run-time trip count (the queue microbenchmark's item loop: nvcc
//   unrolls it to 16 FFMA per branch), timed with clock64 around the loop;
//   one block per SM (132 blocks) of W warps, W = 1, 2, 4, 8, 16, 32 (so a
//   scheduler holds W/4 of them), 65,536 FMAs per lane. Printed: SM cycles
//   per FMA of one warp (median and max over the warps), the launch's time,
//   and the SMs the blocks landed on.
// dispatch: an almost empty kernel (one compare, no store) on 65,536 blocks
//   of 64, 128, 256, 512 and 1024 threads, timed with events; and the same
//   grid with each block's first thread recording its SM and clock64 at
//   start: the SM-clock cycles between consecutive block starts on one SM
//   (percentiles), in the first wave and later.
#include "common.cuh"

namespace {

__global__ void k_fma(float* out, int iters, long long* cyc, unsigned* sms) {
    float x = (float)(threadIdx.x & 255);
    const long long c0 = clock64();
    for (int k = 0; k < iters; ++k) x = fmaf(x, 0.999f, 0.5f);
    const long long c1 = clock64();
    const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
    if ((threadIdx.x & 31) == 0) {
        cyc[w] = c1 - c0;
        if (threadIdx.x == 0) sms[blockIdx.x] = mb::smid();
    }
}

__global__ void k_empty(int* out, int flag) {
    if (flag == 12345 && threadIdx.x == 0) out[0] = blockIdx.x;
}

__global__ void k_start(long long* c, unsigned* sms) {
    if (threadIdx.x == 0) {
        c[blockIdx.x] = clock64();
        sms[blockIdx.x] = mb::smid();
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("sm_issue", "cycles per dependent FMA against warps per SM; block starts per SM", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 3, reps = 7;
    std::printf("part,param,blocks,threads,median_ms,min_ms,a,b,c,d\n");

    // fma: one block per SM, W warps each.
    const int iters = 65536;
    const int blocks = dev.sms;
    float* out;
    long long* cyc;
    unsigned* sms;
    CK(cudaMalloc(&out, (size_t)blocks * 1024 * 4));
    CK(cudaMalloc(&cyc, (size_t)blocks * 32 * 8));
    CK(cudaMalloc(&sms, (size_t)65536 * 4));
    for (int W : {1, 2, 4, 8, 16, 32}) {
        if (budget.over("fma")) break;
        const int threads = 32 * W;
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, [](int) {},
                                                       [&](int) { k_fma<<<blocks, threads>>>(out, iters, cyc, sms); }));
        std::vector<long long> c((size_t)blocks * W);
        std::vector<unsigned> where(blocks);
        CK(cudaMemcpy(c.data(), cyc, c.size() * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(where.data(), sms, (size_t)blocks * 4, cudaMemcpyDeviceToHost));
        std::vector<double> per;
        for (long long v : c) per.push_back((double)v / iters);
        std::vector<unsigned> distinct(where);
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        // Check: the chain's value on the host (the same float arithmetic).
        float x = 7.0f;
        for (int k = 0; k < iters; ++k) x = std::fmaf(x, 0.999f, 0.5f);
        float got = 0;
        CK(cudaMemcpy(&got, out + 7, 4, cudaMemcpyDeviceToHost));
        std::printf("fma,warps_per_sm=%d,%d,%d,%.5f,%.5f,cycles_per_fma_p50=%.3f,p90=%.3f,max=%.3f,sms_used=%zu %s\n", W, blocks,
                    threads, s.median, s.min, mb::pct(per, 0.5), mb::pct(per, 0.9), mb::pct(per, 1.0), distinct.size(),
                    mb::note_check(got == x));
    }

    // dispatch: 65,536 almost empty blocks.
    const int grid = 65536;
    int* sink;
    long long* starts;
    CK(cudaMalloc(&sink, 4));
    CK(cudaMalloc(&starts, (size_t)grid * 8));
    for (int threads : {64, 128, 256, 512, 1024}) {
        if (budget.over("dispatch")) break;
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, [](int) {},
                                                       [&](int) { k_empty<<<grid, threads>>>(sink, 0); }));
        const mb::Stats r = mb::stats_of(mb::time_runs(tm, warm, reps, [](int) {},
                                                       [&](int) { k_start<<<grid, threads>>>(starts, sms); }));
        int resident = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_start, threads, 0));
        std::vector<long long> c(grid);
        std::vector<unsigned> where(grid);
        CK(cudaMemcpy(c.data(), starts, (size_t)grid * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(where.data(), sms, (size_t)grid * 4, cudaMemcpyDeviceToHost));
        std::vector<std::vector<long long>> perSM(dev.sms);
        for (int b = 0; b < grid; ++b)
            if (where[b] < (unsigned)dev.sms) perSM[where[b]].push_back(c[b]);
        std::vector<double> first, later;
        for (auto& v : perSM) {
            std::sort(v.begin(), v.end());
            for (size_t k = 1; k < v.size(); ++k)
                (k < (size_t)resident ? first : later).push_back((double)(v[k] - v[k - 1]));
        }
        std::printf("dispatch,resident_per_sm=%d,%d,%d,%.5f,%.5f,recording_median_ms=%.5f,us_per_block_per_sm=%.4f,"
                    "gap_cycles_first_wave p10=%.0f p50=%.0f p90=%.0f,gap_cycles_later p10=%.0f p50=%.0f p90=%.0f\n",
                    resident, grid, threads, s.median, s.min, r.median, s.median * 1e3 / ((double)grid / dev.sms),
                    mb::pct(first, 0.1), mb::pct(first, 0.5), mb::pct(first, 0.9), mb::pct(later, 0.1), mb::pct(later, 0.5),
                    mb::pct(later, 0.9));
        std::fflush(stdout);
    }
    CK(cudaFree(out));
    CK(cudaFree(cyc));
    CK(cudaFree(sms));
    CK(cudaFree(sink));
    CK(cudaFree(starts));
    return mb::finish("sm_issue", budget);
}
