// firstpop.cu: which SMs win a work queue's first pops when nothing is read
// before the atomic (issue 13: the queue lab's even k = 1024 cell).
//
// l2sm.cu's part "first" reads the global timer (an ordered read) before
// each warp's atomicAdd on the head; queue.cu, the lab's popThread and
// queue_sm.cu's pop_rec do not (pop_rec reads %globaltimer and clock64
// unordered). Whether the read changes which warps the L2 serves first is
// what this program measures. Grid: SMs x 8 blocks of 256 (every warp
// resident), the head allocated first after warm_gpu, as l2sm.cu does.
//
// Part "first": every thread atomicAdd(head, 1024) once, result used (one
// aggregated ATOMG a warp); the warps ranked by their lowest start are the
// order the L2 served them. Three kernels, interleaved launch by launch
// (2 warm-ups, 8 recorded each):
//   bare    nothing before the atomic; %smid and the rank stored after it
//   clock   %globaltimer and clock64 read (unordered) before it, as
//           queue_sm.cu's pop_rec (its `launch` rows) does
//   gtimer  the global timer read ordered before it, as l2sm.cu's k_first
//           (part `first`); each block's start and SM recorded
// Rows, per recorded launch: top128, top2048 (the warps of each SM among the
// first 128 and 2048 served), block_min (the lowest block index on each SM),
// rank_min and rank_p50 (the rank its first warp and its median warp were
// served at),
// and for gtimer start_ns (each SM's first block start after the earliest);
// one figure per SM id. And `sum` rows: kernel, launch, ms, the busiest SM's
// warps among the first 128 and the SMs holding them, the same for 2048.
//
// Part "work": the queue lab's popThread (labs/queue/kernels/queue.cu,
// included unchanged) at its even k = 1024 cell (4M items, light = heavy =
// 32), uninstrumented (`orig`), interleaved with a copy that records, after
// its loop only, each warp's SM, pops and first item (`rec`); 2 warm-ups, 8
// recorded each. Rows: `work` (the winners on each SM id, from rec) and
// `sum` (ms of each launch; for rec the busiest SM's winners and the SMs
// holding them). Each round also runs `recwin` (losers leave at once
// without recording, as popThread's do; winners record their SM and warp
// slot after the loop: sum adds the busiest scheduler's winners, slot % 4)
// and `orig2` (popThread again, after recwin): whether the recording of
// the losers or the order of the launches sets the time; and `origsm`
// (popThread storing, in its loop after a pop, the SM of each warp's pop:
// whether its time and its winners' placement go together when the code
// before the first atomic is the lab's; compare the SASS). Every rank set, pop count and the output are checked.
//
// Part "gpc": SMs x 4 blocks of 1024 threads in clusters of 8
// (__cluster_dims__: a cluster's blocks run on one GPC), each holding its
// SM for 1 to 5.5 us, 10 launches: the SM of every block (`gpc` rows
// block_sm) and the groups of SMs that shared a cluster (row group: per SM
// id the lowest SM id of its group), which are the GPCs or parts of them.
// Under 5 s.
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

constexpr unsigned kFirstK = 1024;

// The first pop with nothing before it.
__global__ void k_bare(unsigned* head, unsigned k, unsigned* wsm, unsigned* wrank, unsigned* bsm) {
    const unsigned start = atomicAdd(head, k);
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    const unsigned sm = mb::smid();
    if (threadIdx.x == 0) bsm[blockIdx.x] = sm;
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = sm;
        wrank[w] = lo;
    }
}

// The same after queue_sm.cu pop_rec's unordered timer and clock reads.
__global__ void k_clock(unsigned* head, unsigned k, unsigned* wsm, unsigned* wrank, unsigned* bsm,
                        unsigned long long* sink) {
    const unsigned long long g0 = mb::gtimer();
    const long long c0 = clock64();
    const unsigned start = atomicAdd(head, k);
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    const unsigned sm = mb::smid();
    if (threadIdx.x == 0) bsm[blockIdx.x] = sm;
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = sm;
        wrank[w] = lo;
        sink[w] = g0 + (unsigned long long)c0;
    }
}

