package atomics

import (
	"fmt"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Day26Options configure Day26; the zero value runs the whole lab as the
// page describes it.
type Day26Options struct {
	Sweep       SweepOptions
	Determinism DeterminismOptions
	BlockSizes  BlockSizeOptions
	// Progress, if set, receives the progress of each experiment in
	// turn, where an experiment's own options set none; nil means each
	// experiment's default (see labs.Progress).
	Progress labs.Progress
}

// Day26Report is the whole Day 26 lab: the sweep, the determinism
// experiment and the block-size exercise's sweep.
type Day26Report struct {
	Device       gpu.Info          `json:"device"`
	Capabilities gpu.Capabilities  `json:"capabilities"`
	Sweep        *SweepTable       `json:"sweep"`
	Determinism  *DeterminismTable `json:"determinism"`
	BlockSizes   *BlockSizeTable   `json:"block_sizes"`
	// WallTime is the wall time the lab took on this machine, in
	// nanoseconds in JSON.
	WallTime time.Duration `json:"wall_time"`
}

// Day26 runs the lab's three experiments on dev.
func Day26(dev *gpu.Device, opts Day26Options) (*Day26Report, error) {
	start := time.Now()
	if err := opts.check(dev); err != nil {
		return nil, err
	}
	if opts.Progress != nil {
		for _, p := range []*labs.Progress{&opts.Sweep.Progress, &opts.Determinism.Progress, &opts.BlockSizes.Progress} {
			if *p == nil {
				*p = opts.Progress
			}
		}
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
	r.WallTime = time.Since(start)
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

// Figures returns the report's charts in the order the lab presents them.
func (r *Day26Report) Figures() []labs.Figure {
	fs := []labs.Figure{
		{Name: "sweep-time", Figure: r.Sweep.Chart()},
		{Name: "sweep-gbps", Figure: r.Sweep.GBpsChart()},
	}
	if p := r.Sweep.PredictedChart(); p != nil {
		fs = append(fs, labs.Figure{Name: "sweep-predicted", Figure: p})
	}
	return append(fs,
		labs.Figure{Name: "determinism", Figure: r.Determinism.Chart()},
		labs.Figure{Name: "block-sizes", Figure: r.BlockSizes.Chart()},
		labs.Figure{Name: "block-sizes-time", Figure: r.BlockSizes.TimeChart()},
	)
}

// Elapsed returns the wall time the lab took on this machine.
func (r *Day26Report) Elapsed() time.Duration { return r.WallTime }

// String returns the report as plain text: the tables, then the time
// the lab took.
func (r *Day26Report) String() string {
	return labkit.ReportText(r.Tables(), "Day 26", r.Device.Name, r.WallTime.Seconds())
}

// Markdown returns the report as Markdown.
func (r *Day26Report) Markdown() string {
	return labkit.ReportMarkdown(r.Tables(), "Day 26", r.Device.Name, r.WallTime.Seconds())
}
