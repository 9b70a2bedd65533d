package aggregation

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs"
)

// The lab's kernels: one file for the single counter, one for the
// per-bucket counters.
//
//go:embed kernels/*.cu
var kernelFS embed.FS

// Kernel names one of the lab's kernels by its function name.
type Kernel string

// The lab's kernels, in the order the tables show them.
const (
	// CompactAtomic: stream compaction, every kept lane calls
	// atomicAdd(count, 1) itself; nvcc aggregates it per warp.
	CompactAtomic Kernel = "compactAtomic"
	// CompactBallot: the same, aggregated by hand with a ballot and popc.
	CompactBallot Kernel = "compactBallot"
	// CompactAggInc: the same through atomicAggInc (__match_any_sync).
	CompactAggInc Kernel = "compactAggInc"
	// CompactHidden: CompactAtomic with the counter's address read from
	// memory, so the compiler cannot aggregate it.
	CompactHidden Kernel = "compactHidden"
	// BucketAtomic: per-bucket append, every lane calls atomicAdd on its
	// bucket's counter; the address depends on the data, so nothing is
	// aggregated.
	BucketAtomic Kernel = "bucketAtomic"
	// BucketAggInc: per-bucket append through atomicAggInc: one atomic per
	// distinct bucket in the warp.
	BucketAggInc Kernel = "bucketAggInc"
)

// Kernels lists the lab's kernels in table order.
func Kernels() []Kernel {
	return []Kernel{CompactAtomic, CompactBallot, CompactAggInc, CompactHidden, BucketAtomic, BucketAggInc}
}

// Bucketed reports whether k is a per-bucket kernel.
func (k Kernel) Bucketed() bool { return k == BucketAtomic || k == BucketAggInc }

// File returns the kernel's source file in kernels/.
func (k Kernel) File() string {
	if k.Bucketed() {
		return "kernels/buckets.cu"
	}
	return "kernels/counter.cu"
}

// Title returns the kernel's name in prose.
func (k Kernel) Title() string {
	switch k {
	case CompactAtomic:
		return "atomicAdd per lane (nvcc aggregates)"
	case CompactBallot:
		return "ballot + popc by hand"
	case CompactAggInc:
		return "atomicAggInc (match_any)"
	case CompactHidden:
		return "atomicAdd per lane, address hidden"
	case BucketAtomic:
		return "atomicAdd per lane"
	case BucketAggInc:
		return "atomicAggInc (match_any)"
	}
	return string(k)
}

// Valid reports whether k is one of the lab's kernels.
func (k Kernel) Valid() bool {
	for _, x := range Kernels() {
		if k == x {
			return true
		}
	}
	return false
}

// ParseKernel returns the kernel named s, by its function name in any
// case.
func ParseKernel(s string) (Kernel, error) {
	for _, k := range Kernels() {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("aggregation: unknown kernel %q (want one of %s)", s, kernelList())
}

func kernelList() string {
	var s []string
	for _, k := range Kernels() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// Source is one of the lab's CUDA C files as the package embeds it,
// shown by charts.Show with its syntax coloured.
type Source = labs.Source

// Counter returns the single-counter kernels' source: compactAtomic,
// compactBallot, atomicAggInc, compactAggInc and compactHidden.
func Counter() Source { return source("kernels/counter.cu") }

// Buckets returns the per-bucket kernels' source: bucketAtomic,
// atomicAggInc and bucketAggInc.
func Buckets() Source { return source("kernels/buckets.cu") }

func source(file string) Source {
	return labs.ReadSource(kernelFS, file)
}
