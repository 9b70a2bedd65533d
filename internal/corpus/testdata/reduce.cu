// A reduction family: one kernel templated on its element type, its block
// size and whether each thread loads two elements per step. Dynamic shared
// memory comes through SharedMemory<T>, whose double specialization keeps
// the array aligned for 8-byte elements.
#include <cstdio>

template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int shmem_words[];
        return (T*)shmem_words;
    }
    __device__ inline operator const T*() const {
        extern __shared__ int shmem_words[];
        return (T*)shmem_words;
    }
};

template <>
struct SharedMemory<double> {
    __device__ inline operator double*() {
        extern __shared__ double shmem_doubles[];
        return (double*)shmem_doubles;
    }
    __device__ inline operator const double*() const {
        extern __shared__ double shmem_doubles[];
        return (double*)shmem_doubles;
    }
};

template <typename T>
__device__ __forceinline__ T warpReduce(T v) {
    for (int offset = warpSize / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <class T, unsigned int blockSize, bool twoPerThread>
__global__ void reduceBlocks(const T* __restrict__ in, T* __restrict__ partial, unsigned int n) {
    T* smem = SharedMemory<T>();
    const unsigned int tid = threadIdx.x;
    unsigned int step = blockSize * gridDim.x * (twoPerThread ? 2 : 1);
    T acc = 0;
    for (unsigned int i = blockIdx.x * blockSize * (twoPerThread ? 2 : 1) + tid; i < n; i += step) {
        acc += in[i];
        if (twoPerThread && i + blockSize < n) acc += in[i + blockSize];
    }
    smem[tid] = acc;
    __syncthreads();
#pragma unroll
    for (unsigned int s = blockSize / 2; s >= 64; s >>= 1) {
        if (tid < s) smem[tid] = acc = acc + smem[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        if (blockSize >= 64) acc += smem[tid + 32];
        acc = warpReduce(acc);
    }
    if (tid == 0) partial[blockIdx.x] = acc;
}

template __global__ void reduceBlocks<float, 256, true>(const float*, float*, unsigned int);
