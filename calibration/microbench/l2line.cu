// l2line.cu: how far apart in time does the L2 return the lines of one
// block's input, line by line, and where does that put the softmax lab's
// one-block shared queue (issue 9: the lab's "n=256 shared" cell)?
//
// l2sm.cu measured each SM's L2 load latency to 73 words at least 512
// bytes apart (259 to 342 cycles, 17 cycles about an SM's mean); blockq.cu
// measured, for 16 blocks' worth of x, when the lab kernel's 8 warps reach
// the shared queue and which mode it runs in. This program measures both
// on the same lines, so that the one can be read against the other:
//
// Part "line" (no contention): as l2sm's part lat, the first one-warp
// block on each SM (by %smid) claims it and takes a ticket, and one thread
// on one SM runs at a time. On each 128-byte line of the targets it times
// dependent chains of __ldcg loads of the line's first word (L1 bypassed,
// the L2 holds it), 8 and 40 steps, two of each; the host takes (min of
// the 40-step chains - min of the 8-step chains) / 32 as the cycles of one
// step. The address of each step depends on the value loaded through a
// mask that is 0 at run time (the kernel cannot know), so the steps wait
// for each other whatever the data. Targets: region A, the first 64 KB of
// one buffer (512 lines in a row: the structure at 128 bytes to 64 KB);
// region B, 64 blocks' worth of x (1 KB each, 8 lines) 2 MB + 1 KB apart
// in a 130 MB buffer (other pages). Rows: line,SM,region,<one step's
// cycles per line of the region>.
// Part "lab": the lab's one-block shape on each of the 128 blocks' worth
// (region A: x + 256 b for b = 0..63; region B: its 64): the lab's own
// denomShared (labs/softmax/kernels/shared.cu, verbatim) event-timed, 3
// warm-ups and 10 timed launches, gated; then 10 launches of a copy that
// records each warp's clock after the barrier, at the queue's entry and at
// its exit (as blockq.cu's kind lab) and the SM. Rows
// L,region,block,launch,sm,total,span,spread,e0..e7 (total: thread 0's
// cycles from the first barrier to the second; span: first entry to last
// exit; spread: first to last entry; e: each warp's entry after the
// first) and S,region,block,ms_median,ms_min,ms_max,fast_launches (span
// under 17000 cycles),spread_median,check (the block's sum against a
// double sum). Under 10 s.
#include "common.cuh"

namespace {

constexpr int kMaxSM = 1024;
constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kShort = 8, kLong = 40;
constexpr int kChunks = 64;   // blocks' worth of x per region
constexpr int kLinesA = 512;  // region A: 64 KB

// zmask is 0 at run time: every step loads p[0], after the step before.
__device__ long long load_chain(const int* p, int steps, int zmask, int* sink) {
    int v = 0;
    const long long c0 = mb::clock_ordered();
    for (int s = 0; s < steps; ++s) v = __ldcg(p + (v & zmask));
    *sink = v;  // waits for the last step
    return mb::clock_ordered() - c0;
}

// out[(sm * nl + a) * 2 + {0: min 8-step, 1: min 40-step}]
__global__ void k_line(unsigned* claim, unsigned* ticket, unsigned* turn, const int* const* lines, int nl, int zmask,
                       long long* out, unsigned* order, int* sink) {
    if (threadIdx.x != 0) return;
    unsigned sm;
    if (!mb::sm_turn(claim, ticket, turn, order, kMaxSM, sm)) return;
    for (int a = 0; a < nl; ++a) {
        const int* p = lines[a];
        load_chain(p, 4, zmask, sink + sm);
        long long b8 = 0x7fffffffffffffffLL, b40 = 0x7fffffffffffffffLL;
        for (int c = 0; c < 2; ++c) {
            const long long s8 = load_chain(p, kShort, zmask, sink + sm);
            const long long s40 = load_chain(p, kLong, zmask, sink + sm);
            b8 = s8 < b8 ? s8 : b8;
            b40 = s40 < b40 ? s40 : b40;
        }
        out[((size_t)sm * nl + a) * 2 + 0] = b8;
        out[((size_t)sm * nl + a) * 2 + 1] = b40;
    }
    __threadfence();
    atomicAdd(turn, 1u);
}

// The softmax lab's shared kernel, the same source the lab runs.
#include "../../../../labs/softmax/kernels/shared.cu"

// The same shape with clocks (blockq.cu's kind lab). wrec: 3 words a warp
// (barrier, entry, exit); brec: first barrier, second barrier, SM, the
// block's sum as float bits.
__global__ void k_lab(const float* x, long long* wrec, long long* brec) {
    __shared__ float s;
    __shared__ volatile float scratch[kBlock];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    const long long t_bar = clock64();
    const float v = expf(x[threadIdx.x]);
    scratch[threadIdx.x] = v;  // needs v: the clock below is the entry
    const long long t_in = clock64();
    const float old = atomicAdd(&s, v);
    scratch[threadIdx.x] = old;  // needs the add's result
    const long long t_out = clock64();
    __syncthreads();
    const long long t_end = clock64();
    if (lane == 0) {
        wrec[3 * warp + 0] = t_bar;
        wrec[3 * warp + 1] = t_in;
        wrec[3 * warp + 2] = t_out;
    }
    if (threadIdx.x == 0) {
        brec[0] = t_bar;
        brec[1] = t_end;
        brec[2] = (long long)mb::smid();
        brec[3] = (long long)__float_as_uint(s);
    }
}

long long med_ll(std::vector<long long> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "l2line", "each 128-byte line's L2 load latency from every SM, and the softmax lab's one-block shared queue on the same lines", argc,
        argv);
    mb::Budget budget(60.0);
    const mb::Parts part(argc, argv);
    mb::warm_gpu(dev, 0.3);
    const int sms = dev.sms;
    if (sms > kMaxSM) {
        std::printf("# FATAL: %d SMs, more than %d\n", sms, kMaxSM);
        return 2;
    }

