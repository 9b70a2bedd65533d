package counters

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of the sweep.
const (
	// DefaultThreads is the threads of every launch: 524,288, each
	// adding 1 (the H200 measured 16M; the chains scale with the count).
	DefaultThreads = 1 << 19
	// DefaultBlockSize is the threads per block.
	DefaultBlockSize = 256
	// maxThreads bounds Threads: the H200 measured 16M.
	maxThreads = 1 << 24
	// maxSlices bounds k: the H200 measured up to 65,536.
	maxSlices = 1 << 16
)

// DefaultSlices returns the k the sweep tries.
func DefaultSlices() []int { return []int{1, 4, 32, 256, 4096} }

// SweepOptions configure Sweep; the zero value runs the lab's sweep.
type SweepOptions struct {
	// Threads is the threads of every launch; 0 means DefaultThreads.
	Threads int
	// BlockSize is the threads per block, a multiple of 32; 0 means 256.
	BlockSize int
	// Slices are the k to try, powers of two; nil means DefaultSlices().
	Slices []int
	// Rungs are the rungs to run; nil means every rung. PerGrid runs once,
	// at k = 1: it has no atomics to slice.
	Rungs []Rung
	// Float adds floats (atomicAdd on float) instead of unsigned integers,
	// for the per-thread and per-warp rungs.
	Float bool
	// WarmUps are untimed launches before the timed ones, per cell: 0
	// means 3 on a GPU and none on the simulator; -1 means none.
	WarmUps int
	// Runs are the timed launches per cell: 0 means 10 on a GPU and 1 on
	// the simulator, whose model is deterministic.
	Runs int
	// Predict, on a GPU, is the simulated device whose modelled times and
	// counters go beside the measured ones: "" picks the profile closest
	// to the GPU, "none" skips the prediction.
	Predict string
	// Progress receives progress; nil means the default.
	Progress labs.Progress
}

func (o *SweepOptions) resolve(dev *gpu.Device) error {
	if o.Threads == 0 {
		o.Threads = DefaultThreads
	}
	if o.BlockSize == 0 {
		o.BlockSize = DefaultBlockSize
	}
	if o.Slices == nil {
		o.Slices = DefaultSlices()
	}
	if o.Rungs == nil {
		o.Rungs = Rungs()
	}
	switch {
	case o.Threads < 32 || o.Threads > maxThreads:
		return fmt.Errorf("counters: Threads %d: want 32 to %d", o.Threads, maxThreads)
	case o.BlockSize < 32 || o.BlockSize%32 != 0 || o.BlockSize > 1024:
		return fmt.Errorf("counters: block size %d: want a multiple of 32 (whole warps), at most 1024", o.BlockSize)
	case o.Threads%o.BlockSize != 0:
		return fmt.Errorf("counters: Threads %d: want a multiple of the block size %d", o.Threads, o.BlockSize)
	case len(o.Slices) == 0:
		return fmt.Errorf("counters: Slices: want at least one k")
	case len(o.Rungs) == 0:
		return fmt.Errorf("counters: Rungs: want at least one rung")
	}
	if limit := dev.Info().MaxThreadsPerBlock; limit > 0 && o.BlockSize > limit {
		return fmt.Errorf("counters: block size %d: %s allows at most %d threads per block", o.BlockSize, dev.Info().Name, limit)
	}
	for _, k := range o.Slices {
		if err := validSlices(k); err != nil {
			return fmt.Errorf("counters: Slices: %d: %v", k, err)
		}
	}
	for _, r := range o.Rungs {
		if _, err := ParseRung(string(r)); err != nil {
			return err
		}
	}
	return nil
}

// validSlices checks one k.
func validSlices(k int) error {
	if k < 1 || k > maxSlices || k&(k-1) != 0 {
		return fmt.Errorf("want a power of two from 1 to %d", maxSlices)
	}
	return nil
}

// SweepTable is the result of Sweep: every rung at every k, packed and
// padded, with its time and the simulator's counters. It renders as a
// table (Table), as a chart (Chart) and, on a GPU, beside the
// simulator's prediction (PredictedTable).
type SweepTable struct {
	Device string `json:"device"`
	Spec   string `json:"spec"`
	// Timing says where the times come from; Measured is true on a GPU.
	Timing    string `json:"timing"`
	Measured  bool   `json:"measured"`
	Threads   int    `json:"threads"`
	BlockSize int    `json:"block_size"`
	Float     bool   `json:"float"`
	WarmUps   int    `json:"warm_ups"`
	Runs      int    `json:"runs"`
	Rows      []Row  `json:"rows"`
	// Predicted is the same sweep on the simulator, when it ran on a GPU.
	Predicted *SweepTable `json:"predicted,omitempty"`
}

