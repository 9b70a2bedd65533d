// store_merge.cu: which of a warp's stores the H200's SM store path merges
// before the L2, and what a merged request costs (issue 13; gpusim's
// Cost.StorePathLineCycles, StoreLineCycles, StoreSectorCycles).
//
// queue_loop.cu's ncu (k = 8, lanes 32 bytes apart: 8 lines of 4 partly
// written sectors a warp store) saw the L2 take 0.63 M write requests from
// queue.cu's unrolled item loop (four STG back to back to the same sectors)
// against 1.05 M from the lab's rolled one. But queue_sm.cu's busiest SM at
// k = 1024 (lanes 4 KiB apart: 32 lines of one sector a store) sent its
// requests 2.02 cycles apart in both kernels alike. Two parts:
//
// part `path`: a store loop on SMs 0 .. active-1 (active = 1 or all; the
// other blocks return at once), `bps` blocks of 256 on each (2: 16 warps, as
// the queue's busiest SM at k = 1024; 8: 64 warps), lanes `stride` words apart
// (8: 8 lines of 4 partly written sectors a warp store, as the queue at k = 8;
// 32: 32 lines of one sector, as at k >= 32). Each warp issues 256 stores in
// groups of G (1, 2, 4) back to back, a dependent chain of GAP FMAs (0, 8,
// 32: about 0, 32 and 128 cycles) before each group. `same`: store u of the
// warp writes word u % 8 of its lane's sector (a group's stores, and the
// next group's, write the same sectors, as queue.cu's interleaved items and
// the lab's consecutive trips do); `distinct`: store u writes slot u % 4 of a
// window of 4 (no two consecutive stores touch one line, as store_sm.cu).
// Row: the median time, the line requests per active SM as sent (warp
// stores x lines a store, before any merge) and the SM cycles a sent
// request less the launch (the `none` row of the same grid, no stores).
//
// part `queue`: queue.cu's pop_thread (even costs: nvcc's interleaved item
// loop, four STG back to back) and the queue lab's popThread (its run-time
// loop, one STG a trip) at k = 64 and 1024, 4M items, SMs x 8 blocks of 256,
// each warp recording its SM and its pops AFTER its loop (nothing before the
// first atomic). Row per recorded launch: the time, the winners on the
// busiest SM, the SMs with a winner, the busiest SM's line requests as sent
// (pops x k x 32) and the SM cycles a request there (the time less the
// launch, over them).
//
// `store_merge one path ACTIVE BPS STRIDE SAME G GAP` and `store_merge one
// queue thread|lab K` run 3 untimed launches of one cell (for ncu:
// calibration/scripts/ncu-store-merge.sh).
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

constexpr unsigned kIters = 256;  // stores a warp, part path

template <bool SAME, int G, int GAP>
__global__ void path(float* out, unsigned active, unsigned stride, unsigned iters, unsigned* ran) {
    if (mb::smid() >= active) return;
    if (threadIdx.x == 0) atomicAdd(ran, 1u);
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    float* w = out + (size_t)warp * 4 * 32 * stride;
    float x = (float)lane;
#pragma unroll 1
    for (unsigned t = 0; t < iters; t += G) {
#pragma unroll
        for (int j = 0; j < GAP; ++j) x = fmaf(x, 0.999f, 0.5f);
#pragma unroll
        for (int g = 0; g < G; ++g) {
            const unsigned u = t + g;
            const size_t off = SAME ? (size_t)lane * stride + (u & 7u) : ((size_t)(u & 3u) * 32 + lane) * stride;
            w[off] = x + (float)g;
        }
    }
}

using PathFn = void (*)(float*, unsigned, unsigned, unsigned, unsigned*);
constexpr int kGroups[] = {1, 2, 4};
constexpr int kGaps[] = {0, 8, 32};
// kPath[same][group][gap]
const PathFn kPath[2][3][3] = {
    {
        {path<false, 1, 0>, path<false, 1, 8>, path<false, 1, 32>},
        {path<false, 2, 0>, path<false, 2, 8>, path<false, 2, 32>},
        {path<false, 4, 0>, path<false, 4, 8>, path<false, 4, 32>},
    },
    {
        {path<true, 1, 0>, path<true, 1, 8>, path<true, 1, 32>},
        {path<true, 2, 0>, path<true, 2, 8>, path<true, 2, 32>},
        {path<true, 4, 0>, path<true, 4, 8>, path<true, 4, 32>},
    },
};

