// atomics_global.cu: global-memory atomic throughput against contention.
//
// One atomic per thread, T = 2^26 threads (override: argv[1] = log2 T),
// 256 threads per block. For each operation and each address pattern the
// kernel is launched warm + reps times; before every launch the targets are
// zeroed (outside the timed region), so each launch starts from a fresh
// accumulator and the last one is checked against a host reference.
//
// Operations (what the source says; the SASS dump shows what nvcc made of it):
//   f32_red        atomicAdd(float*, v)                    result unused
//   f32_atom       out[t] = atomicAdd(float*, v)           result used
//   u32_one_red    atomicAdd(unsigned*, 1u)                result unused
//   u32_one_atom   out[t] = atomicAdd(unsigned*, 1u)
//   u32_lane_red   atomicAdd(unsigned*, (t & 7) + 1)       per-lane value
//   u32_lane_atom  out[t] = atomicAdd(unsigned*, (t & 7) + 1)
//   u64_one_red    atomicAdd(unsigned long long*, 1ull)
// Float values: v(t) = (bit 12 of t ? -1 : +1) + (t < 2^20 ? 1 : 0), small
// integers whose partial sums stay far below 2^24, so every sum is exact
// whatever the order; never all zero.
//
// Address patterns (index of the element each thread t adds to):
//   one          0, a compile-time uniform address (nvcc may warp-aggregate)
//   one_rt       t & 0 with the mask a kernel argument: one address at run
//                time, but the compiler cannot prove it uniform
//   sameline_k   t % k, k = 2..32 consecutive elements (one 128-byte line for
//                4-byte types; u64 at k = 32 spans two lines)
//   difflines_k  (t % k) * (128 / sizeof(T)): k addresses in k different lines
//   warp         t / 32: one address per warp, consecutive elements
//   warp_padded  (t / 32) * (128 / sizeof(T)): one line per warp
//   distinct     t: one address per thread, coalesced
//
// Output: CSV on stdout, one row per (op, pattern).
#include "common.cuh"

