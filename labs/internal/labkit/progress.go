package labkit

import (
	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/labs"
)

// Progress is the progress report a lab's Run receives.
type Progress = labs.Progress

// NoProgress reports nothing.
var NoProgress = labs.NoProgress()

// OrDefault returns p, or when p is nil a charts.NewProgress labelled
// label: an updating line in a notebook, a line on a terminal's stderr,
// nothing elsewhere.
func OrDefault(p Progress, label string) Progress {
	if p != nil {
		return p
	}
	return charts.NewProgress(label)
}
