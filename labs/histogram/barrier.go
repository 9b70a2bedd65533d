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
	// Spec is the spec the launches ran under: on the simulator, the
	// device's with interleave=fine (FineSpec) and the first launch's seed.
	Spec string `json:"spec"`
	// Simulated says the rows are the simulator's, each seed a schedule
	// it chose, not launches on a GPU.
	Simulated bool `json:"simulated"`
	// Race is the first race the simulator reported, with both source
	// lines; empty when none was (or on a GPU).
	Race string `json:"race,omitempty"`
}

// FineSpec returns the spec the experiment runs a simulated device under:
// the same device and seed with interleave=fine, under which a block's
// warps also take turns at shared-memory loads and stores, so that the
// zeroing stores and the adds that race with them land in an order that
// changes from seed to seed.
func FineSpec(s gpu.Spec) gpu.Spec { return s.WithInterleave(gpu.InterleaveFine) }

// MissingBarrier launches histNoBarrier once per seed and reports, for
// each launch, the races the simulator found and how wrong the counts are.
// On the simulator it runs under FineSpec(dev.Spec()): launch k uses the
// spec's seed plus k, and ReplaySpec names the spec that reproduces a
// launch's counts.
func MissingBarrier(dev *gpu.Device, o BarrierOptions) (*BarrierTable, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	run := dev
	sim := dev.Spec().Backend() == "sim"
	if sim {
		d, err := gpu.OpenSpec(FineSpec(dev.Spec()))
		if err != nil {
			return nil, fmt.Errorf("histogram: %w", err)
		}
		defer d.Close()
		run = d
	}
	r, err := labkit.NewRunner(run)
	if err != nil {
		return nil, err
	}
	info := run.Info()
	t := &BarrierTable{N: o.N, Bins: o.Bins, Input: o.Input, Device: info.Name, Spec: run.Spec().String(), Simulated: sim}
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

// FirstWrong returns the first launch whose counts were wrong.
func (t *BarrierTable) FirstWrong() (BarrierRow, bool) {
	for _, r := range t.Rows {
		if r.WrongBins > 0 {
			return r, true
		}
	}
	return BarrierRow{}, false
}

// ReplaySpec returns the device spec whose first launch of histNoBarrier
// (MissingBarrier with Seeds 1, or warplab lab histogram --device SPEC
// --set barrier-seeds=1) reproduces row r's counts; "" on a GPU, whose
// launches cannot be replayed.
func (t *BarrierTable) ReplaySpec(r BarrierRow) string {
	if !t.Simulated {
		return ""
	}
	s, err := gpu.ParseSpec(t.Spec)
	if err != nil {
		return ""
	}
	return s.WithSeed(r.Seed).String()
}

// H200BarrierLaunches and H200BarrierWrong are what the H200 did with the
// experiment's defaults (65,536 elements, 4,096 bins, uniform input): no
// launch of 20 counted wrong (H200BarrierSource).
const (
	H200BarrierLaunches = 20
	H200BarrierWrong    = 0
	H200BarrierSource   = "calibration/evidence/2026-11-30-h200-gpu-evidence-all-labs.txt"
)

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
	if r, ok := t.FirstWrong(); ok && t.Simulated {
		tb.AddNote("Seed %d lost %d counts in %d bins; the spec %s replays that launch exactly. "+
			"These launches ran with interleave=fine: the block's warps take turns at every shared-memory access, "+
			"so a warp that finishes its zeroing early adds into bins a slower warp zeroes afterwards.",
			r.Seed, r.Lost, r.WrongBins, t.ReplaySpec(r))
	}
	if t.WrongLaunches() == 0 && t.Race != "" {
		tb.AddNote("Every launch here let the zeroing stores land before the adds that race with them: the race check, not the output, finds this bug in these launches. Try more seeds.")
	}
	if t.Simulated {
		tb.AddNote("A GPU may or may not show it: on the H200, %d of %d launches of this experiment counted wrong. "+
			"The simulator shows what the missing barrier allows; the GPU shows what happened on those launches.",
			H200BarrierWrong, H200BarrierLaunches)
	} else {
		tb.AddNote("Measured on the GPU: a launch that counts right does not make the kernel right; the race allows lost counts whether or not these launches lost any.")
	}
	return tb
}
