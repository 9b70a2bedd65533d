package histogram

import (
	"fmt"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of BarrierOptions.
const (
	DefaultBarrierN     = 1 << 16
	DefaultBarrierBins  = 4096
	DefaultBarrierSeeds = 8
)

// BarrierOptions configure MissingBarrier; the zero value runs the
// defaults.
type BarrierOptions struct {
	// N is the elements, Bins the bins (1 to 4096): with more bins than
	// threads per block, each thread zeroes several bins, and a warp that
	// finishes its zeroing early adds into bins still to be zeroed.
	N, Bins int
	// Seeds is the number of launches, one per scheduler seed.
	Seeds int
	// Input is the input; empty means Uniform.
	Input Input
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

func (o *BarrierOptions) resolve() error {
	if o.N == 0 {
		o.N = DefaultBarrierN
	}
	if o.Bins == 0 {
		o.Bins = DefaultBarrierBins
	}
	if o.Seeds == 0 {
		o.Seeds = DefaultBarrierSeeds
	}
	if o.Input == "" {
		o.Input = Uniform
	}
	switch {
	case o.N < 1 || o.N > maxN:
		return fmt.Errorf("histogram: barrier N %d: want 1 to %d elements", o.N, maxN)
	case o.Bins < 1 || o.Bins > maxBins:
		return fmt.Errorf("histogram: barrier Bins %d: want 1 to %d bins", o.Bins, maxBins)
	case o.Seeds < 1 || o.Seeds > maxSeeds:
		return fmt.Errorf("histogram: barrier Seeds %d: want 1 to %d launches", o.Seeds, maxSeeds)
	}
	_, err := ParseInput(string(o.Input))
	return err
}

// BarrierRow is one launch of histNoBarrier.
type BarrierRow struct {
	// Seed is the scheduler's seed (0 on a GPU).
	Seed uint64 `json:"seed"`
	// Races are the race diagnostics the simulator reported.
	Races int `json:"races"`
	// WrongBins and Lost say how far the histogram is from the exact one.
	WrongBins int   `json:"wrong_bins"`
	Lost      int64 `json:"lost"`
}

// BarrierTable is the missing-barrier experiment's result.
type BarrierTable struct {
	N      int          `json:"n"`
	Bins   int          `json:"bins"`
	Input  Input        `json:"input"`
	Device string       `json:"device"`
	Rows   []BarrierRow `json:"rows"`
	// Race is the first race the simulator reported, with both source
	// lines; empty when none was (or on a GPU).
	Race string `json:"race,omitempty"`
}

// MissingBarrier launches histNoBarrier once per seed and reports, for
// each launch, the races the simulator found and how wrong the counts are.
func MissingBarrier(dev *gpu.Device, o BarrierOptions) (*BarrierTable, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &BarrierTable{N: o.N, Bins: o.Bins, Input: o.Input, Device: info.Name}
	cells := make([]*cell, o.Seeds)
	jobs := make([]labkit.Job, o.Seeds)
	for i := range cells {
		cells[i] = &cell{k: NoBarrier, in: o.Input, n: o.N, bins: o.Bins, seed: DefaultSeed,
			cfg: launchFor(NoBarrier, info, o.N, o.Bins, DefaultBlock), runs: 1}
		jobs[i] = cells[i].job()
	}
	if err := r.Run(jobs, labkit.OrDefault(o.Progress, "missing barrier")); err != nil {
		return nil, err
	}
	for _, c := range cells {
		row := BarrierRow{Seed: c.res.Seed}
		for _, d := range c.diagnostics {
			if d.Kind == "race" {
				row.Races++
				if t.Race == "" {
					t.Race = d.String()
				}
			}
		}
		row.WrongBins, row.Lost = c.wrongBins, c.lost
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// WrongLaunches returns the launches whose counts were wrong.
func (t *BarrierTable) WrongLaunches() int {
	k := 0
	for _, r := range t.Rows {
		if r.WrongBins > 0 {
			k++
		}
	}
	return k
}

// Table renders the experiment: one row per launch.
func (t *BarrierTable) Table() *charts.Table {
	tb := charts.NewTable(fmt.Sprintf("The missing barrier: histNoBarrier, %d elements, %d bins, %s input", t.N, t.Bins, t.Input),
		charts.Column{Header: "seed"}, charts.Column{Header: "races reported"},
		charts.Column{Header: "wrong bins"}, charts.Column{Header: "counts lost"})
	tb.Caption = t.Device
	for _, r := range t.Rows {
		wrong := charts.Int(int64(r.WrongBins))
		if r.WrongBins > 0 {
			wrong = wrong.Highlighted()
		}
		tb.AddRow(charts.Int(int64(r.Seed)), charts.Int(int64(r.Races)), wrong, charts.Int(r.Lost))
	}
	if t.Race != "" {
		tb.AddNote("First race reported: %s", t.Race)
	}
	tb.AddNote("%d of %d launches counted wrong.", t.WrongLaunches(), len(t.Rows))
	if t.WrongLaunches() == 0 && t.Race != "" {
		tb.AddNote("The simulator's schedule let every zeroing store land before the adds that race with it, so its counts came out exact: the race check, not the output, finds this bug here. On a GPU a warp that finishes its zeroing first adds into bins that a slower warp then zeroes, and the counts it loses change from launch to launch.")
	}
	return tb
}
