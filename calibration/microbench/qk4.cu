// qk4.cu: what the H200 spends the queue lab's even k = 4 cell on (issue 13,
// the cell "even (32) k=4": 0.0426-0.0437 ms measured, 0.0332 predicted).
//
// queue_loop.csv (k = 4, 4M items, 1056 blocks of 256) has the lab's pop
// loop at 0.0337 ms without stores (the head's chain of warp atomics),
// 0.0351 with coalesced stores and 0.0438 with its own stores (lanes 16
// bytes apart: 4 lines of 4 partly written sectors a warp store), whose
// store path alone (static batches, no atomics) takes 0.0231: the two
// neither add (0.054) nor overlap (0.0337). Is the head's chain slowed by
// write traffic in the L2 (any SM's), or are the popping warps held on
// their own SM (their pops queued behind their SM's stores, or too few
// warps left waiting at the head)?
//
// Every cell runs the lab's pop loop (start = atomicAdd(head, k), nvcc
// aggregates it per warp) over n = 4M items at even costs (32 FMAs an
// item), with:
//   loop   lab:   the lab's costOf at run time (labs/queue/kernels/queue.cu,
//                 a run-time FMA loop per item, one item after another);
//          ilp32: a constant 32 FMAs (nvcc unrolls the item loop by 4 and
//                 interleaves the four items, as queue.cu's pop_thread);
//   store  st:    out[i] (lanes k words apart, as the lab);
//          none:  a store never taken (the work kept);
//          coal:  item j of batch b to out[j * (n / k) + b];
//   role   all:   every warp pops;
//          halfw: warps 0-3 of each block of 8 warps pop, warps 4-7 make
//                 noise on the same SMs;
//          halfsm: the warps on SMs of even %smid pop, the warps on the
//                 odd SMs make noise (no popping warp shares an SM with a
//                 noisy one);
//   noise  (the non-popping warps, until their SM clock has run tstop
//          cycles, tstop = 1.5 x the same cell's pop phase without noise
//          + 20,000, checked: covered = every noise warp ran longer than
//          every popping warp):
//          off:   exit at once;
//          st16:  warp stores of 32 lanes 16 bytes apart (4 lines of 4
//                 partly written sectors: the lab's k = 4 store);
//          st128: lanes 128 bytes apart (32 lines of one sector);
//          coal:  lanes 4 bytes apart (one line of 4 whole sectors);
//          ld16:  loads (ld.global.cg) of the st16 shape;
//          each noise warp walks its own 512-byte (st16, ld16), 4 KiB
//          (st128) or 128-byte (coal) units through a 16 MiB buffer
//          (the lab's output size), 8 units between clock checks;
//   grid   SMs x bps blocks of 256 (bps 8: every warp of the lab's launch;
//          4, 2, 1: fewer warps waiting at the head).
// Parts: sweep (role all, k = 2, 4, 8, both loops, the three stores), bps
// (role all, lab loop, k = 4, st and none, bps 4, 2, 1), noise (lab loop,
// pops without stores, halfw and halfsm, k = 4 with the four noises and
// off, k = 1 and 8 with st16 and off; and the popping warps storing as the
// lab at k = 4 with no noise).
//
// Per cell: the event time (median of 7 after 2 warm-ups, gated) and from
// the last timed launch, each warp's SM clock64 cycles from its start to
// its end: the popping warps' count, their warp-level pops (lane 0's
// successful atomics, summed: the head's chain), the longest popping warp
// (pop_cycles_max, the pop phase) and pop_cycles_max / pops (SM cycles a
// head update); the noise warps' warp requests (stores or loads) per 1000
// SM cycles, summed over the noise warps (each its count over its own
// cycles), and covered. Every output word of the queue is checked. Under
// 10 s.
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

enum Loop { LAB = 0, ILP32 = 1 };
enum Store { ST = 0, NONE = 1, COAL = 2 };
enum Role { ALL = 0, HALFW = 1, HALFSM = 2 };
enum Noise { OFF = 0, ST16 = 1, ST128 = 2, NCOAL = 3, LD16 = 4 };

const char* loop_name(int l) { return l == LAB ? "lab" : "ilp32"; }
const char* store_name(int s) { return s == ST ? "st" : s == NONE ? "none" : "coal"; }
const char* role_name(int r) { return r == ALL ? "all" : r == HALFW ? "halfw" : "halfsm"; }
const char* noise_name(int z) {
    return z == OFF ? "off" : z == ST16 ? "st16" : z == ST128 ? "st128" : z == NCOAL ? "coal" : "ld16";
}

