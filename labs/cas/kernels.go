package cas

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs/internal/listing"
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

// Source is the lab's CUDA C file as the package embeds it. charts.Show
// displays it with its syntax coloured.
type Source struct {
	// File is the path in the package: "kernels/cas.cu".
	File string `json:"file"`
	Text string `json:"text"`
}

// KernelSource returns the source of the lab's kernels.
func KernelSource() Source {
	b, err := kernelFS.ReadFile(kernelFile)
	if err != nil {
		return Source{File: kernelFile, Text: "// no such file"}
	}
	return Source{File: kernelFile, Text: string(b)}
}

func (s Source) listing() listing.Listing { return listing.Listing{Name: s.File, Source: s.Text} }

// String returns the source as plain text, headed by its file name.
func (s Source) String() string { return s.listing().String() }

// Markdown returns the source as a fenced code block.
func (s Source) Markdown() string { return s.listing().Markdown() }

// HTML returns the source with line numbers and coloured syntax.
func (s Source) HTML() string { return s.listing().HTML() }
