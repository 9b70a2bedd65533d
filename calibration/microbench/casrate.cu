// casrate.cu: what the L2 spends on a CAS loop's traffic, taken apart (the
// cas lab's CAS-loop cells at 32 and 256 contenders, issue 13's bar).
//
// The cas lab's loop (cas.cu) runs 0.84 and 0.79 of the simulator's time
// at 32 and 256 threads per word with its failed compares right: the L2
// serves its CAS lanes slower than the model, which serves them at the
// rate atomicMax gets over the same hot lines. These kernels give the L2
// the same layout (4M threads, 256 a block, group g = i / C, words 4 bytes
// apart, 32 groups a 128-byte line) and traffic whose every part is known,
// so that each candidate is timed alone:
//   fail      trips compare-and-swaps a lane whose compare never matches
//             (the word keeps -inf's bits, each compare value is the last
//             result + 1): a closed loop, each lane waiting for its result,
//             k lanes a transaction (32 / k transactions a trip), with the
//             first compare value from a load of the word (load 1) or not
//   maxchain  the same chain with atomicMax of a value below the word's
//             (ATOMG.MAX, the word never changes): a closed loop that is
//             not a compare-and-swap
//   red       trips atomicMax a lane with the result unused (REDG): the
//             open loop, as the lab's integer trick
//   loop      the cas lab's loop (cas.cu's cas_loop), and loop_noload the
//             same without its load (the first compare value -inf's bits,
//             which every word starts at: at C <= 256 every warp's load
//             reads it anyway)
// C = 32, 256, 1024, 4096 threads per word; trips 2 (the lab's loop runs
// 1.87 to 1.98 compares a thread at C = 32 to 256), at C = 256 also 1 and
// 4. Median of 7 gated launches after 2 warm-ups; lane_ops are the CAS or
// atomicMax lanes (for the loop: none counted, see cas.csv); ns_per_op is
// (median - empty) / lane_ops. Checks: every word still -inf (fail,
// maxchain, red), every maximum right (loop).
#include "common.cuh"

namespace {

// The kernels are plain CUDA, as the simulator runs them
// (gpusim/casrate_test.go holds the same source).
__global__ void k_fail(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    const unsigned sub = (threadIdx.x & 31u) / k, subs = 32u / k;
    int old = load ? *ai : 0;
    for (unsigned t = 0; t < trips; ++t)
        for (unsigned s = 0; s < subs; ++s)
            if (sub == s) old = atomicCAS(ai, old + 1, (int)i);
    if (old == 12345) sink[0] = old;
}

__global__ void k_maxchain(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    const unsigned sub = (threadIdx.x & 31u) / k, subs = 32u / k;
    int old = load ? *ai : 0;
    for (unsigned t = 0; t < trips; ++t)
        for (unsigned s = 0; s < subs; ++s)
            if (sub == s) old = atomicMax(ai, (int)0x80000000 + (old & 1));
    if (old == 12345) sink[0] = old;
}

__global__ void k_red(int* m, unsigned n, unsigned C, unsigned trips, unsigned k, unsigned load, int* sink) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = m + i / C;
    for (unsigned t = 0; t < trips; ++t) atomicMax(ai, (int)0x80000000 + (int)(t & 1u));
}

__global__ void k_loop(float* m, unsigned n, unsigned C, unsigned load) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = mb::cas_value(i);
    int* ai = (int*)&m[i / C];
    int old = load ? *ai : __float_as_int(-INFINITY);
    while (__int_as_float(old) < v) {
        const int assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(v));
        if (old == assumed) break;
    }
}

__global__ void k_empty(int* sink) {
    if (sink[0] == 12345) sink[1] = 1;
}

__global__ void fill(int* m, unsigned count, int v) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) m[i] = v;
}