// Row is one rung at one k and layout.
type Row struct {
	Rung   Rung `json:"rung"`
	Slices int  `json:"slices"`
	Padded bool `json:"padded"`
	// Bytes is the memory the slices take: k words packed, k lines padded.
	Bytes int `json:"bytes"`
	// Atomics are the atomic adds the rung sends by design.
	Atomics int `json:"atomics"`
	// Ms is the mean time of the timed launches, StdevMs their standard
	// deviation.
	Ms      float64 `json:"ms"`
	StdevMs float64 `json:"stdev_ms"`
	// The simulator's counters of one launch (0 on a GPU): the atomics
	// that reached the L2, the distinct addresses and 128-byte lines they
	// hit, the longest chain of operations on one address and on one line.
	Issued    int64 `json:"issued"`
	Addresses int64 `json:"addresses"`
	Lines     int64 `json:"lines"`
	MaxChain  int64 `json:"max_chain"`
	MaxLine   int64 `json:"max_line_chain"`
	// L2LineMs is the modelled time the busiest line's atomics take in the
	// L2 ("l2 throughput"), ChainMs that of the longest chain on one
	// address ("l2 atomic chain"); 0 when absent.
	L2LineMs float64 `json:"l2_line_ms"`
	ChainMs  float64 `json:"chain_ms"`
	// OK says the slices added up to Threads.
	OK    bool    `json:"ok"`
	Total float64 `json:"total"`
	// Breakdown is the modelled time by resource (simulator only).
	Breakdown []gpu.TimeComponent `json:"breakdown,omitempty"`
}

// Layout returns "packed" or "padded".
func (r Row) Layout() string { return layoutName(r.Padded) }

