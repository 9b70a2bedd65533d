package atomics

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs/internal/listing"
)

// The lab's kernels, one CUDA C file per sum.
//
//go:embed kernels/*.cu
var kernelFS embed.FS

// Kernel names one of the lab's three sums. Its value is the short name
// the tables use, so an answer may spell it as a string: "tree".
type Kernel string

// The three sums, in the order the tables show them.
const (
	// Global is sumGlobal: one global atomicAdd per element.
	Global Kernel = "global"
	// Shared is sumShared: one shared atomicAdd per element into a
	// per-block total, then one global atomicAdd per block.
	Shared Kernel = "shared"
	// Tree is sumTree<BLOCK>: a shared-memory tree per block, then one
	// global atomicAdd per block.
	Tree Kernel = "tree"
)

// Kernels lists the three sums in table order.
func Kernels() []Kernel { return []Kernel{Global, Shared, Tree} }

// Title returns the kernel's name in prose: "global atomic".
func (k Kernel) Title() string {
	switch k {
	case Global:
		return "global atomic"
	case Shared:
		return "shared atomic"
	case Tree:
		return "tree + one atomic"
	}
	return string(k)
}

// File returns the name of the kernel's source file in kernels/.
func (k Kernel) File() string { return string(k) + ".cu" }

// Function returns the name to launch for a block size: "sumGlobal",
// "sumShared", "sumTree<256>".
func (k Kernel) Function(blockSize int) string {
	switch k {
	case Global:
		return "sumGlobal"
	case Shared:
		return "sumShared"
	case Tree:
		return fmt.Sprintf("sumTree<%d>", blockSize)
	}
	return ""
}

// Valid reports whether k is one of the three sums.
func (k Kernel) Valid() bool { return k == Global || k == Shared || k == Tree }

// ParseKernel returns the kernel named s: its short name ("tree"), its
// title ("tree + one atomic") or its function ("sumTree"), in any case.
func ParseKernel(s string) (Kernel, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, k := range Kernels() {
		f := strings.ToLower(k.Function(0))
		if i := strings.IndexByte(f, '<'); i >= 0 {
			f = f[:i]
		}
		if t == string(k) || t == strings.ToLower(k.Title()) || t == f {
			return k, nil
		}
	}
	return "", fmt.Errorf("atomics: unknown kernel %q (want global, shared or tree)", s)
}

// KernelSource is one kernel's CUDA C file as the package embeds it.
// charts.Show displays it with its syntax coloured.
type KernelSource struct {
	Kernel Kernel `json:"kernel"`
	// File is the path in the package: "kernels/tree.cu".
	File string `json:"file"`
	Text string `json:"text"`
}

// Source returns the CUDA C source of k.
func Source(k Kernel) KernelSource {
	b, err := kernelFS.ReadFile("kernels/" + k.File())
	if err != nil {
		return KernelSource{Kernel: k, File: "kernels/" + k.File(), Text: "// no such kernel"}
	}
	return KernelSource{Kernel: k, File: "kernels/" + k.File(), Text: string(b)}
}

func (s KernelSource) listing() listing.Listing {
	return listing.Listing{Name: s.File, Source: s.Text}
}

// String returns the source as plain text, headed by its file name.
func (s KernelSource) String() string { return s.listing().String() }

// Markdown returns the source as a fenced code block.
func (s KernelSource) Markdown() string { return s.listing().Markdown() }

// HTML returns the source with line numbers and coloured syntax.
func (s KernelSource) HTML() string { return s.listing().HTML() }
