package counters

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// kernelFile is the lab's only kernel file.
const kernelFile = "kernels/counters.cu"

// Rung is one way of adding every thread's 1 into the count: a rung of
// the aggregation ladder, or a way of picking a slice.
type Rung string

// The rungs, in the order the tables show them.
const (
	// ByWarp: every thread adds 1 to slice (global warp % k), so a warp's
	// 32 lanes all hit one slice.
	ByWarp Rung = "thread, slice by warp"
	// ByLane: every thread adds 1 to slice (global thread % k), so a
	// warp's lanes spread over min(k, 32) slices.
	ByLane Rung = "thread, slice by lane"
	// PerWarp: a warp sums with shuffles and lane 0 adds 32.
	PerWarp Rung = "warp"
	// PerBlock: a block sums in shared memory and thread 0 adds the
	// block's total.
	PerBlock Rung = "block"
	// PerGrid: blocks write partial sums and a second launch adds them:
	// no atomic at all, one slice.
	PerGrid Rung = "grid"
)

// Rungs returns every rung in table order.
func Rungs() []Rung { return []Rung{ByWarp, ByLane, PerWarp, PerBlock, PerGrid} }

// Kernel returns the rung's kernel (the first of two for PerGrid).
func (r Rung) Kernel(float bool) string {
	k := map[Rung]string{ByWarp: "sliceByWarp", ByLane: "sliceByLane", PerWarp: "perWarp", PerBlock: "perBlock", PerGrid: "blockPartials"}[r]
	if float && r != PerBlock && r != PerGrid {
		k += "Float"
	}
	return k
}

// Key returns the rung's short name, as settings spell it: "by-warp".
func (r Rung) Key() string {
	return map[Rung]string{ByWarp: "by-warp", ByLane: "by-lane", PerWarp: "per-warp", PerBlock: "per-block", PerGrid: "per-grid"}[r]
}

// AtomicsPerThread is the adds one thread's 1 costs in atomics: 1, 1/32,
// 1/blockSize or 0.
func (r Rung) atomics(threads, block int) int {
	switch r {
	case PerWarp:
		return (threads + 31) / 32
	case PerBlock:
		return (threads + block - 1) / block
	case PerGrid:
		return 0
	}
	return threads
}

// ParseRung returns the rung whose Key or name is s.
func ParseRung(s string) (Rung, error) {
	s = strings.TrimSpace(s)
	for _, r := range Rungs() {
		if strings.EqualFold(s, r.Key()) || strings.EqualFold(s, string(r)) {
			return r, nil
		}
	}
	var keys []string
	for _, r := range Rungs() {
		keys = append(keys, r.Key())
	}
	return "", fmt.Errorf("counters: unknown rung %q (want one of %s)", s, strings.Join(keys, ", "))
}

// Source is the lab's CUDA C file as the package embeds it, shown by
// charts.Show with its syntax coloured.
type Source = labs.Source

// Kernels returns the lab's kernels.
func Kernels() Source {
	return labs.ReadSource(kernelFS, kernelFile)
}
