package queue

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of the sweep.
const (
	// DefaultItems is the items in the queue: 262,144.
	DefaultItems = 1 << 18
	// DefaultBlocksPerSM is the blocks per SM of the grid; the H200 ran 8
	// per SM with 4M items, 15.5 items per thread. With 2 per SM and
	// 256K items the T4 profile (40 SMs) keeps 12.8 per thread.
	DefaultBlocksPerSM = 2
	// DefaultBlockSize is the threads per block.
	DefaultBlockSize = 256
	maxItems         = 1 << 22
	maxK             = 4096
)

// DefaultK returns the batch sizes the sweep tries.
func DefaultK() []int { return []int{1, 4, 16, 64, 256, 1024} }

// SweepOptions configure Sweep; the zero value runs the lab's sweep.
type SweepOptions struct {
	// Items is the queue's length; 0 means DefaultItems.
	Items int
	// BlocksPerSM sets the grid: the device's SMs times this; 0 means 2.
	BlocksPerSM int
	// K are the batch sizes, powers of two; nil means DefaultK().
	K []int
	// Costs are the distributions to run; nil means Even() and Uneven().
	Costs []Costs
	// Pops are who pops; nil means PerThread.
	Pops []Pop
	// WarmUps and Runs: 0 means 3 and 10 on a GPU, none and 1 on the
	// simulator; WarmUps -1 means none.
	WarmUps, Runs int
	// Predict, on a GPU, is the simulated device whose prediction goes
	// beside the measurement: "" the closest profile, "none" none.
	Predict string
	// Progress receives progress; nil means the default.
	Progress labs.Progress
}

func (o *SweepOptions) resolve(dev *gpu.Device) error {
	if o.Items == 0 {
		o.Items = DefaultItems
	}
	if o.BlocksPerSM == 0 {
		o.BlocksPerSM = DefaultBlocksPerSM
	}
	if o.K == nil {
		o.K = DefaultK()
	}
	if o.Costs == nil {
		o.Costs = []Costs{Even(), Uneven()}
	}
	if o.Pops == nil {
		o.Pops = []Pop{PerThread}
	}
	switch {
	case o.Items < 1 || o.Items > maxItems:
		return fmt.Errorf("queue: Items %d: want 1 to %d", o.Items, maxItems)
	case o.BlocksPerSM < 1 || o.BlocksPerSM > 32:
		return fmt.Errorf("queue: BlocksPerSM %d: want 1 to 32", o.BlocksPerSM)
	case len(o.K) == 0:
		return fmt.Errorf("queue: K: want at least one batch size")
	}
	if dev.Info().SMs < 1 {
		return fmt.Errorf("queue: %s reports no SMs", dev.Info().Name)
	}
	for _, k := range o.K {
		if err := validK(k); err != nil {
			return fmt.Errorf("queue: K: %d: %v", k, err)
		}
	}
	for _, c := range o.Costs {
		if err := c.check(); err != nil {
			return err
		}
	}
	for _, p := range o.Pops {
		if _, err := ParsePop(string(p)); err != nil {
			return err
		}
	}
	return nil
}

func validK(k int) error {
	if k < 1 || k > maxK || k&(k-1) != 0 {
		return fmt.Errorf("want a power of two from 1 to %d", maxK)
	}
	return nil
}

// SweepTable is the result of Sweep.
type SweepTable struct {
	Device   string `json:"device"`
	Spec     string `json:"spec"`
	Timing   string `json:"timing"`
	Measured bool   `json:"measured"`
	// Gated: the GPU timed its launches behind the gate (timing=gated),
	// the way the committed H200 run of the lab's kernels was timed.
	Gated   bool  `json:"gated,omitempty"`
	Items   int   `json:"items"`
	Blocks  int   `json:"blocks"`
	Block   int   `json:"block"`
	WarmUps int   `json:"warm_ups"`
	Runs    int   `json:"runs"`
	Rows    []Row `json:"rows"`
	// Predicted is the same sweep on the simulator, when it ran on a GPU.
	Predicted *SweepTable `json:"predicted,omitempty"`
}

