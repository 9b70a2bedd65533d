package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

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

// A spec is parsed once into typed options; WithSeed derives the same
// device with another seed, and String spells the canonical form.
func ExampleParseSpec() {
	s, err := gpu.ParseSpec("sim:h200?order=deterministic&seed=7")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s, s.Profile(), s.Seed(), s.Order())
	fmt.Println(s.WithSeed(8))
	_, err = gpu.ParseSpec("sim:t4?budget=-1")
	fmt.Println(err)
	_, err = gpu.ParseSpec("cuda:1?seed=3")
	fmt.Println(err)
	// Output:
	// sim:h200?seed=7&order=deterministic h200 7 deterministic
	// sim:h200?seed=8&order=deterministic
	// gpu: device spec "sim:t4?budget=-1": option budget=-1: want a positive number of warp instructions
	// gpu: device spec "cuda:1?seed=3": unknown option seed (cuda options: fmad, timeout, timing)
}

// A device remembers its spec, so a lab can open the same simulated
// device with the next seed.
func ExampleDevice_Spec() {
	dev, err := gpu.Open("sim:t4?seed=5")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	next, err := gpu.OpenSpec(dev.Spec().WithSeed(dev.Spec().Seed() + 1))
	if err != nil {
		log.Fatal(err)
	}
	defer next.Close()
	fmt.Println(next.Info().Spec)
	// Output:
	// sim:t4?seed=6
}

// A context stops a launch: here one that would spin for ever, given a
// deadline of a tenth of a second. OpenContext binds every launch of a
// device to a context the same way.
func ExampleKernel_LaunchContext() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	mod, _ := dev.Compile("spin.cu", []byte(`
__global__ void spin(int* flag) {
    while (atomicAdd(flag, 0) == 0) { }
}`))
	k, _ := mod.Kernel("spin")
	flag, _ := gpu.NewBuffer[int32](dev, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := k.LaunchContext(ctx, gpu.LaunchConfig{Grid: gpu.D1(1024), Block: gpu.D1(256)}, flag)
	fmt.Println(errors.Is(err, gpu.ErrTimeout))
	// Output:
	// true
}

// WriteAt fills a large buffer a piece at a time from a small host slice.
func ExampleBuffer_WriteAt() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	b, _ := gpu.NewBuffer[int32](dev, 6)
	piece := []int32{7, 7}
	for i := 0; i < b.Len(); i += len(piece) {
		piece[0], piece[1] = int32(i), int32(i+1)
		b.WriteAt(i, piece)
	}
	got, _ := b.Download()
	fmt.Println(got)
	// Output:
	// [0 1 2 3 4 5]
}

// blockCount records the blocks a long launch reports.
type blockCount struct{ done, total int }

func (b *blockCount) Update(done, total int, _ string) { b.done, b.total = done, total }
func (b *blockCount) Done()                            {}

// A device opened with WithLaunchProgress reports every long launch's
// finished blocks, here one that spins until its deadline, and devices
// opened for the same work with its Context stop at the same deadline.
func ExampleWithLaunchProgress() {
	ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
	defer cancel()
	var blocks blockCount
	spec, _ := gpu.ParseSpec("sim:t4")
	dev, _ := gpu.OpenContext(gpu.WithLaunchProgress(ctx, &blocks), spec)
	defer dev.Close()
	mod, _ := dev.Compile("spin.cu", []byte(`
__global__ void spin(int* flag) {
    while (atomicAdd(flag, 0) == 0) { }
}`))
	k, _ := mod.Kernel("spin")
	flag, _ := gpu.NewBuffer[int32](dev, 1)
	_, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1024), Block: gpu.D1(256)}, flag)
	fmt.Println(errors.Is(err, gpu.ErrTimeout), blocks.total, dev.Context().Err() != nil)
	// Output:
	// true 1024 true
}