// The same after l2sm.cu k_first's ordered global-timer read.
__global__ void k_gtimer(unsigned* head, unsigned k, unsigned* wsm, unsigned* wrank, unsigned* bsm,
                         unsigned long long* bstart) {
    const unsigned long long g = mb::gtimer_ordered();
    const unsigned start = atomicAdd(head, k);
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    const unsigned sm = mb::smid();
    if (threadIdx.x == 0) {
        bsm[blockIdx.x] = sm;
        bstart[blockIdx.x] = g;
    }
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = sm;
        wrank[w] = lo;
    }
}

// The lab's popThread, recording after its loop only.
__global__ void pop_rec(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                        unsigned* wsm, unsigned* wpops, unsigned* wfirst) {
    unsigned pops = 0, first = 0xffffffffu;
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        if (pops == 0) first = start;
        ++pops;
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
    const unsigned lo = __reduce_min_sync(0xffffffffu, first);
    const unsigned total = __reduce_add_sync(0xffffffffu, pops);
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = mb::smid();
        wpops[w] = total;
        wfirst[w] = lo;
    }
}

// The lab's popThread whose losers leave at once, as popThread's do (no
// recording); a winner records its SM and warp slot after its loop.
__global__ void pop_recwin(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                           unsigned* wsm, unsigned* wpops, unsigned* wslot) {
    unsigned pops = 0;
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        ++pops;
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
    if (pops == 0) return;
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        unsigned slot;
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
        wsm[w] = mb::smid();
        wpops[w] = pops;
        wslot[w] = slot;
    }
}

// The lab's popThread with one store in its loop: the lane whose batch
// starts a warp's pop writes its SM into slot[start / (32 k)]. The %smid
// read takes the pop's result as an input, so that it stays after the
// atomic and the code before the first atomic can stay the lab's.
__global__ void pop_origsm(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                           unsigned* slot) {
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        if (start % (32u * k) == 0) {
            unsigned sm;
            asm volatile("mov.u32 %0, %%smid; // after %1" : "=r"(sm) : "r"(start));
            slot[start / (32u * k)] = sm;
        }
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
}

// One block of a cluster of 8: a cluster's blocks run on the SMs of one
// GPC, so the SMs that share clusters share a GPC. Each block holds its SM
// for about spin cycles so that later clusters land wherever SMs free up.
__global__ void __cluster_dims__(8, 1, 1) k_gpc(unsigned* bsm, long long spin) {
    const long long c0 = clock64();
    while (clock64() - c0 < spin) {
    }
    if (threadIdx.x == 0) bsm[blockIdx.x] = mb::smid();
}

int find(std::vector<int>& up, int a) {
    while (up[a] != a) a = up[a] = up[up[a]];
    return a;
}

