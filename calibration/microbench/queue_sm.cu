// queue_sm.cu: where a work queue's pops land, and what a winning warp's
// item loop costs there (issue 11: the queue cells the cost model misses).
//
// queue.cu's pop_thread (4M items, SMs x 8 blocks of 256, every warp
// resident) at k = 8, 64 and 1024, even (32 FMAs an item) and uneven costs
// (16, one item in 64 2048), and the queue lab's popThread
// (labs/queue/kernels/queue.cu, its costs runtime arguments) at the same
// shapes. At k >= 64 only some warps get work: 2,048 warp pops at k = 64 and
// 128 at k = 1024 among 8,448 warps, the first whose aggregated atomicAdd
// the L2 serves. Each warp of an instrumented copy of the kernel records,
// outside its loop: its SM (%smid), its warp slot (%warpid; slot % 4 is
// taken as its scheduler), the pops it won, SM clock64 and %globaltimer at
// its start and after its last pop; each thread records the first item it
// popped. The host recomputes each winner's critical path (even costs: 32
// FMAs an item; uneven, for a warp that popped once: the sum over its item
// steps of the costliest lane's FMAs, the warp reconverging after every
// item, BSYNC in queue.cu's SASS) and prints, per timed launch (2 warm-ups,
// 5 timed):
//   launch: the event time, the warps that won, how many SMs and schedulers
//     they sit on (per SM and per scheduler: median and max), SM clock
//     cycles per critical-path FMA of the winners (median, p90, max), the
//     slowest winner (cycles, FMAs, the winners on its SM and scheduler),
//     and the global-timer span of the launch;
//   bysched / bysm: the winners' median cycles per FMA grouped by how many
//     winners share their scheduler / their SM;
//   rounds: the winners by block index / SMs (the block scheduler's rounds);
//   smmap: the winners on each SM id, 0 to SMs - 1.
// And the uninstrumented kernel's median of 7 (row orig) beside it. Every
// output is checked against the host. Under 10 s.
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

// queue.cu's item cost.
struct QueueCost {
    int uneven;
    __host__ __device__ int operator()(unsigned i) const {
        if (!uneven) return 32;
        return (mb::hash32(i ^ 0x7f4a7c15u) & 63u) == 0 ? 2048 : 16;
    }
};

// The lab's item cost (labs/queue/kernels/queue.cu costOf).
struct LabCost {
    int light, heavy;
    unsigned period;
    __host__ __device__ int operator()(unsigned i) const {
        if (light == heavy) return light;
        return (mb::hash32(i ^ 0x7f4a7c15u) & (period - 1)) == 0 ? heavy : light;
    }
};

__global__ void pop_thread(unsigned* head, unsigned n, unsigned k, int uneven, float* out) {
    const QueueCost cost{uneven};
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            const int c = cost(i);
            for (int j = 0; j < c; ++j) x = fmaf(x, 0.999f, 0.5f);
            out[i] = x;
        }
    }
}

struct Rec {
    unsigned* sm;
    unsigned* slot;
    unsigned* pops;
    unsigned* first;  // per thread
    long long* c0;
    long long* c1;
    unsigned long long* g0;
    unsigned long long* g1;
};

__device__ __forceinline__ unsigned warpid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
    return r;
}

// The same loop as pop_thread and the lab's popThread, recording outside it.
template <class Cost>
__global__ void pop_rec(unsigned* head, unsigned n, unsigned k, Cost cost, float* out, Rec rec) {
    const unsigned long long g0 = mb::gtimer();
    const long long c0 = clock64();
    unsigned pops = 0, first = 0xffffffffu;
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        if (pops == 0) first = start;
        ++pops;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) {
            float x = (float)(i & 255);
            const int c = cost(i);
            for (int j = 0; j < c; ++j) x = fmaf(x, 0.999f, 0.5f);
            out[i] = x;
        }
    }
    const long long c1 = clock64();
    const unsigned long long g1 = mb::gtimer();
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    rec.first[t] = first;
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = t / 32;
        rec.sm[w] = mb::smid();
        rec.slot[w] = warpid();
        rec.pops[w] = pops;
        rec.c0[w] = c0;
        rec.c1[w] = c1;
        rec.g0[w] = g0;
        rec.g1[w] = g1;
    }
}

