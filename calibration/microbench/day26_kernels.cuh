// day26_kernels.cuh: the Day 26 "one sum three ways" kernels (plus a warp
// shuffle variant), with the block size as a template parameter.
//
// They keep the shape of the Day 26 course page's kernels: one element per
// thread, index blockIdx.x * blockDim.x + threadIdx.x in size_t, a bounds test,
// and a single float accumulator passed by pointer.
//   sum_global_atomic<B>   every thread: atomicAdd(total, in[i])
//   sum_shared_atomic<B>   every thread: atomicAdd(&block_sum_in_shared, in[i]);
//                          thread 0: atomicAdd(total, block_sum)
//   sum_tree_atomic<B>     shared tile of B floats, halving tree with a barrier
//                          per level; thread 0: atomicAdd(total, tile[0])
//   sum_shuffle_atomic<B>  warp shuffle-down reduction, warp partials in shared,
//                          warp 0 reduces them; thread 0: one atomicAdd
// Launch with exactly B threads per block and ceil(n / B) blocks. No
// __launch_bounds__, as on the course page, so register allocation is nvcc's default.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace day26 {

template <int B>
__global__ void sum_global_atomic(const float* __restrict__ in, float* __restrict__ total, size_t n) {
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, in[i]);
}

template <int B>
__global__ void sum_shared_atomic(const float* __restrict__ in, float* __restrict__ total, size_t n) {
    __shared__ float block_total;
    const unsigned tid = threadIdx.x;
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
    if (tid == 0) block_total = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd(&block_total, in[i]);
    __syncthreads();
    if (tid == 0) atomicAdd(total, block_total);
}

template <int B>
__global__ void sum_tree_atomic(const float* __restrict__ in, float* __restrict__ total, size_t n) {
    static_assert(B >= 32 && (B & (B - 1)) == 0, "B must be a power of two >= 32");
    __shared__ float tile[B];
    const unsigned tid = threadIdx.x;
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
    tile[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned half = B / 2; half > 0; half /= 2) {
        if (tid < half) tile[tid] += tile[tid + half];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(total, tile[0]);
}

template <int B>
__global__ void sum_shuffle_atomic(const float* __restrict__ in, float* __restrict__ total, size_t n) {
    static_assert(B >= 32 && B <= 1024 && (B % 32) == 0, "B must be a multiple of 32");
    constexpr int kWarps = B / 32;
    __shared__ float warp_part[kWarps];
    const unsigned tid = threadIdx.x;
    const unsigned lane = tid & 31u;
    const unsigned warp = tid >> 5;
    const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
    float v = (i < n) ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float w = (lane < static_cast<unsigned>(kWarps)) ? warp_part[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1) w += __shfl_down_sync(0xffffffffu, w, off);
        if (lane == 0) atomicAdd(total, w);
    }
}

enum Kind { GLOBAL = 0, SHARED = 1, TREE = 2, SHUFFLE = 3, NUM_KINDS = 4 };

inline const char* kind_name(int k) {
    switch (k) {
        case GLOBAL: return "global";
        case SHARED: return "shared";
        case TREE: return "tree";
        default: return "shuffle";
    }
}

using SumKernel = void (*)(const float*, float*, size_t);

template <int B>
SumKernel pick(int kind) {
    switch (kind) {
        case GLOBAL: return sum_global_atomic<B>;
        case SHARED: return sum_shared_atomic<B>;
        case TREE: return sum_tree_atomic<B>;
        default: return sum_shuffle_atomic<B>;
    }
}

// Kernel for a run-time block size (64, 128, 256, 512 or 1024); nullptr otherwise.
inline SumKernel pick_kernel(int block, int kind) {
    switch (block) {
        case 32: return pick<32>(kind);
        case 64: return pick<64>(kind);
        case 128: return pick<128>(kind);
        case 256: return pick<256>(kind);
        case 512: return pick<512>(kind);
        case 1024: return pick<1024>(kind);
        default: return nullptr;
    }
}

}  // namespace day26
