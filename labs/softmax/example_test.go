package softmax_test

import (
	"fmt"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labtest"
	"github.com/warplab/warplab/labs/softmax"
)

// Sweep the three denominators on the simulator and read the crossover.
func ExampleSweep() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	s, err := softmax.Sweep(dev, softmax.SweepOptions{Sizes: []int{256, 4096, 65536}, Progress: labs.NoProgress()})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range s.Rows {
		a, _ := s.Cell(r.N, softmax.Atomic)
		fmt.Printf("n=%d fastest %s, per-element atomics %d\n", r.N, r.Fastest(), a.GlobalAtomics)
	}
	n, _ := s.Crossover(softmax.Atomic, softmax.Shuffle)
	fmt.Println("shuffle clearly faster from n =", n)
	// Output:
	// n=256 fastest shuffle, per-element atomics 256
	// n=4096 fastest shuffle, per-element atomics 4096
	// n=65536 fastest shuffle, per-element atomics 65536
	// shuffle clearly faster from n = 256
}

// Run one block of each kernel on four placements of its input, a block's
// worth apart, and read each kernel's spread over them. The t4 profile
// has one mode of the shared queue; on the h200 profile and the H200
// some placements of the shared kernel run fast.
func ExamplePlacements() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	t, err := softmax.Placements(dev, softmax.PlacementOptions{Placements: 4, Progress: labs.NoProgress()})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range t.Kernels {
		s := t.Summary(k)
		fmt.Printf("%s: %d placements, offsets %d to %d, two modes: %v\n", k, len(t.Rows), t.Rows[0].Offset, t.Rows[3].Offset, s.Modes)
	}
	// Output:
	// atomic: 4 placements, offsets 0 to 768, two modes: false
	// shared: 4 placements, offsets 0 to 768, two modes: false
	// shuffle: 4 placements, offsets 0 to 768, two modes: false
}

// Check a student's kernel: one atomic per thread passes every part but
// the contention budget and the time.
func ExampleCheck() {
	dev, _ := gpu.Open("sim:t4")
	defer dev.Close()
	f := softmax.Check(dev, softmax.Answer{Kernel: `
__global__ void denomWarp(const float* x, float* denom, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(denom, expf(x[i]));
}`})
	for _, p := range f.Parts {
		fmt.Println(p.Verdict, p.Name)
	}
	// Output:
	// pass compiles
	// pass runs
	// pass correct
	// pass no race or barrier divergence
	// fail contention
	// fail faster than the baseline
	// fail time
}

// BenchmarkHeadless is the lab's headless run with its default settings
// on the simulator's default profile: labs.Info.SimWallTime.
func BenchmarkHeadless(b *testing.B) { labtest.Headless(b, softmax.Name) }