    // Region A: 64 KB in a row. Region B: 64 blocks' worth 2 MB + 1 KB apart.
    const size_t bytesA = (size_t)kLinesA * 128;
    const size_t strideB = (2u << 20) + 1024;
    const size_t bytesB = strideB * kChunks + 4096;
    float *bufA = nullptr, *bufB = nullptr;
    CK(cudaMalloc(&bufA, bytesA));
    CK(cudaMalloc(&bufB, bytesB));
    std::printf("# bufA_va: %p\n# bufB_va: %p\n# strideB_bytes: %zu\n", (void*)bufA, (void*)bufB, strideB);
    // x uniform in [-1, 1) as blockq.cu and the lab draw it.
    std::vector<float> hA(bytesA / 4), hB((size_t)kChunks * kBlock);
    mb::Lcg xr(2024);
    for (auto& v : hA) v = xr.uniform(-1.0f, 1.0f);
    for (auto& v : hB) v = xr.uniform(-1.0f, 1.0f);
    CK(cudaMemset(bufB, 0, bytesB));
    CK(cudaMemcpy(bufA, hA.data(), bytesA, cudaMemcpyHostToDevice));
    std::vector<const float*> chunkA(kChunks), chunkB(kChunks);
    std::vector<const float*> hostA(kChunks), hostB(kChunks);
    for (int b = 0; b < kChunks; ++b) {
        chunkA[b] = bufA + (size_t)b * kBlock;
        hostA[b] = hA.data() + (size_t)b * kBlock;
        float* pb = reinterpret_cast<float*>(reinterpret_cast<char*>(bufB) + strideB * b);
        CK(cudaMemcpy(pb, hB.data() + (size_t)b * kBlock, kBlock * sizeof(float), cudaMemcpyHostToDevice));
        chunkB[b] = pb;
        hostB[b] = hB.data() + (size_t)b * kBlock;
    }

    std::printf("part,a,b,c,fields\n");
    std::printf("# line,sm,region,<one step's cycles for each line of the region, in address order>\n");
    std::printf("# L,region,block,launch,sm,total,span,spread,e0..e7\n");
    std::printf("# S,region,block,ms_median,ms_min,ms_max,fast_launches,spread_median,check\n");

    // ---------------------------------------------------------------- line
    if (part("line")) {
        std::vector<const int*> hl;
        for (int a = 0; a < kLinesA; ++a) hl.push_back(reinterpret_cast<const int*>(bufA) + a * 32);
        for (int b = 0; b < kChunks; ++b)
            for (int a = 0; a < 8; ++a) hl.push_back(reinterpret_cast<const int*>(chunkB[b]) + a * 32);
        const int nl = (int)hl.size();
        const int** dl = nullptr;
        unsigned *claim, *ticket, *turn, *order;
        int* sink;
        long long* out;
        CK(cudaMalloc(&dl, nl * sizeof(int*)));
        CK(cudaMemcpy(dl, hl.data(), nl * sizeof(int*), cudaMemcpyHostToDevice));
        CK(cudaMalloc(&claim, kMaxSM * 4));
        CK(cudaMalloc(&ticket, 4));
        CK(cudaMalloc(&turn, 4));
        CK(cudaMalloc(&order, kMaxSM * 4));
        CK(cudaMalloc(&sink, kMaxSM * 4));
        CK(cudaMalloc(&out, (size_t)kMaxSM * nl * 2 * 8));
        CK(cudaMemset(claim, 0, kMaxSM * 4));
        CK(cudaMemset(ticket, 0, 4));
        CK(cudaMemset(turn, 0, 4));
        CK(cudaMemset(order, 0xff, kMaxSM * 4));
        CK(cudaMemset(out, 0, (size_t)kMaxSM * nl * 2 * 8));
        const auto t0 = std::chrono::steady_clock::now();
        k_line<<<sms * 8, 32>>>(claim, ticket, turn, dl, nl, 0, out, order, sink);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::vector<long long> h((size_t)kMaxSM * nl * 2);
        std::vector<unsigned> hord(kMaxSM), hturn(1);
        CK(cudaMemcpy(h.data(), out, h.size() * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hord.data(), order, kMaxSM * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hturn.data(), turn, 4, cudaMemcpyDeviceToHost));
        std::vector<int> seen(sms, 0);
        for (unsigned t = 0; t < hturn[0] && t < (unsigned)kMaxSM; ++t)
            if (hord[t] < (unsigned)sms) seen[hord[t]]++;
        int once = 0;
        for (int s = 0; s < sms; ++s) once += seen[s] == 1;
        bool ok = once == sms && hturn[0] == (unsigned)sms;
        for (int s = 0; s < sms; ++s) {
            if (seen[s] != 1) continue;
            for (int region = 0; region < 2; ++region) {
                std::printf("line,%d,%c,", s, region == 0 ? 'A' : 'B');
                const int a0 = region == 0 ? 0 : kLinesA, a1 = region == 0 ? kLinesA : nl;
                for (int a = a0; a < a1; ++a) {
                    const long long b8 = h[((size_t)s * nl + a) * 2], b40 = h[((size_t)s * nl + a) * 2 + 1];
                    const double step = (double)(b40 - b8) / (kLong - kShort);
                    ok = ok && step > 0;
                    std::printf("%s%.1f", a == a0 ? "" : " ", step);
                }
                std::printf("\n");
            }
        }
        std::printf("# S l2line line: %d SMs once each of %d, %d lines, %.2f s: %s\n", once, sms, nl, secs, mb::note_check(ok));
        std::fflush(stdout);
        for (void* p : {(void*)dl, (void*)claim, (void*)ticket, (void*)turn, (void*)order, (void*)sink, (void*)out}) CK(cudaFree(p));
    }