namespace {

enum Mode { M_ONE = 0, M_MOD = 1, M_WARP = 2, M_DISTINCT = 3 };

enum Op {
    OP_F32_RED = 0,
    OP_F32_ATOM,
    OP_U32_ONE_RED,
    OP_U32_ONE_ATOM,
    OP_U32_LANE_RED,
    OP_U32_LANE_ATOM,
    OP_U64_ONE_RED,
    NUM_OPS
};

const char* kOpName[NUM_OPS] = {"f32_red",       "f32_atom",      "u32_one_red", "u32_one_atom",
                                "u32_lane_red",  "u32_lane_atom", "u64_one_red"};
const char* kOpType[NUM_OPS] = {"float", "float", "u32", "u32", "u32", "u32", "u64"};
const char* kOpInstr[NUM_OPS] = {"red", "atom", "red", "atom", "red", "atom", "red"};
const char* kOpValue[NUM_OPS] = {"pm1",  "pm1",  "one", "one",
                                 "lane", "lane", "one"};
const int kOpElem[NUM_OPS] = {4, 4, 4, 4, 4, 4, 8};

__host__ __device__ inline float f32_value(unsigned long long t) {
    return (((t >> 12) & 1ull) ? -1.0f : 1.0f) + (t < (1ull << 20) ? 1.0f : 0.0f);
}

__host__ __device__ inline unsigned lane_value(unsigned long long t) {
    return static_cast<unsigned>(t & 7ull) + 1u;
}

template <int MODE>
__device__ __forceinline__ size_t target_index(unsigned long long t, unsigned long long kmask,
                                               unsigned stride) {
    if constexpr (MODE == M_ONE) {
        return 0;
    } else if constexpr (MODE == M_MOD) {
        return static_cast<size_t>(t & kmask) * stride;
    } else if constexpr (MODE == M_WARP) {
        return static_cast<size_t>(t >> 5) * stride;
    } else {
        return static_cast<size_t>(t);
    }
}

template <int OP, int MODE>
__global__ void __launch_bounds__(256)
    atomic_kernel(void* target, void* ret, unsigned long long kmask, unsigned stride) {
    const unsigned long long t =
        static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t idx = target_index<MODE>(t, kmask, stride);
    if constexpr (OP == OP_F32_RED) {
        atomicAdd(static_cast<float*>(target) + idx, f32_value(t));
    } else if constexpr (OP == OP_F32_ATOM) {
        static_cast<float*>(ret)[t] = atomicAdd(static_cast<float*>(target) + idx, f32_value(t));
    } else if constexpr (OP == OP_U32_ONE_RED) {
        atomicAdd(static_cast<unsigned*>(target) + idx, 1u);
    } else if constexpr (OP == OP_U32_ONE_ATOM) {
        static_cast<unsigned*>(ret)[t] = atomicAdd(static_cast<unsigned*>(target) + idx, 1u);
    } else if constexpr (OP == OP_U32_LANE_RED) {
        atomicAdd(static_cast<unsigned*>(target) + idx, lane_value(t));
    } else if constexpr (OP == OP_U32_LANE_ATOM) {
        static_cast<unsigned*>(ret)[t] =
            atomicAdd(static_cast<unsigned*>(target) + idx, lane_value(t));
    } else if constexpr (OP == OP_U64_ONE_RED) {
        atomicAdd(static_cast<unsigned long long*>(target) + idx, 1ull);
    }
}

using KernelFn = void (*)(void*, void*, unsigned long long, unsigned);

template <int OP>
KernelFn pick_mode(int mode) {
    switch (mode) {
        case M_ONE: return atomic_kernel<OP, M_ONE>;
        case M_MOD: return atomic_kernel<OP, M_MOD>;
        case M_WARP: return atomic_kernel<OP, M_WARP>;
        default: return atomic_kernel<OP, M_DISTINCT>;
    }
}

KernelFn pick_kernel(int op, int mode) {
    switch (op) {
        case OP_F32_RED: return pick_mode<OP_F32_RED>(mode);
        case OP_F32_ATOM: return pick_mode<OP_F32_ATOM>(mode);
        case OP_U32_ONE_RED: return pick_mode<OP_U32_ONE_RED>(mode);
        case OP_U32_ONE_ATOM: return pick_mode<OP_U32_ONE_ATOM>(mode);
        case OP_U32_LANE_RED: return pick_mode<OP_U32_LANE_RED>(mode);
        case OP_U32_LANE_ATOM: return pick_mode<OP_U32_LANE_ATOM>(mode);
        default: return pick_mode<OP_U64_ONE_RED>(mode);
    }
}

struct Pattern {
    std::string name;
    int mode;
    unsigned long long k;  // distinct addresses
    bool padded;           // 128 bytes between addresses (else consecutive elements)
};

// Host value of thread t's addend, as a double (exact for all three kinds).
double host_value(int op, unsigned long long t) {
    switch (op) {
        case OP_F32_RED:
        case OP_F32_ATOM: return f32_value(t);
        case OP_U32_LANE_RED:
        case OP_U32_LANE_ATOM: return lane_value(t);
        default: return 1.0;
    }
}

int value_kind(int op) {  // 0 = pm1 float, 1 = one, 2 = lane
    if (op == OP_F32_RED || op == OP_F32_ATOM) return 0;
    if (op == OP_U32_LANE_RED || op == OP_U32_LANE_ATOM) return 2;
    return 1;
}

// Expected per-address sums for the patterns with few addresses (one, one_rt,
// sameline, difflines), for the three value kinds; computed once per pattern.
struct SmallRef {
    std::vector<double> sum[3];
    std::vector<double> abs_sum[3];
};

SmallRef small_reference(unsigned long long k, unsigned long long T) {
    SmallRef r;
    for (int v = 0; v < 3; ++v) {
        r.sum[v].assign(k, 0.0);
        r.abs_sum[v].assign(k, 0.0);
    }
    const unsigned long long mask = k - 1;
    for (unsigned long long t = 0; t < T; ++t) {
        const unsigned long long a = t & mask;
        const double f = f32_value(t);
        r.sum[0][a] += f;
        r.abs_sum[0][a] += std::fabs(f);
        r.sum[1][a] += 1.0;
        r.abs_sum[1][a] += 1.0;
        const double l = lane_value(t);
        r.sum[2][a] += l;
        r.abs_sum[2][a] += l;
    }
    return r;
}

double element_as_double(const unsigned char* base, int elem, int op, size_t i) {
    if (op == OP_F32_RED || op == OP_F32_ATOM) {
        float f;
        std::memcpy(&f, base + i * 4, 4);
        return f;
    }
    if (elem == 8) {
        unsigned long long u;
        std::memcpy(&u, base + i * 8, 8);
        return static_cast<double>(u);
    }
    unsigned u;
    std::memcpy(&u, base + i * 4, 4);
    return static_cast<double>(u);
}

// Checks the target span after one launch. Returns the largest absolute error;
// *ok says whether it is within tolerance (exact for integers; for floats
// 1e-6 of the sum of |addends| at that address, a bound no real order reaches
// for these inputs, while a launch that lost its atomics misses by far more).
double check_target(const Pattern& p, int op, unsigned long long T, unsigned stride_elems,
                    const unsigned char* host, size_t span_elems, const SmallRef* small,
                    bool* ok) {
    const int elem = kOpElem[op];
    const bool is_float = (op == OP_F32_RED || op == OP_F32_ATOM);
    const int vk = value_kind(op);
    double max_err = 0;
    bool good = true;
    auto judge = [&](double got, double want, double abs_sum) {
        const double err = std::fabs(got - want);
        max_err = std::max(max_err, err);
        const double tol = is_float ? 1e-6 * abs_sum : 0.0;
        if (err > tol) good = false;
    };
    if (p.mode == M_ONE || p.mode == M_MOD) {
        // Every element of the span: addresses hold their sums, gaps hold 0.
        for (size_t i = 0; i < span_elems; ++i) {
            const double got = element_as_double(host, elem, op, i);
            if (i % stride_elems == 0 && i / stride_elems < p.k) {
                const size_t a = i / stride_elems;
                judge(got, small->sum[vk][a], small->abs_sum[vk][a]);
            } else {
                judge(got, 0.0, 0.0);
            }
        }
    } else if (p.mode == M_WARP) {
        const unsigned long long warps = T / 32;
        for (unsigned long long w = 0; w < warps; ++w) {
            double want = 0, abs_sum = 0;
            for (unsigned long long t = w * 32; t < w * 32 + 32; ++t) {
                const double v = host_value(op, t);
                want += v;
                abs_sum += std::fabs(v);
            }
            judge(element_as_double(host, elem, op, w * stride_elems), want, abs_sum);
            if (stride_elems > 1 && w % 4096 == 0) {  // sample the padding
                for (unsigned g = 1; g < stride_elems; ++g)
                    judge(element_as_double(host, elem, op, w * stride_elems + g), 0.0, 0.0);
            }
        }
    } else {
        for (unsigned long long t = 0; t < T; ++t) {
            const double v = host_value(op, t);
            judge(element_as_double(host, elem, op, t), v, std::fabs(v));
        }
    }
    *ok = good;
    return max_err;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "atomics_global", "global atomic throughput vs number of distinct addresses and lines",
        argc, argv);
    mb::Budget budget(100.0);

