package cas

import (
	"testing"
)

// The highlighted time is the fastest kernel among the right ones: at one
// contender the int trick, wrong for negative values, may be quickest,
// and it must not be the one the table points at.
func TestContentionHighlightsARightKernel(t *testing.T) {
	tab := &ContentionTable{N: 1024, Timing: "modelled", Rows: []ContentionRow{
		{Kernel: MaxCAS, Contenders: 1, Ms: 0.020},
		{Kernel: MaxIntTrick, Contenders: 1, Ms: 0.015, Wrong: 300},
		{Kernel: MaxSignAware, Contenders: 1, Ms: 0.018},
		{Kernel: MaxCAS, Contenders: 64, Ms: 0.030},
		{Kernel: MaxIntTrick, Contenders: 64, Ms: 0.050, Wrong: 4},
		{Kernel: MaxSignAware, Contenders: 64, Ms: 0.060},
	}}
	want := map[int]string{1: MaxSignAware.Title(), 64: MaxCAS.Title()}
	for _, row := range tab.Table().Rows {
		c := int(row[0].Value)
		if got := row[2].Highlight; got != (row[1].Text == want[c]) {
			t.Errorf("%d contenders, %s: highlighted %v; want only %s highlighted", c, row[1].Text, got, want[c])
		}
	}
}

// The chart's lines are named as the table's rows are.
func TestContentionChartNamesTheTableKernels(t *testing.T) {
	tab := &ContentionTable{N: 1024, Timing: "modelled", Rows: []ContentionRow{
		{Kernel: MaxCAS, Contenders: 1, Ms: 0.020, H200Ms: 0.01},
		{Kernel: MaxSignAware, Contenders: 1, Ms: 0.018},
	}}
	names := map[string]bool{}
	for _, row := range tab.Table().Rows {
		names[row[1].Text] = true
		names[row[1].Text+" (H200)"] = true
	}
	for _, s := range tab.Chart().Series {
		if !names[s.Name] {
			t.Errorf("chart series %q names no kernel of the table (%v)", s.Name, names)
		}
	}
}