    // ---------------------------------------------------------------- lab
    if (part("lab")) {
        float* d_denom = nullptr;
        long long *d_wrec = nullptr, *d_brec = nullptr;
        CK(cudaMalloc(&d_denom, sizeof(float)));
        CK(cudaMalloc(&d_wrec, 3 * kWarps * sizeof(long long)));
        CK(cudaMalloc(&d_brec, 4 * sizeof(long long)));
        mb::EvTimer tm;
        for (int region = 0; region < 2; ++region) {
            const char rn = region == 0 ? 'A' : 'B';
            for (int b = 0; b < kChunks; ++b) {
                if (budget.over("lab")) break;
                const float* x = region == 0 ? chunkA[b] : chunkB[b];
                const float* hx = region == 0 ? hostA[b] : hostB[b];
                double ref = 0;
                for (int t = 0; t < kBlock; ++t) ref += std::exp(static_cast<double>(hx[t]));
                auto launch = [&](int) { denomShared<<<1, kBlock>>>(x, d_denom, kBlock); };
                const mb::Stats st = mb::stats_of(mb::time_runs(tm, 3, 10, [](int) {}, launch));
                CK(cudaMemset(d_denom, 0, sizeof(float)));
                denomShared<<<1, kBlock>>>(x, d_denom, kBlock);
                CK_LAUNCH();
                float got = 0;
                CK(cudaMemcpy(&got, d_denom, sizeof(float), cudaMemcpyDeviceToHost));
                bool ok = std::fabs(got - ref) <= 1e-4 * ref;
                std::vector<long long> spreads;
                int fast = 0;
                for (int l = -1; l < 10; ++l) {  // one warm-up
                    k_lab<<<1, kBlock>>>(x, d_wrec, d_brec);
                    CK_LAUNCH();
                    CK(cudaDeviceSynchronize());
                    if (l < 0) continue;
                    long long wrec[3 * kWarps], brec[4];
                    CK(cudaMemcpy(wrec, d_wrec, sizeof(wrec), cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(brec, d_brec, sizeof(brec), cudaMemcpyDeviceToHost));
                    float sum = 0;
                    const uint32_t bits = static_cast<uint32_t>(brec[3]);
                    std::memcpy(&sum, &bits, sizeof(sum));
                    ok = ok && std::fabs(sum - ref) <= 1e-4 * ref;
                    long long first_in = wrec[1], last_in = wrec[1], last_out = wrec[2];
                    for (int w = 1; w < kWarps; ++w) {
                        first_in = std::min(first_in, wrec[3 * w + 1]);
                        last_in = std::max(last_in, wrec[3 * w + 1]);
                        last_out = std::max(last_out, wrec[3 * w + 2]);
                    }
                    spreads.push_back(last_in - first_in);
                    fast += last_out - first_in < 17000;
                    std::printf("L,%c,%d,%d,%lld,%lld,%lld,%lld", rn, b, l, brec[2], brec[1] - brec[0], last_out - first_in,
                                last_in - first_in);
                    for (int w = 0; w < kWarps; ++w) std::printf(",%lld", wrec[3 * w + 1] - first_in);
                    std::printf("\n");
                }
                std::printf("S,%c,%d,%.5f,%.5f,%.5f,%d,%lld,%s\n", rn, b, st.median, st.min, st.max, fast, med_ll(spreads),
                            mb::note_check(ok));
                std::fflush(stdout);
            }
        }
        for (void* p : {(void*)d_denom, (void*)d_wrec, (void*)d_brec}) CK(cudaFree(p));
    }
    CK(cudaFree(bufA));
    CK(cudaFree(bufB));
    return mb::finish("l2line", budget);
}
