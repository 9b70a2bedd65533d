package ordering

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
// states it (its kernels store to global memory, so a launch runs on one
// core); docs/speed.md records the measurement.
const simWallTime = 600 * time.Millisecond

func init() { labs.Register(lab) }

// Options configure Lab; the zero value runs the whole lab.
type Options struct {
	Publish PublishOptions
	// Scope is the atomics-scope experiment, Litmus the store- and
	// load-buffering one.
	Scope  ScopeOptions
	Litmus LitmusOptions
	// Predict, on a GPU, is the simulated device whose relaxed model runs
	// beside the measurement: a sim: spec, "none", or empty for
	// sim:h200.
	Predict string
}

// Report is the whole ordering lab.
type Report struct {
	Device       gpu.Info         `json:"device"`
	Capabilities gpu.Capabilities `json:"capabilities"`
	// Publish is the message-passing experiment on the lab's device: on
	// the simulator under the relaxed model, on a GPU measured.
	Publish *PublishTable `json:"publish"`
	// Allowed is, on a GPU, the same experiment on the simulator's relaxed
	// model: what PTX allows beside what happened. Nil on the simulator.
	Allowed *PublishTable `json:"allowed,omitempty"`
	// Scope is one counter added to by every block with atomicAdd and
	// with atomicAdd_block: on the simulator under the relaxed model, on a
	// GPU measured; ScopeAllowed is, on a GPU, the simulator's beside it.
	Scope        *ScopeTable `json:"scope"`
	ScopeAllowed *ScopeTable `json:"scope_allowed,omitempty"`
	// Litmus is store and load buffering between blocks, with and
	// without fences; LitmusAllowed, on a GPU, the simulator's beside it.
	Litmus        *LitmusTable `json:"litmus"`
	LitmusAllowed *LitmusTable `json:"litmus_allowed,omitempty"`
	Seconds       float64      `json:"seconds"`
}

