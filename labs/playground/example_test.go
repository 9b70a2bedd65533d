package playground_test

import (
	"fmt"
	"log"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/playground"
)

// A warp sum in one call: the input from a Go slice, the output a zeroed
// buffer, both read back.
func ExampleRun() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	src := `__global__ void warpSum(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}`
	in := make([]float32, 1000)
	for i := range in {
		in[i] = 1
	}
	l, err := playground.Run(dev, src, "warpSum", 4, 256, in, playground.Zeros[float32](1), len(in))
	if err != nil {
		log.Fatal(err)
	}
	out, _ := playground.Values[float32](l, "out")
	fmt.Println("sum:", out[0])
	fmt.Println("global atomics:", l.Result.Counters.GlobalAtomicOps)
	fmt.Println("time from:", l.Result.Timing.Source)
	// Output:
	// sum: 1000
	// global atomics: 32
	// time from: modelled, t4 profile
}
