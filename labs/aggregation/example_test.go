package aggregation_test

import (
	"fmt"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/aggregation"
)

// The ladder on the simulator: nvcc aggregates the per-lane atomicAdd to
// one counter by itself, but not the per-bucket one, whose address comes
// from the data.
func ExampleLadder() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	l, err := aggregation.Ladder(dev, aggregation.LadderOptions{N: 4096, KeysPerWarp: []int{1}, Progress: labs.NoProgress()})
	if err != nil {
		panic(err)
	}
	for _, r := range l.Rows {
		fmt.Printf("%-14s %5d lane atomics, %5d reach the L2, permutation: %v\n", r.Kernel, r.LaneAtomics, r.Issued, r.OK)
	}
	// Output:
	// compactAtomic   2051 lane atomics,   128 reach the L2, permutation: true
	// compactBallot    128 lane atomics,   128 reach the L2, permutation: true
	// compactAggInc    128 lane atomics,   128 reach the L2, permutation: true
	// compactHidden   2051 lane atomics,  2051 reach the L2, permutation: true
	// bucketAtomic    4096 lane atomics,  4096 reach the L2, permutation: true
	// bucketAggInc     128 lane atomics,   128 reach the L2, permutation: true
}

// The exercise's check on the template: it is right, but still one
// atomic per lane, so it counts as not answered.
func ExampleCheck() {
	dev, err := gpu.Open("sim:t4")
	if err != nil {
		panic(err)
	}
	defer dev.Close()
	f := aggregation.Check(dev, aggregation.Answer{Source: aggregation.AnswerTemplate})
	fmt.Println(f.OK())
	fmt.Println(f.Parts[0].Verdict)
	// Output:
	// false
	// unanswered
}
