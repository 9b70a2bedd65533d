// blockq.cu: two block-level mechanisms on the H200 (issues 9 and 11).
//
// Part "queue": what picks the mode of one block's shared float queue.
//   sharedq.cu found that 256 lanes adding into one __shared__ float (the
//   ATOMS.CAST.SPIN loop nvcc emits for a shared float atomicAdd) take
//   either about 21,000 SM cycles or 11,000-15,600, block to block, with the
//   same number of ATOMS under ncu
//   (calibration/evidence/2026-11-30-h200-microbench-sharedq). Here every warp's
//   lane 0 records clock64 after the first barrier, at the loop's entry
//   (after the added value is in a register: a shared store of it comes
//   first) and at its exit (after a shared store of the returned old
//   value), and every lane records the old value its add returned: every
//   value added is positive, so sorting the lanes by it gives the order in
//   which the 256 adds succeeded, and which warp won each.
//   kind lab: the softmax lab's denomShared shape (a global load of x and
//     expf right after the barrier, then the add); base picks the block's
//     256 elements of x (x + 256 * base), so the load goes to other lines
//     and L2 slices.
//   kind const: adds 1.0f; kind labv: adds expf(x) loaded before the
//     barrier. For both, thread 0 sets a start time (clock64 + 3000) before
//     the barrier, and warp w waits until start + delay[w] before its add
//     (nanosleep, then a busy spin for the last 200 cycles): the warps'
//     arrival is set, aligned or staggered by pattern:
//     aligned: 0; asc: w * D; desc: (7 - w) * D; perm: a random order
//     (seeded, a new one each launch) times D; half: warps 4..7 late by D
//     (one early and one late warp on each of the 4 SM sub-partitions,
//     warp w % 4); pairs: odd warps late by D (sub-partitions 1 and 3 late);
//     lead: warp 0 early by D; rand: uniform in [0, D) per warp, each launch.
//   kind cas: the same arrival patterns with an explicit atomicCAS loop on
//     the shared word (adds 1.0f), which also records each lane's trips.
//   Every launch is one block of 256 threads (grid 1) and prints a line:
//   L,kind,pattern,D,base,launch,sm,total,span,spread,e0..e7,x0..x7,
//   switches,maxrun,trips,seq: total = thread 0's cycles from the first
//   barrier to the second (sharedq's "queue cycles"), span = last exit -
//   first entry, spread = last entry - first entry, e and x = each warp's
//   entry and exit less the first entry, seq = the winning warp of each of
//   the 256 adds in order (printed for the first 12 launches of a row),
//   switches = how often consecutive winners differ, maxrun = the longest
//   run of one warp, trips = the cas kind's total CAS trips (else 0).
//   A summary line per row: S,kind,pattern,D,base,launches,total median,
//   span min, median, max, launches whose span is under 17000 cycles,
//   spread median, switches median.
// Part "bar": bar.sync's cost against the warps it waits for. A block runs
//   `iters` __syncthreads back to back (kind loop), or the Day 26 tree over
//   its blockDim.x shared floats (kind tree: log2(B) steps, each a guarded
//   add and a barrier) `iters` times, timed by clock64 in thread 0, at
//   block sizes 32 to 1024, in one block and in a full grid (SMs x blocks
//   an SM, 2048 threads an SM); median cycles per barrier over the blocks.
//   Event-timed too (3 warm-ups, 10 timed, gated).
// Part "fma": gpusim's TestSharedQueueModeByArrival kernel (warp w runs
//   stagger * w dependent multiply-adds before its add), stagger 0 to 16:
//   event-timed, and the per-warp entry spread and queue span over 100
//   launches: a kernel the mode model was not fitted to.
// Every queue result is checked (the block's total against a double sum;
// the order strictly increasing). An argument (queue, fma or bar) runs one
// part.
#include "common.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr long long kGoAfter = 3000;

