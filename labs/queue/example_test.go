package queue_test

import (
	"fmt"

	"github.com/warplab/warplab/labs/queue"
)

// The H200's committed times for even costs: falling to k = 4, then
// rising.
func ExampleH200Measured() {
	for _, k := range []int{1, 4, 1024} {
		m, _ := queue.H200Measured(queue.Even(), queue.PerThread, k)
		fmt.Printf("k=%d: %.5f ms\n", k, m.MedianMs)
	}
	// Output:
	// k=1: 0.10685 ms
	// k=4: 0.03494 ms
	// k=1024: 0.40451 ms
}
