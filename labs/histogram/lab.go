package histogram

import (
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// simWallTime is the wall time of the lab's headless run with its default
// settings on sim:t4 on the development machine, as `warplab lab list`
// states it: half the run's CPU time, the runner spreading its launches
// over both cores; docs/speed.md records the measurement.
const simWallTime = 3 * time.Second

func init() { labs.Register(lab) }

// Options bounds.
const (
	maxN     = 1 << 24
	maxBins  = 4096
	maxSeeds = 64
)

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Shapes  ShapeOptions
	Barrier BarrierOptions
}

// Report is the whole histogram lab.
type Report struct {
	Device  gpu.Info      `json:"device"`
	Shapes  *ShapeTable   `json:"shapes"`
	Barrier *BarrierTable `json:"barrier"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	if err := opts.Shapes.resolve(); err != nil {
		return nil, err
	}
	if err := opts.Barrier.resolve(); err != nil {
		return nil, err
	}
	r := &Report{Device: dev.Info()}
	var err error
	if r.Shapes, err = Shapes(dev, opts.Shapes); err != nil {
		return nil, err
	}
	if r.Barrier, err = MissingBarrier(dev, opts.Barrier); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables in the order the lab presents them.
func (r *Report) Tables() []*charts.Table {
	return []*charts.Table{r.Shapes.Table(), r.Shapes.FindingsTable(), r.Barrier.Table()}
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	if c := r.Shapes.Chart(); c != nil {
		return []labs.Figure{{Name: "histogram-shapes", Figure: c}}
	}
	return nil
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "histogram", r.Device.Name, r.Seconds)
}

// lab is the histogram lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "histogram",
		Title: "Histograms: privatisation, the missing barrier, launch shape, partitioning and skew",
		Teaches: "shared bins per block merged with one atomic per bin, why the barrier after zeroing them matters, " +
			"why a grid of resident blocks beats one block per 256 elements, when the partitioning rule holds, and what privatisation does for a hot bin",
		Sources: []string{
			`"Atomics and Contention" (privatisation, the histogram)`,
			`"Atomic Operations, Warp Shuffle, and the Register Cache" (contiguous vs interleaved partitioning)`,
		},
		Notebook:    "notebooks/histogram.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{N: DefaultN, Bins: []int{256}, Block: DefaultBlock, Seed: DefaultSeed,
		BarrierN: DefaultBarrierN, BarrierBins: DefaultBarrierBins, BarrierSeeds: DefaultBarrierSeeds},
	Valid: map[string]func(int) error{"block-size": labkit.WholeWarps},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		return Lab(dev, Options{
			Shapes:  ShapeOptions{N: s.N, Bins: s.Bins, Block: s.Block, Seed: s.Seed, Progress: p},
			Barrier: BarrierOptions{N: s.BarrierN, Bins: s.BarrierBins, Seeds: s.BarrierSeeds, Progress: p},
		})
	},
})

// settings are the lab's options, `warplab lab histogram --set NAME=VALUE`.
type settings struct {
	N            int    `lab:"n" max:"1<<24" usage:"elements of the shape experiment's inputs"`
	Bins         []int  `lab:"bins" max:"4096" usage:"bin counts of the shape experiment, each 1 to 4096"`
	Block        int    `lab:"block-size" max:"1024" usage:"threads per block of the shape experiment, a multiple of 32"`
	Seed         uint64 `lab:"seed" max:"1<<30" usage:"seed of the inputs"`
	BarrierN     int    `lab:"barrier-n" max:"1<<24" usage:"elements of the missing-barrier experiment"`
	BarrierBins  int    `lab:"barrier-bins" max:"4096" usage:"bins of the missing-barrier experiment"`
	BarrierSeeds int    `lab:"barrier-seeds" max:"64" usage:"launches (scheduler seeds) of the missing-barrier experiment"`
}
