// hotlines.cu: how many hot lines the L2 serves at once when groups of
// threads contend one address each, and how long a load of a contended
// word takes (the cas lab's misses, issue 14).
//
// Part "latency" (one thread, clock64 around a dependent chain of 4096
// steps; the SM clock's cycles, and ns at the reported clock):
//   chase_l2     loads (__ldcg, the L1 bypassed) that follow a random cycle
//                over the 128-byte lines of a 4 MiB buffer, timed on a
//                second pass over the same 4096 lines: the L2 holds them
//   chase_dram   the same over 1 GiB, one pass: most lines come from DRAM
//   cas_chain    atomicCAS on one word, each compare the value the last
//                one stored (every one succeeds): an atomic's round trip
//   load_after   on one word: atomicAdd(p, 1) then a __ldcg load of p,
//                dependent (the load's address adds 0 times the atomic's
//                result); cycles for the pair
// Part "sweep" (4M threads, 256 a block, thread i's value as cas.cu's,
// group g = i / C, C = 32 to 65536 threads per address; median of 7 timed
// launches after 2 warm-ups, gated):
//   max_packed   atomicMax((int*)&m[g], bits): the cas lab's int trick, a
//                reduction (its result unused), the groups 4 bytes apart
//                (32 to a 128-byte line)
//   max_padded   the same, one group per 128-byte line (m[g * 32])
//   max_used     max_packed with the result used (ATOMG, the warp waits)
//   cas_packed   the cas lab's CAS loop (compares as floats), groups 4 bytes
//                apart; each warp stores its lanes' failed compares and the
//                lanes whose first load read -infinity (fresh) to a record,
//                summed on the host (no atomic adds to the loop's traffic)
// Every maximum is checked against the host's.
#include "common.cuh"

namespace {

inline int bits_of(float f) {
    int b;
    std::memcpy(&b, &f, 4);
    return b;
}

// ---------------------------------------------------------------- latency

__global__ void k_chase(const unsigned* __restrict__ next, unsigned start, int warmSteps, int steps, long long* cycles,
                        unsigned* sink) {
    unsigned j = start;
    for (int s = 0; s < warmSteps; ++s) j = __ldcg(&next[j]);  // untimed pass over the same lines
    const unsigned warmEnd = j;
    j = start;
    const long long c0 = clock64();
    for (int s = 0; s < steps; ++s) j = __ldcg(&next[j]);
    const long long c1 = clock64();
    cycles[0] = c1 - c0;
    sink[0] = j + warmEnd;
}

// Every compare succeeds: v is the value the word holds.
__global__ void k_cas_chain(int* p, int steps, long long* cycles) {
    int v = *p;
    for (int s = 0; s < 64; ++s) v = atomicCAS(p, v, v + 1) + 1;
    const long long c0 = clock64();
    for (int s = 0; s < steps; ++s) v = atomicCAS(p, v, v + 1) + 1;
    const long long c1 = clock64();
    cycles[0] = c1 - c0;
    p[1] = v;
}

// r and v are never negative, so r >> 31 and v >> 31 are 0, but the
// compiler cannot know: each access waits for the one before.
__global__ void k_load_after(int* p, int steps, long long* cycles) {
    int v = 0;
    for (int s = 0; s < 64; ++s) {
        const int r = atomicAdd(p + (v >> 31), 1);
        v += __ldcg(p + (r >> 31));
    }
    const long long c0 = clock64();
    for (int s = 0; s < steps; ++s) {
        const int r = atomicAdd(p + (v >> 31), 1);
        v += __ldcg(p + (r >> 31));
    }
    const long long c1 = clock64();
    cycles[0] = c1 - c0;
    p[1] = v;
}

// ---------------------------------------------------------------- sweep

__global__ void k_max(float* m, unsigned n, unsigned C, unsigned stride) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMax((int*)&m[(i / C) * stride], __float_as_int(mb::cas_value(i)));
}

__global__ void k_max_used(float* m, unsigned n, unsigned C, unsigned* flag) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int old = atomicMax((int*)&m[i / C], __float_as_int(mb::cas_value(i)));
    if (old == 0x7fffffff) flag[0] = 1;  // never: the values are finite
}

__global__ void k_cas(float* m, unsigned n, unsigned C, uint2* rec) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned fails = 0, fresh = 0;
    if (i < n) {
        const float v = mb::cas_value(i);
        int* ai = (int*)&m[i / C];
        int old = *ai;
        fresh = __int_as_float(old) == -INFINITY ? 1u : 0u;
        while (__int_as_float(old) < v) {
            const int assumed = old;
            old = atomicCAS(ai, assumed, __float_as_int(v));
            if (old == assumed) break;
            ++fails;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        fails += __shfl_down_sync(0xffffffffu, fails, off);
        fresh += __shfl_down_sync(0xffffffffu, fresh, off);
    }
    if ((threadIdx.x & 31) == 0) rec[i / 32] = make_uint2(fails, fresh);
}

