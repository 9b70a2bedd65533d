package cas

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
const simWallTime = 1 * time.Second

func init() { labs.Register(lab) }

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	// RandomPairs are the random pairs of the correctness experiment
	// (0: DefaultRandomPairs; negative: none).
	RandomPairs int
	Contention  ContentionOptions
}

// Report is the whole CAS lab.
type Report struct {
	Device      gpu.Info          `json:"device"`
	Correctness *CorrectnessTable `json:"correctness"`
	Contention  *ContentionTable  `json:"contention"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	if err := opts.Contention.resolve(); err != nil {
		return nil, err
	}
	pairs := opts.RandomPairs
	switch {
	case pairs == 0:
		pairs = DefaultRandomPairs
	case pairs < 0:
		pairs = 0
	}
	r := &Report{Device: dev.Info()}
	var err error
	if r.Correctness, err = Correctness(dev, pairs, opts.Contention.Seed); err != nil {
		return nil, err
	}
	if r.Contention, err = Contention(dev, opts.Contention); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables in the order the lab presents them.
func (r *Report) Tables() []*charts.Table {
	return []*charts.Table{r.Correctness.Table(), r.Contention.Table()}
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	return []labs.Figure{{Name: "cas-contention", Figure: r.Contention.Chart()}}
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "cas", r.Device.Name, r.Seconds)
}

// lab is the CAS lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "cas",
		Title: "Compare-and-swap loops: a float maximum, right and fast",
		Teaches: "why atomicMax on a float's bits is wrong for negatives, the CAS loop and the sign-aware integer trick that are right, " +
			"how many retries contention costs, and why the CAS loop beats the hardware atomicMax when many threads share an address",
		Sources:     []string{`"Atomics and Contention" (atomicCAS for everything else, atomicMaxFloat)`},
		Notebook:    "notebooks/cas.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{N: DefaultN, Contenders: DefaultContenders(), Pairs: DefaultRandomPairs, Seed: DefaultSeed},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		return Lab(dev, Options{RandomPairs: s.Pairs,
			Contention: ContentionOptions{N: s.N, Contenders: s.Contenders, Seed: s.Seed, Progress: p}})
	},
})

// settings are the lab's options, `warplab lab cas --set NAME=VALUE`.
type settings struct {
	N          int    `lab:"n" max:"1<<22" usage:"threads of the contention experiment, one value each"`
	Contenders []int  `lab:"contenders" max:"1<<22" usage:"threads per address of the contention experiment, each at most n"`
	Pairs      int    `lab:"pairs" max:"1<<20" usage:"random pairs of the correctness experiment, beside every pair of special values"`
	Seed       uint64 `lab:"seed" max:"1<<30" usage:"seed of the values"`
}