    int log2T = 26;
    if (argc > 1) log2T = std::max(14, std::min(28, std::atoi(argv[1])));
    const unsigned long long T = 1ull << log2T;
    const int block = 256;
    const unsigned grid = static_cast<unsigned>(T / block);
    std::printf("# threads: %llu block: %d grid: %u\n", T, block, grid);
    std::printf("# f32 addend: v(t) = (bit12(t) ? -1 : +1) + (t < 2^20 ? 1 : 0); "
                "u32 lane addend: (t & 7) + 1\n");
    std::printf("# reps are adaptive: 2 warm-ups, then 3..10 timed launches (about 0.4 s)\n");

    // Largest span: distinct u64 = T * 8 bytes; warp_padded = T/32 * 128 = 4T bytes.
    const size_t target_bytes = static_cast<size_t>(T) * 8;
    void* d_target = nullptr;
    void* d_ret = nullptr;
    CK(cudaMalloc(&d_target, target_bytes));
    CK(cudaMalloc(&d_ret, static_cast<size_t>(T) * 4));
    CK(cudaMemset(d_ret, 0, static_cast<size_t>(T) * 4));
    unsigned char* h_target = nullptr;
    CK(cudaMallocHost(&h_target, target_bytes));

    std::vector<Pattern> pats;
    pats.push_back({"one", M_ONE, 1, false});
    pats.push_back({"distinct", M_DISTINCT, T, false});
    pats.push_back({"one_rt", M_MOD, 1, false});
    for (unsigned long long k = 2; k <= 32; k *= 2)
        pats.push_back({"sameline_" + std::to_string(k), M_MOD, k, false});
    for (unsigned long long k = 2; k <= 1024; k *= 2)
        pats.push_back({"difflines_" + std::to_string(k), M_MOD, k, true});
    pats.push_back({"difflines_4096", M_MOD, 4096, true});
    pats.push_back({"warp", M_WARP, T / 32, false});
    pats.push_back({"warp_padded", M_WARP, T / 32, true});

    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("op,type,instr,value,pattern,k_addresses,stride_bytes,lines,threads,block,warm,"
                "reps,median_ms,mean_ms,min_ms,max_ms,stdev_ms,ns_per_atomic,"
                "gatomics_per_s,check,max_abs_err\n");
    std::fflush(stdout);

