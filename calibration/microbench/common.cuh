// common.cuh: shared host helpers for the warplab calibration microbenchmarks.
//
// Every program in this folder includes this header. It provides:
//   - CK(...): check a CUDA runtime call; on failure print a "# FATAL" comment
//     to stdout (so the CSV records it) and the error to stderr, then exit(2).
//   - print_header(): "# key: value" comment lines with the device, clocks,
//     CUDA versions and the command line, at the top of every CSV.
//   - EvTimer: CUDA-event timing of one launch (events around the launch,
//     synchronised after it, so launches never overlap), gated: the start
//     event and the launch are queued behind a gate kernel that the host
//     releases once the stop event is queued, so that the time is the GPU's
//     alone, without the host's submission of the launch, as warplab's
//     cudarun times launches (timing=gated, its default). Env MB_GATE=0
//     records the events as the host submits them (ungated), as every run
//     before 2026-11-30 14:00 UTC did: there a timed launch after a
//     synchronous step (a cudaMemcpy, a synchronize, nothing queued) also
//     timed its own submission, about 2.5 us for an empty kernel on the
//     H200, while one after an asynchronous cudaMemset did not
//     (calibration/evidence/2026-11-30-h200-queue-timing-gated).
//   - Stats: n, mean, median, min, max, stdev of a set of timings.
//   - Budget: a wall-clock budget (each program's own, capped by env
//     MB_BUDGET_S) so that a program stops
//     early, cleanly, instead of being killed by the outer timeout.
//   - warm_gpu(): a short busy phase so that the clocks have ramped up before
//     the first measurement.
//   - check bookkeeping: note_check() counts failures; finish() prints them
//     and returns the exit code (0 all passed, 1 some check failed).
//   - Parts: the part a program runs when its first argument names one.
//   - device readings: smid(), gtimer() (the global timer, ns), and
//     gtimer_ordered() / clock_ordered() (the global timer and the SM's
//     clock64 with a memory clobber, so that loads and atomics stay on
//     their side of the reading).
//   - sm_turn(): one thread of each SM at a time, in the order the SMs
//     arrive (l2sm, l2line).
//   - per_sm_row(), busiest(): a CSV row of one figure per SM id, and its
//     busiest SM (firstpop, prolog); served_order(): the warps in the
//     order the L2 served their first pop (l2sm, firstpop, prolog).
//   - cas_value(i): the CAS-loop programs' contender values;
//     cas_wrong_groups() checks their maxima.
//
// Written for warplab; CUDA C++17, nvcc -O3 -std=c++17 -arch=sm_90 (or sm_75).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#define CK(call)                                                                     \
    do {                                                                             \
        cudaError_t ck_err_ = (call);                                                \
        if (ck_err_ != cudaSuccess) {                                                \
            std::fprintf(stderr, "FATAL: %s failed at %s:%d: %s (%s)\n", #call,      \
                         __FILE__, __LINE__, cudaGetErrorString(ck_err_),            \
                         cudaGetErrorName(ck_err_));                                 \
            std::printf("# FATAL: %s failed at %s:%d: %s (%s)\n", #call, __FILE__,  \
                        __LINE__, cudaGetErrorString(ck_err_),                       \
                        cudaGetErrorName(ck_err_));                                  \
            std::fflush(stdout);                                                     \
            std::fflush(stderr);                                                     \
            std::exit(2);                                                            \
        }                                                                            \
    } while (0)

// After a <<<>>> launch: catches launch-configuration errors at once.
#define CK_LAUNCH() CK(cudaGetLastError())

