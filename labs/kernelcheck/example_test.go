package kernelcheck_test

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// A lab checks a student's kernel with a harness that says how to build
// inputs, launch the kernel and judge what it wrote.
func ExampleCheckConfig() {
	h := kernelcheck.Harness{
		Exercise: "count exercise",
		Kernel:   "count",
		Prepare: func(dev *gpu.Device, n int, seed uint64) (*kernelcheck.Case, error) {
			out, err := gpu.NewBuffer[float32](dev, 1)
			if err != nil {
				return nil, err
			}
			return &kernelcheck.Case{
				Launch: gpu.LaunchConfig{Grid: gpu.D1((n + 127) / 128), Block: gpu.D1(128)},
				Args:   []any{out, n},
				Judge: func(res *gpu.Result, tol float64) error {
					got, _ := out.Download()
					if math.Abs(float64(got[0])-float64(n)) > tol*float64(n) {
						return fmt.Errorf("counted %g, want %d", got[0], n)
					}
					return nil
				},
			}, nil
		},
	}
	// One float atomic per thread: right, but over the contention budget
	// (the compiler would combine a warp's integer atomicAdd(total, 1)).
	src := `__global__ void count(float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, 1.0f);
}`
	cfg := kernelcheck.DefaultConfig()
	cfg.Sizes, cfg.Seeds = []int{1000}, []uint64{1, 2}
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	f := kernelcheck.CheckConfig(dev, h, src, cfg)
	for _, p := range f.Parts {
		fmt.Println(p.Verdict, p.Name)
	}
	fmt.Println(f.OK())
	c, _ := f.Part(kernelcheck.PartContention)
	fmt.Println(c.Message)
	// Output:
	// pass compiles
	// pass runs
	// pass correct
	// pass no race or barrier divergence
	// fail contention
	// false
	// at n = 1000 the launch sent 1000 global atomics to the L2 (1000 lanes' operations, at most 1000 on one address); the budget is ceil(n / 32) = 32. Combine values inside the warp and the block first, then send one atomic per block.
}

// The checker's settings are labs options, so an instructor's key can set
// hidden sizes and seeds.
func ExampleConfigFrom() {
	s, err := labs.Resolve("softmax exercise", kernelcheck.Options(), map[string]string{
		"sizes": "777,50001", "seeds": "11,12,13,14",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, _ := kernelcheck.ConfigFrom(s)
	fmt.Println(cfg.Sizes, cfg.Seeds, cfg.Budget, cfg.Tolerance)
	// Output: [777 50001] [11 12 13 14] 4000000 0.0001
}
