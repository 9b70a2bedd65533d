// l2probe.cu: one launch of each L2 access pattern, for Nsight Compute's L2
// counters (hit rate, sectors by operation, the busiest slice), not for
// timing. calibration/scripts/ncu-l2.sh runs it under ncu, which flushes the caches
// before every profiled launch (--cache-control all), so each launch starts
// from a cold L2, as gpusim's L2 residency model does.
//
// The launches, in order (the "launch" column numbers them from 0, ncu's
// kernel IDs in the same order):
//   softmax    the softmax lab's three denominator kernels (labs/softmax/
//              kernels: denomAtomic, denomShared, denomShuffle) at n =
//              65,536, 1,048,576 and 16,777,216, block 256: one global float
//              atomic per element, per block, per block after a shuffle tree
//   l2_stride  l1reuse.cu's kernel: a 16 MB buffer, grid SMs x 8 of 256, 64
//              loads per thread at word ((t + k T) * s) mod 4M, s = 1, 8, 32:
//              the buffer is touched about 33 (s = 8) times over
//   read_stride access.cu's kernel: 4M threads each read one float at
//              (i * s) mod (4M * 32) of a 512 MB buffer, s = 1, 8, 32: no
//              reuse
//   copy       out[i] = in[i] over 64 MB each (16M floats)
//   reread     every thread of SMs x 8 blocks of 256 sums a buffer of B
//              bytes twice, grid-stride, pass after pass: B = 16, 40 and 96
//              MB (below, near and above the L2's 60 MiB)
//   hot_lines  16,384 warps; lane 0 of warp w adds 1.0f to counter w mod k,
//              the counters 128 bytes apart (one L2 line each): k = 1, 2, 8,
//              32, 128: how k hot lines spread over the L2's slices
// Inputs are host-generated and copied in (no fill kernels, so every
// profiled launch is one of the above).
#include "common.cuh"

namespace {

// The lab's kernels, the same source the lab runs.
#include "../../../../labs/softmax/kernels/atomic.cu"
#include "../../../../labs/softmax/kernels/shared.cu"
#include "../../../../labs/softmax/kernels/shuffle.cu"

__global__ void l2_stride(const unsigned* in, unsigned mask, unsigned stride, int iters, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int k = 0; k < iters; ++k) s += in[((t + (unsigned)k * T) * stride) & mask];
    out[t] = s;
}

__global__ void read_stride(const float* __restrict__ in, float* __restrict__ out, int threads, int stride,
                            size_t len) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < threads) out[i] = in[((size_t)i * stride) % len];
}