int bits_of(float f) {
    int b;
    std::memcpy(&b, &f, 4);
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("casrate", "a CAS loop's L2 traffic taken apart: closed and open loops, lanes a transaction, the load", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const unsigned n = 1u << 22, block = 256, grid = n / block;
    const int warm = 2, reps = 7;
    const int ninf = bits_of(-INFINITY);
    int* m;
    int* sink;
    CK(cudaMalloc(&m, (size_t)n * 4));
    CK(cudaMalloc(&sink, 8));
    CK(cudaMemset(sink, 0, 8));
    std::printf("table,kernel,contenders,lines,trips,lanes_per_tx,load,median_ms,mean_ms,min_ms,max_ms,stdev_ms,lane_ops,ns_per_op,check\n");
    const mb::Stats e = mb::stats_of(mb::time_runs(tm, warm, reps, [](int) {}, [&](int) { k_empty<<<grid, block>>>(sink); }));
    std::printf("rate,empty,0,0,0,0,0,%.5f,%.5f,%.5f,%.5f,%.5f,0,0,PASS\n", e.median, e.mean, e.min, e.max, e.stdev);
    struct Row {
        const char* kernel;
        unsigned trips, k, load;
    };
    std::vector<float> vals(n);
    for (unsigned i = 0; i < n; ++i) vals[i] = mb::cas_value(i);
    for (unsigned C : {32u, 256u, 1024u, 4096u}) {
        const unsigned groups = n / C, lines = (groups + 31) / 32;
        std::vector<Row> rows = {{"fail", 2, 32, 0}, {"fail", 2, 8, 0},     {"fail", 2, 1, 0},     {"fail", 2, 32, 1},
                                 {"maxchain", 2, 32, 0}, {"maxchain", 2, 1, 0}, {"red", 2, 32, 0}, {"loop", 0, 32, 1},
                                 {"loop_noload", 0, 32, 0}};
        if (C == 256) {
            for (Row r : {Row{"fail", 1, 32, 0}, Row{"fail", 4, 32, 0}, Row{"maxchain", 1, 32, 0}, Row{"red", 1, 32, 0}})
                rows.push_back(r);
        }
        for (const Row& r : rows) {
            if (budget.over("casrate")) break;
            const std::string kn = r.kernel;
            const bool loop = kn == "loop" || kn == "loop_noload";
            auto setup = [&](int) {
                fill<<<(groups + 255) / 256, 256>>>(m, groups, ninf);
                CK_LAUNCH();
            };
            auto launch = [&](int) {
                if (kn == "fail") k_fail<<<grid, block>>>(m, n, C, r.trips, r.k, r.load, sink);
                else if (kn == "maxchain") k_maxchain<<<grid, block>>>(m, n, C, r.trips, r.k, r.load, sink);
                else if (kn == "red") k_red<<<grid, block>>>(m, n, C, r.trips, r.k, r.load, sink);
                else k_loop<<<grid, block>>>((float*)m, n, C, r.load);
            };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));
            std::vector<int> got(groups);
            CK(cudaMemcpy(got.data(), m, (size_t)groups * 4, cudaMemcpyDeviceToHost));
            unsigned wrong = 0;
            for (unsigned g = 0; g < groups; ++g) {
                if (loop) {
                    float w = -INFINITY;
                    for (unsigned i = g * C; i < (g + 1) * C; ++i) w = std::max(w, vals[i]);
                    float x;
                    std::memcpy(&x, &got[g], 4);
                    if (!(x == w)) ++wrong;
                } else if (got[g] != ninf) {
                    ++wrong;
                }
            }
            const unsigned long long ops = loop ? 0ull : (unsigned long long)n * r.trips;
            const double ns = ops ? (s.median - e.median) * 1e6 / (double)ops : 0.0;
            std::printf("rate,%s,%u,%u,%u,%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f,%llu,%.4f,%s\n", r.kernel, C, lines, r.trips, r.k,
                        r.load, s.median, s.mean, s.min, s.max, s.stdev, ops, ns, mb::note_check(wrong == 0));
            std::fflush(stdout);
        }
    }
    CK(cudaFree(m));
    CK(cudaFree(sink));
    return mb::finish("casrate", budget);
}
