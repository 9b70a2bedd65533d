package softmax

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs/internal/listing"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// Kernel names one of the lab's three denominators, one per level of the
// memory hierarchy that does the combining.
type Kernel string

const (
	// Atomic: every thread sends atomicAdd(denom, expf(x[i])) to global
	// memory, n atomics on one address.
	Atomic Kernel = "atomic"
	// Shared: a shared-memory atomic per element into the block's own
	// float, then one global atomic per block.
	Shared Kernel = "shared"
	// Shuffle: the register cache: a __shfl_down_sync tree per warp, the
	// warps' sums in shared memory, one global atomic per block.
	Shuffle Kernel = "shuffle"
)

// Kernels returns the three kernels, from the most contended to the
// least.
func Kernels() []Kernel { return []Kernel{Atomic, Shared, Shuffle} }

// Function returns the kernel's CUDA function name.
func (k Kernel) Function() string {
	switch k {
	case Atomic:
		return "denomAtomic"
	case Shared:
		return "denomShared"
	case Shuffle:
		return "denomShuffle"
	}
	return ""
}

// Title describes the kernel in a table or legend.
func (k Kernel) Title() string {
	switch k {
	case Atomic:
		return "global atomic per element"
	case Shared:
		return "shared atomic + one per block"
	case Shuffle:
		return "warp shuffle + one per block"
	}
	return string(k)
}

// Valid reports whether k is one of Kernels.
func (k Kernel) Valid() bool { return k.Function() != "" }

// ParseKernel reads a kernel's name: "atomic", "shared" or "shuffle", or
// its function name.
func ParseKernel(s string) (Kernel, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, k := range Kernels() {
		if s == string(k) || s == strings.ToLower(k.Function()) {
			return k, nil
		}
	}
	return "", fmt.Errorf("softmax: no kernel %q (kernels: atomic, shared, shuffle)", s)
}

// KernelSource is one kernel's CUDA C source file.
type KernelSource struct {
	File string // "kernels/shuffle.cu"
	Text string
}

// Source returns the source of kernel k.
func Source(k Kernel) KernelSource {
	file := "kernels/" + string(k) + ".cu"
	b, err := kernelFS.ReadFile(file)
	if err != nil {
		// The files are embedded: a missing one is a build error.
		panic("softmax: " + err.Error())
	}
	return KernelSource{File: file, Text: string(b)}
}

func (s KernelSource) listing() listing.Listing {
	return listing.Listing{Name: s.File, Source: s.Text}
}

// String returns the source as plain text, under its file name.
func (s KernelSource) String() string { return s.listing().String() }

// Markdown returns the source as a fenced code block.
func (s KernelSource) Markdown() string { return s.listing().Markdown() }

// HTML returns the source with its syntax coloured and its lines
// numbered, for charts.Show.
func (s KernelSource) HTML() string { return s.listing().HTML() }
