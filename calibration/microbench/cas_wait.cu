// cas_wait.cu: how long a contended CAS loop's load and compare-and-swaps
// take, per warp, and what one compare-and-swap lane costs the L2 (the cas
// lab's CAS-loop misses, issue 14).
//
// Part "wait": cas_timeline.cu's float-max CAS loop (4M threads, group =
// thread / C, maxima from -infinity, 256 threads a block), each lane
// reading the SM's clock64 (cyc) right after every branch that depends on a
// value the memory returned: after its first load (the loop's first
// condition), and after each atomicCAS (its success test or the next
// condition). Per warp (the lowest of its lanes, which issue together;
// the lanes that wait at a divergent branch read later clocks):
//   load_cycles   start of the load to its first use: the contended word's
//                 latency while the line serves the other warps' CAS
//   first_trip    the first atomicCAS to its use (queue wait included)
//   trip_mean     cycles per CAS, over the lanes' trips (a lane's trip
//                 counts once per lane; the lanes of one warp trip share
//                 the instruction)
// and its failed CAS, lanes whose first load read -infinity (fresh) and
// start (global timer). Printed for each C:
//   total        failed CAS a warp, fresh lanes a warp, time (median)
//   pct          percentiles over the warps: load_cycles, first_trip,
//                trip_mean (warps that ran at least one CAS)
//   since_first  by time since the group's first warp started (as in
//                cas_timeline.csv): warps, mean load_cycles, first_trip,
//                fresh lanes, fails
// C = 256, 4096, 65536, 4M contenders per address.
//
// Part "lane" (1056 blocks of 256 threads, every lane on one word, 16
// atomics a lane, the result used; median of 5 gated launches): the L2's
// time per lane operation on one address for
//   cas_fail     atomicCAS whose compare never matches (no write)
//   cas_match    atomicCAS whose compare always matches (writes the same)
//   max_used     atomicMax with the result used (ATOMG.MAX)
// ns_per_op = (median - empty launch) / operations.
#include "common.cuh"

namespace {

constexpr unsigned kFull = 0xffffffffu;

struct WaitRec {
    unsigned long long t0;           // global timer (ns) at start
    unsigned long long trip_cycles;  // summed over the lanes' trips
    unsigned load_cycles, first_trip, trips, fails, fresh, pad;
};

__global__ void k_cas_wait(float* m, unsigned n, unsigned C, WaitRec* rec) {
    const unsigned long long t0 = mb::gtimer();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned fails = 0, trips = 0, fresh = 0;
    unsigned load_c = 0xffffffffu, first_c = 0xffffffffu;
    unsigned long long trip_c = 0;
    if (i < n) {
        const float v = mb::cas_value(i);
        int* ai = (int*)&m[i / C];
        const long long c0 = mb::clock_ordered();
        int old = *ai;
        long long top = 0;
        for (;;) {
            if (!(__int_as_float(old) < v)) {
                const long long c = mb::clock_ordered();
                if (trips == 0) load_c = (unsigned)(c - c0);
                else trip_c += (unsigned long long)(c - top);
                if (trips == 1) first_c = (unsigned)(c - top);
                break;
            }
            const long long c = mb::clock_ordered();
            if (trips == 0) {
                load_c = (unsigned)(c - c0);
                fresh = __int_as_float(old) == -INFINITY ? 1u : 0u;
            } else {
                trip_c += (unsigned long long)(c - top);
                if (trips == 1) first_c = (unsigned)(c - top);
            }
            top = c;
            const int assumed = old;
            old = atomicCAS(ai, assumed, __float_as_int(v));
            ++trips;
            if (old == assumed) {
                const long long e = mb::clock_ordered();
                trip_c += (unsigned long long)(e - top);
                if (trips == 1) first_c = (unsigned)(e - top);
                break;
            }
            ++fails;
        }
        if (trips == 0) fresh = __int_as_float(old) == -INFINITY ? 1u : 0u;
    }
    for (int off = 16; off > 0; off >>= 1) {
        fails += __shfl_down_sync(kFull, fails, off);
        fresh += __shfl_down_sync(kFull, fresh, off);
        trips += __shfl_down_sync(kFull, trips, off);
        trip_c += __shfl_down_sync(kFull, trip_c, off);
        load_c = min(load_c, __shfl_down_sync(kFull, load_c, off));
        first_c = min(first_c, __shfl_down_sync(kFull, first_c, off));
    }
    if ((threadIdx.x & 31) == 0 && i < n) {
        WaitRec r;
        r.t0 = t0;
        r.trip_cycles = trip_c;
        r.load_cycles = load_c;
        r.first_trip = first_c;
        r.trips = trips;
        r.fails = fails;
        r.fresh = fresh;
        r.pad = 0;
        rec[i / 32] = r;
    }
}

__global__ void fill(float* m, unsigned groups) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < groups) m[i] = -INFINITY;
}

