// atomics_shared.cu: shared-memory atomic throughput against contention.
//
// Blocks of 256 threads; each thread does K = 64 (argv[1]) updates of a slot
// in a 256-entry shared array, then the block writes its 256 shared values
// to global memory (checked against a host reference). The grid is
// SMs * 8 * 4 blocks (four full waves at 8 blocks of 256 per SM), the same
// for every kernel, so the totals are comparable.
//
// Operations:
//   f32_atomic      atomicAdd(&s_f32[slot], v)        (nvcc: a CAS loop)
//   u32_atomic_lane atomicAdd(&s_u32[slot], v)        per-lane v = (tid & 3) + 1
//   u32_atomic_one  atomicAdd(&s_u32[slot], 1u)
//   f32_plain       volatile s[slot] = s[slot] + v    (baseline, own slot only)
//   u32_plain       same for unsigned
// Slot patterns:
//   one       slot 0, a compile-time constant (nvcc may aggregate integers)
//   one_rt    tid & mask, mask = 0 passed at run time (one address, not
//             provably uniform)
//   warp      tid / 32 (8 addresses, one per warp)
//   bank32    tid % 32 (32 distinct words in 32 banks, shared by all warps)
//   thread    tid (256 distinct words, no contention)
// The plain baseline runs only with 'thread' (other patterns would race).
//
// Reported: ns per operation per SM = time * SMs / total operations, and the
// ratio to the plain load+add+store of the same type.
#include "common.cuh"

