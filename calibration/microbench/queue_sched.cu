// queue_sched.cu: how evenly a work queue spreads its work over the warp
// schedulers when every warp works (issue 13: the queue lab's uneven sweep
// ranks k = 1 first on the H200, the model ranked 4 first).
//
// The queue lab's popThread (labs/queue/kernels/queue.cu, included
// unchanged) at the lab's GPU-test shape (4M items, SMs x 8 blocks of 256,
// every warp resident, 16 warps a scheduler), uneven costs (16 FMAs, one
// item in 64 2048), k = 1, 4 and 8: every warp pops until the queue is
// empty. An instrumented copy adds, per item step, the costliest active
// lane's FMAs to the warp's critical path (__reduce_max_sync, uniform over
// the warp: its issue work), and records per warp, outside its loop, its SM
// (%smid), its warp slot (%warpid; slot % 4 taken as its scheduler), its
// pops, its critical path, its SM clock64 at its start and end, and the
// global timer at its start and end. Per timed launch (2 warm-ups, 5
// recorded) the host sums the critical paths and the pops by scheduler and
// prints their spread (mean, p10, p50, p90, max and max / mean), and the
// same spread with the warps' critical paths shuffled over the same warp
// slots (median of 20 shuffles, fixed seed): the spread the schedulers
// would get if what a warp pops did not depend on its scheduler's load.
// If the H200 balances the work by scheduler (a warp pops again only once
// its scheduler has issued its last item), the measured max / mean is well
// under the shuffled one. Also the end spread: the last warp's end after
// the median warp's, by the global timer. The uninstrumented kernel's
// median of 7 (row orig) beside it. Every output is checked against the
// host. Under 10 s.
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

float host_work(unsigned i, int light, int heavy, unsigned period) {
    float x = (float)(i & 255);
    int c = light;
    if (light != heavy && (mb::hash32(i ^ 0x7f4a7c15u) & (period - 1)) == 0) c = heavy;
    for (int j = 0; j < c; ++j) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

struct Rec {
    unsigned* sm;
    unsigned* slot;
    unsigned* pops;
    unsigned* crit;
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

// popThread's loop, adding each item step's costliest lane to the warp's
// critical path, recording outside the loop.
__global__ void pop_sched(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                          Rec rec) {
    const long long c0 = clock64();
    const unsigned long long g0 = mb::gtimer();
    unsigned pops = 0, crit = 0;
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        ++pops;
        const unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) {
            const unsigned c = (unsigned)costOf(i, light, heavy, period);
            crit += __reduce_max_sync(__activemask(), c);
            work(i, light, heavy, period, out);
        }
    }
    const long long c1 = clock64();
    const unsigned long long g1 = mb::gtimer();
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        rec.sm[w] = mb::smid();
        rec.slot[w] = warpid();
        rec.pops[w] = pops;
        rec.crit[w] = crit;
        rec.c0[w] = c0;
        rec.c1[w] = c1;
        rec.g0[w] = g0;
        rec.g1[w] = g1;
    }
}

// Sums v by scheduler (sm * 4 + slot % 4) and returns the schedulers' sums.
std::vector<double> by_sched(const std::vector<double>& v, const std::vector<unsigned>& sm,
                             const std::vector<unsigned>& slot, int sms) {
    std::vector<double> sum((size_t)sms * 4, 0.0);
    std::vector<int> seen((size_t)sms * 4, 0);
    for (size_t w = 0; w < v.size(); ++w) {
        if (sm[w] >= (unsigned)sms) continue;
        const size_t s = (size_t)sm[w] * 4 + slot[w] % 4;
        sum[s] += v[w];
        seen[s] = 1;
    }
    std::vector<double> out;
    for (size_t s = 0; s < sum.size(); ++s)
        if (seen[s]) out.push_back(sum[s]);
    return out;
}

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / v.size();
}

