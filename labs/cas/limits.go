package cas

// Options bounds.
const (
	maxPairs = 1 << 20
	maxN     = 1 << 22
)