__global__ void copy_stream(const float* __restrict__ in, float* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void reread(const unsigned* in, unsigned n, unsigned* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    unsigned s = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (unsigned i = t; i < n; i += T) s += in[i];
    out[t] = s;
}

__global__ void hot_lines(float* c, unsigned k) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) == 0) atomicAdd(&c[((t >> 5) % k) * 32], 1.0f);
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "l2probe", "one launch per L2 access pattern, for ncu's L2 counters (no timing)", argc, argv);
    std::printf("launch,experiment,kernel,n,param,grid,block,bytes_read\n");
    int launch = 0;
    auto row = [&](const char* experiment, const char* kernel, size_t n, unsigned param, int grid, int block,
                   double bytes) {
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        std::printf("%d,%s,%s,%zu,%u,%d,%d,%.0f\n", launch++, experiment, kernel, n, param, grid, block, bytes);
        std::fflush(stdout);
    };

    // ---- softmax
    {
        const int maxN = 1 << 24, block = 256;
        std::vector<float> h(maxN);
        mb::Lcg rng(2024);
        for (auto& v : h) v = rng.uniform(-1.0f, 1.0f);
        float *x, *denom;
        CK(cudaMalloc(&x, (size_t)maxN * 4));
        CK(cudaMalloc(&denom, 4));
        CK(cudaMemcpy(x, h.data(), (size_t)maxN * 4, cudaMemcpyHostToDevice));
        for (int n : {1 << 16, 1 << 20, 1 << 24}) {
            const int grid = (n + block - 1) / block;
            const char* names[3] = {"denomAtomic", "denomShared", "denomShuffle"};
            for (int k = 0; k < 3; ++k) {
                CK(cudaMemset(denom, 0, 4));
                switch (k) {
                case 0: denomAtomic<<<grid, block>>>(x, denom, n); break;
                case 1: denomShared<<<grid, block>>>(x, denom, n); break;
                default: denomShuffle<<<grid, block>>>(x, denom, n); break;
                }
                row("softmax", names[k], n, 0, grid, block, 4.0 * n);
            }
        }
        CK(cudaFree(x));
        CK(cudaFree(denom));
    }

    // ---- l2_stride (l1reuse.cu)
    {
        const unsigned words = 1u << 22;
        const int grid = dev.sms * 8, block = 256;
        std::vector<unsigned> h(words);
        for (unsigned i = 0; i < words; ++i) h[i] = mb::hash32(i) & 0xff;
        unsigned *in, *out;
        CK(cudaMalloc(&in, (size_t)words * 4));
        CK(cudaMalloc(&out, (size_t)grid * block * 4));
        CK(cudaMemcpy(in, h.data(), (size_t)words * 4, cudaMemcpyHostToDevice));
        for (unsigned s : {1u, 8u, 32u}) {
            l2_stride<<<grid, block>>>(in, words - 1, s, 64, out);
            row("l2_stride", "l2_stride", words, s, grid, block, 64.0 * grid * block * 4);
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- read_stride (access.cu)
    {
        const int threads = 1 << 22, block = 256;
        const size_t len = (size_t)threads * 32;
        std::vector<float> h(len);
        for (size_t i = 0; i < len; ++i) h[i] = (float)(i & 1023);
        float *in, *out;
        CK(cudaMalloc(&in, len * 4));
        CK(cudaMalloc(&out, (size_t)threads * 4));
        CK(cudaMemcpy(in, h.data(), len * 4, cudaMemcpyHostToDevice));
        for (int s : {1, 8, 32}) {
            read_stride<<<threads / block, block>>>(in, out, threads, s, len);
            row("read_stride", "read_stride", threads, s, threads / block, block, 4.0 * threads);
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- copy
    {
        const int n = 1 << 24, block = 256;
        std::vector<float> h(n);
        for (int i = 0; i < n; ++i) h[i] = (float)(i & 1023);
        float *in, *out;
        CK(cudaMalloc(&in, (size_t)n * 4));
        CK(cudaMalloc(&out, (size_t)n * 4));
        CK(cudaMemcpy(in, h.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        copy_stream<<<n / block, block>>>(in, out, n);
        row("copy", "copy_stream", n, 0, n / block, block, 4.0 * n);
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- reread
    {
        const int grid = dev.sms * 8, block = 256;
        const unsigned maxWords = 96u << 18;  // 96 MB
        std::vector<unsigned> h(maxWords);
        for (unsigned i = 0; i < maxWords; ++i) h[i] = i & 0xff;
        unsigned *in, *out;
        CK(cudaMalloc(&in, (size_t)maxWords * 4));
        CK(cudaMalloc(&out, (size_t)grid * block * 4));
        CK(cudaMemcpy(in, h.data(), (size_t)maxWords * 4, cudaMemcpyHostToDevice));
        for (unsigned mbytes : {16u, 40u, 96u}) {
            const unsigned words = mbytes << 18;
            reread<<<grid, block>>>(in, words, out);
            row("reread", "reread", words, mbytes, grid, block, 2.0 * words * 4);
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }

    // ---- hot_lines
    {
        const int grid = 2048, block = 256;  // 16,384 warps
        float* c;
        CK(cudaMalloc(&c, 128 * 128));
        for (unsigned k : {1u, 2u, 8u, 32u, 128u}) {
            CK(cudaMemset(c, 0, 128 * 128));
            hot_lines<<<grid, block>>>(c, k);
            row("hot_lines", "hot_lines", (size_t)grid * block / 32, k, grid, block, 0);
        }
        CK(cudaFree(c));
    }
    std::printf("# launches: %d\n# end\n", launch);
    return 0;
}
