package cas_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/cas"
)

// Correctness finds the input on which atomicMax over a float's bits
// gives the wrong maximum.
func ExampleCorrectness() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	t, err := cas.Correctness(dev, 0, 1)
	if err != nil {
		panic(err)
	}
	for _, r := range t.Rows {
		first := "none"
		if r.First != nil {
			first = r.First.String()
		}
		fmt.Printf("%s: %d of %d wrong, first %s\n", r.Kernel, r.Wrong, r.Groups, first)
	}
	// Output:
	// maxCAS: 0 of 121 wrong, first none
	// maxIntTrick: 24 of 121 wrong, first max(-2.5, -2.5) = -Inf, want -2.5
	// maxSignAware: 0 of 121 wrong, first none
	// maxDocLoop: 0 of 121 wrong, first none
}
