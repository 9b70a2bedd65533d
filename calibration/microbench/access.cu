// access.cu: what memory access patterns cost (cost model round 2).
//
// Three experiments, each a kernel family whose bytes moved are fixed while
// the pattern changes:
//   transpose   an n x n float matrix, n = 1024 (4 MiB, fits in L2), 4096 and
//               8192: a coalesced copy (the bandwidth baseline), the naive
//               transpose (coalesced loads, stores 4*n bytes apart: one
//               32-byte sector per lane), and the shared-memory tiled
//               transpose with a 32 x 32 tile and with a 32 x 33 tile (no
//               padding: the column reads of the tile are 32-way bank
//               conflicts; padding removes them). Block 32 x 8, each thread
//               moves 4 elements.
//   stride      4M threads each read one float at in[(i * s) mod len] and
//               write out[i]: s = 1, 2, 4, 8, 16, 32 (1 to 32 sectors per warp
//               request), len = 4M * 32 floats so every stride reads fresh
//               lines.
//   banks       every thread of 132*8 blocks of 256 reads shared word
//               (t * s) mod 8192 4096 times: s = 1 (no conflict), 2, 4, 8, 16,
//               32 (32-way) and 33 (none), the replays of a bank conflict
//               alone, with no global traffic in the loop.
// 3 warm-ups + 10 timed, CUDA events around each launch; outputs checked on
// the host.
#include "common.cuh"

namespace {

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void copy2d(const float* __restrict__ in, float* __restrict__ out, int n) {
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(size_t)(y + j) * n + x] = in[(size_t)(y + j) * n + x];
}

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
    const int x = blockIdx.x * TILE + threadIdx.x;
    const int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(size_t)x * n + (y + j)] = in[(size_t)(y + j) * n + x];
}

template <int PAD>
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void read_stride(const float* __restrict__ in, float* __restrict__ out, int threads,
                            int stride, size_t len) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < threads) out[i] = in[((size_t)i * stride) % len];
}

__global__ void shared_banks(float* out, int stride, int iters) {
    __shared__ float s[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = (float)(i & 7);
    __syncthreads();
    float acc = 0.0f;
    int idx = (threadIdx.x * stride) & 8191;
    for (int k = 0; k < iters; ++k) {
        acc += s[idx];
        idx = (idx + 1) & 8191;  // the next word: same conflict degree, no reuse by the compiler
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "access", "global access patterns (transpose, stride) and shared bank conflicts", argc, argv);
    mb::Budget budget(60.0);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;
    const int warm = 3, reps = 10;
    auto none = [](int) {};

    std::printf("experiment,kernel,n,param,bytes_moved,median_ms,mean_ms,min_ms,max_ms,stdev_ms,gbps,check\n");

    // ---- transpose
    for (int n : {1024, 4096, 8192}) {
        if (budget.over("transpose")) break;
        const size_t elems = (size_t)n * n;
        std::vector<float> h(elems);
        for (size_t i = 0; i < elems; ++i) h[i] = (float)(mb::hash32((uint32_t)i) & 0xffff);
        float *in, *out;
        CK(cudaMalloc(&in, elems * 4));
        CK(cudaMalloc(&out, elems * 4));
        CK(cudaMemcpy(in, h.data(), elems * 4, cudaMemcpyHostToDevice));
        const dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
        const char* names[4] = {"copy", "naive", "tiled_nopad", "tiled_pad"};
        for (int k = 0; k < 4; ++k) {
            auto launch = [&](int) {
                switch (k) {
                case 0: copy2d<<<grid, block>>>(in, out, n); break;
                case 1: transpose_naive<<<grid, block>>>(in, out, n); break;
                case 2: transpose_tiled<0><<<grid, block>>>(in, out, n); break;
                default: transpose_tiled<1><<<grid, block>>>(in, out, n); break;
                }
            };
            CK(cudaMemset(out, 0, elems * 4));
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, warm, reps, none, launch));
            std::vector<float> got(elems);
            CK(cudaMemcpy(got.data(), out, elems * 4, cudaMemcpyDeviceToHost));
            bool ok = true;
            for (size_t r = 0; r < (size_t)n && ok; r += 7)
                for (size_t c = 0; c < (size_t)n; c += 5) {
                    const float want = k == 0 ? h[r * n + c] : h[c * n + r];
                    if (got[r * n + c] != want) { ok = false; break; }
                }
            const double bytes = 2.0 * elems * 4;
            std::printf("transpose,%s,%d,0,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%.1f,%s\n", names[k], n, bytes,
                        s.median, s.mean, s.min, s.max, s.stdev, bytes / (s.median * 1e6), mb::note_check(ok));
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- stride
    {
        const int threads = 1 << 22;
        const size_t len = (size_t)threads * 32;
        float *in, *out;
        CK(cudaMalloc(&in, len * 4));
        CK(cudaMalloc(&out, (size_t)threads * 4));
        std::vector<float> h(len);
        for (size_t i = 0; i < len; ++i) h[i] = (float)(i & 1023);
        CK(cudaMemcpy(in, h.data(), len * 4, cudaMemcpyHostToDevice));
        for (int s : {1, 2, 4, 8, 16, 32}) {
            if (budget.over("stride")) break;
            auto launch = [&](int) { read_stride<<<threads / 256, 256>>>(in, out, threads, s, len); };
            const mb::Stats st = mb::stats_of(mb::time_runs(tm, warm, reps, none, launch));
            std::vector<float> got(threads);
            CK(cudaMemcpy(got.data(), out, (size_t)threads * 4, cudaMemcpyDeviceToHost));
            bool ok = true;
            for (int i = 0; i < threads; i += 97)
                if (got[i] != h[((size_t)i * s) % len]) { ok = false; break; }
            const double bytes = 2.0 * threads * 4;
            std::printf("stride,read_stride,%d,%d,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%.1f,%s\n", threads, s, bytes,
                        st.median, st.mean, st.min, st.max, st.stdev, bytes / (st.median * 1e6), mb::note_check(ok));
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- shared banks
    {
        const int blocks = dev.sms * 8, threads = 256, iters = 4096;
        float* out;
        CK(cudaMalloc(&out, (size_t)blocks * threads * 4));
        for (int s : {1, 2, 4, 8, 16, 32, 33}) {
            if (budget.over("banks")) break;
            auto launch = [&](int) { shared_banks<<<blocks, threads>>>(out, s, iters); };
            const mb::Stats st = mb::stats_of(mb::time_runs(tm, warm, reps, none, launch));
            std::vector<float> got((size_t)blocks * threads);
            CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
            bool ok = true;
            for (int t = 0; t < threads && ok; ++t) {
                float acc = 0.0f;
                int idx = (t * s) & 8191;
                for (int k = 0; k < iters; ++k) { acc += (float)(idx & 7); idx = (idx + 1) & 8191; }
                ok = got[t] == acc && got[(size_t)(blocks - 1) * threads + t] == acc;
            }
            const double loads = (double)blocks * threads * iters;
            std::printf("banks,shared_banks,%d,%d,%.0f,%.5f,%.5f,%.5f,%.5f,%.5f,%.1f,%s\n", blocks * threads, s,
                        loads * 4, st.median, st.mean, st.min, st.max, st.stdev, loads * 4 / (st.median * 1e6),
                        mb::note_check(ok));
        }
        CK(cudaFree(out));
    }
    return mb::finish("access", budget);
}
