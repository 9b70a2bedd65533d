// l2sm.cu: does each SM see its own round-trip latency to each L2 slice, and
// do the SMs whose atomics reach a hot word first win a work queue's pops
// (issue 11: the queue cells the cost model misses, queue_sm.csv).
//
// Part "lat" (no contention): a grid of SMs x 8 one-warp blocks; the first
// block on each SM (by %smid) claims it, takes a ticket, and waits
// (__nanosleep) until the SMs before it are done, so one thread on one SM
// runs at a time. It then times, with its SM clock, on each target word:
//   atom  a dependent chain of atomicAdd(p, 1) (the address depends on the
//         last result: ATOMG, one lane), 8 and 40 steps, 4 chains of each
//   load  a dependent chain of __ldcg loads of the same word (L1 bypassed,
//         the L2 holds it: the atomics just wrote it), 8 and 40 steps
// and the host takes (median 40-step chain - median 8-step chain) / 32 over
// all chains of all launches as the cycles of one step, which cancels the
// clock reads and the wait for the last step. Targets: the queue's head,
// allocated as queue.cu and queue_sm.cu allocate it (the first device
// allocation after warm_gpu, 4 bytes); 64 words 4 KiB apart in one buffer
// (different lines, slices and both partitions); 8 words 2 MiB apart in
// another (different pages). Rows: lat (one per SM and target: the step's
// cycles and the 40-step chains' median and min) and spread (one per target:
// min, median and max over the SMs, and the SMs of the min and max).
// Part "first" (contention, the queue's first pops): queue.cu's grid, SMs x
// 8 blocks of 256 (every warp resident), each thread atomicAdd(head, 64)
// once (one aggregated ATOMG a warp); the warps ranked by their lowest
// start are the order the L2 served them. Per launch
// (2 warm-ups, 5 recorded): the warps on each SM among the first 128 and
// the first 2048 served (queue_sm's winners at k = 1024 and 64 without the
// items' work), each SM's median rank, the blocks each SM got (how many,
// the lowest and the median block index) and its first and its median
// block's start on the global timer after the earliest block's (ns).
// Part "firstsync": the same, every warp first waiting for one tick of the
// global timer (the first 16.384 us boundary 12 us after its block's
// start), so that the blocks' start order no longer counts: what is left is
// each SM's path to the head.
// Part "pops": the same warps pop k = 64 with no work until the head passes
// 4 pops a warp on average; the pops each SM's warps won (an SM whose
// atomics come back sooner pops again sooner). Every rank set and pop total
// is checked. Under 5 s.
#include "common.cuh"

namespace {

constexpr int kMaxSM = 1024;
constexpr int kChains = 4;
constexpr int kShort = 8, kLong = 40;

// r is never negative (the words count up from 0), so r >> 31 is 0, but
// the compiler cannot know: each step waits for the one before.
__device__ long long atom_chain(int* p, int steps, int* sink) {
    int r = 0;
    const long long c0 = mb::clock_ordered();
    for (int s = 0; s < steps; ++s) r = atomicAdd(p + (r >> 31), 1);
    *sink = r;  // waits for the last step
    return mb::clock_ordered() - c0;
}

__device__ long long load_chain(int* p, int steps, int* sink) {
    int v = 0;
    const long long c0 = mb::clock_ordered();
    for (int s = 0; s < steps; ++s) v = __ldcg(p + (v >> 31));
    *sink = v;
    return mb::clock_ordered() - c0;
}

// out[((sm * nt + t) * 2 + kind) * 2 * kChains + c * 2 + long]
__global__ void k_lat(unsigned* claim, unsigned* ticket, unsigned* turn, int* const* targets, int nt, long long* out,
                      unsigned* order, int* sink) {
    if (threadIdx.x != 0) return;
    unsigned sm;
    if (!mb::sm_turn(claim, ticket, turn, order, kMaxSM, sm)) return;
    for (int a = 0; a < nt; ++a) {
        int* p = targets[a];
        long long* o = out + ((size_t)sm * nt + a) * 2 * 2 * kChains;
        atom_chain(p, 4, sink + sm);
        for (int c = 0; c < kChains; ++c) {
            o[c * 2 + 0] = atom_chain(p, kShort, sink + sm);
            o[c * 2 + 1] = atom_chain(p, kLong, sink + sm);
        }
        load_chain(p, 4, sink + sm);
        for (int c = 0; c < kChains; ++c) {
            o[2 * kChains + c * 2 + 0] = load_chain(p, kShort, sink + sm);
            o[2 * kChains + c * 2 + 1] = load_chain(p, kLong, sink + sm);
        }
    }
    __threadfence();
    atomicAdd(turn, 1u);
}

// queue.cu's first pop: every thread atomicAdd(head, k), result used. With
// sync, every warp first waits for the same tick of the global timer: the
// first 16.384 us boundary at least 12 us after its block's start.
__global__ void k_first(unsigned* head, unsigned k, int sync, unsigned* wsm, unsigned* wrank,
                        unsigned long long* bstart, unsigned long long* btarget, unsigned* bsm) {
    const unsigned long long g = mb::gtimer_ordered();
    const unsigned long long target = ((g + 12000ull) / 16384ull + 1ull) * 16384ull;
    if (sync)
        while (mb::gtimer_ordered() < target) {
        }
    const unsigned start = atomicAdd(head, k);
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    if (threadIdx.x == 0) {
        bstart[blockIdx.x] = g;
        btarget[blockIdx.x] = target;
        bsm[blockIdx.x] = mb::smid();
    }
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = mb::smid();
        wrank[w] = lo;
    }
}