namespace mb {

// ---------------------------------------------------------------- device info

struct DevInfo {
    int dev = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sms = 0;
    int sm_clock_khz = 0;
    int mem_clock_khz = 0;
    int mem_bus_bits = 0;
    int l2_bytes = 0;
    int max_threads_per_sm = 0;
    int max_blocks_per_sm = 0;
    int smem_per_sm = 0;
    int runtime_version = 0;
    int driver_version = 0;
    size_t mem_free = 0, mem_total = 0;
};

inline int attr(cudaDeviceAttr a, int dev) {
    int v = 0;
    // Attributes that a runtime does not know return an error: report -1.
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return v;
}

inline DevInfo get_dev_info() {
    DevInfo d;
    CK(cudaGetDevice(&d.dev));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, d.dev));
    d.name = p.name;
    d.cc_major = attr(cudaDevAttrComputeCapabilityMajor, d.dev);
    d.cc_minor = attr(cudaDevAttrComputeCapabilityMinor, d.dev);
    d.sms = attr(cudaDevAttrMultiProcessorCount, d.dev);
    d.sm_clock_khz = attr(cudaDevAttrClockRate, d.dev);
    d.mem_clock_khz = attr(cudaDevAttrMemoryClockRate, d.dev);
    d.mem_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth, d.dev);
    d.l2_bytes = attr(cudaDevAttrL2CacheSize, d.dev);
    d.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, d.dev);
    d.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, d.dev);
    d.smem_per_sm = attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, d.dev);
    CK(cudaRuntimeGetVersion(&d.runtime_version));
    CK(cudaDriverGetVersion(&d.driver_version));
    CK(cudaMemGetInfo(&d.mem_free, &d.mem_total));
    return d;
}

inline std::string utc_now() {
    std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

// Whether EvTimer gates its launches: yes unless env MB_GATE=0.
inline bool gate_wanted() {
    const char* e = std::getenv("MB_GATE");
    return !(e && std::strcmp(e, "0") == 0);
}

// How many gated launches found the gate expired (the host took longer than
// the gate's limit to queue the launch, or the launch itself waited for the
// gate, as a first launch under lazy module loading does); finish() prints it.
inline int& gate_expired() {
    static int n = 0;
    return n;
}

// Prints the comment header that starts every CSV. Call once, first.
inline DevInfo print_header(const char* program, const char* what, int argc, char** argv) {
    CK(cudaSetDevice(0));
    CK(cudaFree(nullptr));  // create the context now, not inside a timing
    DevInfo d = get_dev_info();
    std::printf("# program: %s\n", program);
    std::printf("# measures: %s\n", what);
    std::printf("# command:");
    for (int i = 0; i < argc; ++i) std::printf(" %s", argv[i]);
    std::printf("\n");
    std::printf("# date_utc: %s\n", utc_now().c_str());
    std::printf("# device: %s\n", d.name.c_str());
    std::printf("# compute_capability: %d.%d\n", d.cc_major, d.cc_minor);
    std::printf("# sm_count: %d\n", d.sms);
    std::printf("# sm_clock_khz: %d\n", d.sm_clock_khz);
    std::printf("# mem_clock_khz: %d\n", d.mem_clock_khz);
    std::printf("# mem_bus_width_bits: %d\n", d.mem_bus_bits);
    std::printf("# l2_bytes: %d\n", d.l2_bytes);
    std::printf("# max_threads_per_sm: %d\n", d.max_threads_per_sm);
    std::printf("# max_blocks_per_sm: %d\n", d.max_blocks_per_sm);
    std::printf("# smem_per_sm_bytes: %d\n", d.smem_per_sm);
    std::printf("# mem_total_bytes: %zu\n", d.mem_total);
    std::printf("# cuda_runtime_version: %d\n", d.runtime_version);
    std::printf("# cuda_driver_version: %d\n", d.driver_version);
#if defined(__CUDACC_VER_MAJOR__)
    std::printf("# nvcc_version: %d.%d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
                __CUDACC_VER_BUILD__);
#endif
    std::printf("# cudart_header_version: %d\n", CUDART_VERSION);
    std::printf("# timing: %s\n", gate_wanted() ? "gated (start event and launch queued behind a gate kernel released after the stop event is queued)"
                                                 : "ungated (MB_GATE=0: events recorded as the host submits the launch)");
    std::fflush(stdout);
    std::fprintf(stderr, "[%s] %s, %d SMs, cc %d.%d, runtime %d, driver %d\n", program,
                 d.name.c_str(), d.sms, d.cc_major, d.cc_minor, d.runtime_version,
                 d.driver_version);
    return d;
}

// ---------------------------------------------------------------- statistics

struct Stats {
    int n = 0;
    double mean = 0, median = 0, min = 0, max = 0, stdev = 0;
};

inline Stats stats_of(std::vector<double> v) {
    Stats s;
    s.n = static_cast<int>(v.size());
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    s.median = (v.size() % 2) ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    double sum = 0;
    for (double x : v) sum += x;
    s.mean = sum / v.size();
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stdev = v.size() > 1 ? std::sqrt(ss / (v.size() - 1)) : 0.0;
    return s;
}

// pct returns the p-quantile (0..1) of v by the nearest rank, 0 for none.
inline double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t k = std::min(v.size() - 1, (size_t)(p * (v.size() - 1) + 0.5));
    return v[k];
}

