package reproducible

import (
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
// its CPU time: `warplab lab reproducible` took 9.6 s of CPU (user and system)
// on 2026-11-30 after the engine's sequential-access paths, under a load
// average of about 28; half of that, the runner spreading its launches
// over both cores. Most of it is the 4M-element prediction on the h200 profile. The machine was shared, so its wall time then
// measured the other work.
const simWallTime = 5 * time.Second

func init() { labs.Register(lab{}) }

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

type lab struct{}

// Info describes the lab.
func (lab) Info() labs.Info {
	return labs.Info{
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
	}
}

// Options lists the settings of the lab's run.
func (lab) Options() []labs.Option {
	return []labs.Option{
		{Name: "n", Kind: labs.Int, Default: strconv.Itoa(DefaultN), Max: maxN, Usage: "elements of the sums experiment"},
		{Name: "runs", Kind: labs.Int, Default: strconv.Itoa(DefaultRuns), Max: maxRuns,
			Usage: "runs of each sum (on the simulator each under its own scheduler seed; 20 on a GPU matches the H200)"},
		{Name: "order-n", Kind: labs.Int, Default: strconv.Itoa(DefaultOrderN), Max: maxN, Usage: "elements of the order experiment"},
		{Name: "order-runs", Kind: labs.Int, Default: strconv.Itoa(DefaultOrderRuns), Max: maxRuns, Valid: atLeastTwo,
			Usage: "runs per order of the order experiment, at least 2"},
		{Name: "predict-n", Kind: labs.Int, Default: strconv.Itoa(H200N[0]), Max: maxN, Valid: h200Size,
			Usage: fmt.Sprintf("elements of the prediction beside the H200: %d or %d", H200N[0], H200N[1])},
	}
}

// Run runs the lab on dev with resolved settings.
func (lab) Run(dev *gpu.Device, s labs.Settings, p labs.Progress) (labs.Report, error) {
	var o Options
	ints := map[string]*int{"n": &o.Sums.N, "runs": &o.Sums.Runs, "order-n": &o.Order.N, "order-runs": &o.Order.Runs, "predict-n": &o.Predict.N}
	if err := labkit.ReadInts(s, ints); err != nil {
		return nil, err
	}
	o.Sums.Progress, o.Order.Progress, o.Predict.Progress = p, p, p
	return Lab(dev, o)
}

func atLeastTwo(x int) error {
	if x < 2 {
		return fmt.Errorf("want at least 2 runs to compare")
	}
	return nil
}

func h200Size(x int) error {
	if x != H200N[0] && x != H200N[1] {
		return fmt.Errorf("want %d or %d, the sizes the H200 ran", H200N[0], H200N[1])
	}
	return nil
}