__global__ void fill(float* m, unsigned count) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) m[i] = -INFINITY;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("hotlines", "atomicMax and CAS-loop groups over hot L2 lines; L2 load and atomic latency", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    // Latency.
    long long* cycles;
    unsigned* sink;
    CK(cudaMalloc(&cycles, 8));
    CK(cudaMalloc(&sink, 4));
    std::printf("table,kernel,bytes,steps,cycles,cycles_per_step,ns_per_step,check\n");
    const int steps = 4096;
    for (size_t bytes : {(size_t)4 << 20, (size_t)1 << 30}) {
        const size_t words = bytes / 4, lines = bytes / 128;
        std::vector<unsigned> order(lines);
        for (size_t k = 0; k < lines; ++k) order[k] = (unsigned)k;
        mb::Lcg rng(12345);
        for (size_t k = lines - 1; k > 0; --k) std::swap(order[k], order[rng.next() % (k + 1)]);
        std::vector<unsigned> next(words, 0);
        for (size_t k = 0; k < lines; ++k) next[(size_t)order[k] * 32] = order[(k + 1) % lines] * 32;
        unsigned* d;
        CK(cudaMalloc(&d, bytes));
        CK(cudaMemcpy(d, next.data(), bytes, cudaMemcpyHostToDevice));
        const bool l2 = bytes < ((size_t)1 << 30);
        k_chase<<<1, 1>>>(d, order[0] * 32, l2 ? steps : 0, steps, cycles, sink);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        long long c = 0;
        CK(cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost));
        const double per = (double)c / steps;
        std::printf("latency,%s,%zu,%d,%lld,%.1f,%.1f,%s\n", l2 ? "chase_l2" : "chase_dram", bytes,
                    steps, c, per, per / (dev.sm_clock_khz / 1e6), mb::note_check(c > 0));
        CK(cudaFree(d));
    }
    {
        int* p;
        CK(cudaMalloc(&p, 256));
        CK(cudaMemset(p, 0, 256));
        k_cas_chain<<<1, 1>>>(p, steps, cycles);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        long long c = 0;
        int got[2];
        CK(cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(got, p, 8, cudaMemcpyDeviceToHost));
        std::printf("latency,cas_chain,4,%d,%lld,%.1f,%.1f,%s\n", steps, c, (double)c / steps,
                    (double)c / steps / (dev.sm_clock_khz / 1e6), mb::note_check(got[0] == steps + 64));
        CK(cudaMemset(p, 0, 256));
        k_load_after<<<1, 1>>>(p, steps, cycles);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(got, p, 8, cudaMemcpyDeviceToHost));
        std::printf("latency,load_after,4,%d,%lld,%.1f,%.1f,%s\n", steps, c, (double)c / steps,
                    (double)c / steps / (dev.sm_clock_khz / 1e6), mb::note_check(got[0] == steps + 64));
        CK(cudaFree(p));
    }

    // Sweep.
    const unsigned n = 1u << 22, block = 256, grid = n / block, warps = n / 32;
    const int warm = 2, reps = 7;
    float* m;
    uint2* rec;
    unsigned* flag;
    CK(cudaMalloc(&m, (size_t)n * 4));
    CK(cudaMalloc(&rec, (size_t)warps * sizeof(uint2)));
    CK(cudaMalloc(&flag, 4));
    CK(cudaMemset(flag, 0, 4));
    std::vector<float> vals(n);
    for (unsigned i = 0; i < n; ++i) vals[i] = mb::cas_value(i);
    std::vector<uint2> h(warps);
    const char* names[4] = {"max_packed", "max_padded", "max_used", "cas_packed"};
    std::printf("table,kernel,contenders,groups,lines,median_ms,mean_ms,min_ms,max_ms,stdev_ms,fails,fails_per_thread,fresh_warps,check\n");
    for (unsigned C = 32; C <= 65536; C *= 2) {
        const unsigned groups = n / C;
        std::vector<int> wantInt(groups, bits_of(-INFINITY));
        std::vector<float> wantF(groups, -INFINITY);
        for (unsigned i = 0; i < n; ++i) {
            wantInt[i / C] = std::max(wantInt[i / C], bits_of(vals[i]));
            if (vals[i] > wantF[i / C]) wantF[i / C] = vals[i];
        }
        for (int k = 0; k < 4; ++k) {
            if (budget.over("hotlines sweep")) break;
            const unsigned stride = k == 1 ? 32u : 1u;
            const unsigned slots = groups * stride;
            const unsigned lines = (slots + 31) / 32;
            auto setup = [&](int) {
                fill<<<(slots + 255) / 256, 256>>>(m, slots);
                CK_LAUNCH();
            };
            auto launch = [&](int) {
                switch (k) {
                case 0:
                case 1: k_max<<<grid, block>>>(m, n, C, stride); break;
                case 2: k_max_used<<<grid, block>>>(m, n, C, flag); break;
                default: k_cas<<<grid, block>>>(m, n, C, rec); break;
                }
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            std::vector<float> got(slots);
            CK(cudaMemcpy(got.data(), m, (size_t)slots * 4, cudaMemcpyDeviceToHost));
            unsigned wrong = 0;
            for (unsigned g = 0; g < groups; ++g) {
                const float x = got[(size_t)g * stride];
                if (k == 3 ? !(x == wantF[g]) : bits_of(x) != wantInt[g]) ++wrong;
            }
            unsigned long long fails = 0, fresh = 0;
            if (k == 3) {
                CK(cudaMemcpy(h.data(), rec, (size_t)warps * sizeof(uint2), cudaMemcpyDeviceToHost));
                for (const uint2& r : h) {
                    fails += r.x;
                    fresh += r.y;
                }
            }
            std::printf("sweep,%s,%u,%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f,%llu,%.4f,%.1f,%s\n", names[k], C, groups, lines, s.median,
                        s.mean, s.min, s.max, s.stdev, fails, (double)fails / n, (double)fresh / 32.0, mb::note_check(wrong == 0));
        }
    }
    CK(cudaFree(m));
    CK(cudaFree(rec));
    CK(cudaFree(flag));
    CK(cudaFree(cycles));
    CK(cudaFree(sink));
    return mb::finish("hotlines", budget);
}
