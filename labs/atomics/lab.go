package atomics

import (
	"fmt"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
)

// Day26Options configure Day26; the zero value runs the whole lab as the
// page describes it.
type Day26Options struct {
	Sweep       SweepOptions
	Determinism DeterminismOptions
	BlockSizes  BlockSizeOptions
}

// Day26Report is the whole Day 26 lab: the sweep, the determinism
// experiment and the block-size exercise's sweep.
type Day26Report struct {
	Device       gpu.Info          `json:"device"`
	Capabilities gpu.Capabilities  `json:"capabilities"`
	Sweep        *SweepTable       `json:"sweep"`
	Determinism  *DeterminismTable `json:"determinism"`
	BlockSizes   *BlockSizeTable   `json:"block_sizes"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Day26 runs the lab's three experiments on dev.
func Day26(dev *gpu.Device, opts Day26Options) (*Day26Report, error) {
	start := time.Now()
	if err := opts.check(dev); err != nil {
		return nil, err
	}
	r := &Day26Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Sweep, err = Sweep(dev, opts.Sweep); err != nil {
		return nil, err
	}
	if r.Determinism, err = Determinism(dev, opts.Determinism); err != nil {
		return nil, err
	}
	if r.BlockSizes, err = BlockSizes(dev, opts.BlockSizes); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// check reports an option that would fail an experiment, before any
// runs.
func (o Day26Options) check(dev *gpu.Device) error {
	blocks := append([]int{o.Sweep.BlockSize, o.Determinism.BlockSize, o.BlockSizes.Baseline}, o.BlockSizes.BlockSizes...)
	for _, b := range blocks {
		if b == 0 {
			continue
		}
		if err := checkBlockSize(dev, b); err != nil {
			return err
		}
	}
	for _, sizes := range [][]int{o.Sweep.Sizes, o.BlockSizes.Sizes} {
		if _, err := checkSizes(sizes); err != nil {
			return err
		}
	}
	for _, runs := range []int{o.Sweep.Runs, o.BlockSizes.Runs, o.Determinism.Runs} {
		if runs < 0 {
			return fmt.Errorf("atomics: Runs %d: want at least 1 (0 for the default)", runs)
		}
	}
	if o.Determinism.N < 0 {
		return fmt.Errorf("atomics: determinism over %d elements: want at least 1", o.Determinism.N)
	}
	return nil
}

// Tables returns the report's tables in the order the lab presents them;
// the predicted-vs-measured table is there only when the sweep ran on a
// GPU.
func (r *Day26Report) Tables() []*charts.Table {
	ts := []*charts.Table{r.Sweep.Table()}
	if p := r.Sweep.PredictedTable(); p != nil {
		ts = append(ts, p)
	}
	return append(ts, r.Determinism.Table(), r.BlockSizes.Table())
}

// Figure is a chart with a file name, for saving.
type Figure struct {
	// Name is a file name without extension: "sweep-time".
	Name   string
	Figure charts.Figure
}

// Figures returns the report's charts in the order the lab presents them.
func (r *Day26Report) Figures() []Figure {
	fs := []Figure{
		{"sweep-time", r.Sweep.Chart()},
		{"sweep-gbps", r.Sweep.GBpsChart()},
	}
	if p := r.Sweep.PredictedChart(); p != nil {
		fs = append(fs, Figure{"sweep-predicted", p})
	}
	return append(fs,
		Figure{"determinism", r.Determinism.Chart()},
		Figure{"block-sizes", r.BlockSizes.Chart()},
		Figure{"block-sizes-time", r.BlockSizes.TimeChart()},
	)
}

// String returns the report as plain text: the tables, then the time
// the lab took.
func (r *Day26Report) String() string {
	s := ""
	for _, t := range r.Tables() {
		s += t.String() + "\n"
	}
	return s + fmt.Sprintf("Day 26 lab on %s: %.1f s\n", r.Device.Name, r.Seconds)
}

// Markdown returns the report as Markdown.
func (r *Day26Report) Markdown() string {
	s := ""
	for _, t := range r.Tables() {
		s += t.Markdown() + "\n"
	}
	return s + fmt.Sprintf("Day 26 lab on %s: %.1f s\n", r.Device.Name, r.Seconds)
}
