package histogram_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/histogram"
)

// Shapes checks every histogram and counts the global atomics each
// kernel sends: one per element for the global kernel, at most one per
// bin per block for the privatised one.
func ExampleShapes() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	t, err := histogram.Shapes(dev, histogram.ShapeOptions{N: 1 << 16,
		Inputs: []histogram.Input{histogram.Hot}, Kernels: []histogram.Kernel{histogram.Global, histogram.Resident}})
	if err != nil {
		panic(err)
	}
	for _, r := range t.Rows {
		fmt.Printf("%s: grid %d, exact %v, %d global atomics\n", r.Kernel, r.Grid, r.Problem == "", r.GlobalAtomics)
	}
	// Output:
	// histGlobal: grid 256, exact true, 65536 global atomics
	// histResident: grid 160, exact true, 6108 global atomics
}