const unsigned kNoiseWords = 1u << 22;  // 16 MiB of floats

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
    } else {
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            for (int q = 0; q < 32; ++q) x = fmaf(x, 0.999f, 0.5f);
            put<STORE>(x, i, i - start, b, nb, out);
        }
    }
}

// rec[4 w + 0..3] for warp w: kind (1 pops, 2 noise, 3 idle), cycles,
// count (pops or warp requests), 0.
template <int LOOP, int STORE>
__global__ void qk4(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                    int role, int noise, long long tstop, float* nbuf, unsigned long long* rec) {
    const unsigned lane = threadIdx.x & 31;
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const unsigned nwarps = (gridDim.x * blockDim.x) >> 5;
    bool pops;
    if (role == ALL) pops = true;
    else if (role == HALFW) pops = (threadIdx.x >> 5) < (blockDim.x >> 6);
    else pops = (mb::smid() & 1u) == 0u;
    const long long c0 = clock64();
    if (pops) {
        const unsigned nb = n / k;
        unsigned long long count = 0;
        for (;;) {
            const unsigned start = atomicAdd(head, k);
            if (start >= n) break;
            batch<LOOP, STORE>(start, min(n, start + k), start / k, nb, light, heavy, period, out);
            ++count;
        }
        const long long c1 = clock64();
        if (lane == 0) {
            rec[4 * warp + 0] = 1;
            rec[4 * warp + 1] = (unsigned long long)(c1 - c0);
            rec[4 * warp + 2] = count;
            rec[4 * warp + 3] = 0;
        }
        return;
    }
    if (noise == OFF) {
        if (lane == 0) {
            rec[4 * warp + 0] = 3;
            rec[4 * warp + 1] = 0;
            rec[4 * warp + 2] = 0;
            rec[4 * warp + 3] = 0;
        }
        return;
    }
    // A unit is one warp request: its words and the lanes' stride.
    const unsigned stride = noise == ST128 ? 32u : noise == NCOAL ? 1u : 4u;
    const unsigned long long unit = 32ull * stride;
    float x = (float)lane;
    unsigned long long it = 0;
    long long c1;
    do {
        for (unsigned r = 0; r < 8; ++r) {
            const unsigned long long u = (it * 8 + r) * nwarps + warp;
            const unsigned long long off = (u * unit) % kNoiseWords + (unsigned long long)lane * stride;
            if (noise == LD16) x += __ldcg(nbuf + off);
            else nbuf[off] = x + (float)r;
        }
        ++it;
        c1 = clock64();
    } while (c1 - c0 < tstop);
    if (noise == LD16 && x == -1.0f) nbuf[lane] = x;  // never: nbuf holds 0 or positive values
    if (lane == 0) {
        rec[4 * warp + 0] = 2;
        rec[4 * warp + 1] = (unsigned long long)(c1 - c0);
        rec[4 * warp + 2] = it * 8;
        rec[4 * warp + 3] = 0;
    }
}

using Kernel = void (*)(unsigned*, unsigned, unsigned, int, int, unsigned, float*, int, int, long long, float*,
                        unsigned long long*);

template <int L>
Kernel pick_store(int s) {
    return s == ST ? qk4<L, ST> : s == NONE ? qk4<L, NONE> : qk4<L, COAL>;
}

Kernel pick(int l, int s) { return l == LAB ? pick_store<LAB>(s) : pick_store<ILP32>(s); }