void print_spread(const char* part, unsigned k, int rep, double ms, const std::vector<double>& v) {
    const double m = mean_of(v);
    std::printf("%s,lab_popThread,uneven,%u,%d,%.5f,scheds=%zu,mean=%.1f,p10=%.1f,p50=%.1f,p90=%.1f,max=%.1f,max_over_mean=%.4f\n",
                part, k, rep, ms, v.size(), m, mb::pct(v, 0.1), mb::pct(v, 0.5), mb::pct(v, 0.9), mb::pct(v, 1.0),
                m > 0 ? mb::pct(v, 1.0) / m : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("queue_sched", "work queue, every warp working: the work each scheduler's warps pop", argc, argv);
    mb::Budget budget(40.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22;
    const int light = 16, heavy = 2048;
    const unsigned period = 64;
    const int grid = dev.sms * 8, block = 256, warm = 2, reps = 7, recs = 5;
    const int warps = grid * block / 32;
    unsigned *head, *sm, *slot, *pops, *crit;
    long long *c0, *c1;
    unsigned long long *g0, *g1;
    float* out;
    CK(cudaMalloc(&head, 4));
    CK(cudaMalloc(&out, (size_t)n * 4));
    CK(cudaMalloc(&sm, (size_t)warps * 4));
    CK(cudaMalloc(&slot, (size_t)warps * 4));
    CK(cudaMalloc(&pops, (size_t)warps * 4));
    CK(cudaMalloc(&crit, (size_t)warps * 4));
    CK(cudaMalloc(&c0, (size_t)warps * 8));
    CK(cudaMalloc(&c1, (size_t)warps * 8));
    CK(cudaMalloc(&g0, (size_t)warps * 8));
    CK(cudaMalloc(&g1, (size_t)warps * 8));
    const Rec rec{sm, slot, pops, crit, c0, c1, g0, g1};
    std::vector<unsigned> hsm(warps), hslot(warps), hpops(warps), hcrit(warps);
    std::vector<long long> hc0(warps), hc1(warps);
    std::vector<unsigned long long> hg0(warps), hg1(warps);
    std::vector<float> want(n), got(n);
    for (unsigned i = 0; i < n; ++i) want[i] = host_work(i, light, heavy, period);
    auto check = [&]() {
        CK(cudaMemcpy(got.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
        for (unsigned i = 0; i < n; ++i)
            if (got[i] != want[i]) return false;
        return true;
    };
    auto setup = [&](int) {
        CK(cudaMemset(head, 0, 4));
        CK(cudaMemset(out, 0, (size_t)n * 4));
    };
    std::printf("# rows: orig (uninstrumented popThread, median of %d) and per recorded launch: launch, crit (critical-path FMAs by scheduler), "
                "crit_shuffled (the same warps' critical paths shuffled over their slots, the median of 20 shuffles' max / mean), pops (pops by scheduler)\n",
                reps);
    std::printf("part,kernel,costs,k,rep,ms,fields\n");
    for (unsigned k : {1u, 4u, 8u}) {
        if (budget.over("queue_sched")) break;
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, [&](int) {
            popThread<<<grid, block>>>(head, n, k, light, heavy, period, out);
        }));
        std::printf("orig,lab_popThread,uneven,%u,0,%.5f,min_ms=%.5f,max_ms=%.5f %s\n", k, s.median, s.min, s.max,
                    mb::note_check(check()));
        for (int r = 0; r < warm + recs; ++r) {
            setup(r);
            const double ms = tm.ms([&] { pop_sched<<<grid, block>>>(head, n, k, light, heavy, period, out, rec); }, r >= warm);
            if (r < warm) continue;
            CK(cudaMemcpy(hsm.data(), sm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hslot.data(), slot, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hpops.data(), pops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hcrit.data(), crit, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hc0.data(), c0, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hc1.data(), c1, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hg0.data(), g0, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hg1.data(), g1, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            const bool ok = check();
            std::vector<double> vcrit(warps), vpops(warps), ends, cyc;
            unsigned long long gmin = ~0ull, gmax = 0;
            double total_crit = 0, total_pops = 0;
            for (int w = 0; w < warps; ++w) {
                vcrit[w] = hcrit[w];
                vpops[w] = hpops[w];
                total_crit += hcrit[w];
                total_pops += hpops[w];
                gmin = std::min(gmin, hg0[w]);
                gmax = std::max(gmax, hg1[w]);
                ends.push_back((double)hg1[w]);
                cyc.push_back((double)(hc1[w] - hc0[w]));
            }
            const double end_p50 = mb::pct(ends, 0.5);
            std::printf("launch,lab_popThread,uneven,%u,%d,%.5f,warps=%d,pops=%.0f,crit_fma=%.0f,span_us=%.2f,"
                        "last_end_after_median_us=%.2f,warp_cycles_p10=%.0f,p50=%.0f,p90=%.0f,max=%.0f %s\n",
                        k, r - warm, ms, warps, total_pops, total_crit, (gmax - gmin) / 1e3,
                        ((double)gmax - end_p50) / 1e3, mb::pct(cyc, 0.1), mb::pct(cyc, 0.5), mb::pct(cyc, 0.9),
                        mb::pct(cyc, 1.0), mb::note_check(ok));
            print_spread("crit", k, r - warm, ms, by_sched(vcrit, hsm, hslot, dev.sms));
            print_spread("pops", k, r - warm, ms, by_sched(vpops, hsm, hslot, dev.sms));
            mb::Lcg rng(0x9e3779b9u + k * 1000u + (unsigned)r);
            std::vector<double> ratios;
            std::vector<double> sh = vcrit;
            for (int t = 0; t < 20; ++t) {
                for (size_t i = sh.size() - 1; i > 0; --i) std::swap(sh[i], sh[rng.next() % (i + 1)]);
                const std::vector<double> v = by_sched(sh, hsm, hslot, dev.sms);
                const double m = mean_of(v);
                ratios.push_back(m > 0 ? mb::pct(v, 1.0) / m : 0.0);
            }
            std::printf("crit_shuffled,lab_popThread,uneven,%u,%d,%.5f,shuffles=20,max_over_mean_p50=%.4f,min=%.4f,max=%.4f\n",
                        k, r - warm, ms, mb::pct(ratios, 0.5), mb::pct(ratios, 0.0), mb::pct(ratios, 1.0));
            std::fflush(stdout);
        }
    }
    for (void* p : {(void*)head, (void*)out, (void*)sm, (void*)slot, (void*)pops, (void*)crit, (void*)c0, (void*)c1,
                    (void*)g0, (void*)g1})
        CK(cudaFree(p));
    return mb::finish("queue_sched", budget);
}