namespace {

enum SOp { S_F32_ATOMIC = 0, S_U32_ATOMIC_LANE, S_U32_ATOMIC_ONE, S_F32_PLAIN, S_U32_PLAIN, S_NUM_OPS };
enum SPat { P_ONE = 0, P_ONE_RT, P_WARP, P_BANK32, P_THREAD, P_NUM };

const char* kSOpName[S_NUM_OPS] = {"f32_atomic", "u32_atomic_lane", "u32_atomic_one",
                                   "f32_plain", "u32_plain"};
const char* kSPatName[P_NUM] = {"one", "one_rt", "warp", "bank32", "thread"};
const int kSPatAddrs[P_NUM] = {1, 1, 8, 32, 256};

constexpr int kBlock = 256;

template <int PAT>
__device__ __forceinline__ int slot_of(int tid, int mask) {
    if constexpr (PAT == P_ONE) return 0;
    else if constexpr (PAT == P_ONE_RT) return tid & mask;
    else if constexpr (PAT == P_WARP) return tid >> 5;
    else if constexpr (PAT == P_BANK32) return tid & 31;
    else return tid;
}

template <int OP, int PAT>
__global__ void __launch_bounds__(kBlock)
    shared_kernel(float* out_f, unsigned* out_u, int iters, int mask) {
    __shared__ float s_f[kBlock];
    __shared__ unsigned s_u[kBlock];
    const int tid = threadIdx.x;
    s_f[tid] = 0.0f;
    s_u[tid] = 0u;
    __syncthreads();

    const int slot = slot_of<PAT>(tid, mask);
    const float vf = static_cast<float>((tid & 3) + 1);
    const unsigned vu = static_cast<unsigned>((tid & 3) + 1);
    for (int it = 0; it < iters; ++it) {
        if constexpr (OP == S_F32_ATOMIC) {
            atomicAdd(&s_f[slot], vf);
        } else if constexpr (OP == S_U32_ATOMIC_LANE) {
            atomicAdd(&s_u[slot], vu);
        } else if constexpr (OP == S_U32_ATOMIC_ONE) {
            atomicAdd(&s_u[slot], 1u);
        } else if constexpr (OP == S_F32_PLAIN) {
            volatile float* p = s_f;
            p[slot] = p[slot] + vf;
        } else {
            volatile unsigned* p = s_u;
            p[slot] = p[slot] + vu;
        }
    }
    __syncthreads();
    const size_t o = static_cast<size_t>(blockIdx.x) * kBlock + tid;
    if constexpr (OP == S_F32_ATOMIC || OP == S_F32_PLAIN) {
        out_f[o] = s_f[tid];
    } else {
        out_u[o] = s_u[tid];
    }
}

using SKernel = void (*)(float*, unsigned*, int, int);

template <int OP>
SKernel pick_pat(int pat) {
    switch (pat) {
        case P_ONE: return shared_kernel<OP, P_ONE>;
        case P_ONE_RT: return shared_kernel<OP, P_ONE_RT>;
        case P_WARP: return shared_kernel<OP, P_WARP>;
        case P_BANK32: return shared_kernel<OP, P_BANK32>;
        default: return shared_kernel<OP, P_THREAD>;
    }
}

SKernel pick(int op, int pat) {
    switch (op) {
        case S_F32_ATOMIC: return pick_pat<S_F32_ATOMIC>(pat);
        case S_U32_ATOMIC_LANE: return pick_pat<S_U32_ATOMIC_LANE>(pat);
        case S_U32_ATOMIC_ONE: return pick_pat<S_U32_ATOMIC_ONE>(pat);
        case S_F32_PLAIN: return pick_pat<S_F32_PLAIN>(pat);
        default: return pick_pat<S_U32_PLAIN>(pat);
    }
}

int host_slot(int pat, int tid) {
    switch (pat) {
        case P_ONE:
        case P_ONE_RT: return 0;
        case P_WARP: return tid >> 5;
        case P_BANK32: return tid & 31;
        default: return tid;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "atomics_shared", "shared-memory atomic throughput per SM vs contention", argc, argv);
    mb::Budget budget(40.0);

    int iters = 64;
    if (argc > 1) iters = std::max(1, std::atoi(argv[1]));
    const int blocks_per_sm = 8;
    const int waves = 4;
    const int grid = dev.sms * blocks_per_sm * waves;
    const double total_ops = static_cast<double>(grid) * kBlock * iters;
    const int warm = 3, reps = 10;
    std::printf("# block: %d grid: %d iters_per_thread: %d total_ops: %.0f\n", kBlock, grid,
                iters, total_ops);
    std::printf("# values: v = (tid & 3) + 1 (u32_atomic_one adds 1)\n");

    const size_t n_out = static_cast<size_t>(grid) * kBlock;
    float* d_f = nullptr;
    unsigned* d_u = nullptr;
    CK(cudaMalloc(&d_f, n_out * sizeof(float)));
    CK(cudaMalloc(&d_u, n_out * sizeof(unsigned)));
    std::vector<float> h_f(n_out);
    std::vector<unsigned> h_u(n_out);

    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("op,pattern,addresses_per_block,block,grid,iters,total_ops,warm,reps,median_ms,"
                "mean_ms,min_ms,max_ms,stdev_ms,ns_per_op_per_sm,gops_per_s,ratio_to_plain,"
                "check\n");
    std::fflush(stdout);

    // Plain baselines first, so that every atomic row can carry its ratio.
    double plain_ns[2] = {0, 0};  // [0] f32, [1] u32
    struct Row { int op, pat; };
    std::vector<Row> rows = {{S_F32_PLAIN, P_THREAD}, {S_U32_PLAIN, P_THREAD}};
    for (int op : {S_F32_ATOMIC, S_U32_ATOMIC_LANE, S_U32_ATOMIC_ONE})
        for (int pat = 0; pat < P_NUM; ++pat) rows.push_back({op, pat});

    for (const Row& r : rows) {
        if (budget.over(kSOpName[r.op])) break;
        const SKernel fn = pick(r.op, r.pat);
        const bool is_f = (r.op == S_F32_ATOMIC || r.op == S_F32_PLAIN);
        auto setup = [&](int) {
            if (is_f) CK(cudaMemsetAsync(d_f, 0xff, n_out * sizeof(float), 0));
            else CK(cudaMemsetAsync(d_u, 0xff, n_out * sizeof(unsigned), 0));
        };
        auto launch = [&](int) { fn<<<grid, kBlock>>>(d_f, d_u, iters, 0); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));

        // Host reference for one block (all blocks are the same).
        std::vector<double> want(kBlock, 0.0);
        for (int tid = 0; tid < kBlock; ++tid) {
            const double v = (r.op == S_U32_ATOMIC_ONE) ? 1.0 : static_cast<double>((tid & 3) + 1);
            want[host_slot(r.pat, tid)] += v * iters;
        }
        bool ok = true;
        if (is_f) {
            CK(cudaMemcpy(h_f.data(), d_f, n_out * sizeof(float), cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n_out && ok; ++i)
                ok = (static_cast<double>(h_f[i]) == want[i % kBlock]);
        } else {
            CK(cudaMemcpy(h_u.data(), d_u, n_out * sizeof(unsigned), cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n_out && ok; ++i)
                ok = (static_cast<double>(h_u[i]) == want[i % kBlock]);
        }
        const double ns = s.median * 1e6 * dev.sms / total_ops;
        if (r.op == S_F32_PLAIN) plain_ns[0] = ns;
        if (r.op == S_U32_PLAIN) plain_ns[1] = ns;
        const double base = is_f ? plain_ns[0] : plain_ns[1];
        std::printf("%s,%s,%d,%d,%d,%d,%.0f,%d,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%.4f,%.3f,%.3f,%s\n",
                    kSOpName[r.op], kSPatName[r.pat], kSPatAddrs[r.pat], kBlock, grid, iters,
                    total_ops, warm, reps, s.median, s.mean, s.min, s.max, s.stdev, ns,
                    total_ops / (s.median * 1e6), base > 0 ? ns / base : 0.0,
                    mb::note_check(ok));
        std::fflush(stdout);
    }

    CK(cudaFree(d_f));
    CK(cudaFree(d_u));
    return mb::finish("atomics_shared", budget);
}
