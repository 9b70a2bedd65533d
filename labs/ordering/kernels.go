package ordering

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs/internal/listing"
)

// The lab's kernels: message passing between blocks, six ways.
//
//go:embed kernels/*.cu
var kernelFS embed.FS

const kernelFile = "kernels/mp.cu"

// Variant is one way of ordering the publication, named by its kernel.
type Variant string

// The variants, from no order to enough.
const (
	// Plain: plain payload store and load, volatile flag.
	Plain Variant = "mpPlain"
	// Volatile: every access volatile, no fence.
	Volatile Variant = "mpVolatile"
	// BlockFence: __threadfence_block() between the two stores and between
	// the two loads: a fence of block scope, which orders nothing another
	// block observes.
	BlockFence Variant = "mpBlockFence"
	// Fence: __threadfence() between them: device scope, the order the
	// publication needs.
	Fence Variant = "mpFence"
	// RelAcq: the flag through a device-scope cuda::atomic_ref, stored
	// with memory_order_release and loaded with memory_order_acquire; the
	// payload plain: the order the publication needs, without a fence.
	RelAcq Variant = "mpRelAcq"
	// RelaxedRef: the same atomic_ref flag with memory_order_relaxed on
	// both sides: the flag's accesses are atomic, but order nothing else.
	RelaxedRef Variant = "mpRelaxedRef"
)

// Variants lists the variants in table order.
func Variants() []Variant {
	return []Variant{Plain, Volatile, BlockFence, Fence, RelaxedRef, RelAcq}
}

// ParseVariant returns the variant named by its kernel or short name
// ("plain", "volatile", "block-fence", "fence", "relaxed-ref",
// "release-acquire").
func ParseVariant(s string) (Variant, error) {
	for _, v := range Variants() {
		if s == string(v) || s == v.Short() {
			return v, nil
		}
	}
	var names []string
	for _, v := range Variants() {
		names = append(names, v.Short())
	}
	return "", fmt.Errorf("ordering: unknown variant %q (variants: %s)", s, strings.Join(names, ", "))
}

// Short returns the variant's short name.
func (v Variant) Short() string {
	switch v {
	case Plain:
		return "plain"
	case Volatile:
		return "volatile"
	case BlockFence:
		return "block-fence"
	case Fence:
		return "fence"
	case RelAcq:
		return "release-acquire"
	case RelaxedRef:
		return "relaxed-ref"
	}
	return string(v)
}

// Orders says in words how the variant orders the payload and the flag.
func (v Variant) Orders() string {
	switch v {
	case Plain:
		return "nothing: plain payload, volatile flag"
	case Volatile:
		return "nothing: volatile payload and flag"
	case BlockFence:
		return "__threadfence_block(): block scope only"
	case Fence:
		return "__threadfence(): device scope"
	case RelAcq:
		return "atomic_ref flag: store release, load acquire (device scope)"
	case RelaxedRef:
		return "atomic_ref flag: store and load relaxed (device scope)"
	}
	return ""
}

// Correct reports whether the PTX memory model forbids a stale read of
// the variant: only device-scope order on both sides does, a fence or a
// release store paired with an acquire load.
func (v Variant) Correct() bool { return v == Fence || v == RelAcq }

// KernelSource is the lab's kernel file, shown in the notebook.
type KernelSource struct {
	File string
	Text string
}

// Source returns the lab's kernel file.
func Source() KernelSource {
	b, err := kernelFS.ReadFile(kernelFile)
	if err != nil {
		// The file is embedded: a missing one is a build error.
		panic(err)
	}
	return KernelSource{File: kernelFile, Text: string(b)}
}

func (s KernelSource) listing() listing.Listing {
	return listing.Listing{Name: s.File, Source: s.Text}
}

// String returns the source with its file name.
func (s KernelSource) String() string { return s.listing().String() }

// Markdown returns the source as a fenced code block.
func (s KernelSource) Markdown() string { return s.listing().Markdown() }

// HTML returns the source highlighted, for a notebook.
func (s KernelSource) HTML() string { return s.listing().HTML() }
