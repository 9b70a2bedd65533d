package atomics_test

import (
	"fmt"
	"log"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/atomics"
)

// Run the sweep on the simulator at two sizes. The times come from the
// simulator's cost model (printed with the table: Table().String()); the
// sums are exact, whatever the model says.
func ExampleSweep() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	sweep, err := atomics.Sweep(dev, atomics.SweepOptions{Sizes: []int{4096, 65536}, Progress: labs.NoProgress()})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("times:", sweep.Timing)
	fmt.Println("launches per cell:", sweep.WarmUps+sweep.Runs)
	for _, r := range sweep.Rows {
		for _, c := range r.Cells {
			fmt.Printf("n=%d %-6s sum %v, exact: %v\n", r.N, c.Kernel, c.Sums[0], c.OK)
		}
	}
	// Output:
	// times: modelled, t4 profile
	// launches per cell: 1
	// n=4096 global sum 6144, exact: true
	// n=4096 shared sum 6144, exact: true
	// n=4096 tree   sum 6144, exact: true
	// n=65536 global sum 98304, exact: true
	// n=65536 shared sum 98304, exact: true
	// n=65536 tree   sum 98304, exact: true
}

// The kernels are embedded in the package; a notebook shows them with
// charts.Show(atomics.Source(atomics.Tree)).
func ExampleSource() {
	src := atomics.Source(atomics.Tree)
	fmt.Println(src.File)
	fmt.Println(atomics.Tree.Function(256))
	// Output:
	// kernels/tree.cu
	// sumTree<256>
}

// The rubric reads the exercise's sentence; it points to the hint that
// helps when the sentence misses the point.
func ExampleRubric() {
	for _, s := range []string{
		"The tree column barely moves because it sends one global atomic per block.",
		"The global column barely moves: it always sends n atomics, one per element, whatever the block size.",
	} {
		it := atomics.Rubric(s)[0]
		fmt.Printf("%s hint=%d\n", it.Verdict, it.Hint)
	}
	// Output:
	// fail hint=1
	// pass hint=0
}
