package reproducible

import (
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
const simWallTime = 5 * time.Second

func init() { labs.Register(lab) }

// Options bounds.
const (
	maxN    = 1 << 24
	maxRuns = 64
)

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Sums    SumOptions
	Order   OrderOptions
	Predict PredictOptions
}

// Report is the whole reproducible lab.
type Report struct {
	Device  gpu.Info      `json:"device"`
	Sums    *SumTable     `json:"sums"`
	Order   *OrderTable   `json:"order"`
	Predict *PredictTable `json:"predict"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	r := &Report{Device: dev.Info()}
	var err error
	if r.Sums, err = Sums(dev, opts.Sums); err != nil {
		return nil, err
	}
	if r.Order, err = Order(dev, opts.Order); err != nil {
		return nil, err
	}
	if r.Predict, err = Predict(dev, opts.Predict); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables in the order the lab presents them.
func (r *Report) Tables() []*charts.Table {
	return []*charts.Table{r.Sums.Table(), r.Order.Table(), r.Predict.Table()}
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	return []labs.Figure{{Name: "reproducible-sums", Figure: r.Sums.Chart()}}
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "reproducible", r.Device.Name, r.Seconds)
}

// lab is the reproducible lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:    "reproducible",
		Aliases: []string{"day68"},
		Title:   "Day 68: sums that do not change",
		Teaches: "why float sums from atomics change run to run, what a fixed order (two passes, Kahan) or an integer accumulator costs, " +
			"and why the simulator's order=deterministic switch is no remedy on a GPU",
		Sources: []string{
			`"Day 26: one sum, three ways" (the pointer to Day 68: a fixed order and its cost)`,
		},
		Notebook:    "notebooks/reproducible.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{N: DefaultN, Runs: DefaultRuns, OrderN: DefaultOrderN, OrderRuns: DefaultOrderRuns, PredictN: H200SmallN},
	Valid:    map[string]func(int) error{"order-runs": atLeastTwo, "predict-n": h200Size},
	Usage: map[string]string{
		"predict-n": fmt.Sprintf("elements of the prediction beside the H200: %d or %d", H200SmallN, H200LargeN),
	},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		return Lab(dev, Options{
			Sums:    SumOptions{N: s.N, Runs: s.Runs, Progress: p},
			Order:   OrderOptions{N: s.OrderN, Runs: s.OrderRuns, Progress: p},
			Predict: PredictOptions{N: s.PredictN, Progress: p},
		})
	},
})

// settings are the lab's options, `warplab lab reproducible --set NAME=VALUE`.
type settings struct {
	N         int `lab:"n" max:"1<<24" usage:"elements of the sums experiment"`
	Runs      int `lab:"runs" max:"64" usage:"runs of each sum (on the simulator each under its own scheduler seed; 20 on a GPU matches the H200)"`
	OrderN    int `lab:"order-n" max:"1<<24" usage:"elements of the order experiment"`
	OrderRuns int `lab:"order-runs" max:"64" usage:"runs per order of the order experiment, at least 2"`
	PredictN  int `lab:"predict-n" max:"1<<24"`
}

func atLeastTwo(x int) error {
	if x < 2 {
		return fmt.Errorf("want at least 2 runs to compare")
	}
	return nil
}

func h200Size(x int) error {
	if x != H200SmallN && x != H200LargeN {
		return fmt.Errorf("want %d or %d, the sizes the H200 ran", H200SmallN, H200LargeN)
	}
	return nil
}