// ---------------------------------------------------------------- timing

// The gate: one thread spins until the host sets flag[0], or until limit_ns
// of the GPU's global timer have passed, when it sets flag[1]. flag is host
// memory mapped into the device.
__global__ void mb_gate_kernel(volatile unsigned* flag, unsigned long long limit_ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    while (flag[0] == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > limit_ns) {
            flag[1] = 1;
            return;
        }
    }
}

// Times one launch with CUDA events recorded in the default stream around it,
// then waits for the stop event. Returns milliseconds. Gated (the default;
// MB_GATE=0 turns it off) and with gate true, the events and the launch wait behind mb_gate_kernel until the
// stop event is queued: the GPU meets them back to back, and the time does
// not include the host's submission of the launch, which an idle GPU would
// otherwise spend waiting after it had timestamped the start event.
class EvTimer {
public:
    EvTimer() : gate_(gate_wanted()) {
        CK(cudaEventCreate(&a_));
        CK(cudaEventCreate(&b_));
        if (gate_) {
            CK(cudaHostAlloc(reinterpret_cast<void**>(const_cast<unsigned**>(&flag_)), 64, cudaHostAllocMapped));
            CK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dflag_), const_cast<unsigned*>(flag_), 0));
            flag_[0] = flag_[1] = 0;
        }
    }
    ~EvTimer() {
        cudaEventDestroy(a_);
        cudaEventDestroy(b_);
        if (gate_) cudaFreeHost(const_cast<unsigned*>(flag_));
    }
    EvTimer(const EvTimer&) = delete;
    EvTimer& operator=(const EvTimer&) = delete;

    bool gated() const { return gate_; }

    template <class F>
    double ms(F&& launch, bool gate = true) {
        const bool g = gate_ && gate;
        if (g) {
            flag_[0] = 0;
            flag_[1] = 0;
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            mb_gate_kernel<<<1, 1>>>(dflag_, 200000000ull);  // 200 ms
            CK_LAUNCH();
        }
        CK(cudaEventRecord(a_, 0));
        launch();
        CK_LAUNCH();
        CK(cudaEventRecord(b_, 0));
        if (g) __atomic_store_n(const_cast<unsigned*>(&flag_[0]), 1u, __ATOMIC_SEQ_CST);
        CK(cudaEventSynchronize(b_));
        if (g && flag_[1]) ++gate_expired();
        float m = 0;
        CK(cudaEventElapsedTime(&m, a_, b_));
        return m;
    }

private:
    cudaEvent_t a_, b_;
    bool gate_;
    volatile unsigned* flag_ = nullptr;
    unsigned* dflag_ = nullptr;
};

// Runs warm + reps launches; setup(i) runs before launch i, outside the timed
// region (to reset accumulators, flush caches, ...). Returns the timed ms of
// the reps runs only. Only the timed runs are gated: the
// first launch of a kernel may load it (lazy loading), which waits for the
// gate, and warm-ups come first.
template <class Setup, class Launch>
std::vector<double> time_runs(EvTimer& tm, int warm, int reps, Setup&& setup, Launch&& launch) {
    std::vector<double> out;
    out.reserve(reps);
    for (int i = 0; i < warm + reps; ++i) {
        setup(i);
        double m = tm.ms([&] { launch(i); }, i >= warm);
        if (i >= warm) out.push_back(m);
    }
    return out;
}

// ---------------------------------------------------------------- budget

