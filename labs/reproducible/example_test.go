package reproducible_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs/reproducible"
)

// Sums over 4,096 elements, four runs each under its own scheduler seed:
// the fixed-order sums give one total.
func ExampleSums() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	st, err := reproducible.Sums(dev, reproducible.SumOptions{N: 4096, Runs: 4,
		Methods: []reproducible.Method{reproducible.TwoPass, reproducible.FixedPoint}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range st.Rows {
		fmt.Printf("%s: %d distinct, %.4f\n", r.Method, r.Distinct, r.Sums[0])
	}
	fmt.Printf("reference %.4f\n", st.Ref)
	// Output:
	// two_pass: 1 distinct, 6098.5601
	// fixed_point: 1 distinct, 6098.5600
	// reference 6098.5600
}

// SpreadOf counts distinct totals by their bits.
func ExampleSpreadOf() {
	sp := reproducible.SpreadOf([]float64{1, 1.5, 1, 2}, 1.25)
	fmt.Println(sp.Distinct, sp.Min, sp.Max, sp.WorstError)
	// Output: 3 1 2 0.75
}