struct Row {
    double pop_max = 0;  // the longest popping warp's cycles
};

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "qk4", "work queue at even costs, k = 4: the head's chain with the popping warps' stores, with other warps' stores on the same or other SMs, and with fewer warps", argc, argv);
    mb::Budget budget(30.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 2, reps = 7;
    const unsigned n = 1u << 22;
    const int light = 32, heavy = 32;
    const unsigned period = 64;
    float tab[256];
    for (int v = 0; v < 256; ++v) {
        float x = (float)v;
        for (int q = 0; q < 32; ++q) x = std::fmaf(x, 0.999f, 0.5f);
        tab[v] = x;
    }
    unsigned* head;
    float *out, *nbuf;
    unsigned long long* rec;
    const int max_warps = dev.sms * 8 * 256 / 32;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)n * 4));
    CK(cudaMalloc(&nbuf, (size_t)kNoiseWords * 4));
    CK(cudaMalloc(&rec, (size_t)max_warps * 4 * 8));
    CK(cudaMemset(nbuf, 0, (size_t)kNoiseWords * 4));
    std::vector<float> got(n);
    std::vector<unsigned long long> hr((size_t)max_warps * 4);
    std::printf("part,loop,store,role,noise,k,grid,block,median_ms,min_ms,max_ms,pop_warps,warp_pops,pop_cycles_p50,"
                "pop_cycles_max,cycles_per_pop,noise_warps,noise_req_per_kcycle,noise_cycles_min,covered,check\n");

    // cell: times one configuration, prints its row and returns its pop phase.
    auto cell = [&](const char* part, int l, int s, int role, int noise, unsigned k, int bps, long long tstop) -> Row {
        Row row;
        if (budget.over(part)) return row;
        const int grid = dev.sms * bps, block = 256;
        const Kernel kern = pick(l, s);
        auto setup = [&](int) {
            CK(cudaMemset(head, 0, 4));
            CK(cudaMemset(out, 0, (size_t)n * 4));
            CK(cudaMemset(rec, 0, (size_t)max_warps * 4 * 8));
        };
        const mb::Stats st = mb::stats_of(mb::time_runs(tm, warm, reps, setup, [&](int) {
            kern<<<grid, block>>>(head, n, k, light, heavy, period, out, role, noise, tstop, nbuf, rec);
        }));
        CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
        const unsigned nb = n / k;
        bool ok = true;
        for (unsigned i = 0; i < n && ok; ++i) {
            if (s == ST) ok = got[i] == tab[i & 255];
            else if (s == NONE) ok = got[i] == 0.0f;
            else ok = got[i] == tab[((i % nb) * k + i / nb) & 255];  // out[j * nb + b] holds item b * k + j
        }
        const int warps = grid * block / 32;
        CK(cudaMemcpy(hr.data(), rec, (size_t)warps * 4 * 8, cudaMemcpyDeviceToHost));
        std::vector<double> pc;
        double pops = 0, nrate = 0, nmin = 0;
        int nw = 0;
        for (int w = 0; w < warps; ++w) {
            const unsigned long long* r = &hr[4 * (size_t)w];
            if (r[0] == 1) {
                pc.push_back((double)r[1]);
                pops += (double)r[2];
            } else if (r[0] == 2) {
                nrate += r[1] ? 1000.0 * (double)r[2] / (double)r[1] : 0.0;
                nmin = nw == 0 ? (double)r[1] : std::min(nmin, (double)r[1]);
                ++nw;
            } else if (r[0] != 3) {
                ok = false;  // a warp left no record
            }
        }
        row.pop_max = mb::pct(pc, 1.0);
        const bool covered = noise == OFF || (nw > 0 && nmin >= row.pop_max);
        std::printf("%s,%s,%s,%s,%s,%u,%d,%d,%.5f,%.5f,%.5f,%zu,%.0f,%.0f,%.0f,%.3f,%d,%.2f,%.0f,%s,%s\n", part,
                    loop_name(l), store_name(s), role_name(role), noise_name(noise), k, grid, block, st.median, st.min,
                    st.max, pc.size(), pops, mb::pct(pc, 0.5), row.pop_max, pops > 0 ? row.pop_max / pops : 0.0, nw,
                    nrate, nmin, covered ? "yes" : "no", mb::note_check(ok));
        std::fflush(stdout);
        return row;
    };

    // sweep: every warp pops, as the lab.
    for (unsigned k : {4u, 2u, 8u})
        for (int s : {ST, NONE, COAL})
            for (int l : {LAB, ILP32}) cell("sweep", l, s, ALL, OFF, k, 8, 0);
    // bps: fewer warps waiting at the head.
    for (int bps : {4, 2, 1})
        for (int s : {ST, NONE}) cell("bps", LAB, s, ALL, OFF, 4, bps, 0);
    // noise: half the warps pop without stores while the others make noise
    // on the same SMs (halfw) or on other SMs (halfsm).
    for (int role : {HALFW, HALFSM}) {
        const Row off4 = cell("noise", LAB, NONE, role, OFF, 4, 8, 0);
        const long long t4 = (long long)(1.5 * off4.pop_max) + 20000;
        for (int z : {ST16, ST128, NCOAL, LD16}) cell("noise", LAB, NONE, role, z, 4, 8, t4);
        cell("noise", LAB, ST, role, OFF, 4, 8, 0);
        for (unsigned k : {1u, 8u}) {
            const Row off = cell("noise", LAB, NONE, role, OFF, k, 8, 0);
            cell("noise", LAB, NONE, role, ST16, k, 8, (long long)(1.5 * off.pop_max) + 20000);
        }
    }

    CK(cudaFree(head));
    CK(cudaFree(out));
    CK(cudaFree(nbuf));
    CK(cudaFree(rec));
    return mb::finish("qk4", budget);
}
