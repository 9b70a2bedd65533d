package queue

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
const simWallTime = 9 * time.Second

func init() { labs.Register(lab) }

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Sweep SweepOptions
	// H200 is the set of the H200's cells to predict; "" means EvenSet.
	H200 H200Set
}

// Report is the whole queue lab.
type Report struct {
	Device  gpu.Info       `json:"device"`
	Sweep   *SweepTable    `json:"sweep"`
	H200    *FidelityTable `json:"h200,omitempty"`
	Seconds float64        `json:"seconds"`
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
	r := &Report{Device: dev.Info()}
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

// Tables returns the report's tables in order.
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
	return []labs.Figure{{Name: "queue-sweep", Figure: r.Sweep.Chart()}}
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "queue", r.Device.Name, r.Seconds)
}

// lab is the queue lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "queue",
		Title: "A work queue: batching the pops",
		Teaches: "a global queue whose head is one atomic counter; popping k items at a time divides the atomics by k, " +
			"until the batches are too few to keep every thread busy and the tail decides; nvcc already aggregates the pop per warp",
		Sources:     []string{`"Atomics and Contention in Counters and Aggregates" (the work queue, batching)`},
		Notebook:    "notebooks/queue.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{Items: DefaultItems, BlocksPerSM: DefaultBlocksPerSM, K: DefaultK(), Costs: "even,uneven", Pops: "thread", H200: EvenSet},
	Valid:    map[string]func(int) error{"k": func(k int) error { return validK(k) }},
	Usage:    map[string]string{"predict": labkit.PredictUsage("modelled times")},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		o := Options{H200: s.H200, Sweep: SweepOptions{Items: s.Items, BlocksPerSM: s.BlocksPerSM, K: s.K, Predict: s.Predict, Progress: p}}
		if len(o.Sweep.K) == 0 {
			return nil, fmt.Errorf("queue: k: want at least one batch size")
		}
		for _, c := range strings.Split(s.Costs, ",") {
			if c == "even" {
				o.Sweep.Costs = append(o.Sweep.Costs, Even())
			} else {
				o.Sweep.Costs = append(o.Sweep.Costs, Uneven())
			}
		}
		for _, x := range strings.Split(s.Pops, ",") {
			pop, err := ParsePop(x)
			if err != nil {
				return nil, err
			}
			o.Sweep.Pops = append(o.Sweep.Pops, pop)
		}
		return Lab(dev, o)
	},
})

// settings are the lab's options, `warplab lab queue --set NAME=VALUE`.
type settings struct {
	Items       int     `lab:"items" max:"1<<22" usage:"items in the queue"`
	BlocksPerSM int     `lab:"blocks-per-sm" max:"32" usage:"blocks of 256 threads per SM"`
	K           []int   `lab:"k" max:"4096" usage:"items per pop, powers of two"`
	Costs       string  `lab:"costs" choices:"even,uneven|even|uneven" usage:"the cost distributions: even (32 each) and uneven (16, one in 64 costs 2048)"`
	Pops        string  `lab:"pops" choices:"thread|warp|thread,warp" usage:"who pops: each thread, or lane 0 for its warp"`
	H200        H200Set `lab:"h200" choices:"even|all|none" usage:"the H200 cells (4M items) whose simulator prediction goes beside the committed measurement"`
	Predict     string  `lab:"predict" spec:"sim"`
}
