package labkit

import "github.com/warplab/warplab/charts"

// Progress receives the progress of a long run. *charts.Progress
// implements it.
type Progress interface {
	// Update reports that done of total steps are finished; detail says
	// what is being done.
	Update(done, total int, detail string)
	// Done ends the report.
	Done()
}

// NoProgress reports nothing.
var NoProgress Progress = noProgress{}

type noProgress struct{}

func (noProgress) Update(int, int, string) {}
func (noProgress) Done()                   {}

// OrDefault returns p, or when p is nil a charts.NewProgress labelled
// label: an updating line in a notebook, a line on a terminal's stderr,
// nothing elsewhere.
func OrDefault(p Progress, label string) Progress {
	if p != nil {
		return p
	}
	return charts.NewProgress(label)
}
