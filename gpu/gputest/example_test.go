package gputest_test

import (
	"fmt"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/gputest"
	_ "github.com/warplab/warplab/gpusim"
)

// A backend runs the suite from its own tests, opening a fresh device for
// each subtest and skipping, with the reason, where it cannot.
func ExampleRunAll() {
	testConformance := func(t *testing.T) {
		gputest.RunAll(t, func(t *testing.T) *gpu.Device {
			d, err := gpu.Open("sim:t4")
			if err != nil {
				t.Skip("no device:", err)
			}
			return d
		})
	}
	_ = testConformance
}

func ExampleNames() {
	names := gputest.Names()
	fmt.Println(len(names) > 20, names[0])
	// Output: true ExactSums
}
