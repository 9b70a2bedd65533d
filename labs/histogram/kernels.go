package histogram

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// kernelFile is the file that holds every kernel of the lab.
const kernelFile = "kernels/histogram.cu"

// Kernel names one of the lab's kernels by its function name.
type Kernel string

// The lab's kernels.
const (
	// Global: one global atomicAdd per element.
	Global Kernel = "histGlobal"
	// Private: shared bins per block, one block per 256 elements.
	Private Kernel = "histPrivate"
	// Resident: shared bins, a grid of resident blocks, a grid-stride
	// (interleaved) loop.
	Resident Kernel = "histResident"
	// Contig: Resident with contiguous chunks per thread.
	Contig Kernel = "histContig"
	// GlobalContig: Global with contiguous chunks per thread over the
	// resident grid.
	GlobalContig Kernel = "histGlobalContig"
	// NoBarrier: Private without the barrier between zeroing and adding.
	NoBarrier Kernel = "histNoBarrier"
)

// Kernels lists the shape experiment's kernels in table order (NoBarrier
// has an experiment of its own).
func Kernels() []Kernel { return []Kernel{Global, Private, Resident, Contig, GlobalContig} }

// ParseKernel returns the kernel named s, by its function name in any
// case.
func ParseKernel(s string) (Kernel, error) {
	for _, k := range append(Kernels(), NoBarrier) {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("histogram: unknown kernel %q", s)
}

// Title returns the kernel's name in prose.
func (k Kernel) Title() string {
	switch k {
	case Global:
		return "global atomics, one block per 256"
	case Private:
		return "privatised, one block per 256"
	case Resident:
		return "privatised, resident grid, interleaved"
	case Contig:
		return "privatised, resident grid, contiguous"
	case GlobalContig:
		return "global atomics, resident grid, contiguous"
	case NoBarrier:
		return "privatised, barrier missing"
	}
	return string(k)
}

// microbench returns the kernel's name in the H200 microbenchmark.
func (k Kernel) microbench() string {
	switch k {
	case Global:
		return "global"
	case Private:
		return "priv_small"
	case Resident:
		return "priv_resident"
	case Contig:
		return "priv_contig"
	case GlobalContig:
		return "global_contig"
	}
	return ""
}

// resident reports whether the kernel runs on a grid of resident blocks
// rather than one block per element of the block.
func (k Kernel) resident() bool { return k == Resident || k == Contig || k == GlobalContig }

// private reports whether the kernel keeps shared bins.
func (k Kernel) private() bool { return k != Global && k != GlobalContig }

// contiguous reports whether each thread walks a contiguous chunk.
func (k Kernel) contiguous() bool { return k == Contig || k == GlobalContig }

// ResidentBlocks returns the blocks of block threads that dev holds at
// once, the resident grid: SMs times blocks per SM, where an SM holds
// MaxWarpsPerSM warps (2048 threads when the device does not say) and
// at most 32 blocks. The shared bins of the lab's sizes (at most 16 KB)
// do not lower it on the lab's profiles.
func ResidentBlocks(info gpu.Info, block int) int {
	threads := info.MaxWarpsPerSM * 32
	if threads == 0 {
		threads = 2048
	}
	perSM := max(1, min(32, threads/block))
	return max(1, info.SMs) * perSM
}

// launchFor returns kernel k's launch over n elements.
func launchFor(k Kernel, info gpu.Info, n, bins, block int) gpu.LaunchConfig {
	grid := (n + block - 1) / block
	if k.resident() {
		grid = min(grid, ResidentBlocks(info, block))
	}
	cfg := gpu.LaunchConfig{Grid: gpu.D1(grid), Block: gpu.D1(block)}
	if k.private() {
		cfg.SharedBytes = 4 * bins
	}
	return cfg
}

// Source is the lab's CUDA C file as the package embeds it, shown by
// charts.Show with its syntax coloured.
type Source = labs.Source

// KernelSource returns the source of the lab's kernels.
func KernelSource() Source {
	return labs.ReadSource(kernelFS, kernelFile)
}