// Part "lane": every lane on p[0], reps atomics each, the result used.
__global__ void k_cas_fail(int* p, int reps, int* sink) {
    int acc = 0;
    for (int r = 0; r < reps; ++r) acc += atomicCAS(p, 1, 2);  // p holds 0: never matches
    if (acc == 12345) sink[0] = acc;
}

__global__ void k_cas_match(int* p, int reps, int* sink) {
    int acc = 0;
    for (int r = 0; r < reps; ++r) acc += atomicCAS(p, 0, 0);  // p holds 0: always matches
    if (acc == 12345) sink[0] = acc;
}

__global__ void k_max_used(int* p, int reps, int* sink) {
    int acc = 0;
    for (int r = 0; r < reps; ++r) acc += atomicMax(p, -(int)threadIdx.x - r);  // p holds 0: no change
    if (acc == 12345) sink[0] = acc;
}

__global__ void k_empty(int* sink) {
    if (threadIdx.x == 12345) sink[0] = 1;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("cas_wait", "a contended CAS loop's load and CAS latencies per warp; one CAS lane's L2 time", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22, block = 256, warps = n / 32, grid = n / block;
    const int warm = 2, reps = 5;
    float* m;
    WaitRec* rec;
    CK(cudaMalloc(&m, (size_t)n * 4));
    CK(cudaMalloc(&rec, (size_t)warps * sizeof(WaitRec)));
    std::vector<WaitRec> h(warps);
    std::printf("table,contenders,key,warps,a,b,c,d,extra\n");
    for (unsigned C : {256u, 4096u, 65536u, n}) {
        if (budget.over("cas_wait")) break;
        const unsigned groups = n / C;
        auto setup = [&](int) {
            fill<<<(groups + 255) / 256, 256>>>(m, groups);
            CK_LAUNCH();
        };
        auto launch = [&](int) { k_cas_wait<<<grid, block>>>(m, n, C, rec); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
        CK(cudaMemcpy(h.data(), rec, (size_t)warps * sizeof(WaitRec), cudaMemcpyDeviceToHost));
        std::vector<float> got(groups);
        CK(cudaMemcpy(got.data(), m, (size_t)groups * 4, cudaMemcpyDeviceToHost));
        const unsigned wrong = mb::cas_wrong_groups(got, C);
        unsigned long long fails = 0, fresh = 0;
        std::vector<double> ld, ft, tm_;
        for (const WaitRec& r : h) {
            fails += r.fails;
            fresh += r.fresh;
            ld.push_back(r.load_cycles);
            if (r.trips > 0) {
                ft.push_back(r.first_trip);
                tm_.push_back((double)r.trip_cycles / r.trips);
            }
        }
        // total: a = failed CAS a warp, b = fresh lanes a warp, c = median ms, d = warps with a CAS
        std::printf("total,%u,all,%u,%.3f,%.3f,%.5f,%zu,wrong_groups=%u check=%s\n", C, warps, (double)fails / warps,
                    (double)fresh / warps, s.median, ft.size(), wrong, mb::note_check(wrong == 0));
        const char* names[3] = {"load_cycles", "first_trip", "trip_mean"};
        std::vector<double>* vs[3] = {&ld, &ft, &tm_};
        for (int k = 0; k < 3; ++k)
            std::printf("pct,%u,%s,%zu,%.0f,%.0f,%.0f,%.0f,p10 p50 p90 p99\n", C, names[k], vs[k]->size(),
                        mb::pct(*vs[k], 0.1), mb::pct(*vs[k], 0.5), mb::pct(*vs[k], 0.9), mb::pct(*vs[k], 0.99));
        // since_first: a = mean load_cycles, b = mean first_trip (warps with a CAS), c = fresh lanes, d = fails
        const unsigned wpg = std::max(1u, C / 32);
        const double bins[] = {0, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 1e18};
        double tb[10][6] = {};
        for (unsigned g = 0; g < warps / wpg; ++g) {
            unsigned long long g0 = ~0ull;
            for (unsigned k = 0; k < wpg; ++k) g0 = std::min(g0, h[g * wpg + k].t0);
            for (unsigned k = 0; k < wpg; ++k) {
                const WaitRec& r = h[g * wpg + k];
                const double after = (double)(r.t0 - g0);
                int b = 0;
                while (b < 9 && after >= bins[b + 1]) ++b;
                tb[b][0] += 1;
                tb[b][1] += r.load_cycles;
                if (r.trips > 0) {
                    tb[b][2] += r.first_trip;
                    tb[b][3] += 1;
                }
                tb[b][4] += r.fresh;
                tb[b][5] += r.fails;
            }
        }
        for (int b = 0; b < 10; ++b)
            if (tb[b][0] > 0)
                std::printf("since_first,%u,from_%.0f_ns,%.0f,%.0f,%.0f,%.3f,%.3f,\n", C, bins[b], tb[b][0],
                            tb[b][1] / tb[b][0], tb[b][3] > 0 ? tb[b][2] / tb[b][3] : 0.0, tb[b][4] / tb[b][0],
                            tb[b][5] / tb[b][0]);
        std::fflush(stdout);
    }
    CK(cudaFree(m));
    CK(cudaFree(rec));

    // Part "lane".
    int* p;
    int* sink;
    CK(cudaMalloc(&p, 128));
    CK(cudaMalloc(&sink, 128));
    const unsigned lgrid = (unsigned)dev.sms * 8;
    const int lreps = 16;
    const double ops = (double)lgrid * block * lreps;
    auto zero = [&](int) { CK(cudaMemset(p, 0, 128)); };
    const mb::Stats e = mb::stats_of(mb::time_runs(tm, warm, reps, zero, [&](int) { k_empty<<<lgrid, block>>>(sink); }));
    std::printf("lane,1,empty,%u,%.5f,0,0,0,median_ms\n", lgrid, e.median);
    struct K {
        const char* name;
        void (*k)(int*, int, int*);
    } ks[] = {{"cas_fail", k_cas_fail}, {"cas_match", k_cas_match}, {"max_used", k_max_used}};
    for (const K& k : ks) {
        if (budget.over("cas_wait lane")) break;
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, zero, [&](int) { k.k<<<lgrid, block>>>(p, lreps, sink); }));
        int v = -1;
        CK(cudaMemcpy(&v, p, 4, cudaMemcpyDeviceToHost));
        // lane: a = median ms, b = ns per lane operation, c = the word after (0 expected)
        std::printf("lane,1,%s,%u,%.5f,%.4f,%d,0,check=%s\n", k.name, lgrid, s.median, (s.median - e.median) * 1e6 / ops, v,
                    mb::note_check(v == 0));
    }
    CK(cudaFree(p));
    CK(cudaFree(sink));
    return mb::finish("cas_wait", budget);
}