// Waits until clock64() >= until: sleeps while far, spins for the last 200.
__device__ inline void wait_until(long long until) {
    while (until - clock64() > 200) __nanosleep(32);
    while (clock64() < until) {
    }
}

// KIND 0 lab, 1 const, 2 labv, 3 cas. wrec: 4 words a warp (first barrier,
// entry, exit, SM). lold: each lane's returned old value. ltrip: each
// lane's CAS trips (kind cas). brec: first barrier, second barrier, SM, and
// the block's total (as float bits).
template <int KIND>
__global__ void probe(const float* x, const long long* delay, long long* wrec, float* lold, int* ltrip,
                      long long* brec) {
    __shared__ float s;
    __shared__ long long go;
    // volatile: neither store below may be dropped (the second overwrites
    // the first) nor moved past the clock read that follows it.
    __shared__ volatile float scratch[kBlock];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float v = 1.0f;
    if (KIND == 2) v = expf(x[threadIdx.x]);
    if (threadIdx.x == 0) {
        s = 0.0f;
        go = clock64() + kGoAfter;
    }
    __syncthreads();
    const long long t_bar = clock64();
    if (KIND == 0) {
        v = expf(x[threadIdx.x]);
    } else {
        wait_until(go + delay[warp]);
    }
    scratch[threadIdx.x] = v;  // needs v: the clock below is the loop's entry
    const long long t_in = clock64();
    float old;
    int trips = 0;
    if (KIND == 3) {
        unsigned* su = reinterpret_cast<unsigned*>(&s);
        unsigned got = *reinterpret_cast<volatile unsigned*>(su), assumed;
        do {
            assumed = got;
            got = atomicCAS(su, assumed, __float_as_uint(__uint_as_float(assumed) + v));
            ++trips;
        } while (got != assumed);
        old = __uint_as_float(assumed);
    } else {
        old = atomicAdd(&s, v);
    }
    scratch[threadIdx.x] = old;  // needs the loop's result
    const long long t_out = clock64();
    __syncthreads();
    const long long t_end = clock64();
    lold[threadIdx.x] = old;
    ltrip[threadIdx.x] = trips;
    if (lane == 0) {
        wrec[4 * warp + 0] = t_bar;
        wrec[4 * warp + 1] = t_in;
        wrec[4 * warp + 2] = t_out;
        wrec[4 * warp + 3] = mb::smid();
    }
    if (threadIdx.x == 0) {
        brec[0] = t_bar;
        brec[1] = t_end;
        brec[2] = mb::smid();
        brec[3] = __float_as_uint(s);
    }
}

// The stagger kernel of gpusim's TestSharedQueueModeByArrival: warp w
// runs stagger * w dependent multiply-adds on its element before the add,
// so the warps reach the queue apart by the chain's latency. rec: first
// barrier, second barrier (thread 0), then each warp's entry and exit.
__global__ void fma_stagger(const float* x, int stagger, float* out, long long* rec) {
    __shared__ float s;
    __shared__ volatile float scratch[kBlock];
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    const long long t_bar = clock64();
    float v = x[threadIdx.x];
    int steps = stagger * (threadIdx.x / 32);
    for (int i = 0; i < steps; ++i) v = v * 0.5f + 0.5f;
    scratch[threadIdx.x] = v;  // needs v: the clock below is the entry
    const long long t_in = clock64();
    atomicAdd(&s, v);
    scratch[threadIdx.x] = s;
    const long long t_out = clock64();
    __syncthreads();
    const long long t_end = clock64();
    if (threadIdx.x == 0) {
        out[0] = s;
        rec[0] = t_bar;
        rec[1] = t_end;
    }
    if ((threadIdx.x & 31) == 0) {
        rec[2 + 2 * (threadIdx.x / 32)] = t_in;
        rec[3 + 2 * (threadIdx.x / 32)] = t_out;
    }
}

