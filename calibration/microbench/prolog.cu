// prolog.cu: does the code before a work queue's first atomic decide which
// SMs win its first pops (issue 13: the queue lab's even k = 1024 cell)?
//
// firstpop.cu found the queue lab's popThread (labs/queue/kernels/queue.cu)
// gathering its 128 winners at k = 1024 more than copies whose code before
// the first ATOMG differs only in the order of the constant loads (the
// lab's: ULDC.64 c[0x0][0x208], the memory descriptor, third, then the
// head's LDC.64 c[0x0][0x210]; the copies': the head first, the descriptor
// just before the ATOMG). Hypotheses: (i) each SM's first warps miss the
// constant cache on the kernel-parameter bank (each launch has its own
// bank, so no warm-up launch can fill it), and the lab's order serialises
// the descriptor's miss before the head's load, adding an SM-dependent L2
// round trip before each SM's first atomic; (ii) the descriptor load's
// latency alone. Which order each kernel got is read from the SASS that
// run.sh dumps (ptxas schedules the loads; the source cannot fix it).
//
// Part "first" (SMs x 8 blocks of 256, every warp resident, one warp-
// aggregated atomicAdd(head, 1024) each, all served; 2 warm-ups and 8
// recorded launches, the kernels interleaved):
//   bare     nothing before the atomic (firstpop.cu's k_bare)
//   iss      bare plus, right after the atomic, the global timer and clock64
//            read with a memory clobber (the ATOMG's issue, not its return)
//            and the global timer after the result is used (its return)
//   isspad   iss with a 64-byte parameter before the head, so that the
//            head's LDC reads another 64-byte line (c[0x0][0x250]) than the
//            descriptor's (c[0x0][0x208])
//   isslab   iss with popThread's parameters (head, n, k, light, heavy,
//            period, out) first and its `start >= n` exit
//   issdesc  iss with a never-taken global store before the atomic
//            (`if (k == 0) ...`), which needs the descriptor first
//   span     the global timer and clock64 read (ordered) before the atomic
//            too: each warp's cycles from its first timer read to the
//            ATOMG's issue on its own SM's clock
// Rows per launch, one figure per SM id: top128, top2048 (the SM's warps
// among the first 128 and 2048 served), rank_min (the rank its first warp
// was served at), iss_ns (its earliest issue reading after the launch's
// earliest, ns), ret_ns (its earliest return reading after the launch's
// earliest issue), and for span start_ns (earliest start reading after the
// launch's earliest) and cyc_min / cyc_p50 (clock64 cycles from start to
// issue, the SM's least and median warp). `sum` rows: part, kernel, launch,
// ms, the busiest SM's warps among the first 128 and the SMs holding them,
// the same for 2048, the median over SMs of iss_ns. `warps` rows (iss,
// isslab and span, launches 0 to 3), one figure per warp (block * 8 +
// warp): its SM, its served rank and its issue reading after the launch's
// earliest (ns): how each SM's warps spread their first ATOMGs.
//
// Part "cells" (the queue lab's even cells, 4M items, light = heavy = 32,
// k = 1024 and k = 64; 2 warm-ups, 6 recorded, interleaved):
//   orig    popThread unchanged
//   labsm   popThread storing, in its loop after a pop, the SM of each
//           warp's pop and the global timer at its return (read inside the
//           branch on the pop's result, as firstpop.cu's origsm, so the code
//           before the first atomic stays the lab's)
//   padsm   labsm with a 64-byte parameter before the head
//   recwin  firstpop.cu's pop_recwin (the copies' order; winners record
//           their SM after the loop)
// Rows: `cell` winners and ret_ns (the SM's earliest pop return after the
// launch's earliest) per SM id; `sum` rows: part, kernel@k, launch, ms,
// busiest SM's winners, SMs with any. Every rank, pop and output checked.
// Under 10 s.
#include "common.cuh"

#include "../../../../labs/queue/kernels/queue.cu"

namespace {

constexpr unsigned kFirstK = 1024;

struct Pad64 {
    unsigned long long v[8];
};

struct Rec {
    unsigned* wsm;
    unsigned* wrank;
    unsigned long long* wiss;  // global timer at issue
    unsigned long long* wret;  // global timer at return
    long long* wcyc;           // span: clock64 start to issue
    unsigned long long* wst;   // span: global timer at start
};

__device__ __forceinline__ unsigned long long gtimer_after(unsigned v) {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer; // after %1" : "=l"(r) : "r"(v) : "memory");
    return r;
}

__device__ __forceinline__ void record(const Rec& r, unsigned lo, unsigned long long gi, long long ci,
                                       unsigned long long gs, long long cs) {
    const unsigned long long gr = gtimer_after(lo);
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        r.wsm[w] = mb::smid();
        r.wrank[w] = lo;
        r.wiss[w] = gi;
        r.wret[w] = gr;
        r.wcyc[w] = ci - cs;
        r.wst[w] = gs;
    }
}

