package atomics

import (
	"fmt"
	"slices"

	"github.com/warplab/warplab/gpu"
)

// DefaultSizes returns the Day 26 page's five sizes, 4,096 to 4,194,304
// elements.
func DefaultSizes() []int { return []int{4096, 65536, 262144, 1048576, 4194304} }

// DefaultBlockSize is the page's block size, 256 threads.
const DefaultBlockSize = 256

// ExerciseBlockSizes returns the block sizes of the Day 26 exercise: 64,
// 256 and 1024 threads.
func ExerciseBlockSizes() []int { return []int{64, 256, 1024} }

// The determinism experiment's defaults: the page's largest size, 20
// runs per kernel.
const (
	defaultDeterminismN    = 4194304
	defaultDeterminismRuns = 20
)

// Bounds on the lab's settings, so that a run cannot ask for more host
// memory or time than a laptop has: 1<<26 float32 elements are 256 MiB
// of input.
const (
	maxElements = 1 << 26
	maxRuns     = 1000
	maxBlock    = 1024
)

// checkSizes validates sizes, returning the default for none.
func checkSizes(sizes []int) ([]int, error) {
	if len(sizes) == 0 {
		return DefaultSizes(), nil
	}
	for _, n := range sizes {
		if n < 1 {
			return nil, fmt.Errorf("atomics: size %d: want at least 1 element", n)
		}
	}
	return slices.Clone(sizes), nil
}

// checkBlockSize validates a block size for dev: the tree halves the
// block, so it must be a power of two, and the device must allow it.
func checkBlockSize(dev *gpu.Device, b int) error {
	if b < 1 || b&(b-1) != 0 {
		return fmt.Errorf("atomics: block size %d: want a power of two (the tree sum halves the block at each step)", b)
	}
	if limit := dev.Info().MaxThreadsPerBlock; limit > 0 && b > limit {
		return fmt.Errorf("atomics: block size %d: %s allows at most %d threads per block", b, dev.Info().Name, limit)
	}
	return nil
}

// timingNote says where a table's times come from and how they were
// taken, in the words of gpu.Method that `warplab run` prints too: each
// cell is the mean of its timed launches, as the Day 26 page times them.
func timingNote(source string, measured bool, warm, runs int) string {
	m := gpu.MethodOf(measured, warm, runs, gpu.StatMean)
	if measured {
		return fmt.Sprintf("times %s: %s, each launch into a fresh accumulator", source, m)
	}
	return fmt.Sprintf("times %s: %s", source, m)
}

// sourceOf returns the timing source of the first measurement, or what
// the device's capabilities say.
func sourceOf(dev *gpu.Device, ms []measured) (string, bool) {
	for _, m := range ms {
		if m.timing.Source != "" {
			return m.timing.Source, m.timing.Measured
		}
	}
	caps := dev.Capabilities()
	if caps.MeasuredTiming {
		return "measured, " + dev.Info().Name, true
	}
	return "modelled, " + dev.Info().Profile + " profile", false
}