struct Budget {
    double limit_s;
    std::chrono::steady_clock::time_point t0;
    explicit Budget(double default_s) : t0(std::chrono::steady_clock::now()) {
        limit_s = default_s;
        if (const char* e = std::getenv("MB_BUDGET_S")) {  // a cap, set by run.sh
            double v = std::atof(e);
            if (v > 0) limit_s = std::min(limit_s, v);
        }
        std::printf("# budget_s: %.0f\n", limit_s);
    }
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // True (and prints a note, once) when the budget is spent.
    bool over(const char* where) {
        if (elapsed() < limit_s) return false;
        if (!noted_) {
            std::printf("# TRUNCATED: time budget %.0f s spent before %s\n", limit_s, where);
            std::fflush(stdout);
            std::fprintf(stderr, "TRUNCATED: time budget spent before %s\n", where);
            noted_ = true;
        }
        return true;
    }

private:
    bool noted_ = false;
};

// ---------------------------------------------------------------- warm-up

__global__ void mb_spin_kernel(float* sink, float a, float b, int iters) {
    float x = static_cast<float>(threadIdx.x);
    for (int i = 0; i < iters; ++i) x = fmaf(x, a, b);
    if (x == -1.0f) sink[threadIdx.x] = x;  // never true for a=1,b=0; keeps the loop
}

// Keeps every SM busy for about `seconds` so that the clocks ramp up.
inline void warm_gpu(const DevInfo& d, double seconds) {
    float* sink = nullptr;
    CK(cudaMalloc(&sink, 1024 * sizeof(float)));
    auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
        mb_spin_kernel<<<d.sms * 8, 256>>>(sink, 1.0f, 0.0f, 20000);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        ++n;
    }
    CK(cudaFree(sink));
    std::printf("# warm_gpu: %d spin launches in %.2f s before measuring\n", n, seconds);
}

// ---------------------------------------------------------------- checks

inline int& failures() {
    static int f = 0;
    return f;
}

// Records a check result and returns the CSV word for it.
inline const char* note_check(bool ok) {
    if (!ok) ++failures();
    return ok ? "PASS" : "FAIL";
}

inline int finish(const char* program, const Budget& b) {
    std::printf("# S %s: checks_failed=%d elapsed_s=%.1f\n", program, failures(), b.elapsed());
    if (gate_wanted()) std::printf("# gate_expired: %d\n", gate_expired());
    std::printf("# end\n");
    std::fflush(stdout);
    std::fprintf(stderr, "[%s] done in %.1f s, %d failed checks\n", program, b.elapsed(),
                 failures());
    return failures() ? 1 : 0;
}

// ---------------------------------------------------------------- parts

// The part of a program to run: all of them, or the one its first argument
// names (`mergeburst burst`).
struct Parts {
    const char* only;
    Parts(int argc, char** argv) : only(argc > 1 ? argv[1] : nullptr) {}
    bool operator()(const char* p) const { return only == nullptr || std::strcmp(only, p) == 0; }
};

// ---------------------------------------------------------------- device readings

// The SM this thread runs on.
__device__ __forceinline__ unsigned smid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

// Lets one thread of each SM in at a time, in the order the SMs arrive:
// claims this SM (false for a second block on an SM already claimed, or an
// SM at or above max_sm: return then), records it in order[its ticket],
// waits until *turn reaches that ticket and fences. sm is the SM. The
// caller adds 1 to *turn when its turn is over.
__device__ __forceinline__ bool sm_turn(unsigned* claim, unsigned* ticket, const unsigned* turn, unsigned* order,
                                        unsigned max_sm, unsigned& sm) {
    sm = smid();
    if (sm >= max_sm) return false;
    if (atomicCAS(&claim[sm], 0u, 1u) != 0u) return false;
    const unsigned t = atomicAdd(ticket, 1u);
    order[t] = sm;
    while (*(const volatile unsigned*)turn != t) __nanosleep(2000);
    __threadfence();
    return true;
}

// The GPU's global timer, in ns.
__device__ __forceinline__ unsigned long long gtimer() {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
    return r;
}

// The global timer with a memory clobber: loads and atomics stay on their side.
__device__ __forceinline__ unsigned long long gtimer_ordered() {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)::"memory");
    return r;
}