__global__ void f_bare(unsigned* head, unsigned k, unsigned* wsm, unsigned* wrank) {
    const unsigned start = atomicAdd(head, k);
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
        wsm[w] = mb::smid();
        wrank[w] = lo;
    }
}

__global__ void f_iss(unsigned* head, unsigned k, Rec r) {
    const unsigned start = atomicAdd(head, k);
    const unsigned long long gi = mb::gtimer_ordered();
    const long long ci = mb::clock_ordered();
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    record(r, lo, gi, ci, 0, ci);
}

__global__ void f_isspad(Pad64 pad, unsigned* head, unsigned k, Rec r) {
    const unsigned start = atomicAdd(head, k);
    const unsigned long long gi = mb::gtimer_ordered();
    const long long ci = mb::clock_ordered();
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    record(r, lo, gi, ci, 0, ci);  // pad unused: it only moves the head
}

__global__ void f_isslab(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                         Rec r) {
    const unsigned start = atomicAdd(head, k);
    const unsigned long long gi = mb::gtimer_ordered();
    const long long ci = mb::clock_ordered();
    if (start >= n) {  // never: n is past every pop (the exit popThread has)
        out[start & 1023] = (float)(light + heavy + (int)period);
        return;
    }
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    record(r, lo, gi, ci, 0, ci);
}

__global__ void f_issdesc(unsigned* head, unsigned k, Rec r) {
    if (k == 0u) r.wsm[0] = 0xfffffffeu;  // never taken; needs the descriptor before the atomic
    const unsigned start = atomicAdd(head, k);
    const unsigned long long gi = mb::gtimer_ordered();
    const long long ci = mb::clock_ordered();
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    record(r, lo, gi, ci, 0, ci);
}

__global__ void f_span(unsigned* head, unsigned k, Rec r) {
    const unsigned long long gs = mb::gtimer_ordered();
    const long long cs = mb::clock_ordered();
    const unsigned start = atomicAdd(head, k);
    const unsigned long long gi = mb::gtimer_ordered();
    const long long ci = mb::clock_ordered();
    const unsigned lo = __reduce_min_sync(0xffffffffu, start);
    record(r, lo, gi, ci, gs, cs);
}

// popThread storing each warp-pop's SM and return time (firstpop.cu's
// pop_origsm plus the time, read in the same branch).
__global__ void c_labsm(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
                        unsigned* slot, unsigned long long* tslot) {
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        if (start % (32u * k) == 0) {
            unsigned sm;
            unsigned long long t;
            asm volatile("mov.u32 %0, %%smid; // after %2\n\tmov.u64 %1, %%globaltimer;" : "=r"(sm), "=l"(t) : "r"(start));
            slot[start / (32u * k)] = sm;
            tslot[start / (32u * k)] = t;
        }
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
}

__global__ void c_padsm(Pad64 pad, unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period,
                        float* out, unsigned* slot, unsigned long long* tslot) {
    for (;;) {
        unsigned start = atomicAdd(head, k);
        if (start >= n) break;
        if (start % (32u * k) == 0) {
            unsigned sm;
            unsigned long long t;
            asm volatile("mov.u32 %0, %%smid; // after %2\n\tmov.u64 %1, %%globaltimer;" : "=r"(sm), "=l"(t) : "r"(start));
            slot[start / (32u * k)] = sm;  // pad unused: it only moves the head
            tslot[start / (32u * k)] = t;
        }
        unsigned end = min(n, start + k);
        for (unsigned i = start; i < end; ++i) work(i, light, heavy, period, out);
    }
}

// firstpop.cu's pop_recwin: losers leave at once, winners record after the loop.
__global__ void c_recwin(unsigned* head, unsigned n, unsigned k, int light, int heavy, unsigned period, float* out,
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
        unsigned s;
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(s));
        wsm[w] = mb::smid();
        wpops[w] = pops;
        wslot[w] = s;
    }
}

float host_work(unsigned i) {
    float x = (float)(i & 255);
    for (int j = 0; j < 32; ++j) x = std::fmaf(x, 0.999f, 0.5f);
    return x;
}

