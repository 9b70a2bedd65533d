package aggregation

import (
	"errors"
	"fmt"
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
const simWallTime = 6 * time.Second

func init() { labs.Register(lab) }

// Options bounds.
const (
	maxN       = 1 << 24
	maxBuckets = 1 << 16
	maxRuns    = 100
)

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Ladder LadderOptions
	Order  OrderOptions
}

// Report is the whole aggregation lab: the ladder and the order
// experiment.
type Report struct {
	Device       gpu.Info         `json:"device"`
	Capabilities gpu.Capabilities `json:"capabilities"`
	Ladder       *LadderTable     `json:"ladder"`
	Order        *OrderTable      `json:"order"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	// Every option is checked before anything runs.
	if err := opts.Ladder.resolve(dev); err != nil {
		return nil, err
	}
	if err := opts.Order.resolve(); err != nil {
		return nil, err
	}
	r := &Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Ladder, err = Ladder(dev, opts.Ladder); err != nil {
		return nil, err
	}
	if r.Order, err = Order(dev, opts.Order); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables in the order the lab presents them;
// the predicted-vs-measured table is there only on a GPU.
func (r *Report) Tables() []*charts.Table {
	ts := []*charts.Table{r.Ladder.Table()}
	if p := r.Ladder.PredictedTable(); p != nil {
		ts = append(ts, p)
	}
	return append(ts, r.Order.Table())
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	fs := []labs.Figure{{Name: "ladder-keys", Figure: r.Ladder.Chart()}}
	if c := r.Ladder.AtomicsChart(); c != nil {
		fs = append(fs, labs.Figure{Name: "ladder-atomics", Figure: c})
	}
	return fs
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text: the tables, then the time the
// lab took.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "aggregation", r.Device.Name, r.Seconds)
}

// lab is the aggregation lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "aggregation",
		Title: "Warp-aggregated atomics: what the compiler already does",
		Teaches: "one atomic per warp instead of one per lane: what nvcc aggregates by itself (one address it can prove), " +
			"what only atomicAggInc with __match_any_sync can (several keys per warp, a data-dependent address), " +
			"and why the tickets are a permutation whose order changes from run to run",
		Sources: []string{
			`"Atomics and Contention in Counters and Aggregates" (the aggregation ladder)`,
			`"Atomic Operations, Warp Shuffle, and the Register Cache: A Deep Dive with Online Softmax" (atomicAggInc)`,
		},
		Notebook:    "notebooks/aggregation.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{N: DefaultN, BlockSize: DefaultBlockSize, Buckets: DefaultBuckets, KeysPerWarp: DefaultKeysPerWarp(),
		OrderN: defaultOrderN, OrderRuns: defaultOrderRuns},
	Valid: map[string]func(int) error{"block-size": labkit.WholeWarps, "keys-per-warp": dividesWarp, "order-runs": atLeastTwo},
	Usage: map[string]string{"predict": labkit.PredictUsage("modelled times and counters")},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		if len(s.KeysPerWarp) == 0 {
			return nil, fmt.Errorf("aggregation: keys-per-warp: want at least one number")
		}
		return Lab(dev, Options{
			Ladder: LadderOptions{N: s.N, BlockSize: s.BlockSize, Buckets: s.Buckets, KeysPerWarp: s.KeysPerWarp, Predict: s.Predict, Progress: p},
			Order:  OrderOptions{N: s.OrderN, Runs: s.OrderRuns, Progress: p},
		})
	},
})

// settings are the lab's options, `warplab lab aggregation --set NAME=VALUE`.
type settings struct {
	N           int    `lab:"n" max:"1<<24" usage:"elements of every input of the ladder"`
	BlockSize   int    `lab:"block-size" max:"1024" usage:"threads per block of the ladder, a multiple of 32"`
	Buckets     int    `lab:"buckets" max:"1<<16" usage:"buckets of the per-bucket append"`
	KeysPerWarp []int  `lab:"keys-per-warp" max:"32" usage:"distinct keys in each warp of the per-bucket rows, each dividing 32 and at most buckets"`
	OrderN      int    `lab:"order-n" max:"1<<24" usage:"elements of the order experiment's compaction"`
	OrderRuns   int    `lab:"order-runs" max:"100" usage:"launches per kernel in the order experiment, at least 2"`
	Predict     string `lab:"predict" spec:"sim"`
}

func dividesWarp(x int) error {
	if 32%x != 0 {
		return errors.New("want 1, 2, 4, 8, 16 or 32 (a divisor of the warp)")
	}
	return nil
}

func atLeastTwo(x int) error {
	if x < 2 {
		return errors.New("want at least 2 launches to compare")
	}
	return nil
}
