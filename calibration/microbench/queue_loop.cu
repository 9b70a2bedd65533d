// queue_loop.cu: why the queue lab's popThread takes about 1.35 times
// queue.cu's pop_thread at even costs and k = 8 on the H200 (0.048 against
// 0.036 ms; queue_sm.csv: every warp 1.5 times the cycles), where the
// simulator prices both alike (issue 13, the queue lab's listed cell "even
// (32) k=8").
//
// The two kernels differ only in how nvcc compiles the item loop (their
// SASS: calibration/evidence/2026-11-30-h200-queue-sm/sass): the lab's item cost is
// a run-time argument, so each item runs a run-time FMA loop (16 FFMA a
// trip, then 8, 4 and a remainder), one item after another, reloading its
// constants (LDC) per item; queue.cu's even cost is the constant 32, so the
// FMA loop is 32 straight FFMA and the item loop is unrolled by 4 with the
// four items' chains interleaved (a remainder of (end - start) & 3 first).
// This program runs the same pop loop with the item loop in three forms and
// the store in three, to separate what costs:
//
//   loop  lab:     the lab's costOf at run time (light = heavy = 32), as in
//                  labs/queue/kernels/queue.cu;
//         seq32:   a constant 32 FMAs, the item loop kept rolled (#pragma
//                  unroll 1): straight FFMA, one item after another;
//         ilp32:   a constant 32 FMAs, nvcc's default (item loop unrolled by
//                  4, the chains interleaved), as queue.cu's pop_thread;
//   store st:      out[i] (lanes k words apart, as both kernels);
//         none:    a store never taken (x < 0), the work kept;
//         coal:    item j of batch b to out[j * (n / k) + b] (a warp's store
//                  is one 128-byte line);
//   pop   atomic:  start = atomicAdd(head, k) (nvcc aggregates it per warp);
//         static:  thread t takes batches t, t + T, ... (no atomics).
//
// Shapes: grid (SMs x 8 blocks of 256, every warp resident, 4M items, k = 4,
// 8 and 16: every combination), one_sm (one block of 1024 threads, 32
// warps on one SM, k = 8, 8 pops a thread) and one_warp (one warp, k = 8,
// 64 pops a lane), both with stores st and none and both pops: the event
// time (median of 7 after 2 warm-ups, gated) and each warp's SM clock64
// cycles from before its first pop to after its last (median and max over
// the warps), and the slowest warp's cycles per item of a lane. The lab's own
// popThread (included from the lab's kernel file) is timed beside (row
// ref) at the grid shape. Every output word is checked; under 15 s. An
// argument list "one LOOP STORE POP K" runs one grid cell alone (for ncu).
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

enum Loop { LAB = 0, SEQ32 = 1, ILP32 = 2 };
enum Store { ST = 0, NONE = 1, COAL = 2 };
enum Pop { ATOMIC = 0, STATIC = 1 };

const char* loop_name(int l) { return l == LAB ? "lab" : l == SEQ32 ? "seq32" : "ilp32"; }
const char* store_name(int s) { return s == ST ? "st" : s == NONE ? "none" : "coal"; }
const char* pop_name(int p) { return p == ATOMIC ? "atomic" : "static"; }

template <int STORE>
__device__ __forceinline__ void put(float x, unsigned i, unsigned j, unsigned b, unsigned nb, float* out) {
    if constexpr (STORE == ST) {
        out[i] = x;
    } else if constexpr (STORE == NONE) {
        if (x < 0.0f) out[i] = x;  // never: x starts at 0..255 and stays positive
    } else {
        out[j * nb + b] = x;
    }
}

// One batch [start, end) of batch index b.
template <int LOOP, int STORE>
__device__ __forceinline__ void batch(unsigned start, unsigned end, unsigned b, unsigned nb, int light, int heavy,
                                      unsigned period, float* out) {
    if constexpr (LOOP == LAB) {
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            const int c = costOf(i, light, heavy, period);
            for (int q = 0; q < c; ++q) x = fmaf(x, 0.999f, 0.5f);
            put<STORE>(x, i, i - start, b, nb, out);
        }
    } else if constexpr (LOOP == SEQ32) {
#pragma unroll 1
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            for (int q = 0; q < 32; ++q) x = fmaf(x, 0.999f, 0.5f);
            put<STORE>(x, i, i - start, b, nb, out);
        }
    } else {
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            for (int q = 0; q < 32; ++q) x = fmaf(x, 0.999f, 0.5f);
            put<STORE>(x, i, i - start, b, nb, out);
        }
    }
}

