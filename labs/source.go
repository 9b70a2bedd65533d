package labs

import (
	"io/fs"

	"github.com/warplab/warplab/labs/internal/listing"
)

// Source is a CUDA C file that a lab embeds, as its notebook shows it:
// charts.Show displays it with its syntax coloured and its lines
// numbered.
type Source struct {
	// File is the path in the lab's package: "kernels/counters.cu".
	File string `json:"file"`
	Text string `json:"text"`
}

// ReadSource returns the file at path in fsys, a lab's embedded kernels.
// A file fsys lacks reads "// no such file", so that a listing never
// fails; a lab's tests compile every file it shows.
func ReadSource(fsys fs.FS, path string) Source {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return Source{File: path, Text: "// no such file"}
	}
	return Source{File: path, Text: string(b)}
}

func (s Source) listing() listing.Listing { return listing.Listing{Name: s.File, Source: s.Text} }

// String returns the source as plain text, headed by its file name.
func (s Source) String() string { return s.listing().String() }

// Markdown returns the source as a fenced code block.
func (s Source) Markdown() string { return s.listing().Markdown() }

// HTML returns the source with line numbers and coloured syntax.
func (s Source) HTML() string { return s.listing().HTML() }
