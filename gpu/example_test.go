package gpu_test

import (
	"fmt"
	"log"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// Sum an array with one atomicAdd per thread on the simulator.
func Example() {
	dev, err := gpu.Open("sim:t4?seed=1")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	mod, err := dev.Compile("sum.cu", []byte(`
__global__ void sum(const int* in, int* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, in[i]);
}`))
	if err != nil {
		log.Fatal(err)
	}
	k, err := mod.Kernel("sum")
	if err != nil {
		log.Fatal(err)
	}
	data := make([]int32, 1000)
	for i := range data {
		data[i] = int32(i)
	}
	in, _ := gpu.Upload(dev, data)
	total, _ := gpu.NewBuffer[int32](dev, 1)
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(4), Block: gpu.D1(256)}, in, total, len(data))
	if err != nil {
		log.Fatal(err)
	}
	got, _ := res.Arg("total").(*gpu.Buffer[int32]).Download()
	fmt.Println("sum:", got[0])
	fmt.Println("atomics issued to the L2:", res.Counters.GlobalAtomicIssued)
	fmt.Println("time from:", res.Timing.Source)
	// Output:
	// sum: 499500
	// atomics issued to the L2: 32
	// time from: modelled, t4 profile
}

// A kernel's arguments are checked before it runs.
func ExampleKernel_Launch_badArguments() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	mod, _ := dev.Compile("scale.cu", []byte(`
__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}`))
	k, _ := mod.Kernel("scale")
	ints, _ := gpu.NewBuffer[int32](dev, 10)
	_, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}, ints, 2.0, 10)
	fmt.Println(err)
	_, err = k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}, ints, 2.0)
	fmt.Println(err)
	// Output:
	// gpu: launch scale: argument 1 (float* x): got a buffer of int, want float
	// gpu: launch scale: 2 arguments for 3 parameters: scale(float* x, float a, int n)
}