template <class Cost>
float host_work(unsigned i, const Cost& cost) {
    float x = (float)(i & 255);
    const int c = cost(i);
    for (int j = 0; j < c; ++j) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

// The per-launch analysis of one recorded launch.
template <class Cost>
void report(const char* kernel, const char* costs, unsigned k, int rep, double ms, const Cost& cost, unsigned n,
            int sms, int warps, const std::vector<unsigned>& sm, const std::vector<unsigned>& slot,
            const std::vector<unsigned>& pops, const std::vector<unsigned>& first, const std::vector<long long>& c0,
            const std::vector<long long>& c1, const std::vector<unsigned long long>& g0,
            const std::vector<unsigned long long>& g1, int blocks_per_round, int warps_per_block, bool even) {
    std::vector<int> per_sm(sms, 0), per_sched((size_t)sms * 4, 0);
    int won = 0;
    for (int w = 0; w < warps; ++w) {
        if (pops[w] == 0 || sm[w] >= (unsigned)sms) continue;
        ++won;
        ++per_sm[sm[w]];
        ++per_sched[(size_t)sm[w] * 4 + slot[w] % 4];
    }
    std::vector<double> sm_counts, sched_counts;
    for (int v : per_sm)
        if (v > 0) sm_counts.push_back(v);
    for (int v : per_sched)
        if (v > 0) sched_counts.push_back(v);
    // Critical path of a warp: even costs, 32 FMAs an item step over all its
    // pops; uneven, for a warp that popped once, the sum over its item
    // steps of the costliest lane's FMAs (unknown for more pops).
    std::vector<double> cpf;
    std::vector<std::pair<int, double>> by_sched, by_sm;
    double slow_cyc = -1, slow_fma = 0;
    int slow_sm = 0, slow_sched = 0;
    unsigned slow_pops = 0;
    for (int w = 0; w < warps; ++w) {
        if (pops[w] == 0 || sm[w] >= (unsigned)sms) continue;
        double crit = 0;
        bool known = pops[w] == 1 || even;
        if (even) {
            crit = 32.0 * k * pops[w];
        } else if (known) {
            for (unsigned j = 0; j < k; ++j) {
                int m = 0;
                for (int l = 0; l < 32; ++l) {
                    const unsigned f = first[(size_t)w * 32 + l];
                    if (f == 0xffffffffu || f + j >= n) continue;
                    m = std::max(m, cost(f + j));
                }
                crit += m;
            }
        }
        const double cyc = (double)(c1[w] - c0[w]);
        const int on_sm = per_sm[sm[w]], on_sched = per_sched[(size_t)sm[w] * 4 + slot[w] % 4];
        if (known && crit > 0) {
            const double c = cyc / crit;
            cpf.push_back(c);
            by_sched.push_back({on_sched, c});
            by_sm.push_back({on_sm, c});
        }
        if (cyc > slow_cyc) {
            slow_cyc = cyc;
            slow_fma = known ? crit : 0;
            slow_sm = on_sm;
            slow_sched = on_sched;
            slow_pops = pops[w];
        }
    }
    unsigned long long gmin = ~0ull, gmax = 0;
    for (int w = 0; w < warps; ++w) {
        gmin = std::min(gmin, g0[w]);
        gmax = std::max(gmax, g1[w]);
    }
    std::printf("launch,%s,%s,%u,%d,%.5f,warps_won=%d,sms_won=%zu,won_per_sm_p50=%.0f,won_per_sm_max=%.0f,"
                "scheds_won=%zu,won_per_sched_p50=%.0f,won_per_sched_max=%.0f,cyc_per_fma_p50=%.2f,p90=%.2f,max=%.2f,"
                "timed_warps=%zu,slowest_cycles=%.0f,slowest_fma=%.0f,slowest_pops=%u,slowest_sm_won=%d,"
                "slowest_sched_won=%d,span_us=%.2f\n",
                kernel, costs, k, rep, ms, won, sm_counts.size(), mb::pct(sm_counts, 0.5), mb::pct(sm_counts, 1.0),
                sched_counts.size(), mb::pct(sched_counts, 0.5), mb::pct(sched_counts, 1.0), mb::pct(cpf, 0.5), mb::pct(cpf, 0.9),
                mb::pct(cpf, 1.0), cpf.size(), slow_cyc, slow_fma, slow_pops, slow_sm, slow_sched, (gmax - gmin) / 1e3);
    auto grouped = [&](const char* part, const std::vector<std::pair<int, double>>& v, const std::vector<int>& edges) {
        std::printf("%s,%s,%s,%u,%d,%.5f", part, kernel, costs, k, rep, ms);
        for (size_t e = 0; e < edges.size(); ++e) {
            const int lo = edges[e], hi = e + 1 < edges.size() ? edges[e + 1] - 1 : 1 << 30;
            std::vector<double> c;
            for (auto& p : v)
                if (p.first >= lo && p.first <= hi) c.push_back(p.second);
            if (hi == 1 << 30)
                std::printf(",%d+:n=%zu p50=%.2f", lo, c.size(), mb::pct(c, 0.5));
            else
                std::printf(",%d-%d:n=%zu p50=%.2f", lo, hi, c.size(), mb::pct(c, 0.5));
        }
        std::printf("\n");
    };
    grouped("bysched", by_sched, {1, 2, 3, 4, 5, 7, 9, 13});
    grouped("bysm", by_sm, {1, 5, 9, 17, 25, 33, 49});
    std::vector<int> rounds;
    for (int w = 0; w < warps; ++w) {
        if (pops[w] == 0) continue;
        const size_t r = (size_t)(w / warps_per_block) / blocks_per_round;
        if (rounds.size() <= r) rounds.resize(r + 1, 0);
        ++rounds[r];
    }
    std::printf("rounds,%s,%s,%u,%d,%.5f,", kernel, costs, k, rep, ms);
    for (size_t r = 0; r < rounds.size(); ++r) std::printf("%s%d", r ? " " : "", rounds[r]);
    std::printf("\nsmmap,%s,%s,%u,%d,%.5f,", kernel, costs, k, rep, ms);
    for (int s = 0; s < sms; ++s) std::printf("%s%d", s ? " " : "", per_sm[s]);
    std::printf("\n");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("queue_sm", "work queue: which SMs and schedulers the pops land on, and a winning warp's cycles per FMA", argc, argv);
    mb::Budget budget(40.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22;
    const int grid = dev.sms * 8, block = 256, warm = 2, reps = 7, recs = 5;
    const int threads = grid * block, warps = threads / 32;
    unsigned *head, *sm, *slot, *pops, *first;
    long long *c0, *c1;
    unsigned long long *g0, *g1;
    float* out;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)n * 4));
    CK(cudaMalloc(&sm, (size_t)warps * 4));
    CK(cudaMalloc(&slot, (size_t)warps * 4));
    CK(cudaMalloc(&pops, (size_t)warps * 4));
    CK(cudaMalloc(&first, (size_t)threads * 4));
    CK(cudaMalloc(&c0, (size_t)warps * 8));
    CK(cudaMalloc(&c1, (size_t)warps * 8));
    CK(cudaMalloc(&g0, (size_t)warps * 8));
    CK(cudaMalloc(&g1, (size_t)warps * 8));
    const Rec rec{sm, slot, pops, first, c0, c1, g0, g1};
    std::vector<unsigned> hsm(warps), hslot(warps), hpops(warps), hfirst(threads);
    std::vector<long long> hc0(warps), hc1(warps);
    std::vector<unsigned long long> hg0(warps), hg1(warps);
    std::printf("# rows: orig (uninstrumented, median of %d) and per recorded launch launch, bysched, bysm, rounds, smmap\n", reps);
    std::printf("part,kernel,costs,k,rep,ms,fields\n");
    auto setup = [&](int) {
        CK(cudaMemset(head, 0, 4));
        CK(cudaMemset(out, 0, (size_t)n * 4));
    };
    for (int lab = 0; lab < 2; ++lab) {
        const char* kernel = lab ? "lab_popThread" : "queue_pop_thread";
        for (int uneven = 0; uneven < 2; ++uneven) {
            const char* costs = uneven ? "uneven" : "even";
            const QueueCost qc{uneven};
            const LabCost lc{uneven ? 16 : 32, uneven ? 2048 : 32, 64u};
            std::vector<float> want(n);
            for (unsigned i = 0; i < n; ++i) want[i] = lab ? host_work(i, lc) : host_work(i, qc);
            auto check = [&]() {
                std::vector<float> got(n);
                CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
                for (unsigned i = 0; i < n; ++i)
                    if (got[i] != want[i]) return false;
                return true;
            };
            for (unsigned k : {8u, 64u, 1024u}) {
                if (budget.over("queue_sm")) break;
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, [&](int) {
                    if (lab) popThread<<<grid, block>>>(head, n, k, lc.light, lc.heavy, lc.period, out);
                    else pop_thread<<<grid, block>>>(head, n, k, uneven, out);
                }));
                std::printf("orig,%s,%s,%u,0,%.5f,min_ms=%.5f,max_ms=%.5f %s\n", kernel, costs, k, s.median, s.min, s.max,
                            mb::note_check(check()));
                for (int r = 0; r < warm + recs; ++r) {
                    setup(r);
                    const double ms = tm.ms([&] {
                        if (lab) pop_rec<<<grid, block>>>(head, n, k, lc, out, rec);
                        else pop_rec<<<grid, block>>>(head, n, k, qc, out, rec);
                    }, r >= warm);
                    if (r < warm) continue;
                    CK(cudaMemcpy(hsm.data(), sm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hslot.data(), slot, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hpops.data(), pops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hfirst.data(), first, (size_t)threads * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hc0.data(), c0, (size_t)warps * 8, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hc1.data(), c1, (size_t)warps * 8, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hg0.data(), g0, (size_t)warps * 8, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hg1.data(), g1, (size_t)warps * 8, cudaMemcpyDeviceToHost));
                    if (!check()) {
                        std::printf("launch,%s,%s,%u,%d,%.5f,%s\n", kernel, costs, k, r - warm, ms, mb::note_check(false));
                        continue;
                    }
                    if (lab)
                        report(kernel, costs, k, r - warm, ms, lc, n, dev.sms, warps, hsm, hslot, hpops, hfirst, hc0, hc1,
                               hg0, hg1, dev.sms, block / 32, !uneven);
                    else
                        report(kernel, costs, k, r - warm, ms, qc, n, dev.sms, warps, hsm, hslot, hpops, hfirst, hc0, hc1,
                               hg0, hg1, dev.sms, block / 32, !uneven);
                }
            }
        }
    }
    for (void* p : {(void*)head, (void*)out, (void*)sm, (void*)slot, (void*)pops, (void*)first, (void*)c0, (void*)c1,
                    (void*)g0, (void*)g1})
        CK(cudaFree(p));
    return mb::finish("queue_sm", budget);
}