// The SM's clock64 with a memory clobber: loads and atomics stay on their side.
__device__ __forceinline__ long long clock_ordered() {
    long long r;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(r)::"memory");
    return r;
}

// ---------------------------------------------------------------- per-SM rows

// One CSV row of a figure per SM id: "part,kernel,rep,what,v0 v1 ...",
// each figure rounded to a whole number (firstpop, prolog).
inline void per_sm_row(const char* part, const char* kernel, int rep, const char* what, const std::vector<double>& v) {
    std::printf("%s,%s,%d,%s,", part, kernel, rep, what);
    for (size_t s = 0; s < v.size(); ++s) std::printf(s ? " %.0f" : "%.0f", v[s]);
    std::printf("\n");
}

// The largest figure of a per-SM row (the busiest SM's) and how many SMs
// have any.
inline void busiest(const std::vector<double>& v, double& most, int& sms) {
    most = 0;
    sms = 0;
    for (double x : v) {
        most = std::max(most, x);
        sms += x > 0;
    }
}

// The order an L2 served a hot word's warps in, from each warp's start
// (the lowest value its atomicAdd(head, k) returned): the warps sorted by
// start. distinct: every warp ran on an SM below sms and no two warps got
// the same start; aggregated: the i-th served got exactly i * 32 * k, one
// ATOMG a warp (l2sm, firstpop, prolog).
inline std::vector<int> served_order(const std::vector<unsigned>& sm, const std::vector<unsigned>& start, int sms,
                                     unsigned k, bool& distinct, bool& aggregated) {
    std::vector<int> order(start.size());
    for (size_t w = 0; w < order.size(); ++w) order[w] = (int)w;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return start[a] < start[b]; });
    distinct = aggregated = true;
    for (size_t i = 0; i < order.size(); ++i) {
        const int w = order[i];
        if (sm[w] >= (unsigned)sms || (i > 0 && start[w] == start[order[i - 1]])) distinct = false;
        if (start[w] != (unsigned)i * 32u * k) aggregated = false;
    }
    return order;
}

// ---------------------------------------------------------------- random

// A 32-bit integer mixer (xorshift-multiply finaliser). Host and device.
__host__ __device__ inline uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A fixed-seed 64-bit linear congruential generator (Knuth's MMIX constants).
struct Lcg {
    uint64_t s;
    explicit Lcg(uint64_t seed) : s(seed) {}
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<uint32_t>(s >> 32);
    }
    // Uniform in [lo, hi).
    float uniform(float lo, float hi) {
        return lo + (hi - lo) * (static_cast<float>(next() >> 8) * (1.0f / 16777216.0f));
    }
};

// The CAS-loop programs' contender values (cas, cas_timeline, cas_wait,
// hotlines): a hash of i to +-[0, 1000), 1 in 1024 of them -0.
__host__ __device__ inline float cas_value(unsigned i) {
    const unsigned h = hash32(i ^ 0x6a09e667u);
    if ((h & 1023u) == 7u) return -0.0f;
    const float mag = (float)(h >> 8) * (1.0f / 16777216.0f) * 1000.0f;
    return (h & 1u) ? -mag - 1.0f : mag;
}

// How many of got's groups (got[g] for contenders g*C .. g*C+C-1) hold other
// than their greatest cas_value (-0.0 == +0.0 counts as right).
inline unsigned cas_wrong_groups(const std::vector<float>& got, unsigned C) {
    unsigned wrong = 0;
    for (unsigned g = 0; g < (unsigned)got.size(); ++g) {
        float w = -INFINITY;
        for (unsigned i = g * C; i < (g + 1) * C; ++i) w = std::max(w, cas_value(i));
        if (!(got[g] == w)) ++wrong;
    }
    return wrong;
}

inline double kahan_sum(const float* x, size_t n) {
    double s = 0, c = 0;
    for (size_t i = 0; i < n; ++i) {
        double y = static_cast<double>(x[i]) - c;
        double t = s + y;
        c = (t - s) - y;
        s = t;
    }
    return s;
}

}  // namespace mb