// Sweep runs every rung at every k, packed and padded, on dev and checks
// that every launch counted every thread. On a GPU each cell is the mean
// of timed launches after warm-ups, and the same sweep is predicted on the
// simulator.
func Sweep(dev *gpu.Device, opts SweepOptions) (*SweepTable, error) {
	if err := opts.resolve(dev); err != nil {
		return nil, err
	}
	warm, runs, err := labkit.LaunchCounts("counters", dev.Capabilities(), opts.WarmUps, opts.Runs)
	if err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var cs []cell
	for _, rung := range opts.Rungs {
		for _, k := range opts.Slices {
			for _, padded := range []bool{false, true} {
				if rung == PerGrid && (k != opts.Slices[0] || padded) {
					continue
				}
				c := cell{rung: rung, float: opts.Float, k: k, padded: padded, threads: opts.Threads, block: opts.BlockSize, warm: warm, runs: runs}
				if rung == PerGrid || rung == PerBlock {
					c.float = false
				}
				if rung == PerGrid {
					c.k = 1
				}
				cs = append(cs, c)
			}
		}
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(opts.Progress, "counters sweep"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &SweepTable{Device: info.Name, Spec: info.Spec, Threads: opts.Threads, BlockSize: opts.BlockSize,
		Float: opts.Float, WarmUps: warm, Runs: runs}
	t.Timing, t.Measured = timingSource(dev, outs)
	for i, c := range cs {
		t.Rows = append(t.Rows, row(c, outs[i]))
	}
	if t.Measured && opts.Predict != "none" {
		if t.Predicted, err = predictSweep(dev, opts); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func predictSweep(dev *gpu.Device, opts SweepOptions) (*SweepTable, error) {
	return labkit.Predict(dev, opts.Predict, "counters", "", func(sim *gpu.Device) (*SweepTable, error) {
		p := opts
		p.WarmUps, p.Runs, p.Predict = 0, 0, "none"
		p.Progress = labkit.OrDefault(opts.Progress, "counters sweep, predicted")
		return Sweep(sim, p)
	})
}

func timingSource(dev *gpu.Device, outs []outcome) (string, bool) {
	return labkit.TimingSource(dev, outs, func(o outcome) gpu.Timing { return o.timing })
}

func row(c cell, o outcome) Row {
	r := Row{Rung: c.rung, Slices: c.k, Padded: c.padded, Atomics: c.rung.atomics(c.threads, c.block),
		Bytes: c.k * c.stride() * 4, Total: o.total, OK: o.total == float64(c.threads), Breakdown: o.timing.Breakdown}
	if c.rung == PerGrid {
		r.Bytes = 4
	}
	r.Ms, r.StdevMs = labkit.Mean(o.ms)
	if k := o.counters; k != nil {
		r.Issued, r.Addresses, r.Lines = k.GlobalAtomicIssued, k.GlobalAtomicAddresses, k.GlobalAtomicLines
		r.MaxChain, r.MaxLine = k.GlobalAtomicMaxChain, k.GlobalAtomicMaxLine
	}
	for _, b := range o.timing.Breakdown {
		switch b.Resource {
		case "l2 throughput":
			r.L2LineMs = b.Ms
		case "l2 atomic chain":
			r.ChainMs = b.Ms
		}
	}
	return r
}

// Row returns the row of rung at k slices and the given layout.
func (t *SweepTable) Row(rung Rung, k int, padded bool) (Row, bool) {
	for _, r := range t.Rows {
		if r.Rung == rung && r.Slices == k && r.Padded == padded {
			return r, true
		}
	}
	return Row{}, false
}

// OK reports whether every launch counted every thread.
func (t *SweepTable) OK() bool {
	for _, r := range t.Rows {
		if !r.OK {
			return false
		}
	}
	return true
}

// counts returns the table whose rows hold the simulator's counters.
func (t *SweepTable) counts() *SweepTable {
	if !t.Measured {
		return t
	}
	return t.Predicted
}

func (t *SweepTable) kind() string {
	if t.Float {
		return "float"
	}
	return "unsigned"
}

// Table returns the sweep as a table: per rung, k and layout, the memory
// the slices take, the simulator's counters, the time and the check.
func (t *SweepTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cnt := t.counts()
	src := ""
	if t.Measured {
		src = " (simulator)"
	}
	tab := charts.NewTable(fmt.Sprintf("Sliced counters: %d threads add 1 (%s), %d per block", t.Threads, t.kind(), t.BlockSize),
		charts.Column{Header: "rung"}, charts.Column{Header: "k"}, charts.Column{Header: "layout"},
		charts.Column{Header: "bytes"}, charts.Column{Header: "atomics to the L2" + src},
		charts.Column{Header: "addresses" + src}, charts.Column{Header: "lines" + src},
		charts.Column{Header: "longest chain, one address" + src}, charts.Column{Header: "busiest line's ops" + src},
		charts.Column{Header: "L2 time, busiest line" + src, Unit: "ms"},
		charts.Column{Header: "time", Unit: "ms"}, charts.Column{Header: "vs packed"}, charts.Column{Header: "count right"})
	tab.Caption = fmt.Sprintf("%s (%s); %s", t.Device, t.Spec, timingNote(t.Measured, t.Timing, t.Runs, t.WarmUps))
	for _, r := range t.Rows {
		cells := []charts.Cell{charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a")}
		if cnt != nil {
			if c, ok := cnt.Row(r.Rung, r.Slices, r.Padded); ok {
				cells = []charts.Cell{charts.Int(c.Issued), charts.Int(c.Addresses), charts.Int(c.Lines),
					charts.Int(c.MaxChain), charts.Int(c.MaxLine), charts.Float(c.L2LineMs, 4)}
			}
		}
		vs := charts.Text("")
		if r.Padded {
			if p, ok := t.Row(r.Rung, r.Slices, false); ok && r.Ms > 0 {
				vs = charts.Float(p.Ms/r.Ms, 2)
				if p.Ms/r.Ms < 1 {
					vs = vs.Highlighted()
				}
			}
		}
		check := charts.Text("yes")
		if !r.OK {
			check = charts.Text(fmt.Sprintf("NO: %.0f", r.Total)).Highlighted()
		}
		tab.AddRow(append(append([]charts.Cell{charts.Text(string(r.Rung)), charts.Int(int64(r.Slices)), charts.Text(r.Layout()),
			charts.Int(int64(r.Bytes))}, cells...), charts.Float(r.Ms, 4), vs, check)...)
	}
	tab.AddNote("packed: the k slices are neighbouring 4-byte words, 32 to a 128-byte line; padded: each slice has a 128-byte line of its own.")
	tab.AddNote("atomics to the L2: after nvcc's own warp aggregation; longest chain: the most operations on one address; busiest line's ops: on one 128-byte line; L2 time: the cost model's time for the busiest line's operations.")
	tab.AddNote("vs packed: the packed time over the padded one at the same k; * where padding is slower.")
	if t.Measured && t.Predicted != nil {
		tab.AddNote("A GPU has no counters here: the counter columns are the simulator's (%s) for the same launches.", t.Predicted.Spec)
	}
	return tab
}

func timingNote(measured bool, timing string, runs, warm int) string {
	if measured {
		return fmt.Sprintf("times %s: the mean of %d timed launches after %d warm-ups, with the slices zeroed before each", timing, runs, warm)
	}
	return fmt.Sprintf("times %s; the model is deterministic, so one launch per cell", timing)
}

// Chart returns the time against k, one line per rung and layout; the
// one-per-grid rung is a reference line.
func (t *SweepTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Sliced counters: time vs number of slices",
		Subtitle: fmt.Sprintf("%s, %d threads", t.Timing, t.Threads),
		X:        charts.Axis{Title: "slices k", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	// Lines with (nearly) the same times (a rung whose layout does not matter, two
	// rungs that send the same requests) would be drawn one on top of the
	// other, and the hidden one would look missing: they are drawn once,
	// named together.
	type line struct {
		names []string
		xy    charts.XYs
	}
	var lines []*line
	for _, rung := range Rungs() {
		if rung == PerGrid {
			continue
		}
		for _, padded := range []bool{false, true} {
			var xy charts.XYs
			for _, r := range t.Rows {
				if r.Rung == rung && r.Padded == padded && r.Ms > 0 {
					xy = append(xy, charts.XY{X: float64(r.Slices), Y: r.Ms})
				}
			}
			if len(xy) == 0 {
				continue
			}
			name := fmt.Sprintf("%s, %s", rung, layoutName(padded))
			merged := false
			for _, l := range lines {
				if sameLine(l.xy, xy) {
					l.names = append(l.names, name)
					merged = true
					break
				}
			}
			if !merged {
				lines = append(lines, &line{names: []string{name}, xy: xy})
			}
		}
	}
	for _, l := range lines {
		c.AddLine(strings.Join(l.names, " ≈ "), l.xy)
	}
	if r, ok := t.Row(PerGrid, 1, false); ok && r.Ms > 0 {
		c.AddRefLine("one add per grid (two launches)", r.Ms)
	}
	return c
}

// sameLine reports whether two lines have the same points, times within
// 5% (about 2 pixels on the chart's log axis): drawn, one would hide the
// other.
func sameLine(a, b charts.XYs) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].X != b[i].X || math.Abs(a[i].Y-b[i].Y) > 0.05*math.Max(a[i].Y, b[i].Y) {
			return false
		}
	}
	return true
}

// PredictedTable returns the simulator's predicted time beside the
// measured one for every cell, or nil when the sweep has no prediction.
func (t *SweepTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("Predicted vs measured: the counters sweep on this GPU",
		charts.Column{Header: "rung"}, charts.Column{Header: "k"}, charts.Column{Header: "layout"},
		charts.Column{Header: "measured", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"},
		charts.Column{Header: "faster layout, measured"}, charts.Column{Header: "faster layout, predicted"})
	tab.Caption = fmt.Sprintf("measured: %s (%d runs after %d warm-ups); predicted: %s (%s)", t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, r := range t.Rows {
		pr, ok := p.Row(r.Rung, r.Slices, r.Padded)
		if !ok || r.Ms <= 0 {
			continue
		}
		ratio := labkit.RatioCell(pr.Ms / r.Ms)
		tab.AddRow(charts.Text(string(r.Rung)), charts.Int(int64(r.Slices)), charts.Text(r.Layout()),
			charts.Float(r.Ms, 4), charts.Float(pr.Ms, 4), ratio,
			charts.Text(t.fasterLayout(r.Rung, r.Slices)), charts.Text(p.fasterLayout(r.Rung, r.Slices)))
	}
	tab.AddNote("* a prediction more than 30%% off the measurement.")
	return tab
}

// fasterLayout names the faster layout of rung at k, "" when only one
// ran.
func (t *SweepTable) fasterLayout(rung Rung, k int) string {
	a, ok1 := t.Row(rung, k, false)
	b, ok2 := t.Row(rung, k, true)
	if !ok1 || !ok2 {
		return ""
	}
	return fasterOf(a.Ms, b.Ms)
}

func fasterOf(packedMs, paddedMs float64) string {
	if packedMs <= paddedMs {
		return "packed"
	}
	return "padded"
}

// parseRungs reads a comma-separated list of rung keys.
func parseRungs(s string) ([]Rung, error) {
	var rs []Rung
	for _, f := range strings.Split(s, ",") {
		r, err := ParseRung(f)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(rs, r) {
			rs = append(rs, r)
		}
	}
	return rs, nil
}
