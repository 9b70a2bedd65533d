package coursekernels

import (
	"embed"
	"io/fs"
	"sort"
)

// FS holds the course kernels, one .cu file per topic.
//
//go:embed *.cu
var FS embed.FS

// Source returns the text of the named kernel file ("day26_sums.cu"), or
// nil if there is none.
func Source(name string) []byte {
	b, err := FS.ReadFile(name)
	if err != nil {
		return nil
	}
	return b
}

// Names lists the kernel files in lexical order.
func Names() []string {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}
