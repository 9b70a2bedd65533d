package gpusim_test

import (
	"errors"
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
)

// The simulator reports a shared-memory race with both source lines: here
// the bins are zeroed and incremented with no __syncthreads() between.
func Example_race() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	mod, err := dev.Compile("hist.cu", []byte(`
__global__ void hist(const int* data, int n, int* out) {
    __shared__ int bins[8];
    if (threadIdx.x < 8) bins[threadIdx.x] = 0;
    if (threadIdx.x < n) atomicAdd(&bins[data[threadIdx.x] % 8], 1);
    __syncthreads();
    if (threadIdx.x < 8) out[threadIdx.x] = bins[threadIdx.x];
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := mod.Kernel("hist")
	data, _ := gpu.Upload(dev, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33})
	out, _ := gpu.NewBuffer[int32](dev, 8)
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(64)}, data, 33, out)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Diagnostics {
		fmt.Printf("%s between lines %d and %d\n", d.Kind, d.Other.Line, d.Pos.Line)
	}
	// Output:
	// race between lines 4 and 5
}

// A fault stops the launch with the kernel, block, thread and line.
func Example_illegalAddress() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	mod, _ := dev.Compile("scale.cu", []byte(`
__global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] *= 2.0f;   // no bounds check
}`))
	k, _ := mod.Kernel("scale")
	x, _ := gpu.NewBuffer[float32](dev, 100)
	_, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(128)}, x, 100)
	var le *gpu.LaunchError
	if errors.As(err, &le) {
		fmt.Println(errors.Is(err, gpu.ErrIllegalAddress), le.Pos.Line, le.Block.X, le.Thread.X)
	}
	// Output:
	// true 4 0 100
}

// A spec selects a profile and options; launch k of a device opened with
// seed=S orders its atomics with seed S+k. Options the profile cannot
// honour are errors when the device opens.
func Example_specs() {
	_, err := gpu.Open("sim:h200?seed=7&order=deterministic&clock=base")
	fmt.Println(err)
	dev, _ := gpu.Open("sim:T4?fmad=false&seed=7")
	defer dev.Close()
	fmt.Println(dev.Info().Spec, dev.Spec().Seed(), dev.Spec().FMAD())
	// Output:
	// gpu: open sim:h200?seed=7&order=deterministic&clock=base: gpusim: option clock=base: profile h200 has no base clock
	// sim:t4?seed=7&fmad=false 7 false
}
