package gputest

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
)

// typeTemplatesSrc is the reduction family of the CUDA samples' style: a
// kernel templated on its element type, block size and a flag, dynamic
// shared memory through a SharedMemory<T> struct template with conversion
// operators (specialized for double), a __device__ template called with
// its type deduced, and an explicit specialization.
const typeTemplatesSrc = `
template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
    __device__ inline operator const T*() const {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
};

template <>
struct SharedMemory<double> {
    __device__ inline operator double*() {
        extern __shared__ double __smem_d[];
        return (double*)__smem_d;
    }
    __device__ inline operator const double*() const {
        extern __shared__ double __smem_d[];
        return (double*)__smem_d;
    }
};

template <typename T>
__device__ T warpSum(T v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

// scale<T> doubles, except for int, which it triples.
template <typename T> __device__ T scale(T x) { return x * (T)2; }
template <> __device__ int scale<int>(int x) { return x * 3; }

template <class T, unsigned int blockSize, bool twoLoads>
__global__ void reduce(const T* in, T* out, unsigned int n) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int stride = blockSize * gridDim.x;
    T sum = 0;
    if (twoLoads) {
        unsigned int i = blockIdx.x * blockSize * 2 + tid;
        stride *= 2;
        while (i < n) {
            sum += in[i];
            if (i + blockSize < n) sum += in[i + blockSize];
            i += stride;
        }
    } else {
        for (unsigned int i = blockIdx.x * blockSize + tid; i < n; i += stride) sum += in[i];
    }
    sdata[tid] = sum;
    __syncthreads();
    if (blockSize >= 256 && tid < 128) sdata[tid] = sum = sum + sdata[tid + 128];
    __syncthreads();
    if (blockSize >= 128 && tid < 64) sdata[tid] = sum = sum + sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        if (blockSize >= 64) sum += sdata[tid + 32];
        sum = warpSum(sum);
    }
    if (tid == 0) out[blockIdx.x] = scale(sum);
}

template __global__ void reduce<float, 256, true>(const float*, float*, unsigned int);
`

func testTypeTemplates(e *env) {
	m := e.module(typeTemplatesSrc)
	const n, grid = 5000, 6
	// check compares with the sums the kernel's loops take; the values are
	// small integers, so every order gives the same sum.
	check := func(name string, block int, twoLoads bool, got []float64, factor float64, in []float64) {
		e.Helper()
		for b := 0; b < grid; b++ {
			var want float64
			for t := 0; t < block; t++ {
				if twoLoads {
					for i := b*block*2 + t; i < n; i += block * grid * 2 {
						want += in[i]
						if i+block < n {
							want += in[i+block]
						}
					}
					continue
				}
				for i := b*block + t; i < n; i += block * grid {
					want += in[i]
				}
			}
			if got[b] != want*factor {
				e.Errorf("%s: block %d = %v, want %v", name, b, got[b], want*factor)
			}
		}
	}
	in := make([]float64, n)
	for i := range in {
		in[i] = float64(i%9 - 3)
	}
	for _, c := range []struct {
		typ      string
		block    int
		twoLoads bool
	}{{"float", 256, true}, {"float", 64, false}, {"double", 128, true}, {"int", 256, false}} {
		name := fmt.Sprintf("reduce<%s, %d, %v>", c.typ, c.block, c.twoLoads)
		k := kernelOf(e, m, name)
		cfg := gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(c.block), SharedBytes: c.block * 8}
		var got []float64
		factor := 2.0
		switch c.typ {
		case "float":
			x := make([]float32, n)
			for i, v := range in {
				x[i] = float32(v)
			}
			out := zeros[float32](e, grid)
			e.launchCfg(k, cfg, upload(e, x), out, uint32(n))
			for _, v := range download(e, out) {
				got = append(got, float64(v))
			}
		case "double":
			out := zeros[float64](e, grid)
			e.launchCfg(k, cfg, upload(e, in), out, uint32(n))
			got = download(e, out)
		case "int":
			x := make([]int32, n)
			for i, v := range in {
				x[i] = int32(v)
			}
			out := zeros[int32](e, grid)
			e.launchCfg(k, cfg, upload(e, x), out, uint32(n))
			for _, v := range download(e, out) {
				got = append(got, float64(v))
			}
			factor = 3 // the specialization scale<int>
		}
		check(name, c.block, c.twoLoads, got, factor, in)
	}
}
