// store_sm.cu: whose time is a scattered store's, the SM's store path or the
// L2's? (issues 11 and 13; gpusim's Cost.StorePathLineCycles against
// Cost.StoreLineCycles and Cost.StoreSectorCycles.)
//
// queue_loop.csv's static rows (every SM storing alike, lanes 16, 32 or 64
// bytes apart) fit 4 SM cycles a line request and 2 a further partly written
// sector; queue_sm.csv's busiest SM (16 to 23 warps storing one word a lane on
// a line of its own while the rest of the GPU hardly stores) sent a line
// request every 2.02 cycles. The model reads the first as the L2's work over
// all the SMs' requests and the second as one SM's own path. This program
// separates them: the same store loop on SMs 0 .. active-1 only (every other
// block returns at once), active = 1, 2, 8 and all, with the lanes of a warp
// store `stride` words apart:
//   stride 1    one line of four whole sectors a warp store (coalesced)
//   stride 4    16 bytes apart: 4 lines of 4 partly written sectors (2 words each)
//   stride 8    32 bytes apart: 8 lines of 4 partly written sectors
//   stride 32   128 bytes apart: 32 lines of one partly written sector
// Grid: 8 blocks of 256 on each SM (all resident, as the queue's). Each warp
// stores `iters` times into its own window of 4 x 32 x stride words, the
// iterations going round the window (no two back-to-back stores of a warp
// touch one sector). Output per row: the median time, the active SMs, the
// warp stores and line requests per active SM (counted on the host from the
// pattern) and the SM cycles a line request at the clock the header prints,
// less the launch (the `none` row: the same grid with iters = 0).
// Checks: every active block ran on an active SM (counted on the device) and
// the last iteration's value is in place.
#include "common.cuh"

namespace {

constexpr unsigned kWindow = 4;  // iterations a warp's window holds

__global__ void st(float* out, unsigned active, unsigned stride, unsigned iters, unsigned* ran) {
    if (mb::smid() >= active) return;
    if (threadIdx.x == 0) atomicAdd(ran, 1u);
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    float* w = out + (size_t)warp * kWindow * 32 * stride;
    for (unsigned it = 0; it < iters; ++it) {
        w[((it % kWindow) * 32 + lane) * stride] = (float)(it + 1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "store_sm", "the store path: scattered stores on 1, 2, 8 or all SMs, lanes 1, 4, 8 or 32 words apart", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int block = 256, perSM = 8, warm = 2, reps = 7;
    const unsigned sms = (unsigned)dev.sms, grid = sms * perSM, warps = grid * block / 32;
    const unsigned iters = 256;
    const unsigned strides[] = {1, 4, 8, 32};
    size_t words = (size_t)warps * kWindow * 32 * 32;
    float* out;
    unsigned* ran;
    CK(cudaMalloc(&out, words * sizeof(float)));
    CK(cudaMalloc(&ran, sizeof(unsigned)));
    CK(cudaMemset(out, 0, words * sizeof(float)));
    std::printf("active_sms,stride,iters,warp_stores_per_sm,lines_per_sm,blocks_ran,median_ms,min_ms,max_ms,cycles_per_line,check\n");
    // The launch alone: no stores.
    double none = 0;
    {
        auto setup = [&](int) { CK(cudaMemset(ran, 0, sizeof(unsigned))); };
        auto launch = [&](int) { st<<<grid, block>>>(out, sms, 1, 0, ran); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
        unsigned got = 0;
        CK(cudaMemcpy(&got, ran, sizeof(unsigned), cudaMemcpyDeviceToHost));
        none = s.median;
        std::printf("%u,none,0,0,0,%u,%.5f,%.5f,%.5f,,%s\n", sms, got, s.median, s.min, s.max, mb::note_check(got == grid));
    }
    const unsigned actives[] = {1, 2, 8, sms};
    for (unsigned active : actives) {
        for (unsigned stride : strides) {
            if (budget.over("store_sm")) break;
            // Only the all-SM rows at stride 32 would leave the L2 (138 MB).
            if (active == sms && stride == 32) continue;
            auto setup = [&](int) { CK(cudaMemset(ran, 0, sizeof(unsigned))); };
            auto launch = [&](int) { st<<<grid, block>>>(out, active, stride, iters, ran); };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            unsigned got = 0;
            CK(cudaMemcpy(&got, ran, sizeof(unsigned), cudaMemcpyDeviceToHost));
            // Warp 0's window holds the last iteration's value once its block
            // has run on an active SM, 0 before (cudaMalloc's memory is not
            // zeroed: the check reads it only as a sanity bound).
            float last = 0;
            CK(cudaMemcpy(&last, out + (size_t)((iters - 1) % kWindow) * 32 * stride, sizeof(float), cudaMemcpyDeviceToHost));
            const double warpStores = (double)perSM * block / 32 * iters;
            const double linesPerStore = stride >= 32 ? 32.0 : 32.0 * stride * 4 / 128;
            const double lines = warpStores * linesPerStore;
            const double cycles = (s.median - none) * 1e-3 * dev.sm_clock_khz * 1e3 / lines;
            const bool ok = got == active * perSM && (last == (float)iters || last == 0.0f);
            std::printf("%u,%u,%u,%.0f,%.0f,%u,%.5f,%.5f,%.5f,%.3f,%s\n", active, stride, iters, warpStores, lines, got,
                        s.median, s.min, s.max, cycles, mb::note_check(ok));
        }
    }
    CK(cudaFree(out));
    CK(cudaFree(ran));
    return mb::finish("store_sm", budget);
}