// KIND 0: iters barriers back to back; KIND 1: the Day 26 tree iters times.
// rec: 2 words a block (cycles, SM).
template <int KIND>
__global__ void bar_probe(int iters, long long* rec, float* sink) {
    __shared__ float sh[1024];
    sh[threadIdx.x] = static_cast<float>(threadIdx.x & 3);
    __syncthreads();
    const long long t0 = clock64();
    for (int i = 0; i < iters; ++i) {
        if (KIND == 0) {
            __syncthreads();
        } else {
            for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
                if (threadIdx.x < st) sh[threadIdx.x] += sh[threadIdx.x + st];
                __syncthreads();
            }
        }
    }
    const long long t1 = clock64();
    if (threadIdx.x == 0) {
        rec[2 * blockIdx.x] = t1 - t0;
        rec[2 * blockIdx.x + 1] = mb::smid();
        sink[blockIdx.x] = sh[0];
    }
}

const char* kKindName[4] = {"lab", "const", "labv", "cas"};

struct Row {
    int kind;
    const char* pattern;
    long long d;
    int base;
};

void delays_for(const Row& r, mb::Lcg& rng, long long* out) {
    const std::string p = r.pattern;
    int perm[kWarps];
    for (int w = 0; w < kWarps; ++w) perm[w] = w;
    if (p == "perm") {
        for (int w = kWarps - 1; w > 0; --w) std::swap(perm[w], perm[rng.next() % (w + 1)]);
    }
    for (int w = 0; w < kWarps; ++w) {
        long long d = 0;
        if (p == "asc") d = w * r.d;
        else if (p == "desc") d = (kWarps - 1 - w) * r.d;
        else if (p == "perm") d = perm[w] * r.d;
        else if (p == "half") d = w >= kWarps / 2 ? r.d : 0;
        else if (p == "pairs") d = (w & 1) ? r.d : 0;
        else if (p == "lead") d = w == 0 ? 0 : r.d;
        else if (p == "rand") d = r.d > 0 ? rng.next() % r.d : 0;
        out[w] = d;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "blockq", "a block's shared float queue: per-warp arrival and the mode; bar.sync cost vs warps a block", argc, argv);
    mb::Budget budget(90.0);
    const mb::Parts part(argc, argv);
    mb::warm_gpu(dev, 0.3);

    // ------------------------------------------------------------ queue
    const int max_base = 16;
    const int nx = max_base * kBlock;
    std::vector<float> h_x(nx);
    mb::Lcg xr(2024);
    for (int i = 0; i < nx; ++i) h_x[i] = xr.uniform(-1.0f, 1.0f);
    float *d_x = nullptr, *d_old = nullptr;
    long long *d_delay = nullptr, *d_wrec = nullptr, *d_brec = nullptr;
    int* d_trip = nullptr;
    CK(cudaMalloc(&d_x, (size_t)nx * sizeof(float)));
    CK(cudaMalloc(&d_old, kBlock * sizeof(float)));
    CK(cudaMalloc(&d_trip, kBlock * sizeof(int)));
    CK(cudaMalloc(&d_delay, kWarps * sizeof(long long)));
    CK(cudaMalloc(&d_wrec, 4 * kWarps * sizeof(long long)));
    CK(cudaMalloc(&d_brec, 4 * sizeof(long long)));
    CK(cudaMemcpy(d_x, h_x.data(), (size_t)nx * sizeof(float), cudaMemcpyHostToDevice));

    std::vector<Row> rows;
    for (int b = 0; b < max_base; ++b) rows.push_back({0, "natural", 0, b});
    rows.push_back({1, "aligned", 0, 0});
    for (long long d : {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) rows.push_back({1, "asc", d, 0});
    for (long long d : {64, 256, 1024}) rows.push_back({1, "desc", d, 0});
    for (long long d : {64, 256, 1024}) rows.push_back({1, "perm", d, 0});
    for (long long d : {64, 256, 1024, 4096}) rows.push_back({1, "half", d, 0});
    for (long long d : {64, 256, 1024, 4096}) rows.push_back({1, "pairs", d, 0});
    for (long long d : {256, 2048}) rows.push_back({1, "lead", d, 0});
    for (long long d : {64, 256, 1024, 4096}) rows.push_back({1, "rand", d, 0});
    for (int b = 0; b < 4; ++b) rows.push_back({2, "aligned", 0, b});
    for (int b = 0; b < 4; ++b) rows.push_back({2, "rand", 256, b});
    rows.push_back({3, "aligned", 0, 0});
    for (long long d : {64, 256, 1024}) rows.push_back({3, "asc", d, 0});
    rows.push_back({3, "rand", 256, 0});

    const int launches = 100, seq_launches = 12;
    mb::Lcg rng(7);
    if (part("queue")) {
        std::printf("# L,kind,pattern,D,base,launch,sm,total,span,spread,e0..e7,x0..x7,switches,maxrun,trips,seq\n");
        std::printf("# S,kind,pattern,D,base,launches,total_med,span_min,span_med,span_max,span_under_17000,spread_med,switches_med,check\n");
    }
    for (const Row& r : rows) {
        if (!part("queue") || budget.over("queue")) break;
        const float* x = d_x + (size_t)r.base * kBlock;
        double ref = 0;
        for (int t = 0; t < kBlock; ++t)
            ref += r.kind == 1 || r.kind == 3 ? 1.0 : std::exp(static_cast<double>(h_x[(size_t)r.base * kBlock + t]));
        std::vector<long long> totals, spans, spreads, switches_all;
        bool ok = true;
        int fast = 0;
        for (int l = -2; l < launches; ++l) {  // two warm-up launches
            long long delay[kWarps];
            delays_for(r, rng, delay);
            CK(cudaMemcpy(d_delay, delay, sizeof(delay), cudaMemcpyHostToDevice));
            switch (r.kind) {
            case 0: probe<0><<<1, kBlock>>>(x, d_delay, d_wrec, d_old, d_trip, d_brec); break;
            case 1: probe<1><<<1, kBlock>>>(x, d_delay, d_wrec, d_old, d_trip, d_brec); break;
            case 2: probe<2><<<1, kBlock>>>(x, d_delay, d_wrec, d_old, d_trip, d_brec); break;
            default: probe<3><<<1, kBlock>>>(x, d_delay, d_wrec, d_old, d_trip, d_brec); break;
            }
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            if (l < 0) continue;
            long long wrec[4 * kWarps], brec[4];
            float old[kBlock];
            int trip[kBlock];
            CK(cudaMemcpy(wrec, d_wrec, sizeof(wrec), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(brec, d_brec, sizeof(brec), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(old, d_old, sizeof(old), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(trip, d_trip, sizeof(trip), cudaMemcpyDeviceToHost));
            float total_f;
            const uint32_t bits = static_cast<uint32_t>(brec[3]);
            std::memcpy(&total_f, &bits, sizeof(total_f));
            ok = ok && std::fabs(total_f - ref) <= 1e-4 * ref;
            // The order of the adds: lanes sorted by the old value they saw.
            std::vector<int> idx(kBlock);
            for (int t = 0; t < kBlock; ++t) idx[t] = t;
            std::sort(idx.begin(), idx.end(), [&](int a, int b) { return old[a] < old[b]; });
            for (int t = 1; t < kBlock; ++t) ok = ok && old[idx[t]] > old[idx[t - 1]];
            std::string seq(kBlock, '0');
            long long switches = 0, maxrun = 1, run = 1, trips = 0;
            for (int t = 0; t < kBlock; ++t) {
                seq[t] = static_cast<char>('0' + idx[t] / 32);
                trips += trip[t];
                if (t == 0) continue;
                if (seq[t] != seq[t - 1]) {
                    ++switches;
                    run = 1;
                } else {
                    maxrun = std::max(maxrun, ++run);
                }
            }
            long long first_in = wrec[1], last_in = wrec[1], last_out = wrec[2];
            for (int w = 1; w < kWarps; ++w) {
                first_in = std::min(first_in, wrec[4 * w + 1]);
                last_in = std::max(last_in, wrec[4 * w + 1]);
                last_out = std::max(last_out, wrec[4 * w + 2]);
            }
            const long long total = brec[1] - brec[0];
            totals.push_back(total);
            spans.push_back(last_out - first_in);
            spreads.push_back(last_in - first_in);
            switches_all.push_back(switches);
            fast += last_out - first_in < 17000;
            std::printf("L,%s,%s,%lld,%d,%d,%lld,%lld,%lld,%lld", kKindName[r.kind], r.pattern, r.d, r.base, l, brec[2],
                        total, last_out - first_in, last_in - first_in);
            for (int w = 0; w < kWarps; ++w) std::printf(",%lld", wrec[4 * w + 1] - first_in);
            for (int w = 0; w < kWarps; ++w) std::printf(",%lld", wrec[4 * w + 2] - first_in);
            std::printf(",%lld,%lld,%lld,%s\n", switches, maxrun, trips, l < seq_launches ? seq.c_str() : "");
        }
        auto med = [](std::vector<long long> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? 0LL : v[v.size() / 2];
        };
        std::vector<long long> sp = spans;
        std::sort(sp.begin(), sp.end());
        std::printf("S,%s,%s,%lld,%d,%d,%lld,%lld,%lld,%lld,%d,%lld,%lld,%s\n", kKindName[r.kind], r.pattern, r.d, r.base,
                    (int)spans.size(), med(totals), sp.empty() ? 0 : sp.front(), med(spans), sp.empty() ? 0 : sp.back(),
                    fast, med(spreads), med(switches_all), mb::note_check(ok));
        std::fflush(stdout);
    }
    CK(cudaFree(d_brec));
    CK(cudaFree(d_wrec));
    CK(cudaFree(d_delay));
    CK(cudaFree(d_trip));
    CK(cudaFree(d_old));
    CK(cudaFree(d_x));

    // ------------------------------------------------------------ fma
    // gpusim's TestSharedQueueModeByArrival kernel, x all 1.0f (each add
    // adds 1.0f: 0.5 * 1 + 0.5 stays 1), one block, stagger 0 to 16:
    // event-timed (5 warm-ups, 30 timed, gated), then 100 launches with
    // per-warp clocks. F lines: stagger, event median/min/max ms, then over
    // the clocked launches the total (barrier to barrier) min/median/max,
    // the span (first entry to last exit) median, the entries' spread
    // median, and the launches whose span is under 17000 cycles.
    if (part("fma")) {
        std::printf("# F,stagger,median_ms,min_ms,max_ms,total_min,total_med,total_max,span_med,spread_med,span_under_17000,check\n");
        float *d_ones = nullptr, *d_out = nullptr;
        long long* d_frec = nullptr;
        CK(cudaMalloc(&d_ones, kBlock * sizeof(float)));
        CK(cudaMalloc(&d_out, sizeof(float)));
        CK(cudaMalloc(&d_frec, (2 + 2 * kWarps) * sizeof(long long)));
        std::vector<float> ones(kBlock, 1.0f);
        CK(cudaMemcpy(d_ones, ones.data(), kBlock * sizeof(float), cudaMemcpyHostToDevice));
        mb::EvTimer ftm;
        for (int stagger : {0, 1, 2, 3, 4, 6, 8, 16}) {
            if (budget.over("fma")) break;
            auto launch = [&](int) { fma_stagger<<<1, kBlock>>>(d_ones, stagger, d_out, d_frec); };
            const mb::Stats s = mb::stats_of(mb::time_runs(ftm, 5, 30, [](int) {}, launch));
            std::vector<long long> totals, spans, spreads;
            bool ok = true;
            int fast = 0;
            for (int l = 0; l < 100; ++l) {
                launch(l);
                CK_LAUNCH();
                CK(cudaDeviceSynchronize());
                long long rec[2 + 2 * kWarps];
                float got = 0;
                CK(cudaMemcpy(rec, d_frec, sizeof(rec), cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost));
                ok = ok && got == static_cast<float>(kBlock);
                long long lo = rec[2], hi_in = rec[2], hi_out = rec[3];
                for (int w = 1; w < kWarps; ++w) {
                    lo = std::min(lo, rec[2 + 2 * w]);
                    hi_in = std::max(hi_in, rec[2 + 2 * w]);
                    hi_out = std::max(hi_out, rec[3 + 2 * w]);
                }
                totals.push_back(rec[1] - rec[0]);
                spans.push_back(hi_out - lo);
                spreads.push_back(hi_in - lo);
                fast += hi_out - lo < 17000;
            }
            std::sort(totals.begin(), totals.end());
            std::sort(spans.begin(), spans.end());
            std::sort(spreads.begin(), spreads.end());
            std::printf("F,%d,%.5f,%.5f,%.5f,%lld,%lld,%lld,%lld,%lld,%d,%s\n", stagger, s.median, s.min, s.max, totals.front(),
                        totals[totals.size() / 2], totals.back(), spans[spans.size() / 2], spreads[spreads.size() / 2], fast,
                        mb::note_check(ok));
            std::fflush(stdout);
        }
        CK(cudaFree(d_frec));
        CK(cudaFree(d_out));
        CK(cudaFree(d_ones));
    }

    // ------------------------------------------------------------ bar
    if (part("bar")) {
        std::printf("bar,kind,block,grid,blocks_per_sm,iters,barriers_per_block,warm,reps,median_ms,min_ms,max_ms,"
                    "cyc_min,cyc_med,cyc_max,cyc_per_barrier_med,check\n");
    }
    mb::EvTimer tm;
    const int max_grid = 32 * dev.sms;
    long long* d_rec = nullptr;
    float* d_sink = nullptr;
    CK(cudaMalloc(&d_rec, (size_t)max_grid * 2 * sizeof(long long)));
    CK(cudaMalloc(&d_sink, (size_t)max_grid * sizeof(float)));
    for (int kind = 0; kind < 2 && part("bar"); ++kind) {
        for (int block : {32, 64, 128, 256, 512, 1024}) {
            for (int full = 0; full < 2; ++full) {
                if (budget.over("bar")) break;
                const int per_sm = std::min(32, 2048 / block);
                const int grid = full ? per_sm * dev.sms : 1;
                const int iters = kind == 0 ? 256 : 32;
                int steps = 0;
                for (int st = block / 2; st > 0; st >>= 1) ++steps;
                const long long barriers = kind == 0 ? iters : (long long)iters * steps;
                auto launch = [&](int) {
                    if (kind == 0) bar_probe<0><<<grid, block>>>(iters, d_rec, d_sink);
                    else bar_probe<1><<<grid, block>>>(iters, d_rec, d_sink);
                };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, [](int) {}, launch));
                std::vector<long long> rec((size_t)grid * 2), cyc(grid);
                CK(cudaMemcpy(rec.data(), d_rec, rec.size() * sizeof(long long), cudaMemcpyDeviceToHost));
                bool ok = true;
                for (int b = 0; b < grid; ++b) {
                    cyc[b] = rec[2 * b];
                    ok = ok && cyc[b] > 0;
                }
                std::sort(cyc.begin(), cyc.end());
                const long long m = cyc[grid / 2];
                std::printf("bar,%s,%d,%d,%d,%d,%lld,3,10,%.5f,%.5f,%.5f,%lld,%lld,%lld,%.2f,%s\n", kind == 0 ? "loop" : "tree",
                            block, grid, full ? per_sm : 1, iters, barriers, s.median, s.min, s.max, cyc.front(), m, cyc.back(),
                            static_cast<double>(m) / barriers, mb::note_check(ok));
                std::fflush(stdout);
            }
        }
    }
    CK(cudaFree(d_sink));
    CK(cudaFree(d_rec));
    return mb::finish("blockq", budget);
}
