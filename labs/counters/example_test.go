package counters_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/counters"
)

// Sweep two ways of picking a slice at k = 32, packed and padded, on the
// simulator's H200 profile.
func ExampleSweep() {
	dev, err := gpu.Open("sim:h200")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	s, err := counters.Sweep(dev, counters.SweepOptions{
		Threads:  1 << 15,
		Slices:   []int{32},
		Rungs:    []counters.Rung{counters.ByWarp, counters.ByLane},
		Progress: labs.NoProgress(),
	})
	if err != nil {
		panic(err)
	}
	for _, r := range s.Rows {
		fmt.Printf("%s, %s: %d lines, longest chain %d\n", r.Rung, r.Layout(), r.Lines, r.MaxChain)
	}
	// Output:
	// thread, slice by warp, packed: 1 lines, longest chain 1024
	// thread, slice by warp, padded: 32 lines, longest chain 1024
	// thread, slice by lane, packed: 1 lines, longest chain 1024
	// thread, slice by lane, padded: 32 lines, longest chain 1024
}

// The H200's committed measurement of one cell.
func ExampleH200Measured() {
	m, _ := counters.H200Measured(counters.ByLane, false, 32, false)
	fmt.Printf("%.5f ms\n", m.MedianMs)
	// Output: 1.23219 ms
}