    bool stop = false;
    for (const Pattern& p : pats) {
        if (stop) break;
        SmallRef small;
        if (p.mode == M_ONE || p.mode == M_MOD) small = small_reference(p.k, T);
        for (int op = 0; op < NUM_OPS; ++op) {
            if (budget.over(("pattern " + p.name + " op " + kOpName[op]).c_str())) {
                stop = true;
                break;
            }
            const int elem = kOpElem[op];
            const unsigned stride_elems = p.padded ? 128u / elem : 1u;
            size_t span_elems;
            if (p.mode == M_ONE) span_elems = 1;
            else if (p.mode == M_MOD) span_elems = static_cast<size_t>(p.k - 1) * stride_elems + 1;
            else if (p.mode == M_WARP) span_elems = static_cast<size_t>(T / 32) * stride_elems;
            else span_elems = static_cast<size_t>(T);
            const size_t span_bytes = span_elems * elem;
            const unsigned long long lines =
                p.padded ? p.k : (p.k * elem + 127) / 128;
            const KernelFn fn = pick_kernel(op, p.mode);
            const unsigned long long kmask = p.k - 1;

            auto setup = [&](int) { CK(cudaMemsetAsync(d_target, 0, span_bytes, 0)); };
            auto launch = [&](int) {
                fn<<<grid, block>>>(d_target, d_ret, kmask, stride_elems);
            };
            // Two warm-ups; the second one sizes the number of timed runs.
            std::vector<double> w = mb::time_runs(tm, 0, 2, setup, launch);
            int reps = static_cast<int>(0.4 / std::max(w[1] * 1e-3, 1e-6));
            reps = std::max(3, std::min(10, reps));
            std::vector<double> ms = mb::time_runs(tm, 0, reps, setup, launch);
            const mb::Stats s = mb::stats_of(ms);

            CK(cudaMemcpy(h_target, d_target, span_bytes, cudaMemcpyDeviceToHost));
            bool ok = false;
            const double err = check_target(p, op, T, stride_elems, h_target, span_elems,
                                            (p.mode == M_ONE || p.mode == M_MOD) ? &small : nullptr,
                                            &ok);
            const double ns = s.median * 1e6 / static_cast<double>(T);
            std::printf("%s,%s,%s,%s,%s,%llu,%d,%llu,%llu,%d,2,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,"
                        "%.4f,%s,%.6g\n",
                        kOpName[op], kOpType[op], kOpInstr[op], kOpValue[op], p.name.c_str(),
                        p.k, static_cast<int>(stride_elems * elem), lines, T, block, reps,
                        s.median, s.mean, s.min, s.max, s.stdev, ns, 1.0 / ns,
                        mb::note_check(ok), err);
            std::fflush(stdout);
        }
        std::fprintf(stderr, "[atomics_global] pattern %s done (%.1f s)\n", p.name.c_str(),
                     budget.elapsed());
    }

    CK(cudaFreeHost(h_target));
    CK(cudaFree(d_ret));
    CK(cudaFree(d_target));
    return mb::finish("atomics_global", budget);
}
