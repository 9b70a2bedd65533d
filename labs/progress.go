package labs

// Progress receives the progress of a long run; *charts.Progress
// implements it. A nil Progress passed to a lab means the default: a line
// updated in place in a notebook, or on a terminal's stderr, and nothing
// elsewhere.
type Progress interface {
	// Update reports that done of total steps are finished; detail says
	// what is being done.
	Update(done, total int, detail string)
	// Done ends the report.
	Done()
}

// NoProgress returns a Progress that reports nothing.
func NoProgress() Progress { return noProgress{} }

type noProgress struct{}

func (noProgress) Update(int, int, string) {}
func (noProgress) Done()                   {}
