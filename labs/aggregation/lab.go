package aggregation

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// simWallTime is the wall time of the lab's headless run with its default
// settings on sim:t4 on the 2-core development machine, estimated from
// its CPU time: `warplab lab aggregation` took 11.6 s of CPU (user and system)
// on 2026-11-30 after the engine's sequential-access paths, under a load
// average of about 28; half of that, the runner spreading its launches
// over both cores. The machine was shared, so its wall time then
// measured the other work.
const simWallTime = 6 * time.Second

func init() { labs.Register(lab{}) }

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
type lab struct{}

// Info describes the lab.
func (lab) Info() labs.Info {
	return labs.Info{
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
	}
}

// Options lists the settings of the lab's run.
func (lab) Options() []labs.Option {
	return []labs.Option{
		{Name: "n", Kind: labs.Int, Default: strconv.Itoa(DefaultN), Max: maxN,
			Usage: "elements of every input of the ladder"},
		{Name: "block-size", Kind: labs.Int, Default: strconv.Itoa(DefaultBlockSize), Max: 1024, Valid: labkit.WholeWarps,
			Usage: "threads per block of the ladder, a multiple of 32"},
		{Name: "buckets", Kind: labs.Int, Default: strconv.Itoa(DefaultBuckets), Max: maxBuckets,
			Usage: "buckets of the per-bucket append"},
		{Name: "keys-per-warp", Kind: labs.Ints, Default: labkit.JoinInts(DefaultKeysPerWarp()), Max: 32, Valid: dividesWarp,
			Usage: "distinct keys in each warp of the per-bucket rows, each dividing 32 and at most buckets"},
		{Name: "order-n", Kind: labs.Int, Default: strconv.Itoa(defaultOrderN), Max: maxN,
			Usage: "elements of the order experiment's compaction"},
		{Name: "order-runs", Kind: labs.Int, Default: strconv.Itoa(defaultOrderRuns), Max: maxRuns, Valid: atLeastTwo,
			Usage: "launches per kernel in the order experiment, at least 2"},
		labkit.PredictOption("modelled times and counters"),
	}
}

// Run runs the lab on dev with resolved settings.
func (lab) Run(dev *gpu.Device, s labs.Settings, p labs.Progress) (labs.Report, error) {
	var o Options
	ints := map[string]*int{"n": &o.Ladder.N, "block-size": &o.Ladder.BlockSize, "buckets": &o.Ladder.Buckets,
		"order-n": &o.Order.N, "order-runs": &o.Order.Runs}
	if err := labkit.ReadInts(s, ints); err != nil {
		return nil, err
	}
	keys, err := s.Ints("keys-per-warp")
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("aggregation: keys-per-warp: want at least one number")
	}
	o.Ladder.KeysPerWarp = keys
	o.Ladder.Predict = s.Text("predict")
	o.Ladder.Progress, o.Order.Progress = p, p
	return Lab(dev, o)
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