template <int LOOP, int STORE, int POP>
__global__ void qloop(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                      long long* cyc) {
    const unsigned nb = n / k;
    const long long c0 = clock64();
    if constexpr (POP == ATOMIC) {
        for (;;) {
            const unsigned start = atomicAdd(head, k);
            if (start >= n) break;
            batch<LOOP, STORE>(start, min(n, start + k), start / k, nb, light, heavy, period, out);
        }
    } else {
        const unsigned T = gridDim.x * blockDim.x;
        for (unsigned b = blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += T)
            batch<LOOP, STORE>(b * k, min(n, b * k + k), b, nb, light, heavy, period, out);
    }
    const long long c1 = clock64();
    if ((threadIdx.x & 31) == 0) cyc[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = c1 - c0;
}

using Kernel = void (*)(unsigned*, unsigned, unsigned, int, int, unsigned, float*, long long*);

template <int L, int S>
Kernel pick_pop(int p) {
    return p == ATOMIC ? qloop<L, S, ATOMIC> : qloop<L, S, STATIC>;
}

template <int L>
Kernel pick_store(int s, int p) {
    return s == ST ? pick_pop<L, ST>(p) : s == NONE ? pick_pop<L, NONE>(p) : pick_pop<L, COAL>(p);
}

Kernel pick(int l, int s, int p) {
    return l == LAB ? pick_store<LAB>(s, p) : l == SEQ32 ? pick_store<SEQ32>(s, p) : pick_store<ILP32>(s, p);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("queue_loop", "work queue at even costs: the item loop's form (run-time vs constant cost), the store and the pop, timed and per warp", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 2, reps = 7;
    const unsigned nmax = 1u << 22;
    const int light = 32, heavy = 32;
    const unsigned period = 64;
    // Every item's value: 32 FMAs from (i & 255).
    float tab[256];
    for (int v = 0; v < 256; ++v) {
        float x = (float)v;
        for (int q = 0; q < 32; ++q) x = std::fmaf(x, 0.999f, 0.5f);
        tab[v] = x;
    }
    unsigned* head;
    float* out;
    long long* cyc;
    const int max_warps = dev.sms * 8 * 256 / 32;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)nmax * 4));
    CK(cudaMalloc(&cyc, (size_t)max_warps * 8));
    std::vector<float> got(nmax);
    std::vector<long long> hc(max_warps);
    std::printf("shape,loop,store,pop,k,items,grid,block,median_ms,min_ms,max_ms,warp_cycles_p50,warp_cycles_max,cycles_per_item_lane,check\n");

    // cell: times one configuration and prints its row.
    auto cell = [&](const char* shape, const char* lname, int l, int s, int p, unsigned k, unsigned n, int grid,
                    int block, Kernel kern) {
        if (budget.over(shape)) return;
        auto setup = [&](int) {
            CK(cudaMemset(head, 0, 4));
            CK(cudaMemset(out, 0, (size_t)n * 4));
        };
        const mb::Stats st = mb::stats_of(mb::time_runs(tm, warm, reps, setup, [&](int) {
            if (kern) kern<<<grid, block>>>(head, n, k, light, heavy, period, out, cyc);
            else popThread<<<grid, block>>>(head, n, k, light, heavy, period, out);
        }));
        CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        const unsigned nb = n / k;
        for (unsigned i = 0; i < n && ok; ++i) {
            if (s == ST) ok = got[i] == tab[i & 255];
            else if (s == NONE) ok = got[i] == 0.0f;
            else ok = got[i] == tab[((i % nb) * k + i / nb) & 255];  // out[j * nb + b] holds item b * k + j
        }
        const int warps = grid * block / 32;
        std::vector<double> wc;
        if (kern) {
            CK(cudaMemcpy(hc.data(), cyc, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            for (int w = 0; w < warps; ++w) wc.push_back((double)hc[w]);
        }
        const double per_lane = (double)n / ((double)grid * block);
        std::printf("%s,%s,%s,%s,%u,%u,%d,%d,%.5f,%.5f,%.5f,%.0f,%.0f,%.2f,%s\n", shape, lname, s >= 0 ? store_name(s) : "st",
                    p >= 0 ? pop_name(p) : "atomic", k, n, grid, block, st.median, st.min, st.max, mb::pct(wc, 0.5),
                    mb::pct(wc, 1.0), wc.empty() ? 0.0 : mb::pct(wc, 1.0) / per_lane, mb::note_check(ok));
        std::fflush(stdout);
    };

    const int grid = dev.sms * 8, block = 256;
    // "queue_loop one LOOP STORE POP K" runs that grid cell alone (for ncu,
    // with MB_GATE=0: its launches are the 2 warm-ups, then the 7 timed).
    if (argc == 6 && std::strcmp(argv[1], "one") == 0) {
        int l = -1, s = -1, p = -1;
        for (int i = 0; i < 3; ++i) {
            if (std::strcmp(argv[2], loop_name(i)) == 0) l = i;
            if (std::strcmp(argv[3], store_name(i)) == 0) s = i;
            if (i < 2 && std::strcmp(argv[4], pop_name(i)) == 0) p = i;
        }
        const unsigned k = (unsigned)std::atoi(argv[5]);
        if (l < 0 || s < 0 || p < 0 || k == 0 || nmax % k != 0) {
            std::fprintf(stderr, "usage: queue_loop one lab|seq32|ilp32 st|none|coal atomic|static K (K divides %u)\n", nmax);
            return 2;
        }
        cell("grid", loop_name(l), l, s, p, k, nmax, grid, block, pick(l, s, p));
        return mb::finish("queue_loop", budget);
    }
    for (unsigned k : {8u, 4u, 16u}) {
        cell("grid", "ref_popThread", -1, ST, ATOMIC, k, nmax, grid, block, nullptr);
        for (int p : {ATOMIC, STATIC})
            for (int s : {ST, NONE, COAL})
                for (int l : {LAB, SEQ32, ILP32}) cell("grid", loop_name(l), l, s, p, k, nmax, grid, block, pick(l, s, p));
    }
    // One SM: 32 warps, 8 pops of 8 a thread; one warp: 64 pops of 8 a lane.
    for (int p : {STATIC, ATOMIC})
        for (int s : {ST, NONE})
            for (int l : {LAB, SEQ32, ILP32}) {
                cell("one_sm", loop_name(l), l, s, p, 8, 1024 * 8 * 8, 1, 1024, pick(l, s, p));
                cell("one_warp", loop_name(l), l, s, p, 8, 32 * 8 * 64, 1, 32, pick(l, s, p));
            }

    CK(cudaFree(head));
    CK(cudaFree(out));
    CK(cudaFree(cyc));
    return mb::finish("queue_loop", budget);
}