// queue.cu's pop_thread without the items' work.
__global__ void k_pops(unsigned* head, unsigned n, unsigned k, unsigned* wsm, unsigned* wpops) {
    unsigned pops = 0;
    for (;;) {
        const unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        ++pops;
    }
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = mb::smid();
        wpops[w] = pops;
    }
}

double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void print_map(const char* part, int rep, const char* what, const std::vector<double>& v, const char* fmt) {
    std::printf("%s,%d,%s,", part, rep, what);
    for (size_t s = 0; s < v.size(); ++s) {
        if (s) std::printf(" ");
        std::printf(fmt, v[s]);
    }
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "l2sm", "each SM's uncontended atomic and L2-load latency to words in different L2 slices; which SMs the L2 serves first under contention", argc,
        argv);
    mb::Budget budget(40.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int sms = dev.sms;
    if (sms > kMaxSM) {
        std::printf("# FATAL: %d SMs, more than %d\n", sms, kMaxSM);
        return 2;
    }
    // The head first, as queue.cu and queue_sm.cu allocate it.
    unsigned* head;
    CK(cudaMalloc(&head, 4));
    int *buf4k, *buf2m;
    CK(cudaMalloc(&buf4k, 64 * 4096));
    CK(cudaMalloc(&buf2m, 8 * (2u << 20)));
    CK(cudaMemset(head, 0, 4));
    CK(cudaMemset(buf4k, 0, 64 * 4096));
    CK(cudaMemset(buf2m, 0, 8 * (2u << 20)));
    std::vector<int*> htargets;
    std::vector<std::string> labels;
    std::vector<long long> offsets;
    htargets.push_back((int*)head);
    labels.push_back("head");
    offsets.push_back(0);
    for (int i = 0; i < 64; ++i) {
        htargets.push_back(buf4k + i * 1024);
        labels.push_back("stride4k");
        offsets.push_back((long long)i * 4096);
    }
    for (int i = 0; i < 8; ++i) {
        htargets.push_back(buf2m + (size_t)i * (512u << 10));
        labels.push_back("stride2m");
        offsets.push_back((long long)i * (2 << 20));
    }
    const int nt = (int)htargets.size();
    std::printf("# head_va: %p\n# buf4k_va: %p\n# buf2m_va: %p\n", (void*)head, (void*)buf4k, (void*)buf2m);
    int** dtargets;
    unsigned *claim, *ticket, *turn, *order;
    int* sink;
    long long* lat;
    const size_t per = (size_t)nt * 2 * 2 * kChains;
    CK(cudaMalloc(&dtargets, nt * sizeof(int*)));
    CK(cudaMemcpy(dtargets, htargets.data(), nt * sizeof(int*), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&claim, kMaxSM * 4));
    CK(cudaMalloc(&ticket, 4));
    CK(cudaMalloc(&turn, 4));
    CK(cudaMalloc(&order, kMaxSM * 4));
    CK(cudaMalloc(&sink, kMaxSM * 4));
    CK(cudaMalloc(&lat, (size_t)kMaxSM * per * 8));

    std::printf("part,a,b,c,fields\n");
    std::printf("# lat,sm,target,label,offset_bytes,atom_cyc,load_cyc,atom40_p50,atom40_min,load40_p50,load40_min,chains\n");
    std::printf("# spread,target,label,offset_bytes,atom_min,atom_p50,atom_max,atom_min_sm,atom_max_sm,load_min,load_p50,load_max,load_min_sm,load_max_sm\n");
    std::printf("# first|firstsync,rep,what,<one figure per SM id 0..SMs-1> (what: top128, top2048, rank_p50, blocks, start_ns: its first block's start, start_p50_ns: its blocks' median start, after the earliest block's; block_min, block_p50: the lowest and median block index it ran)\n");
    std::printf("# pops,rep,what,<one figure per SM id> (what: pops, warps)\n");

    // ---------------------------------------------------------------- lat
    const int latLaunches = 3;
    // samples[(sm * nt + t) * 4 + kind*2 + long] -> values over chains and launches
    std::vector<std::vector<double>> samples((size_t)sms * nt * 4);
    std::vector<long long> hlat((size_t)kMaxSM * per);
    int latDone = 0;
    bool latOK = true;
    for (int l = 0; l < latLaunches; ++l) {
        if (budget.over("lat")) break;
        CK(cudaMemset(claim, 0, kMaxSM * 4));
        CK(cudaMemset(ticket, 0, 4));
        CK(cudaMemset(turn, 0, 4));
        CK(cudaMemset(lat, 0xff, (size_t)kMaxSM * per * 8));
        CK(cudaMemset(order, 0xff, kMaxSM * 4));
        k_lat<<<sms * 8, 32>>>(claim, ticket, turn, dtargets, nt, lat, order, sink);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hlat.data(), lat, (size_t)kMaxSM * per * 8, cudaMemcpyDeviceToHost));
        std::vector<unsigned> hord(kMaxSM), hturn(1);
        CK(cudaMemcpy(hord.data(), order, kMaxSM * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hturn.data(), turn, 4, cudaMemcpyDeviceToHost));
        std::vector<int> seen(sms, 0);
        for (unsigned t = 0; t < hturn[0] && t < (unsigned)kMaxSM; ++t)
            if (hord[t] < (unsigned)sms) seen[hord[t]]++;
        int measured = 0;
        for (int s = 0; s < sms; ++s) measured += seen[s] == 1;
        const bool ok = measured == sms && hturn[0] == (unsigned)sms;
        latOK = latOK && ok;
        std::printf("# lat launch %d: %u SMs served in turn, %d of %d SM ids once each: %s\n", l, hturn[0], measured, sms,
                    ok ? "PASS" : "FAIL");
        for (int s = 0; s < sms; ++s) {
            if (seen[s] != 1) continue;
            for (int t = 0; t < nt; ++t) {
                const long long* o = hlat.data() + ((size_t)s * nt + t) * 2 * 2 * kChains;
                for (int kind = 0; kind < 2; ++kind)
                    for (int c = 0; c < kChains; ++c)
                        for (int lg = 0; lg < 2; ++lg) {
                            const long long v = o[kind * 2 * kChains + c * 2 + lg];
                            if (v > 0) samples[((size_t)s * nt + t) * 4 + kind * 2 + lg].push_back((double)v);
                        }
            }
        }
        ++latDone;
    }
    mb::note_check(latOK && latDone > 0);
    {
        std::vector<std::vector<double>> atomBy(nt), loadBy(nt);
        std::vector<std::vector<int>> smBy(nt);
        for (int s = 0; s < sms; ++s)
            for (int t = 0; t < nt; ++t) {
                auto& a8 = samples[((size_t)s * nt + t) * 4 + 0];
                auto& a40 = samples[((size_t)s * nt + t) * 4 + 1];
                auto& l8 = samples[((size_t)s * nt + t) * 4 + 2];
                auto& l40 = samples[((size_t)s * nt + t) * 4 + 3];
                if (a40.empty() || a8.empty() || l40.empty() || l8.empty()) continue;
                const double atom = (median_of(a40) - median_of(a8)) / (kLong - kShort);
                const double load = (median_of(l40) - median_of(l8)) / (kLong - kShort);
                std::printf("lat,%d,%d,%s,%lld,%.1f,%.1f,%.0f,%.0f,%.0f,%.0f,%zu\n", s, t, labels[t].c_str(), offsets[t], atom,
                            load, median_of(a40), *std::min_element(a40.begin(), a40.end()), median_of(l40),
                            *std::min_element(l40.begin(), l40.end()), a40.size());
                atomBy[t].push_back(atom);
                loadBy[t].push_back(load);
                smBy[t].push_back(s);
            }
        for (int t = 0; t < nt; ++t) {
            if (atomBy[t].empty()) continue;
            auto amin = std::min_element(atomBy[t].begin(), atomBy[t].end()) - atomBy[t].begin();
            auto amax = std::max_element(atomBy[t].begin(), atomBy[t].end()) - atomBy[t].begin();
            auto lmin = std::min_element(loadBy[t].begin(), loadBy[t].end()) - loadBy[t].begin();
            auto lmax = std::max_element(loadBy[t].begin(), loadBy[t].end()) - loadBy[t].begin();
            std::printf("spread,%d,%s,%lld,%.1f,%.1f,%.1f,%d,%d,%.1f,%.1f,%.1f,%d,%d\n", t, labels[t].c_str(), offsets[t],
                        atomBy[t][amin], median_of(atomBy[t]), atomBy[t][amax], smBy[t][amin], smBy[t][amax],
                        loadBy[t][lmin], median_of(loadBy[t]), loadBy[t][lmax], smBy[t][lmin], smBy[t][lmax]);
        }
        std::printf("# S l2sm lat: %d launches, %d targets, %d SMs\n", latDone, nt, sms);
    }
    std::fflush(stdout);

    // ---------------------------------------------------------------- first, pops
    const int grid = sms * 8, block = 256, warps = grid * block / 32, warm = 2, recs = 5;
    const unsigned k = 64;
    unsigned *wsm, *wrank, *bsm;
    unsigned long long* bstart;
    CK(cudaMalloc(&wsm, (size_t)warps * 4));
    CK(cudaMalloc(&wrank, (size_t)warps * 4));
    CK(cudaMalloc(&bsm, (size_t)grid * 4));
    CK(cudaMalloc(&bstart, (size_t)grid * 8));
    unsigned long long* btarget;
    CK(cudaMalloc(&btarget, (size_t)grid * 8));
    std::vector<unsigned> hwsm(warps), hwrank(warps), hbsm(grid);
    std::vector<unsigned long long> hbstart(grid), hbtarget(grid);
    for (int sync = 0; sync < 2; ++sync)
    for (int r = 0; r < warm + recs; ++r) {
        if (budget.over("first")) break;
        const char* part = sync ? "firstsync" : "first";
        CK(cudaMemset(head, 0, 4));
        const double ms = tm.ms([&] { k_first<<<grid, block>>>(head, k, sync, wsm, wrank, bstart, btarget, bsm); }, r >= warm);
        if (r < warm) continue;
        CK(cudaMemcpy(hwsm.data(), wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hwrank.data(), wrank, (size_t)warps * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hbsm.data(), bsm, (size_t)grid * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hbstart.data(), bstart, (size_t)grid * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hbtarget.data(), btarget, (size_t)grid * 8, cudaMemcpyDeviceToHost));
        // Rank the warps by their lowest start: the order the L2 served them.
        bool ok, aggregated;
        const std::vector<int> byStart = mb::served_order(hwsm, hwrank, sms, k, ok, aggregated);
        for (int i = 0; i < warps; ++i) hwrank[byStart[i]] = (unsigned)i;
        std::vector<unsigned long long> targets(hbtarget.begin(), hbtarget.end());
        std::sort(targets.begin(), targets.end());
        const size_t ticks = std::unique(targets.begin(), targets.end()) - targets.begin();
        std::printf("# %s launch %d: %.5f ms, warps' starts distinct, each on an SM: %s; one ATOMG a warp (starts 0, 2048, ...): %s; "
                    "release ticks among the blocks: %zu (sync: the warps wait for one)\n",
                    part, r - warm, ms, mb::note_check(ok), aggregated ? "yes" : "no", ticks);
        if (!ok) continue;
        std::vector<double> top128(sms, 0), top2048(sms, 0), rankp50(sms, 0), blocks(sms, 0), start(sms, 0),
            startp50(sms, 0);
        std::vector<std::vector<double>> starts(sms), ids(sms);
        std::vector<double> idmin(sms, -1), idp50(sms, -1);
        std::vector<std::vector<double>> ranks(sms);
        for (int w = 0; w < warps; ++w) {
            const unsigned s = hwsm[w];
            if (hwrank[w] < 128) top128[s]++;
            if (hwrank[w] < 2048) top2048[s]++;
            ranks[s].push_back(hwrank[w]);
        }
        unsigned long long g0 = ~0ull;
        for (int b = 0; b < grid; ++b) g0 = std::min(g0, hbstart[b]);
        std::vector<unsigned long long> first(sms, ~0ull);
        for (int b = 0; b < grid; ++b) {
            if (hbsm[b] >= (unsigned)sms) continue;
            blocks[hbsm[b]]++;
            first[hbsm[b]] = std::min(first[hbsm[b]], hbstart[b]);
            starts[hbsm[b]].push_back((double)(hbstart[b] - g0));
            ids[hbsm[b]].push_back((double)b);
        }
        for (int s = 0; s < sms; ++s) {
            rankp50[s] = median_of(ranks[s]);
            start[s] = first[s] == ~0ull ? -1.0 : (double)(first[s] - g0);
            startp50[s] = median_of(starts[s]);
            if (!ids[s].empty()) {
                idmin[s] = *std::min_element(ids[s].begin(), ids[s].end());
                idp50[s] = median_of(ids[s]);
            }
        }
        print_map(part, r - warm, "top128", top128, "%.0f");
        print_map(part, r - warm, "top2048", top2048, "%.0f");
        print_map(part, r - warm, "rank_p50", rankp50, "%.0f");
        print_map(part, r - warm, "blocks", blocks, "%.0f");
        print_map(part, r - warm, "start_ns", start, "%.0f");
        print_map(part, r - warm, "start_p50_ns", startp50, "%.0f");
        print_map(part, r - warm, "block_min", idmin, "%.0f");
        print_map(part, r - warm, "block_p50", idp50, "%.1f");
    }
    std::fflush(stdout);
    unsigned* wpops;
    CK(cudaMalloc(&wpops, (size_t)warps * 4));
    std::vector<unsigned> hwpops(warps);
    const unsigned n = (unsigned)warps * 4u * 32u * k;  // 4 warp pops a warp on average
    for (int r = 0; r < warm + recs; ++r) {
        if (budget.over("pops")) break;
        CK(cudaMemset(head, 0, 4));
        const double ms = tm.ms([&] { k_pops<<<grid, block>>>(head, n, k, wsm, wpops); }, r >= warm);
        if (r < warm) continue;
        CK(cudaMemcpy(hwsm.data(), wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hwpops.data(), wpops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
        unsigned long long total = 0;
        bool ok = true;
        std::vector<double> pops(sms, 0), wps(sms, 0);
        for (int w = 0; w < warps; ++w) {
            if (hwsm[w] >= (unsigned)sms) {
                ok = false;
                continue;
            }
            total += hwpops[w];
            pops[hwsm[w]] += hwpops[w];
            wps[hwsm[w]]++;
        }
        ok = ok && total == (unsigned long long)warps * 4ull;
        std::printf("# pops launch %d: %.5f ms, %llu warp pops of %d expected: %s\n", r - warm, ms, total, warps * 4,
                    mb::note_check(ok));
        print_map("pops", r - warm, "pops", pops, "%.0f");
        print_map("pops", r - warm, "warps", wps, "%.0f");
    }
    for (void* p : {(void*)head, (void*)buf4k, (void*)buf2m, (void*)dtargets, (void*)claim, (void*)ticket, (void*)turn,
                    (void*)order, (void*)sink, (void*)lat, (void*)wsm, (void*)wrank, (void*)bsm, (void*)bstart, (void*)btarget,
                    (void*)wpops})
        CK(cudaFree(p));
    return mb::finish("l2sm", budget);
}