// Row is one pop at one k on one cost distribution.
type Row struct {
	Costs Costs `json:"costs"`
	Pop   Pop   `json:"pop"`
	K     int   `json:"k"`
	// Pops are the batches the queue hands out; PerThread is the items
	// each thread would get if the batches were spread evenly.
	Pops      int     `json:"pops"`
	PerThread float64 `json:"batches_per_thread"`
	Ms        float64 `json:"ms"`
	StdevMs   float64 `json:"stdev_ms"`
	// MedianMs is the median of the same launches (Ms is their mean, as
	// the course pages report), for comparing with the H200's medians.
	MedianMs float64 `json:"median_ms"`
	// LaneAtomics and Issued are the simulator's counts: the lanes'
	// atomicAdd calls and what reached the L2 after nvcc's warp
	// aggregation (0 on a GPU).
	LaneAtomics int64 `json:"lane_atomics"`
	Issued      int64 `json:"issued"`
	// BarrierMs is unused; Issue is the modelled issue time and Chain the
	// head's chain time, from the breakdown.
	IssueMs float64 `json:"issue_ms"`
	ChainMs float64 `json:"chain_ms"`
	OK      bool    `json:"ok"`
	Problem string  `json:"problem,omitempty"`
}

// Sweep runs every pop at every k on every cost distribution, checking
// every item was worked once and right.
func Sweep(dev *gpu.Device, opts SweepOptions) (*SweepTable, error) {
	if err := opts.resolve(dev); err != nil {
		return nil, err
	}
	warm, runs, err := labkit.LaunchCounts("queue", dev.Capabilities(), opts.WarmUps, opts.Runs)
	if err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	blocks := dev.Info().SMs * opts.BlocksPerSM
	var cs []cell
	for _, c := range opts.Costs {
		for _, p := range opts.Pops {
			for _, k := range opts.K {
				cs = append(cs, cell{pop: p, k: k, costs: c, items: opts.Items, blocks: blocks, block: DefaultBlockSize, warm: warm, runs: runs})
			}
		}
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(opts.Progress, "queue sweep"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &SweepTable{Device: info.Name, Spec: info.Spec, Items: opts.Items, Blocks: blocks, Block: DefaultBlockSize, WarmUps: warm, Runs: runs}
	t.Timing, t.Measured = timingSource(dev, outs)
	t.Gated = dev.Capabilities().GatedTiming
	for i, c := range cs {
		t.Rows = append(t.Rows, row(c, outs[i]))
	}
	if t.Measured && opts.Predict != "none" {
		pred, err := labkit.Predict(dev, opts.Predict, "queue", "", func(sim *gpu.Device) (*SweepTable, error) {
			p := opts
			p.WarmUps, p.Runs, p.Predict = 0, 0, "none"
			// The prediction keeps the GPU's grid, not its own SMs'.
			p.BlocksPerSM = 0
			return sweepGrid(sim, p, blocks)
		})
		if err != nil {
			return nil, err
		}
		t.Predicted = pred
	}
	return t, nil
}

// sweepGrid runs the sweep on sim with a fixed number of blocks.
func sweepGrid(sim *gpu.Device, opts SweepOptions, blocks int) (*SweepTable, error) {
	if err := opts.resolve(sim); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(sim)
	if err != nil {
		return nil, err
	}
	var cs []cell
	for _, c := range opts.Costs {
		for _, p := range opts.Pops {
			for _, k := range opts.K {
				cs = append(cs, cell{pop: p, k: k, costs: c, items: opts.Items, blocks: blocks, block: DefaultBlockSize, runs: 1})
			}
		}
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(opts.Progress, "queue sweep, predicted"))
	if err != nil {
		return nil, err
	}
	info := sim.Info()
	t := &SweepTable{Device: info.Name, Spec: info.Spec, Items: opts.Items, Blocks: blocks, Block: DefaultBlockSize, Runs: 1}
	t.Timing, t.Measured = timingSource(sim, outs)
	for i, c := range cs {
		t.Rows = append(t.Rows, row(c, outs[i]))
	}
	return t, nil
}

func timingSource(dev *gpu.Device, outs []outcome) (string, bool) {
	return labkit.TimingSource(dev, outs, func(o outcome) gpu.Timing { return o.timing })
}

func row(c cell, o outcome) Row {
	per := c.k
	if c.pop == PerWarp {
		per = 32 * c.k
	}
	pops := (c.items + per - 1) / per
	r := Row{Costs: c.costs, Pop: c.pop, K: c.k, Pops: pops, OK: o.problem == "", Problem: o.problem}
	threads := c.blocks * c.block
	if c.pop == PerWarp {
		threads /= 32
	}
	r.PerThread = float64(pops) / float64(threads)
	r.Ms, r.StdevMs = labkit.Mean(o.ms)
	r.MedianMs = gpu.Summarize(o.ms).Median
	if k := o.counters; k != nil {
		r.LaneAtomics, r.Issued = k.GlobalAtomicOps, k.GlobalAtomicIssued
	}
	for _, b := range o.timing.Breakdown {
		switch b.Resource {
		case "issue":
			r.IssueMs = b.Ms
		case "l2 atomic chain":
			r.ChainMs = b.Ms
		}
	}
	return r
}

// Row returns the row of one cell.
func (t *SweepTable) Row(c Costs, p Pop, k int) (Row, bool) {
	for _, r := range t.Rows {
		if r.Costs == c && r.Pop == p && r.K == k {
			return r, true
		}
	}
	return Row{}, false
}

// Best returns the k with the least time for a distribution and pop.
func (t *SweepTable) Best(c Costs, p Pop) (int, float64) {
	bk, bms := 0, math.Inf(1)
	for _, r := range t.Rows {
		if r.Costs == c && r.Pop == p && r.Ms < bms {
			bk, bms = r.K, r.Ms
		}
	}
	return bk, bms
}

// OK reports whether every launch worked every item right.
func (t *SweepTable) OK() bool {
	for _, r := range t.Rows {
		if !r.OK {
			return false
		}
	}
	return true
}

// Table returns the sweep as a table.
func (t *SweepTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cnt := t
	src := ""
	if t.Measured {
		cnt, src = t.Predicted, " (simulator)"
	}
	tab := charts.NewTable(fmt.Sprintf("A work queue: %d items, %d blocks of %d threads", t.Items, t.Blocks, t.Block),
		charts.Column{Header: "costs"}, charts.Column{Header: "pop"}, charts.Column{Header: "k"},
		charts.Column{Header: "batches"}, charts.Column{Header: "batches per popper"},
		charts.Column{Header: "lane atomicAdds" + src}, charts.Column{Header: "atomics to the L2" + src},
		charts.Column{Header: "issue" + src, Unit: "ms"},
		charts.Column{Header: "time", Unit: "ms"}, charts.Column{Header: "items right"})
	if t.Measured {
		timer := gpu.TimerEvents
		if t.Gated {
			timer = gpu.TimerGated
		}
		tab.Caption = fmt.Sprintf("%s (%s); times %s: the mean of %d timed launches after %d warm-ups, %s", t.Device, t.Spec, t.Timing, t.Runs, t.WarmUps, timer)
	} else {
		tab.Caption = fmt.Sprintf("%s (%s); times %s; the model is deterministic, so one launch per cell", t.Device, t.Spec, t.Timing)
	}
	for _, r := range t.Rows {
		lane, issued, issue := charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a")
		if cnt != nil {
			if c, ok := cnt.Row(r.Costs, r.Pop, r.K); ok {
				lane, issued, issue = charts.Int(c.LaneAtomics), charts.Int(c.Issued), charts.Float(c.IssueMs, 4)
			}
		}
		ms := charts.Float(r.Ms, 4)
		if bk, _ := t.Best(r.Costs, r.Pop); bk == r.K {
			ms = ms.Highlighted()
		}
		check := charts.Text("yes")
		if !r.OK {
			check = charts.Text("NO: " + r.Problem).Highlighted()
		}
		tab.AddRow(charts.Text(r.Costs.String()), charts.Text(string(r.Pop)), charts.Int(int64(r.K)),
			charts.Int(int64(r.Pops)), charts.Float(r.PerThread, 2), lane, issued, issue, ms, check)
	}
	tab.AddNote("batches: atomicAdd(head, k) calls that return an item; batches per popper: batches over the threads (or warps) that pop: below 1, some threads get nothing and the last batches form the tail.")
	tab.AddNote("lane atomicAdds: the threads' calls; atomics to the L2: what is left after nvcc folds a warp's calls to one address into one (VOTEU + POPC + one ATOMG, even though each lane uses its own start).")
	tab.AddNote("* the fastest k of each distribution and pop.")
	for _, c := range t.Conclusions() {
		tab.AddNote("%s", c)
	}
	return tab
}

// h200Fastest is the fastest k of the lab's kernels per thread on the
// H200 at 4M items and 8 blocks an SM (H200LabEvidence): 4 with even
// costs, 1 with uneven ones.
var h200Fastest = map[bool]int{true: 4, false: 1}

// Conclusions says, per cost distribution and pop, what this sweep shows
// on this device: the fastest k, how much slower k = 1 and the largest k
// are, and whether that is the H200's shape. The lab's lessons are read
// from them, since the fastest k depends on the device and the size: the
// head limits k = 1 only where enough SMs feed it (on the t4 profile, 40
// SMs, it keeps up at the lab's default size).
func (t *SweepTable) Conclusions() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range t.Rows {
		key := r.Costs.String() + string(r.Pop)
		if seen[key] {
			continue
		}
		seen[key] = true
		bk, bms := t.Best(r.Costs, r.Pop)
		first, last := Row{K: math.MaxInt}, Row{}
		for _, x := range t.Rows {
			if x.Costs == r.Costs && x.Pop == r.Pop {
				if x.K < first.K {
					first = x
				}
				if x.K > last.K {
					last = x
				}
			}
		}
		s := fmt.Sprintf("%s, per %s: fastest at k = %d here; k = %d takes %.2f times as long, k = %d %.2f times.",
			r.Costs, r.Pop, bk, first.K, first.Ms/bms, last.K, last.Ms/bms)
		if want := h200Fastest[r.Costs.IsEven()]; r.Pop == PerThread {
			if want == bk {
				s += fmt.Sprintf(" The H200 at 4M items is fastest at k = %d too.", want)
			} else {
				s += fmt.Sprintf(" The H200 at 4M items is fastest at k = %d: the fastest k depends on the GPU and the size.", want)
			}
		}
		out = append(out, s)
	}
	return out
}

// Chart returns the time against k, one line per distribution and pop.
func (t *SweepTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Work queue: time vs items per pop",
		Subtitle: fmt.Sprintf("%s, %d items", t.Timing, t.Items),
		X:        charts.Axis{Title: "items per pop k", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	seen := map[string]bool{}
	for _, r := range t.Rows {
		name := fmt.Sprintf("%s, per %s", r.Costs, r.Pop)
		if seen[name] {
			continue
		}
		seen[name] = true
		var xy charts.XYs
		for _, x := range t.Rows {
			if x.Costs == r.Costs && x.Pop == r.Pop && x.Ms > 0 {
				xy = append(xy, charts.XY{X: float64(x.K), Y: x.Ms})
			}
		}
		c.AddLine(name, xy)
	}
	return c
}

// PredictedTable returns the simulator's predicted time beside the
// measured one, or nil when the sweep has no prediction.
func (t *SweepTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("Predicted vs measured: the queue sweep on this GPU",
		charts.Column{Header: "costs"}, charts.Column{Header: "pop"}, charts.Column{Header: "k"},
		charts.Column{Header: "measured", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"})
	tab.Caption = fmt.Sprintf("measured: %s (%d runs after %d warm-ups); predicted: %s (%s), same grid", t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, r := range t.Rows {
		pr, ok := p.Row(r.Costs, r.Pop, r.K)
		if !ok || r.Ms <= 0 {
			continue
		}
		ratio := labkit.RatioCell(pr.Ms / r.Ms)
		tab.AddRow(charts.Text(r.Costs.String()), charts.Text(string(r.Pop)), charts.Int(int64(r.K)),
			charts.Float(r.Ms, 4), charts.Float(pr.Ms, 4), ratio)
	}
	for _, c := range []Costs{Even(), Uneven()} {
		mk, _ := t.Best(c, PerThread)
		pk, _ := p.Best(c, PerThread)
		if mk > 0 {
			tab.AddNote("%s, per thread: the fastest k is %d measured, %d predicted.", c, mk, pk)
		}
	}
	tab.AddNote("* a prediction more than 30%% off the measurement.")
	return tab
}
