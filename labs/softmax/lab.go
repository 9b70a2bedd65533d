package softmax

import (
	"fmt"
	"strings"
	"time"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
	"github.com/warplab/warplab/labs/profile"
)

func init() { labs.Register(lab) }

// Name is the lab's name: `warplab lab softmax`.
const Name = "softmax"

// Options configure Run; the zero value runs the whole lab with its
// defaults.
type Options struct {
	Sweep      SweepOptions
	Placements PlacementOptions
	Cards      CardsOptions
	// Progress receives progress; nil means the default.
	Progress labs.Progress
}

// Report is the whole lab: the sweep, one block over placements of its
// input, the card comparison and the profile view of the sweep's largest
// size.
type Report struct {
	Device       gpu.Info         `json:"device"`
	Capabilities gpu.Capabilities `json:"capabilities"`
	Sweep        *SweepTable      `json:"sweep"`
	Placements   *PlacementTable  `json:"placements"`
	Cards        *CardsTable      `json:"cards"`
	Profile      *profile.View    `json:"profile"`
	// Seconds is the wall time the lab took on this machine.
	Seconds float64 `json:"seconds"`
}

// Run runs the lab's experiments on dev, as the notebook does.
func Run(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	if opts.Sweep.Progress == nil {
		opts.Sweep.Progress = opts.Progress
	}
	if opts.Cards.Progress == nil {
		opts.Cards.Progress = opts.Progress
	}
	if opts.Placements.Progress == nil {
		opts.Placements.Progress = opts.Progress
	}
	if opts.Cards.BlockSize == 0 {
		opts.Cards.BlockSize = opts.Sweep.BlockSize
	}
	if opts.Placements.BlockSize == 0 {
		opts.Placements.BlockSize = opts.Sweep.BlockSize
	}
	if opts.Placements.WarmUps == 0 && opts.Placements.Runs == 0 {
		opts.Placements.WarmUps, opts.Placements.Runs = opts.Sweep.WarmUps, opts.Sweep.Runs
	}
	r := &Report{Device: dev.Info(), Capabilities: dev.Capabilities()}
	var err error
	if r.Sweep, err = Sweep(dev, opts.Sweep); err != nil {
		return nil, err
	}
	if r.Placements, err = Placements(dev, opts.Placements); err != nil {
		return nil, err
	}
	if r.Cards, err = Cards(dev, opts.Cards); err != nil {
		return nil, err
	}
	r.Profile = ProfileOf(r.Sweep, 0)
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// ProfileOf returns the profile view of the sweep's three kernels at
// size n (0: the largest size). On a GPU the counters and modelled
// figures come from the sweep's prediction and the measured time goes
// beside them; nil when the sweep has no simulated run of that size. On
// the h200 profile at 256 threads per block and a size Nsight Compute
// profiled (65,536, 1,048,576, 16,777,216), its L2 figures go beside the
// modelled ones (NCUL2).
func ProfileOf(t *SweepTable, n int) *profile.View {
	sim := t
	if t.Measured {
		sim = t.Predicted
	}
	if sim == nil || len(sim.Rows) == 0 {
		return nil
	}
	if n == 0 {
		n = sim.Rows[len(sim.Rows)-1].N
	}
	info, err := simInfo(sim.Spec)
	if err != nil {
		return nil
	}
	var ls []profile.Launch
	for _, k := range sim.Kernels {
		c, ok := sim.Cell(n, k)
		if !ok || c.Counters == nil {
			return nil
		}
		l := profile.Launch{Name: fmt.Sprintf("%s (n = %d)", k, n), Block: sim.BlockSize, Timing: c.Timing, Counters: c.Counters}
		if info.Profile == "h200" && sim.BlockSize == 256 {
			// Nsight Compute's figures of the same launch, where the
			// evidence has them, beside the H200 profile's.
			if f, ok, err := NCUL2(k, n); err == nil && ok {
				l.L2Measured = f
			}
		}
		if t.Measured {
			if m, ok := t.Cell(n, k); ok {
				timing := m.Timing
				timing.Ms = m.Ms
				l.Measured = &timing
				l.MeasuredHow = gpu.MethodOf(true, t.WarmUps, t.Runs, gpu.StatMean).String()
			}
		}
		ls = append(ls, l)
	}
	return profile.New(info, ls...)
}

// simInfo describes the simulated device of spec.
func simInfo(spec string) (gpu.Info, error) {
	d, err := gpu.Open(spec)
	if err != nil {
		return gpu.Info{}, err
	}
	defer d.Close()
	return d.Info(), nil
}

// Tables returns the report's tables in the order the lab presents them.
func (r *Report) Tables() []*charts.Table {
	ts := []*charts.Table{r.Sweep.Table()}
	if p := r.Sweep.PredictedTable(); p != nil {
		ts = append(ts, p)
	}
	ts = append(ts, r.Placements.Table())
	if p := r.Placements.PredictedTable(); p != nil {
		ts = append(ts, p)
	}
	ts = append(ts, r.Cards.Table())
	if r.Profile != nil {
		ts = append(ts, r.Profile.Table())
	}
	return ts
}

// Figures returns the report's charts.
func (r *Report) Figures() []labs.Figure {
	fs := []labs.Figure{{Name: "sweep-time", Figure: r.Sweep.Chart()}}
	if p := r.Sweep.PredictedChart(); p != nil {
		fs = append(fs, labs.Figure{Name: "sweep-predicted", Figure: p})
	}
	fs = append(fs, labs.Figure{Name: "placements", Figure: r.Placements.Chart()},
		labs.Figure{Name: "cards", Figure: r.Cards.Chart()})
	if r.Profile != nil {
		fs = append(fs,
			labs.Figure{Name: "profile-mix", Figure: r.Profile.MixChart()},
			labs.Figure{Name: "profile-breakdown", Figure: r.Profile.BreakdownChart()})
	}
	return fs
}

// Elapsed is the wall time the run took.
func (r *Report) Elapsed() time.Duration { return time.Duration(r.Seconds * float64(time.Second)) }

// String returns the report as text.
func (r *Report) String() string {
	return labkit.ReportText(r.Tables(), "softmax", r.Device.Name, r.Seconds)
}

// lab is the softmax lab as the registry knows it.
var lab = labs.Define(labs.Definition[settings, *Report]{
	Info: labs.Info{
		Name:     Name,
		Title:    "The softmax denominator: atomics vs the register cache",
		Teaches:  "why one global atomic per element loses to a warp-shuffle tree with one atomic per block, by how much on which card, and what a profiler shows of it",
		Sources:  []string{"Atomic Operations, Warp Shuffle, and the Register Cache: A Deep Dive with Online Softmax"},
		Notebook: "notebooks/softmax.ipynb",
		// Half the headless run's CPU time on sim:t4, rounded up;
		// docs/speed.md records the measurement.
		SimWallTime: 1 * time.Second,
		Exercise:    exercise(),
	},
	Defaults: settings{Sizes: DefaultSizes(), BlockSize: DefaultBlockSize, Placements: DefaultPlacements, CardN: DefaultCardN,
		Cards: strings.Join(DefaultCards(), ","), WarmUps: gpu.DefaultWarmUps, Runs: gpu.DefaultReps},
	Run: func(dev *gpu.Device, s settings, p labs.Progress) (*Report, error) {
		cards := []string{}
		for _, c := range strings.Split(s.Cards, ",") {
			if c = strings.TrimSpace(c); c != "" {
				cards = append(cards, c)
			}
		}
		return Run(dev, Options{
			Sweep:      SweepOptions{Sizes: s.Sizes, BlockSize: s.BlockSize, WarmUps: s.WarmUps, Runs: s.Runs},
			Placements: PlacementOptions{Placements: s.Placements, BlockSize: s.BlockSize, WarmUps: s.WarmUps, Runs: s.Runs},
			Cards:      CardsOptions{N: s.CardN, BlockSize: s.BlockSize, Profiles: cards},
			Progress:   p,
		})
	},
})

// settings are the lab's options, `warplab lab softmax --set NAME=VALUE`.
type settings struct {
	Sizes      []int  `lab:"sizes" max:"1<<24" usage:"element counts of the sweep (up to 16777216, the notes' size)"`
	BlockSize  int    `lab:"block-size" max:"1024" usage:"threads per block, a multiple of 32"`
	Placements int    `lab:"placements" max:"256" usage:"placements of one block's input the one-block table runs, a block's worth apart in one allocation"`
	CardN      int    `lab:"card-n" max:"1<<24" usage:"elements of the card comparison (16777216: the notes' size, slower on the simulator)"`
	Cards      string `lab:"cards" usage:"simulator profiles the card comparison predicts, comma-separated"`
	WarmUps    int    `lab:"warm-ups" max:"100" usage:"untimed launches before the timed ones, on a GPU"`
	Runs       int    `lab:"runs" max:"1000" usage:"timed launches per cell, on a GPU"`
}