// Median of the non-negative entries.
double med_set(const std::vector<double>& v) {
    std::vector<double> u;
    for (double x : v)
        if (x >= 0) u.push_back(x);
    return u.empty() ? -1 : mb::pct(u, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "prolog", "which SMs win a queue's first pops by the order of the constant loads before the first atomic (lab, copies', padded parameters, descriptor first); issue and return times per SM; the queue lab's even k=1024 and k=64 cells", argc, argv);
    const mb::Parts parts(argc, argv);
    mb::Budget budget(30.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int sms = dev.sms;
    unsigned* head;  // allocated first, as queue.cu, l2sm.cu and firstpop.cu do
    CK(cudaMalloc(&head, 4));
    CK(cudaMemset(head, 0, 4));
    std::printf("# head_va: %p\n", (void*)head);
    const int grid = sms * 8, block = 256, warps = grid * block / 32, warm = 2;
    Rec r;
    CK(cudaMalloc(&r.wsm, (size_t)warps * 4));
    CK(cudaMalloc(&r.wrank, (size_t)warps * 4));
    CK(cudaMalloc(&r.wiss, (size_t)warps * 8));
    CK(cudaMalloc(&r.wret, (size_t)warps * 8));
    CK(cudaMalloc(&r.wcyc, (size_t)warps * 8));
    CK(cudaMalloc(&r.wst, (size_t)warps * 8));
    std::vector<unsigned> hsm(warps), hrank(warps);
    std::vector<unsigned long long> hiss(warps), hret(warps), hst(warps);
    std::vector<long long> hcyc(warps);
    Pad64 pad;
    for (int i = 0; i < 8; ++i) pad.v[i] = 0;
    const unsigned bigN = 0xffffffffu;
    float* out;
    const unsigned n = 1u << 22;
    CK(cudaMalloc(&out, (size_t)n * 4));

    std::printf("part,kernel,rep,what,fields\n");
    std::printf("# first,KERNEL,rep,what,<one figure per SM id> (what: top128 top2048 rank_min iss_ns ret_ns; span also start_ns cyc_min cyc_p50; -1: none)\n");
    std::printf("# cell,KERNEL@K,rep,what,<one figure per SM id> (what: winners, ret_ns)\n");
    std::printf("# warps,KERNEL,rep,what,<one figure per warp, block * 8 + warp> (iss, isslab, span, launches 0 to 3; what: sm, rank (served), iss_ns (issue after the launch's earliest))\n");
    std::printf("# sum,first,KERNEL,rep,ms,top128_max,top128_sms,top2048_max,top2048_sms,iss_ns_p50_over_sms\n");
    std::printf("# sum,cell,KERNEL@K,rep,ms,winners_max,winners_sms\n");

    // ---------------------------------------------------------------- first
    const char* names[6] = {"bare", "iss", "isspad", "isslab", "issdesc", "span"};
    for (int rr = 0; parts("first") && rr < warm + 8; ++rr) {
        if (budget.over("first")) break;
        for (int kv = 0; kv < 6; ++kv) {
            CK(cudaMemset(head, 0, 4));
            CK(cudaMemset(r.wrank, 0xff, (size_t)warps * 4));
            CK(cudaMemset(r.wsm, 0xff, (size_t)warps * 4));
            CK(cudaMemset(r.wiss, 0, (size_t)warps * 8));
            CK(cudaMemset(r.wret, 0, (size_t)warps * 8));
            CK(cudaMemset(r.wst, 0, (size_t)warps * 8));
            const double ms = tm.ms(
                [&] {
                    if (kv == 0) f_bare<<<grid, block>>>(head, kFirstK, r.wsm, r.wrank);
                    if (kv == 1) f_iss<<<grid, block>>>(head, kFirstK, r);
                    if (kv == 2) f_isspad<<<grid, block>>>(pad, head, kFirstK, r);
                    if (kv == 3) f_isslab<<<grid, block>>>(head, bigN, kFirstK, 32, 32, 64, out, r);
                    if (kv == 4) f_issdesc<<<grid, block>>>(head, kFirstK, r);
                    if (kv == 5) f_span<<<grid, block>>>(head, kFirstK, r);
                },
                rr >= warm);
            if (rr < warm) continue;
            const int rep = rr - warm;
            CK(cudaMemcpy(hsm.data(), r.wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hrank.data(), r.wrank, (size_t)warps * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hiss.data(), r.wiss, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hret.data(), r.wret, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hcyc.data(), r.wcyc, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hst.data(), r.wst, (size_t)warps * 8, cudaMemcpyDeviceToHost));
            bool distinct, aggregated;
            const std::vector<int> order = mb::served_order(hsm, hrank, sms, kFirstK, distinct, aggregated);
            bool ok = distinct && aggregated;
            for (int i = 0; i < warps; ++i) {
                const int w = order[i];
                if (kv > 0 && (hiss[w] == 0 || hret[w] < hiss[w])) ok = false;
                if (kv == 5 && (hst[w] == 0 || hst[w] > hiss[w] || hcyc[w] < 0)) ok = false;
            }
            std::printf("# first %s launch %d: %.5f ms, one ATOMG a warp, ranks distinct, each on an SM, timers in order: %s\n",
                        names[kv], rep, ms, mb::note_check(ok));
            if (!ok) continue;
            std::vector<double> top128(sms, 0), top2048(sms, 0), rmin(sms, -1), iss(sms, -1), ret(sms, -1), st(sms, -1),
                cmin(sms, -1), cp50(sms, -1);
            std::vector<std::vector<double>> cyc(sms);
            unsigned long long g0 = ~0ull, s0 = ~0ull;
            for (int w = 0; w < warps; ++w) {
                g0 = std::min(g0, hiss[w]);
                s0 = std::min(s0, hst[w]);
            }
            for (int i = 0; i < warps; ++i) {
                const int w = order[i];
                const unsigned s = hsm[w];
                if (i < 128) top128[s]++;
                if (i < 2048) top2048[s]++;
                if (rmin[s] < 0) rmin[s] = i;
                if (kv == 0) continue;
                const double ti = (double)(hiss[w] - g0), tr = (double)(hret[w] - g0);
                if (iss[s] < 0 || ti < iss[s]) iss[s] = ti;
                if (ret[s] < 0 || tr < ret[s]) ret[s] = tr;
                if (kv == 5) {
                    const double ts = (double)(hst[w] - s0);
                    if (st[s] < 0 || ts < st[s]) st[s] = ts;
                    cyc[s].push_back((double)hcyc[w]);
                }
            }
            for (int s = 0; s < sms; ++s)
                if (!cyc[s].empty()) {
                    cmin[s] = *std::min_element(cyc[s].begin(), cyc[s].end());
                    cp50[s] = mb::pct(cyc[s], 0.5);
                }
            mb::per_sm_row("first", names[kv], rep, "top128", top128);
            mb::per_sm_row("first", names[kv], rep, "top2048", top2048);
            mb::per_sm_row("first", names[kv], rep, "rank_min", rmin);
            if (kv > 0) {
                mb::per_sm_row("first", names[kv], rep, "iss_ns", iss);
                mb::per_sm_row("first", names[kv], rep, "ret_ns", ret);
            }
            if (kv == 5) {
                mb::per_sm_row("first", names[kv], rep, "start_ns", st);
                mb::per_sm_row("first", names[kv], rep, "cyc_min", cmin);
                mb::per_sm_row("first", names[kv], rep, "cyc_p50", cp50);
            }
            // Every warp's SM, served rank and issue time, by warp index
            // (block * 8 + warp), for the copies' order, the lab's and
            // span, in the first four launches: how an SM's warps spread
            // their first ATOMGs, not only its earliest.
            if ((kv == 1 || kv == 3 || kv == 5) && rep < 4) {
                std::vector<double> wsm(warps), wrank(warps), wiss(warps);
                for (int i = 0; i < warps; ++i) wrank[order[i]] = i;
                for (int w = 0; w < warps; ++w) {
                    wsm[w] = hsm[w];
                    wiss[w] = (double)(hiss[w] - g0);
                }
                mb::per_sm_row("warps", names[kv], rep, "sm", wsm);
                mb::per_sm_row("warps", names[kv], rep, "rank", wrank);
                mb::per_sm_row("warps", names[kv], rep, "iss_ns", wiss);
            }
            double m128, m2048;
            int s128, s2048;
            mb::busiest(top128, m128, s128);
            mb::busiest(top2048, m2048, s2048);
            std::printf("sum,first,%s,%d,%.5f,%.0f,%d,%.0f,%d,%.0f\n", names[kv], rep, ms, m128, s128, m2048, s2048,
                        med_set(iss));
        }
        std::fflush(stdout);
    }

    // ---------------------------------------------------------------- cells
    const char* cnames[4] = {"orig", "labsm", "padsm", "recwin"};
    const unsigned ks[2] = {1024, 64};
    std::vector<float> hout(n);
    std::vector<unsigned> hpops(warps);
    unsigned* wpops;
    CK(cudaMalloc(&wpops, (size_t)warps * 4));
    for (int ki = 0; ki < 2; ++ki) {
        const unsigned k = ks[ki], pops = n / (32u * k);
        std::vector<std::vector<double>> msOf(4);
        for (int rr = 0; parts("cells") && rr < warm + 6; ++rr) {
            if (budget.over("cells")) break;
            for (int kv = 0; kv < 4; ++kv) {
                CK(cudaMemset(head, 0, 4));
                CK(cudaMemset(out, 0, (size_t)n * 4));
                CK(cudaMemset(r.wsm, 0xff, (size_t)warps * 4));
                CK(cudaMemset(r.wret, 0, (size_t)warps * 8));
                CK(cudaMemset(wpops, 0, (size_t)warps * 4));
                const double ms = tm.ms(
                    [&] {
                        if (kv == 0) popThread<<<grid, block>>>(head, n, k, 32, 32, 64, out);
                        if (kv == 1) c_labsm<<<grid, block>>>(head, n, k, 32, 32, 64, out, r.wsm, r.wret);
                        if (kv == 2) c_padsm<<<grid, block>>>(pad, head, n, k, 32, 32, 64, out, r.wsm, r.wret);
                        if (kv == 3) c_recwin<<<grid, block>>>(head, n, k, 32, 32, 64, out, r.wsm, wpops, r.wrank);
                    },
                    rr >= warm);
                if (rr < warm) continue;
                const int rep = rr - warm;
                msOf[kv].push_back(ms);
                CK(cudaMemcpy(hout.data(), out, (size_t)n * 4, cudaMemcpyDeviceToHost));
                unsigned bad = 0;
                for (unsigned i = 0; i < n; i += (rep == 0 ? 1u : 97u))
                    if (hout[i] != host_work(i)) ++bad;
                char label[32];
                std::snprintf(label, sizeof label, "%s@%u", cnames[kv], k);
                if (kv == 0) {
                    std::printf("# cell %s launch %d: %.5f ms, output: %s\n", label, rep, ms, mb::note_check(bad == 0));
                    std::printf("sum,cell,%s,%d,%.5f\n", label, rep, ms);
                    continue;
                }
                std::vector<double> won(sms, 0), ret(sms, -1);
                bool ok = bad == 0;
                if (kv == 3) {
                    CK(cudaMemcpy(hsm.data(), r.wsm, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hpops.data(), wpops, (size_t)warps * 4, cudaMemcpyDeviceToHost));
                    unsigned total = 0;
                    for (int w = 0; w < warps; ++w) {
                        if (hpops[w] == 0) continue;
                        if (hsm[w] >= (unsigned)sms) {
                            ok = false;
                            continue;
                        }
                        won[hsm[w]] += hpops[w];
                        total += hpops[w];
                    }
                    ok = ok && total == pops;
                } else {
                    CK(cudaMemcpy(hsm.data(), r.wsm, (size_t)pops * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(hret.data(), r.wret, (size_t)pops * 8, cudaMemcpyDeviceToHost));
                    unsigned long long t0 = ~0ull;
                    for (unsigned p = 0; p < pops; ++p) t0 = std::min(t0, hret[p]);
                    for (unsigned p = 0; p < pops; ++p) {
                        if (hsm[p] >= (unsigned)sms || hret[p] == 0) {
                            ok = false;
                            continue;
                        }
                        won[hsm[p]]++;
                        const double t = (double)(hret[p] - t0);
                        if (ret[hsm[p]] < 0 || t < ret[hsm[p]]) ret[hsm[p]] = t;
                    }
                }
                double most;
                int on;
                mb::busiest(won, most, on);
                std::printf("# cell %s launch %d: %.5f ms, every pop's SM recorded, output: %s\n", label, rep, ms,
                            mb::note_check(ok));
                mb::per_sm_row("cell", label, rep, "winners", won);
                if (kv != 3) mb::per_sm_row("cell", label, rep, "ret_ns", ret);
                std::printf("sum,cell,%s,%d,%.5f,%.0f,%d\n", label, rep, ms, most, on);
            }
            std::fflush(stdout);
        }
        for (int kv = 0; kv < 4; ++kv)
            if (!msOf[kv].empty()) {
                const mb::Stats s = mb::stats_of(msOf[kv]);
                std::printf("# S prolog cells %s@%u: median %.5f ms (min %.5f max %.5f, %d launches)\n", cnames[kv], k,
                            s.median, s.min, s.max, s.n);
            }
    }
    for (void* p : {(void*)head, (void*)r.wsm, (void*)r.wrank, (void*)r.wiss, (void*)r.wret, (void*)r.wcyc, (void*)r.wst,
                    (void*)out, (void*)wpops})
        CK(cudaFree(p));
    return mb::finish("prolog", budget);
}
