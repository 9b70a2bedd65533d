package queue

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

const kernelFile = "kernels/queue.cu"

// Pop is who pops a batch from the queue.
type Pop string

const (
	// PerThread: every thread pops its own batches of k items
	// (popThread).
	PerThread Pop = "thread"
	// PerWarp: lane 0 pops 32k items for its warp and shares the start
	// with a shuffle (popWarp).
	PerWarp Pop = "warp"
)

// Kernel returns the pop's kernel.
func (p Pop) Kernel() string {
	if p == PerWarp {
		return "popWarp"
	}
	return "popThread"
}

// ParsePop returns the pop named s: "thread" or "warp".
func ParsePop(s string) (Pop, error) {
	switch strings.TrimSpace(strings.ToLower(s)) {
	case "thread":
		return PerThread, nil
	case "warp":
		return PerWarp, nil
	}
	return "", fmt.Errorf("queue: unknown pop %q (want thread or warp)", s)
}

// Source is the lab's CUDA C file as the package embeds it, shown by
// charts.Show with its syntax coloured.
type Source = labs.Source

// Kernels returns the lab's kernels.
func Kernels() Source {
	return labs.ReadSource(kernelFS, kernelFile)
}
