package queue

import (
	"embed"
	"fmt"
	"strings"

	"github.com/warplab/warplab/labs/internal/listing"
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

// Source is the lab's CUDA C file as the package embeds it. charts.Show
// displays it with its syntax coloured.
type Source struct {
	// File is the path in the package: "kernels/queue.cu".
	File string `json:"file"`
	Text string `json:"text"`
}

// Kernels returns the lab's kernels.
func Kernels() Source {
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