float host_work(unsigned i) {
    float x = (float)(i & 255);
    for (int j = 0; j < 32; ++j) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "firstpop", "which SMs the L2 serves first on a queue's head with nothing (bare), unordered timer reads (clock) or an ordered global-timer read (gtimer) before the atomic; the queue lab's even k=1024 time and winners per SM", argc, argv);
    const mb::Parts parts(argc, argv);
    mb::Budget budget(30.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int sms = dev.sms;
    // The head first, as queue.cu, queue_sm.cu and l2sm.cu allocate it.
    unsigned* head;
    CK(cudaMalloc(&head, 4));
    CK(cudaMemset(head, 0, 4));
    std::printf("# head_va: %p\n", (void*)head);
    const int grid = sms * 8, block = 256, warps = grid * block / 32, warm = 2, recs = 8;
    unsigned *wsm, *wrank, *bsm;
    unsigned long long *bstart, *sink;
    CK(cudaMalloc(&wsm, (size_t)warps * 4));
    CK(cudaMalloc(&wrank, (size_t)warps * 4));
    CK(cudaMalloc(&bsm, (size_t)grid * 4));
    CK(cudaMalloc(&bstart, (size_t)grid * 8));
    CK(cudaMalloc(&sink, (size_t)warps * 8));
    std::vector<unsigned> hwsm(warps), hwrank(warps), hbsm(grid);
    std::vector<unsigned long long> hbstart(grid);

    std::printf("part,kernel,rep,what,fields\n");
    std::printf("# first,KERNEL,rep,what,<one figure per SM id 0..SMs-1> (what: top128, top2048, block_min, rank_min: the rank its first warp was served at, rank_p50: its warps' median rank; gtimer also start_ns)\n");
    std::printf("# work,rec,rep,winners,<one figure per SM id>\n");
    std::printf("# sum,first|work,KERNEL,rep,ms,top128_max,top128_sms,top2048_max,top2048_sms (work: winners' max and SMs; orig: ms only)\n");

    // ---------------------------------------------------------------- first
    const char* names[3] = {"bare", "clock", "gtimer"};
    for (int r = 0; parts("first") && r < warm + recs; ++r) {
        if (budget.over("first")) break;
        for (int kv = 0; kv < 3; ++kv) {
            CK(cudaMemset(head, 0, 4));
            CK(cudaMemset(wrank, 0xff, (size_t)warps * 4));
            CK(cudaMemset(wsm, 0xff, (size_t)warps * 4));
            CK(cudaMemset(bsm, 0xff, (size_t)grid * 4));
            const double ms = tm.ms(
                [&] {
                    if (kv == 0) k_bare<<<grid, block>>>(head, kFirstK, wsm, wrank, bsm);
                    if (kv == 1) k_clock<<<grid, block>>>(head, kFirstK, wsm, wrank, bsm, sink);
                    if (kv == 2) k_gtimer<<<grid, block>>>(head, kFirstK, wsm, wrank, bsm, bstart);
                },
                r >= warm);
            if (r < warm) continue;
            const int rep = r - warm;
            CK(cudaMemcpy(hwsm.data(), wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hwrank.data(), wrank, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hbsm.data(), bsm, (size_t)grid * 4, cudaMemcpyDeviceToHost));
            if (kv == 2) CK(cudaMemcpy(hbstart.data(), bstart, (size_t)grid * 8, cudaMemcpyDeviceToHost));
            bool ok, aggregated;
            const std::vector<int> byStart = mb::served_order(hwsm, hwrank, sms, kFirstK, ok, aggregated);
            std::printf("# first %s launch %d: %.5f ms, warps' starts distinct, each on an SM: %s; one ATOMG a warp: %s\n",
                        names[kv], rep, ms, mb::note_check(ok), aggregated ? "yes" : "no");
            if (!ok) continue;
            std::vector<double> top128(sms, 0), top2048(sms, 0), bmin(sms, -1), start(sms, -1), rmin(sms, -1), rp50(sms, 0);
            std::vector<std::vector<double>> ranks(sms);
            for (int i = 0; i < warps; ++i) {
                const unsigned s = hwsm[byStart[i]];
                if (i < 128) top128[s]++;
                if (i < 2048) top2048[s]++;
                if (rmin[s] < 0) rmin[s] = i;
                ranks[s].push_back(i);
            }
            for (int s = 0; s < sms; ++s) rp50[s] = mb::pct(ranks[s], 0.5);
            unsigned long long g0 = ~0ull;
            if (kv == 2)
                for (int b = 0; b < grid; ++b) g0 = std::min(g0, hbstart[b]);
            for (int b = 0; b < grid; ++b) {
                const unsigned s = hbsm[b];
                if (s >= (unsigned)sms) continue;
                if (bmin[s] < 0) bmin[s] = b;  // blocks in index order: the first seen is the lowest
                if (kv == 2) {
                    const double t = (double)(hbstart[b] - g0);
                    if (start[s] < 0 || t < start[s]) start[s] = t;
                }
            }
            mb::per_sm_row("first", names[kv], rep, "top128", top128);
            mb::per_sm_row("first", names[kv], rep, "top2048", top2048);
            mb::per_sm_row("first", names[kv], rep, "block_min", bmin);
            mb::per_sm_row("first", names[kv], rep, "rank_min", rmin);
            mb::per_sm_row("first", names[kv], rep, "rank_p50", rp50);
            if (kv == 2) mb::per_sm_row("first", names[kv], rep, "start_ns", start);
            double m128, m2048;
            int s128, s2048;
            mb::busiest(top128, m128, s128);
            mb::busiest(top2048, m2048, s2048);
            std::printf("sum,first,%s,%d,%.5f,%.0f,%d,%.0f,%d\n", names[kv], rep, ms, m128, s128, m2048, s2048);
        }
        std::fflush(stdout);
    }

    // ---------------------------------------------------------------- work
    const unsigned n = 1u << 22, k = 1024;
    float* out;
    unsigned *wpops, *wfirst;
    CK(cudaMalloc(&out, (size_t)n * 4));
    CK(cudaMalloc(&wpops, (size_t)warps * 4));
    CK(cudaMalloc(&wfirst, (size_t)warps * 4));
    std::vector<unsigned> hwpops(warps), hwfirst(warps);
    std::vector<float> hout(n);
    std::vector<double> origMs, recMs, winMs, orig2Ms, smMs;
    for (int r = 0; parts("work") && r < warm + recs; ++r) {
        if (budget.over("work")) break;
        for (int kv = 0; kv < 5; ++kv) {
            CK(cudaMemset(head, 0, 4));
            CK(cudaMemset(out, 0, (size_t)n * 4));
            if (kv == 4) CK(cudaMemset(wsm, 0xff, (size_t)warps * 4));
            if (kv == 2) {
                CK(cudaMemset(wsm, 0xff, (size_t)warps * 4));
                CK(cudaMemset(wpops, 0, (size_t)warps * 4));
            }
            const double ms = tm.ms(
                [&] {
                    if (kv == 0 || kv == 3) popThread<<<grid, block>>>(head, n, k, 32, 32, 64, out);
                    if (kv == 1) pop_rec<<<grid, block>>>(head, n, k, 32, 32, 64, out, wsm, wpops, wfirst);
                    if (kv == 2) pop_recwin<<<grid, block>>>(head, n, k, 32, 32, 64, out, wsm, wpops, wfirst);
                    if (kv == 4) pop_origsm<<<grid, block>>>(head, n, k, 32, 32, 64, out, wsm);
                },
                r >= warm);
            if (r < warm) continue;
            const int rep = r - warm;
            CK(cudaMemcpy(hout.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
            unsigned bad = 0;
            for (unsigned i = 0; i < n; i += (rep == 0 ? 1u : 97u))
                if (hout[i] != host_work(i)) ++bad;
            if (kv == 0 || kv == 3) {
                const char* name = kv == 0 ? "orig" : "orig2";
                (kv == 0 ? origMs : orig2Ms).push_back(ms);
                std::printf("# work %s launch %d: %.5f ms, output: %s\n", name, rep, ms, mb::note_check(bad == 0));
                std::printf("sum,work,%s,%d,%.5f\n", name, rep, ms);
                continue;
            }
            if (kv == 4) {
                smMs.push_back(ms);
                const unsigned pops = n / (32u * k);
                CK(cudaMemcpy(hwsm.data(), wsm, (size_t)pops * 4, cudaMemcpyDeviceToHost));
                std::vector<double> won(sms, 0);
                bool ok = bad == 0;
                for (unsigned p = 0; p < pops; ++p) {
                    if (hwsm[p] >= (unsigned)sms) {
                        ok = false;
                        continue;
                    }
                    won[hwsm[p]]++;
                }
                double most;
                int on;
                mb::busiest(won, most, on);
                std::printf("# work origsm launch %d: %.5f ms, every pop's SM recorded: %s\n", rep, ms, mb::note_check(ok));
                mb::per_sm_row("work", "origsm", rep, "winners", won);
                std::printf("sum,work,origsm,%d,%.5f,%.0f,%d\n", rep, ms, most, on);
                continue;
            }
            if (kv == 2) {
                winMs.push_back(ms);
                CK(cudaMemcpy(hwsm.data(), wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(hwpops.data(), wpops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(hwfirst.data(), wfirst, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                std::vector<double> won(sms, 0), sched(sms * 4, 0);
                int winners = 0;
                bool ok = bad == 0;
                for (int w = 0; w < warps; ++w) {
                    if (hwpops[w] == 0) continue;
                    if (hwsm[w] >= (unsigned)sms) {
                        ok = false;
                        continue;
                    }
                    won[hwsm[w]]++;
                    sched[hwsm[w] * 4 + hwfirst[w] % 4]++;
                    ++winners;
                }
                double most, smost;
                int on, son;
                mb::busiest(won, most, on);
                mb::busiest(sched, smost, son);
                std::printf("# work recwin launch %d: %.5f ms, %d winning warps, output: %s\n", rep, ms, winners,
                            mb::note_check(ok));
                mb::per_sm_row("work", "recwin", rep, "winners", won);
                std::printf("sum,work,recwin,%d,%.5f,%.0f,%d,%.0f\n", rep, ms, most, on, smost);
                continue;
            }
            recMs.push_back(ms);
            CK(cudaMemcpy(hwsm.data(), wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hwpops.data(), wpops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hwfirst.data(), wfirst, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            std::vector<double> won(sms, 0);
            unsigned long long total = 0;
            int winners = 0;
            bool ok = bad == 0, aggregated = true;
            for (int w = 0; w < warps; ++w) {
                if (hwsm[w] >= (unsigned)sms) {
                    ok = false;
                    continue;
                }
                total += hwpops[w];
                if (hwpops[w]) {
                    won[hwsm[w]]++;
                    ++winners;
                    if (hwpops[w] != 32 || hwfirst[w] % (32u * k) != 0) aggregated = false;
                }
            }
            ok = ok && total * k == n;
            std::printf("# work rec launch %d: %.5f ms, %d winning warps, %llu thread pops, one pop of 32 x k a winner: %s, output: %s\n",
                        rep, ms, winners, total, aggregated ? "yes" : "no", mb::note_check(ok));
            mb::per_sm_row("work", "rec", rep, "winners", won);
            double most;
            int on;
            mb::busiest(won, most, on);
            std::printf("sum,work,rec,%d,%.5f,%.0f,%d\n", rep, ms, most, on);
        }
        std::fflush(stdout);
    }
    // ---------------------------------------------------------------- gpc
    std::vector<int> up(sms);
    for (int s = 0; s < sms; ++s) up[s] = s;
    const int gblocks = 8 * ((sms * 4) / 8), greps = 10;
    unsigned* gsm;
    CK(cudaMalloc(&gsm, (size_t)gblocks * 4));
    std::vector<unsigned> hgsm(gblocks);
    int gdone = 0;
    for (int r = 0; parts("gpc") && r < greps; ++r) {
        if (budget.over("gpc")) break;
        CK(cudaMemset(gsm, 0xff, (size_t)gblocks * 4));
        k_gpc<<<gblocks, 1024>>>(gsm, 2000 + 1000 * r);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hgsm.data(), gsm, (size_t)gblocks * 4, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int b = 0; b < gblocks; ++b) ok = ok && hgsm[b] < (unsigned)sms;
        std::printf("# gpc launch %d: %d blocks in clusters of 8, each on an SM: %s\n", r, gblocks, mb::note_check(ok));
        if (!ok) continue;
        std::vector<double> v(hgsm.begin(), hgsm.end());
        mb::per_sm_row("gpc", "cluster8", r, "block_sm", v);
        for (int b = 0; b < gblocks; ++b) {
            const int a = find(up, (int)hgsm[b]), c = find(up, (int)hgsm[b - b % 8]);
            if (a != c) up[std::max(a, c)] = std::min(a, c);
        }
        ++gdone;
    }
    if (gdone > 0) {
        std::vector<double> g(sms);
        std::vector<int> size(sms, 0);
        for (int s = 0; s < sms; ++s) size[find(up, s)]++;
        for (int s = 0; s < sms; ++s) g[s] = find(up, s);
        mb::per_sm_row("gpc", "cluster8", -1, "group", g);
        std::printf("# S firstpop gpc: %d launches; groups (lowest SM id: SMs):", gdone);
        for (int s = 0; s < sms; ++s)
            if (size[s]) std::printf(" %d:%d", s, size[s]);
        std::printf("\n");
    }
    CK(cudaFree(gsm));
    if (!origMs.empty()) {
        const mb::Stats o = mb::stats_of(origMs), c = mb::stats_of(recMs);
        const mb::Stats w = mb::stats_of(winMs), o2 = mb::stats_of(orig2Ms), os = mb::stats_of(smMs);
        std::printf("# S firstpop work: orig median %.5f ms (min %.5f max %.5f, %d), rec median %.5f ms (min %.5f max %.5f), "
                    "recwin median %.5f ms (min %.5f max %.5f), orig2 median %.5f ms (min %.5f max %.5f), "
                    "origsm median %.5f ms (min %.5f max %.5f)\n",
                    o.median, o.min, o.max, o.n, c.median, c.min, c.max, w.median, w.min, w.max, o2.median, o2.min, o2.max,
                    os.median, os.min, os.max);
    }
    for (void* p : {(void*)head, (void*)wsm, (void*)wrank, (void*)bsm, (void*)bstart, (void*)sink, (void*)out, (void*)wpops,
                    (void*)wfirst})
        CK(cudaFree(p));
    return mb::finish("firstpop", budget);
}
