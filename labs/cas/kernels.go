package cas

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

const kernelFile = "kernels/cas.cu"

// Kernel names one of the lab's kernels by its function name.
type Kernel string

// The lab's kernels: maxCAS(v, n, C, m) and the others fold v[i] into
// m[i / C].
const (
	// MaxCAS: the correct compare-and-swap loop.
	MaxCAS Kernel = "maxCAS"
	// MaxIntTrick: atomicMax on the float's bits as an int; wrong for
	// negatives.
	MaxIntTrick Kernel = "maxIntTrick"
	// MaxSignAware: atomicMax on the int bits of a non-negative float,
	// atomicMin on the unsigned bits of a negative one.
	MaxSignAware Kernel = "maxSignAware"
	// MaxDocLoop: the course notes' loop shape, comparing as floats.
	MaxDocLoop Kernel = "maxDocLoop"
)

// Kernels lists the lab's kernels in table order.
func Kernels() []Kernel { return []Kernel{MaxCAS, MaxIntTrick, MaxSignAware, MaxDocLoop} }

// ParseKernel returns the kernel named s, in any case.
func ParseKernel(s string) (Kernel, error) {
	for _, k := range Kernels() {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("cas: unknown kernel %q (want maxCAS, maxIntTrick, maxSignAware or maxDocLoop)", s)
}

// Title returns the kernel's name in prose.
func (k Kernel) Title() string {
	switch k {
	case MaxCAS:
		return "CAS loop (compares as floats)"
	case MaxIntTrick:
		return "atomicMax on the bits as int"
	case MaxSignAware:
		return "sign-aware atomicMax / atomicMin"
	case MaxDocLoop:
		return "the course notes' CAS loop"
	}
	return string(k)
}

// Source is the lab's CUDA C file as the package embeds it, shown by
// charts.Show with its syntax coloured.
type Source = labs.Source

// KernelSource returns the source of the lab's kernels.
func KernelSource() Source {
	return labs.ReadSource(kernelFS, kernelFile)
}