// queue.cu's item (even and uneven behind one run-time flag, which nvcc
// unswitches: the even path's FMA loop has a constant count).
__device__ inline int q_cost(unsigned i, int uneven) {
    if (!uneven) return 32;
    return (mb::hash32(i ^ 0x7f4a7c15u) & 63u) == 0 ? 2048 : 16;
}
__device__ inline void q_work(unsigned i, int uneven, float* out) {
    float x = (float)(i & 255);
    const int c = q_cost(i, uneven);
    for (int k = 0; k < c; ++k) x = fmaf(x, 0.999f, 0.5f);
    out[i] = x;
}

// Lane 0 of each warp records (pops << 8 | SM) after the loop.
__device__ inline void record(unsigned pops, unsigned* rec) {
    if ((threadIdx.x & 31) == 0) rec[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = pops << 8 | mb::smid();
}

// queue.cu's pop_thread.
__global__ void q_thread(unsigned* head, unsigned n, unsigned k, int uneven, float* out, unsigned* rec) {
    unsigned pops = 0;
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        ++pops;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) q_work(i, uneven, out);
    }
    record(pops, rec);
}

// The lab's popThread (labs/queue/kernels/queue.cu's work).
__global__ void q_lab(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                      unsigned* rec) {
    unsigned pops = 0;
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        ++pops;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
    record(pops, rec);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "store_merge", "the store path: a warp's back-to-back stores to the same sectors, merged or not; the queue's winners", argc, argv);
    const unsigned sms = (unsigned)dev.sms;
    const int block = 256;
    const unsigned n = 1u << 22, qgrid = sms * 8, qwarps = qgrid * block / 32;
    // Part path's buffer: 8 blocks of 256 on every SM, lanes up to 32 words apart.
    const size_t words = (size_t)sms * 8 * block / 32 * 4 * 32 * 32;
    float *out, *qout;
    unsigned *ran, *head, *rec;
    CK(cudaMalloc(&out, words * sizeof(float)));
    CK(cudaMalloc(&qout, (size_t)n * 4));
    CK(cudaMalloc(&ran, sizeof(unsigned)));
    CK(cudaMalloc(&head, sizeof(unsigned)));
    CK(cudaMalloc(&rec, qwarps * sizeof(unsigned)));
    CK(cudaMemset(out, 0, words * sizeof(float)));

    if (argc >= 3 && std::strcmp(argv[1], "one") == 0) {
        // One cell, three launches, untimed (ncu).
        bool ok = false;
        if (std::strcmp(argv[2], "path") == 0 && argc == 9) {
            const unsigned active = (unsigned)std::atoi(argv[3]), bps = (unsigned)std::atoi(argv[4]),
                           stride = (unsigned)std::atoi(argv[5]);
            const int same = std::atoi(argv[6]), G = std::atoi(argv[7]), gap = std::atoi(argv[8]);
            int gi = -1, pi = -1;
            for (int i = 0; i < 3; ++i) {
                if (kGroups[i] == G) gi = i;
                if (kGaps[i] == gap) pi = i;
            }
            if (gi >= 0 && pi >= 0 && (stride == 8 || stride == 32) && bps >= 1 && bps <= 8) {
                for (int r = 0; r < 3; ++r) {
                    kPath[same != 0][gi][pi]<<<sms * bps, block>>>(out, active, stride, kIters, ran);
                    CK_LAUNCH();
                }
                ok = true;
            }
        } else if (std::strcmp(argv[2], "queue") == 0 && argc == 5) {
            const unsigned k = (unsigned)std::atoi(argv[4]);
            const bool lab = std::strcmp(argv[3], "lab") == 0;
            for (int r = 0; r < 3 && k > 0; ++r) {
                CK(cudaMemset(head, 0, 4));
                if (lab) q_lab<<<qgrid, block>>>(head, n, k, 32, 32, 64, qout, rec);
                else q_thread<<<qgrid, block>>>(head, n, k, 0, qout, rec);
                CK_LAUNCH();
            }
            ok = k > 0;
        }
        CK(cudaDeviceSynchronize());
        if (!ok) {
            std::fprintf(stderr, "usage: store_merge one path ACTIVE BPS 8|32 SAME 1|2|4 0|8|32, or one queue thread|lab K\n");
            return 2;
        }
        return 0;
    }

    const mb::Parts parts(argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 2, reps = 7;
    const double clock_hz = dev.sm_clock_khz * 1e3;

    if (parts("path")) {
        std::printf("part,active_sms,bps,stride,mode,group,gap,lines_per_sm,blocks_ran,median_ms,min_ms,max_ms,cycles_per_line,check\n");
        const unsigned bpss[] = {2, 8};
        for (unsigned bps : bpss) {
            const unsigned grid = sms * bps;
            double none = 0;
            {
                auto setup = [&](int) { CK(cudaMemset(ran, 0, sizeof(unsigned))); };
                auto launch = [&](int) { kPath[1][0][0]<<<grid, block>>>(out, sms, 8, 0, ran); };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                unsigned got = 0;
                CK(cudaMemcpy(&got, ran, sizeof(unsigned), cudaMemcpyDeviceToHost));
                none = s.median;
                std::printf("path,%u,%u,none,none,0,0,0,%u,%.5f,%.5f,%.5f,,%s\n", sms, bps, got, s.median, s.min, s.max,
                            mb::note_check(got == grid));
            }
            const unsigned actives[] = {1, sms};
            const unsigned strides[] = {32, 8};
            for (unsigned active : actives) {
                for (unsigned stride : strides) {
                    for (int same = 1; same >= 0; --same) {
                        // All SMs, lanes a line apart, a window of 4 lines a
                        // lane: 138 MB, more than the L2 holds.
                        if (active == sms && stride == 32 && !same) continue;
                        for (int gi = 0; gi < 3; ++gi) {
                            for (int pi = 0; pi < 3; ++pi) {
                                if (budget.over("store_merge path")) break;
                                auto setup = [&](int) { CK(cudaMemset(ran, 0, sizeof(unsigned))); };
                                auto launch = [&](int) {
                                    kPath[same][gi][pi]<<<grid, block>>>(out, active, stride, kIters, ran);
                                };
                                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
                                unsigned got = 0;
                                CK(cudaMemcpy(&got, ran, sizeof(unsigned), cudaMemcpyDeviceToHost));
                                const double lines = (double)bps * block / 32 * kIters * (stride >= 32 ? 32.0 : 8.0);
                                const double cycles = (s.median - none) * 1e-3 * clock_hz / lines;
                                std::printf("path,%u,%u,%u,%s,%d,%d,%.0f,%u,%.5f,%.5f,%.5f,%.3f,%s\n", active, bps, stride,
                                            same ? "same" : "distinct", kGroups[gi], kGaps[pi], lines, got, s.median,
                                            s.min, s.max, cycles, mb::note_check(got == active * bps));
                            }
                        }
                    }
                }
            }
        }
    }

    if (parts("queue")) {
        std::printf("part,kernel,k,rep,ms,winners,sms_won,busiest_sm,busiest_won,busiest_lines,cycles_per_line,check\n");
        const unsigned ks[] = {64, 1024};
        std::vector<unsigned> h(qwarps);
        for (int lab = 0; lab < 2; ++lab) {
            for (unsigned k : ks) {
                for (int r = 0; r < warm + 8; ++r) {
                    if (budget.over("store_merge queue")) break;
                    CK(cudaMemset(head, 0, 4));
                    CK(cudaMemset(rec, 0, qwarps * sizeof(unsigned)));
                    const double ms = tm.ms(
                        [&] {
                            if (lab) q_lab<<<qgrid, block>>>(head, n, k, 32, 32, 64, qout, rec);
                            else q_thread<<<qgrid, block>>>(head, n, k, 0, qout, rec);
                        },
                        r >= warm);
                    if (r < warm) continue;
                    CK(cudaMemcpy(h.data(), rec, qwarps * sizeof(unsigned), cudaMemcpyDeviceToHost));
                    std::vector<unsigned> won(sms, 0), pops(sms, 0);
                    unsigned winners = 0, total = 0;
                    for (unsigned w = 0; w < qwarps; ++w) {
                        const unsigned sm = h[w] & 255u, p = h[w] >> 8;
                        if (sm >= sms) continue;
                        if (p > 0) {
                            ++won[sm];
                            ++winners;
                        }
                        pops[sm] += p;
                        total += p;
                    }
                    unsigned best = 0, smsWon = 0;
                    for (unsigned s = 0; s < sms; ++s) {
                        if (won[s]) ++smsWon;
                        if (pops[s] > pops[best]) best = s;
                    }
                    // A warp's pop: k warp stores of 32 lines each (lanes k >= 32
                    // words apart), each lane k items.
                    const double lines = (double)pops[best] * k * 32;
                    const double cycles = (ms - 0.0027) * 1e-3 * clock_hz / lines;
                    const bool ok = (double)total * 32 * k >= (double)n;
                    std::printf("queue,%s,%u,%d,%.5f,%u,%u,%u,%u,%.0f,%.3f,%s\n", lab ? "lab" : "thread", k, r - warm, ms,
                                winners, smsWon, best, won[best], lines, cycles, mb::note_check(ok));
                }
            }
        }
    }

    CK(cudaFree(out));
    CK(cudaFree(qout));
    CK(cudaFree(ran));
    CK(cudaFree(head));
    CK(cudaFree(rec));
    return mb::finish("store_merge", budget);
}