// Lab runs the lab's experiments on dev, as its notebook does.
func Lab(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	if err := opts.Publish.resolve(); err != nil {
		return nil, err
	}
	if err := opts.Scope.resolve(); err != nil {
		return nil, err
	}
	if err := opts.Litmus.resolve(); err != nil {
		return nil, err
	}
	var predict gpu.Spec
	gpuRun := dev.Spec().Backend() != "sim"
	if gpuRun && opts.Predict != "none" {
		text := opts.Predict
		if text == "" {
			text = "sim:h200"
		}
		s, err := gpu.ParseSpec(text)
		if err != nil || s.Backend() != "sim" {
			return nil, fmt.Errorf("ordering: predict %q: want a sim: spec or none", opts.Predict)
		}
		predict = s
	}
	r := &Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Publish, err = Publish(dev, opts.Publish); err != nil {
		return nil, err
	}
	if !predict.IsAuto() {
		sim, err := gpu.OpenSpec(predict)
		if err != nil {
			return nil, fmt.Errorf("ordering: %w", err)
		}
		defer sim.Close()
		// The simulator runs at most the default sizes: a GPU's millions
		// of trials would take it hours, and a few thousand show what the
		// model allows.
		o := opts.Publish
		o.Pairs, o.Trials, o.Launches = min(o.Pairs, DefaultPairs), min(o.Trials, DefaultTrials), min(o.Launches, DefaultLaunches)
		if r.Allowed, err = Publish(sim, o); err != nil {
			return nil, err
		}
	}
	if r.Scope, err = Scope(dev, opts.Scope); err != nil {
		return nil, err
	}
	if !predict.IsAuto() {
		sim, err := gpu.OpenSpec(predict)
		if err != nil {
			return nil, fmt.Errorf("ordering: %w", err)
		}
		defer sim.Close()
		o := opts.Scope
		o.Blocks, o.Launches = min(o.Blocks, DefaultScopeBlocks), min(o.Launches, DefaultScopeLaunches)
		if r.ScopeAllowed, err = Scope(sim, o); err != nil {
			return nil, err
		}
		lo := opts.Litmus
		lo.Pairs, lo.Launches = min(lo.Pairs, DefaultLitmusPairs), min(lo.Launches, DefaultLitmusLaunches)
		if r.LitmusAllowed, err = Litmus(sim, lo); err != nil {
			return nil, err
		}
	}
	if r.Litmus, err = Litmus(dev, opts.Litmus); err != nil {
		return nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Tables returns the report's tables: message passing on the lab's
// device, then on a GPU the simulator's relaxed model beside it; the same
// for the scope of an atomic and for store and load buffering.
func (r *Report) Tables() []*charts.Table {
	ts := []*charts.Table{r.Publish.Table()}
	if r.Allowed != nil {
		ts = append(ts, r.Allowed.Table())
	}
	if r.Scope != nil {
		ts = append(ts, r.Scope.Table())
	}
	if r.ScopeAllowed != nil {
		ts = append(ts, r.ScopeAllowed.Table())
	}
	if r.Litmus != nil {
		ts = append(ts, r.Litmus.Table())
	}
	if r.LitmusAllowed != nil {
		ts = append(ts, r.LitmusAllowed.Table())
	}
	return ts
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	fs := []labs.Figure{{Name: "publish-stale", Figure: r.Publish.Chart()}}
	if r.Allowed != nil {
		fs = append(fs, labs.Figure{Name: "publish-allowed", Figure: r.Allowed.Chart()})
	}
	return fs
}

// Elapsed is the wall time the lab took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as plain text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "ordering", r.Device.Name, r.Seconds)
}

// lab is the ordering lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:  "ordering",
		Title: "Publishing between blocks: memory order and scope",
		Teaches: "a flag written after a payload is not a publication: without a device-scope order on both sides " +
			"(fences, or a cuda::atomic_ref flag stored with release and loaded with acquire) " +
			"the consumer may read a stale payload; the weak-memory simulator shows what PTX allows, " +
			"the H200 what happened, and why the bug survives testing; the scope of an atomic is part of its contract " +
			"(atomicAdd_block is atomic only within the block)",
		Sources: []string{
			`"Atomics and Contention in Counters and Aggregates" (the publication bug: release/acquire, fences, scope)`,
		},
		Notebook:    "notebooks/ordering.ipynb",
		SimWallTime: simWallTime,
		Exercise:    exercise(),
	},
	Defaults: settings{Pairs: DefaultPairs, Trials: DefaultTrials, Launches: DefaultLaunches,
		ScopeBlocks: DefaultScopeBlocks, ScopeLaunches: DefaultScopeLaunches},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		return Lab(dev, Options{
			Publish: PublishOptions{Pairs: s.Pairs, Trials: s.Trials, Launches: s.Launches, Progress: p},
			Scope:   ScopeOptions{Blocks: s.ScopeBlocks, Launches: s.ScopeLaunches, Progress: p},
			Litmus:  LitmusOptions{Progress: p},
			Predict: s.Predict,
		})
	},
})

// settings are the lab's options, `warplab lab ordering --set NAME=VALUE`.
type settings struct {
	Pairs         int    `lab:"pairs" max:"1024" usage:"producer/consumer pairs of blocks per launch"`
	Trials        int    `lab:"trials" max:"1024" usage:"publications per pair per launch"`
	Launches      int    `lab:"launches" max:"1000" usage:"launches per variant (on the simulator, one seed each)"`
	ScopeBlocks   int    `lab:"scope-blocks" max:"4096" usage:"blocks of 32 threads adding to one counter in the scope experiment"`
	ScopeLaunches int    `lab:"scope-launches" max:"1000" usage:"launches per kernel of the scope experiment (on the simulator, one seed each)"`
	Predict       string `lab:"predict" spec:"sim" usage:"on a GPU, the simulated device whose relaxed model runs beside the measurement: a sim: spec, \"none\", or empty for sim:h200"`
}
