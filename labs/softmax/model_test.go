package softmax_test

import (
	"testing"

	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/softmax"
)

// TestModelPredictsH200Microbench checks the h200 profile against the
// project's H200 measurement of the atomic/shuffle pair
// (softmax.H200Microbench): each time within ±30%. The notes' size,
// 16,777,216, runs only without -short.
func TestModelPredictsH200Microbench(t *testing.T) {
	dev := testenv.Open(t, "sim:h200")
	var sizes []int
	for _, q := range softmax.H200Microbench() {
		if q.N <= 1<<20 || !testing.Short() {
			sizes = append(sizes, q.N)
		}
	}
	s, err := softmax.Sweep(dev, softmax.SweepOptions{Sizes: sizes, Progress: labs.NoProgress()})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range softmax.H200Microbench() {
		a, ok1 := s.Cell(q.N, softmax.Atomic)
		sh, ok2 := s.Cell(q.N, softmax.Shuffle)
		if !ok1 || !ok2 {
			continue
		}
		t.Logf("n=%d atomic: predicted %.4f ms, measured %.4f; shuffle: predicted %.4f ms, measured %.4f; ratio %.1f vs %.1f",
			q.N, a.Ms, q.AtomicMs, sh.Ms, q.ShuffleMs, a.Ms/sh.Ms, q.AtomicMs/q.ShuffleMs)
		for _, c := range []struct {
			name           string
			pred, measured float64
		}{{"atomic", a.Ms, q.AtomicMs}, {"shuffle", sh.Ms, q.ShuffleMs}} {
			if r := c.pred / c.measured; r < 1/1.3 || r > 1.3 {
				t.Errorf("n=%d %s: predicted %.4f ms, measured %.4f ms (x%.2f)", q.N, c.name, c.pred, c.measured, r)
			}
		}
	}
}
