package profile_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs/profile"
)

// Profile one launch on the simulator and read a figure of the view.
func ExampleNew() {
	dev, _ := gpu.Open("sim:h200")
	defer dev.Close()
	m, _ := dev.Compile("count.cu", []byte(`
__global__ void count(float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, 1.0f);
}`))
	k, _ := m.Kernel("count")
	total, _ := gpu.NewBuffer[float32](dev, 1)
	res, _ := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(64), Block: gpu.D1(256)}, total, 64*256)
	v := profile.New(dev.Info(), profile.FromResult("count", res))
	for _, r := range v.Table().Rows {
		if r[1].Text == "global atomics issued" || r[1].Text == "busiest line's share of atomics (%)" {
			fmt.Println(r[1].Text, "|", r[2].Text, "|", r[3].Text)
		}
	}
	// Output:
	// global atomics issued | counted | 16384
	// busiest line's share of atomics (%) | counted | 100.0
}
