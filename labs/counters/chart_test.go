package counters

import (
	"strings"
	"testing"
)

// Two lines with the same times are drawn once, named together, so that
// neither hides the other.
func TestChartMergesLinesThatCoincide(t *testing.T) {
	tab := &SweepTable{Timing: "modelled", Threads: 1024, Rows: []Row{
		{Rung: PerBlock, Slices: 1, Padded: false, Ms: 0.0120},
		{Rung: PerBlock, Slices: 4, Padded: false, Ms: 0.0121},
		{Rung: PerBlock, Slices: 1, Padded: true, Ms: 0.0120},
		{Rung: PerBlock, Slices: 4, Padded: true, Ms: 0.0122},
		{Rung: PerWarp, Slices: 1, Padded: false, Ms: 0.0250},
		{Rung: PerWarp, Slices: 4, Padded: false, Ms: 0.0250},
		{Rung: PerWarp, Slices: 1, Padded: true, Ms: 0.0250},
		{Rung: PerWarp, Slices: 4, Padded: true, Ms: 0.0150},
	}}
	var names []string
	for _, s := range tab.Chart().Series {
		names = append(names, s.Name)
	}
	if len(names) != 3 || !strings.Contains(strings.Join(names, "|"), "block, packed ≈ block, padded") {
		t.Errorf("chart lines %q; want the block rung's two layouts as one line and the warp rung's two apart", names)
	}
}
