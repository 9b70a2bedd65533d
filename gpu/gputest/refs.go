package gputest

import (
	"slices"
)

// referencesSrc sorts with a bitonic network whose compare-and-swap takes
// references, and uses inline helpers with reference and const reference
// parameters, a reference local, a struct reference and a template whose
// type is deduced through a reference.
const referencesSrc = `
__device__ __forceinline__ void swap(float& a, float& b) { float t = a; a = b; b = t; }
__device__ inline float larger(const float& a, const float& b) { return a > b ? a : b; }
template <typename T> __device__ void addTo(T& x, const T& by) { x += by; }
struct Stat { int count; float sum; };
__device__ __noinline__ void record(Stat& s, float v) { s.count++; s.sum += v; }
static __device__ void incr(int& x) { x++; }

__global__ void bitonicSort(float* data, float* stats) {
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    s[t] = data[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned k = 2; k <= 128; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned ixj = t ^ j;
            if (ixj > t) {
                bool up = (t & k) == 0;
                if ((s[t] > s[ixj]) == up) swap(s[t], s[ixj]);
            }
            __syncthreads();
        }
    }
    float& mine = s[t];
    data[blockIdx.x * 128 + t] = larger(mine, -1000.0f);
    if (t == 0) {
        Stat st = {0, 0.0f};
        for (int i = 0; i < 4; i++) record(st, s[i]);
        int n = st.count;
        incr(n);
        addTo(n, 10);
        stats[blockIdx.x * 2] = (float)n;
        stats[blockIdx.x * 2 + 1] = st.sum;
    }
}`

func testReferences(e *env) {
	const blocks = 3
	in := make([]float32, blocks*128)
	for i := range in {
		in[i] = float32((i*7919)%1000)/4 - 100
	}
	data, stats := upload(e, in), zeros[float32](e, blocks*2)
	e.launch(e.kernel(referencesSrc, "bitonicSort"), blocks, 128, data, stats)
	got, st := download(e, data), download(e, stats)
	for b := 0; b < blocks; b++ {
		want := slices.Clone(in[b*128 : (b+1)*128])
		slices.Sort(want)
		sameSlice(e, "sorted block", got[b*128:(b+1)*128], want)
		eq(e, "count", st[b*2], float32(15))
		eq(e, "sum of the 4 smallest", st[b*2+1], ((want[0]+want[1])+want[2])+want[3])
	}
}
