package counters

import (
	"fmt"
	"strings"
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
const simWallTime = 8 * time.Second

func init() { labs.Register(lab) }

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Sweep SweepOptions
	// H200 is the set of the H200's cells whose prediction goes beside
	// the committed measurements; "" means Claim.
	H200 H200Set
}

// Report is the whole counters lab.
type Report struct {
	Device       gpu.Info         `json:"device"`
	Capabilities gpu.Capabilities `json:"capabilities"`
	Sweep        *SweepTable      `json:"sweep"`
	// H200 is the committed H200 measurements beside the simulator's
	// prediction, nil when not asked for.
	H200 *FidelityTable `json:"h200,omitempty"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	if err := opts.Sweep.resolve(dev); err != nil {
		return nil, err
	}
	if _, err := opts.H200.cells(); err != nil {
		return nil, err
	}
	r := &Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Sweep, err = Sweep(dev, opts.Sweep); err != nil {
		return nil, err
	}
	if r.H200, err = Fidelity("", opts.H200, opts.Sweep.Progress); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables in the order the lab presents them.
func (r *Report) Tables() []*charts.Table {
	ts := []*charts.Table{r.Sweep.Table()}
	if p := r.Sweep.PredictedTable(); p != nil {
		ts = append(ts, p)
	}
	if r.H200 != nil {
		ts = append(ts, r.H200.Table())
	}
	return ts
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	return []labs.Figure{{Name: "counters-sweep", Figure: r.Sweep.Chart()}}
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "counters", r.Device.Name, r.Seconds)
}

// lab is the counters lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "counters",
		Title: "Sliced counters: slices, padding and the aggregation ladder",
		Teaches: "one hot counter spread over k slices, packed in one 128-byte line or padded to a line each; " +
			"when padding pays (a warp's lanes on one slice) and when packing wins (a warp's lanes spread over one line: one L2 operation), " +
			"and the ladder from one atomic per thread to one add per grid",
		Sources:     []string{`"Atomics and Contention in Counters and Aggregates" (sliced counters, padding, the aggregation ladder)`},
		Notebook:    "notebooks/counters.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{Threads: DefaultThreads, BlockSize: DefaultBlockSize, Slices: DefaultSlices(), Rungs: rungKeys(), Type: "u32", H200: Claim},
	Valid:    map[string]func(int) error{"slices": func(k int) error { return validSlices(k) }},
	Usage: map[string]string{
		"rungs":   "the rungs to run, comma-separated: " + strings.ReplaceAll(rungKeys(), ",", ", "),
		"predict": labkit.PredictUsage("modelled times and counters"),
	},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		o := Options{H200: s.H200, Sweep: SweepOptions{Threads: s.Threads, BlockSize: s.BlockSize, Slices: s.Slices,
			Float: s.Type == "f32", Predict: s.Predict, Progress: p}}
		if len(o.Sweep.Slices) == 0 {
			return nil, fmt.Errorf("counters: slices: want at least one k")
		}
		var err error
		if o.Sweep.Rungs, err = parseRungs(s.Rungs); err != nil {
			return nil, err
		}
		return Lab(dev, o)
	},
})

// settings are the lab's options, `warplab lab counters --set NAME=VALUE`.
type settings struct {
	Threads   int     `lab:"threads" max:"1<<24" usage:"threads of every launch, each adding 1"`
	BlockSize int     `lab:"block-size" max:"1024" usage:"threads per block, a multiple of 32"`
	Slices    []int   `lab:"slices" max:"1<<16" usage:"the numbers of slices k to sweep, powers of two"`
	Rungs     string  `lab:"rungs"`
	Type      string  `lab:"type" choices:"u32|f32" usage:"what the threads add: unsigned integers or floats"`
	H200      H200Set `lab:"h200" choices:"claim|k32|k32-float|none" usage:"the H200 cells (16M threads) whose simulator prediction goes beside the committed measurement"`
	Predict   string  `lab:"predict" spec:"sim"`
}

// rungKeys returns the keys of every rung, comma-separated.
func rungKeys() string {
	var keys []string
	for _, r := range Rungs() {
		keys = append(keys, r.Key())
	}
	return strings.Join(keys, ",")
}
