// cas_timeline.cu: when the failed compare-and-swaps of a contended CAS loop
// happen (the cost model's CAS retries, issue 11).
//
// cas.cu's float-max CAS loop (4M threads, group = thread / C, maxima from
// -infinity), with each warp recording: the global timer and the SM's clock
// when it starts, its SM, its lanes' failed CAS, the loop trips of its
// slowest lane, the lanes whose first plain load read -infinity (nothing
// stored yet), and the global timer when it ends. From the records of the
// last timed launch the program prints, for each C:
//   total        failed CAS and time (compare with cas.csv's cas_count row)
//   rank         the warps of each group ranked by start time, in tenths:
//                mean failures, mean lanes that read -infinity, mean start
//                after the group's first warp (ns)
//   since_first  the same by time since the group's first warp started
//   spread       the groups' start spread and span (first start to last
//                end), percentiles over the groups, for the groups of the
//                first wave (blocks < resident) and the later ones
//   dispatch     on each SM, the SM-clock cycles between the starts of
//                consecutive blocks, percentiles, in the first wave and later
//   timer        the global timer's resolution (smallest step seen)
// C = 256, 4096, 65536, 4M contenders per address; 256 threads per block.
#include "common.cuh"

namespace {

constexpr unsigned kFull = 0xffffffffu;

struct WarpRec {
    unsigned long long t0, t1;  // global timer (ns) at start and end
    long long c0;               // the SM's clock64 at start
    unsigned sm, fails, trips, fresh;
};

__global__ void k_cas_rec(float* m, unsigned n, unsigned C, WarpRec* rec) {
    const unsigned long long t0 = mb::gtimer();
    const long long c0 = clock64();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned fails = 0, trips = 0, fresh = 0;
    if (i < n) {
        const float v = mb::cas_value(i);
        int* ai = (int*)&m[i / C];
        int old = *ai;
        fresh = __int_as_float(old) == -INFINITY ? 1u : 0u;
        while (__int_as_float(old) < v) {
            const int assumed = old;
            old = atomicCAS(ai, assumed, __float_as_int(v));
            ++trips;
            if (old == assumed) break;
            ++fails;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        fails += __shfl_down_sync(kFull, fails, off);
        fresh += __shfl_down_sync(kFull, fresh, off);
        trips = max(trips, __shfl_down_sync(kFull, trips, off));
    }
    const unsigned long long t1 = mb::gtimer();
    if ((threadIdx.x & 31) == 0) {
        WarpRec r;
        r.t0 = t0;
        r.t1 = t1;
        r.c0 = c0;
        r.sm = mb::smid();
        r.fails = fails;
        r.trips = trips;
        r.fresh = fresh;
        rec[i / 32] = r;
    }
}

__global__ void fill(float* m, unsigned groups) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < groups) m[i] = -INFINITY;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("cas_timeline", "when a contended CAS loop's failures happen, per warp", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22, block = 256, warps = n / 32, grid = n / block;
    const int warm = 2, reps = 5;
    int resident = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_cas_rec, block, 0));
    const unsigned wave = (unsigned)resident * (unsigned)dev.sms;
    std::printf("# resident_blocks_per_sm: %d\n", resident);
    float* m;
    WarpRec* rec;
    CK(cudaMalloc(&m, (size_t)n * 4));
    CK(cudaMalloc(&rec, (size_t)warps * sizeof(WarpRec)));
    std::vector<WarpRec> h(warps);
    std::printf("table,contenders,key,warps,fails_per_warp,fresh_lanes_per_warp,trips_per_warp,start_after_first_ns,extra\n");
    for (unsigned C : {256u, 4096u, 65536u, n}) {
        if (budget.over("cas_timeline")) break;
        const unsigned groups = n / C;
        auto setup = [&](int) {
            fill<<<(groups + 255) / 256, 256>>>(m, groups);
            CK_LAUNCH();
        };
        auto launch = [&](int) { k_cas_rec<<<grid, block>>>(m, n, C, rec); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
        CK(cudaMemcpy(h.data(), rec, (size_t)warps * sizeof(WarpRec), cudaMemcpyDeviceToHost));
        // Check: every group holds its maximum.
        std::vector<float> got(groups);
        CK(cudaMemcpy(got.data(), m, (size_t)groups * 4, cudaMemcpyDeviceToHost));
        const unsigned wrong = mb::cas_wrong_groups(got, C);
        unsigned long long fails = 0, tmin = ~0ull, step = ~0ull;
        for (const WarpRec& r : h) {
            fails += r.fails;
            tmin = std::min(tmin, r.t0);
        }
        {
            std::vector<unsigned long long> ts;
            ts.reserve(warps);
            for (const WarpRec& r : h) ts.push_back(r.t0);
            std::sort(ts.begin(), ts.end());
            for (size_t k = 1; k < ts.size(); ++k)
                if (ts[k] != ts[k - 1]) step = std::min(step, ts[k] - ts[k - 1]);
        }
        std::printf("total,%u,median_ms=%.5f,%u,%.3f,0,0,0,fails=%llu wrong_groups=%u check=%s\n", C, s.median, warps,
                    (double)fails / warps, fails, wrong, mb::note_check(wrong == 0));
        std::printf("timer,%u,smallest_step_ns,0,0,0,0,%llu,\n", C, step);

        // Warps of a group: C/32 consecutive warp records.
        const unsigned wpg = std::max(1u, C / 32);
        const unsigned blocksPerGroup = std::max(1u, C / block);
        double rk[10][4] = {};
        const double bins[] = {0, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 1e18};
        double tb[10][4] = {};
        std::vector<double> spreadFirst, spreadLater, spanFirst, spanLater;
        std::vector<std::pair<unsigned long long, unsigned>> order(wpg);
        for (unsigned g = 0; g < warps / wpg; ++g) {
            unsigned long long g0 = ~0ull, g1 = 0, gend = 0;
            for (unsigned k = 0; k < wpg; ++k) {
                const WarpRec& r = h[g * wpg + k];
                order[k] = {r.t0, k};
                g0 = std::min(g0, r.t0);
                g1 = std::max(g1, r.t0);
                gend = std::max(gend, r.t1);
            }
            std::sort(order.begin(), order.end());
            for (unsigned k = 0; k < wpg; ++k) {
                const WarpRec& r = h[g * wpg + order[k].second];
                const int d = std::min(9u, k * 10 / wpg);
                const double after = (double)(r.t0 - g0);
                rk[d][0] += 1;
                rk[d][1] += r.fails;
                rk[d][2] += r.fresh;
                rk[d][3] += after;
                int b = 0;
                while (b < 9 && after >= bins[b + 1]) ++b;
                tb[b][0] += 1;
                tb[b][1] += r.fails;
                tb[b][2] += r.fresh;
                tb[b][3] += r.trips;
            }
            const bool first = (unsigned long long)g * blocksPerGroup < wave;
            (first ? spreadFirst : spreadLater).push_back((double)(g1 - g0));
            (first ? spanFirst : spanLater).push_back((double)(gend - g0));
        }
        for (int d = 0; d < 10; ++d)
            if (rk[d][0] > 0)
                std::printf("rank,%u,tenth_%d,%.0f,%.3f,%.3f,0,%.0f,\n", C, d, rk[d][0], rk[d][1] / rk[d][0],
                            rk[d][2] / rk[d][0], rk[d][3] / rk[d][0]);
        for (int b = 0; b < 10; ++b)
            if (tb[b][0] > 0)
                std::printf("since_first,%u,from_%.0f_ns,%.0f,%.3f,%.3f,%.3f,%.0f,\n", C, bins[b], tb[b][0],
                            tb[b][1] / tb[b][0], tb[b][2] / tb[b][0], tb[b][3] / tb[b][0], bins[b]);
        const char* names[2] = {"first_wave", "later"};
        std::vector<double>* sp[2] = {&spreadFirst, &spreadLater};
        std::vector<double>* sn[2] = {&spanFirst, &spanLater};
        for (int w = 0; w < 2; ++w)
            std::printf("spread,%u,%s,%zu,0,0,0,0,start_spread_ns p10=%.0f p50=%.0f p90=%.0f span_ns p10=%.0f p50=%.0f p90=%.0f\n",
                        C, names[w], sp[w]->size(), mb::pct(*sp[w], 0.1), mb::pct(*sp[w], 0.5), mb::pct(*sp[w], 0.9),
                        mb::pct(*sn[w], 0.1), mb::pct(*sn[w], 0.5), mb::pct(*sn[w], 0.9));

        // Block starts per SM (a block's first warp), in SM clock cycles.
        std::vector<std::vector<std::pair<long long, unsigned>>> perSM(dev.sms);
        for (unsigned b = 0; b < grid; ++b) {
            long long c = 0;
            unsigned sm = 0;
            bool set = false;
            for (unsigned k = 0; k < block / 32; ++k) {
                const WarpRec& r = h[b * (block / 32) + k];
                if (!set || r.c0 < c) c = r.c0, sm = r.sm, set = true;
            }
            if (sm < (unsigned)dev.sms) perSM[sm].push_back({c, b});
        }
        std::vector<double> gapFirst, gapLater;
        for (auto& v : perSM) {
            std::sort(v.begin(), v.end());
            for (size_t k = 1; k < v.size(); ++k)
                (k < (size_t)resident ? gapFirst : gapLater).push_back((double)(v[k].first - v[k - 1].first));
        }
        std::printf("dispatch,%u,first_wave,%zu,0,0,0,0,gap_cycles p10=%.0f p50=%.0f p90=%.0f\n", C, gapFirst.size(),
                    mb::pct(gapFirst, 0.1), mb::pct(gapFirst, 0.5), mb::pct(gapFirst, 0.9));
        std::printf("dispatch,%u,later,%zu,0,0,0,0,gap_cycles p10=%.0f p50=%.0f p90=%.0f\n", C, gapLater.size(),
                    mb::pct(gapLater, 0.1), mb::pct(gapLater, 0.5), mb::pct(gapLater, 0.9));
        std::fflush(stdout);
    }
    CK(cudaFree(m));
    CK(cudaFree(rec));
    return mb::finish("cas_timeline", budget);
}
