package histogram

import (
	"fmt"
	"math"
	"slices"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of ShapeOptions.
const (
	DefaultN     = 1 << 20
	DefaultBlock = 256
	DefaultSeed  = 1
)

// DefaultBins returns the bin counts the shape experiment uses by
// default: 256, as in the course notes' histogram.
func DefaultBins() []int { return []int{256} }

// ShapeOptions configure Shapes; the zero value runs every kernel on
// every input with DefaultN elements and DefaultBins.
type ShapeOptions struct {
	// N is the elements of every input.
	N int
	// Bins are the bin counts, each from 1 to 4096.
	Bins []int
	// Inputs are the inputs; nil means all of them.
	Inputs []Input
	// Kernels are the kernels; nil means Kernels().
	Kernels []Kernel
	// Block is the threads per block, a multiple of 32.
	Block int
	// Seed draws the inputs.
	Seed uint64
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

func (o *ShapeOptions) resolve() error {
	if o.N == 0 {
		o.N = DefaultN
	}
	if o.Block == 0 {
		o.Block = DefaultBlock
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if len(o.Bins) == 0 {
		o.Bins = DefaultBins()
	}
	if len(o.Inputs) == 0 {
		o.Inputs = Inputs()
	}
	if len(o.Kernels) == 0 {
		o.Kernels = Kernels()
	}
	switch {
	case o.N < 1 || o.N > maxN:
		return fmt.Errorf("histogram: N %d: want 1 to %d elements", o.N, maxN)
	case o.Block < 32 || o.Block > 1024 || o.Block%32 != 0:
		return fmt.Errorf("histogram: Block %d: want a multiple of 32 from 32 to 1024", o.Block)
	}
	for _, b := range o.Bins {
		if b < 1 || b > maxBins {
			return fmt.Errorf("histogram: Bins %d: want 1 to %d bins", b, maxBins)
		}
	}
	for _, in := range o.Inputs {
		if _, err := ParseInput(string(in)); err != nil {
			return err
		}
	}
	for _, k := range o.Kernels {
		if !slices.Contains(Kernels(), k) {
			return fmt.Errorf("histogram: kernel %q is not one of the shape experiment's", k)
		}
	}
	return nil
}

// ShapeRow is one kernel on one input.
type ShapeRow struct {
	Input  Input  `json:"input"`
	Bins   int    `json:"bins"`
	Kernel Kernel `json:"kernel"`
	Grid   int    `json:"grid"`
	// Ms is the kernel's time: modelled, or the mean of the timed
	// launches on a GPU.
	Ms float64 `json:"ms"`
	// GlobalAtomics are the global atomics issued to the L2 and
	// SharedAtomics the shared ones (simulator only).
	GlobalAtomics int64 `json:"global_atomics"`
	SharedAtomics int64 `json:"shared_atomics"`
	// Problem says what is wrong with the counts; "" when they are exact.
	Problem string `json:"problem,omitempty"`
	// PredictedMs is the simulator's time for the same launch on the
	// profile that predicts the GPU; set on a GPU only.
	PredictedMs float64 `json:"predicted_ms,omitempty"`
	// H200Ms is the H200's time for the same kernel, input and bins at
	// H200N elements; 0 where it was not measured.
	H200Ms float64 `json:"h200_ms,omitempty"`
}

// NsPerElement returns the row's time per element.
func (r ShapeRow) NsPerElement(n int) float64 { return r.Ms * 1e6 / float64(n) }

// ShapeTable is the shape experiment's result.
type ShapeTable struct {
	N      int    `json:"n"`
	Block  int    `json:"block"`
	Device string `json:"device"`
	Timing string `json:"timing"`
	// Predicted is the timing source of the rows' PredictedMs ("modelled,
	// h200 profile"); empty off a GPU.
	Predicted string     `json:"predicted,omitempty"`
	Rows      []ShapeRow `json:"rows"`
}

// Row returns the row of kernel k on an input and bin count.
func (t *ShapeTable) Row(in Input, bins int, k Kernel) (ShapeRow, bool) {
	for _, r := range t.Rows {
		if r.Input == in && r.Bins == bins && r.Kernel == k {
			return r, true
		}
	}
	return ShapeRow{}, false
}

// Shapes runs every kernel on every input and bin count on dev, checks
// every histogram bin by bin, and puts the H200's measurement beside each
// row.
func Shapes(dev *gpu.Device, o ShapeOptions) (*ShapeTable, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	warm, runs := 0, 1
	if dev.Capabilities().MeasuredTiming {
		warm, runs = gpu.DefaultWarmUps, gpu.DefaultReps
	}
	info := dev.Info()
	t := &ShapeTable{N: o.N, Block: o.Block, Device: info.Name}
	cells, err := runShapes(r, info, o, warm, runs)
	if err != nil {
		return nil, err
	}
	// On a GPU, the simulator predicts the same launches.
	var pred []*cell
	if dev.Capabilities().MeasuredTiming {
		if spec := labkit.PredictionSpec(info); !spec.IsAuto() {
			sim, err := gpu.OpenSpec(spec)
			if err != nil {
				return nil, fmt.Errorf("histogram: opening the predicting simulator %s: %v", spec, err)
			}
			defer sim.Close()
			pr, err := labkit.NewRunner(sim)
			if err != nil {
				return nil, err
			}
			if pred, err = runShapes(pr, info, o, 0, 1); err != nil {
				return nil, err
			}
		}
	}
	for i, c := range cells {
		row := ShapeRow{Input: c.in, Bins: c.bins, Kernel: c.k, Grid: c.cfg.Grid.X, Ms: c.ms, Problem: c.problem}
		if c.res.Counters != nil {
			row.GlobalAtomics = c.res.Counters.GlobalAtomicIssued
			row.SharedAtomics = c.res.Counters.SharedAtomicOps
		}
		if pred != nil {
			row.PredictedMs = pred[i].ms
			row.GlobalAtomics = pred[i].res.Counters.GlobalAtomicIssued
			row.SharedAtomics = pred[i].res.Counters.SharedAtomicOps
			t.Predicted = pred[i].res.Timing.Source
		}
		if h, ok := H200(c.in, c.bins, c.k); ok {
			row.H200Ms = h.Ms
		}
		t.Timing = c.res.Timing.Source
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// runShapes runs the shape cells on r; info (the device measured, on a
// GPU) sizes the resident grid.
func runShapes(r *labkit.Runner, info gpu.Info, o ShapeOptions, warm, runs int) ([]*cell, error) {
	var jobs []labkit.Job
	var cells []*cell
	for _, bins := range o.Bins {
		for _, in := range o.Inputs {
			for _, k := range o.Kernels {
				c := &cell{k: k, in: in, n: o.N, bins: bins, seed: o.Seed, cfg: launchFor(k, info, o.N, bins, o.Block), warm: warm, runs: runs}
				cells = append(cells, c)
				jobs = append(jobs, c.job())
			}
		}
	}
	if err := r.Run(jobs, labkit.OrDefault(o.Progress, "histogram shapes")); err != nil {
		return nil, err
	}
	return cells, nil
}

// cell is one kernel launched warm + runs times on one input; the last
// launch's histogram is checked.
type cell struct {
	k           Kernel
	in          Input
	n, bins     int
	seed        uint64
	cfg         gpu.LaunchConfig
	warm, runs  int
	ms          float64
	res         *gpu.Result
	problem     string
	lost        int64
	wrongBins   int
	diagnostics []gpu.Diagnostic
}

func (c *cell) job() labkit.Job {
	return labkit.Job{Launches: c.warm + c.runs, Detail: fmt.Sprintf("%s %s bins=%d", c.k, c.in, c.bins), Do: func(s *labkit.Session) error {
		src := KernelSource()
		k, err := s.Kernel(src.File, []byte(src.Text), string(c.k))
		if err != nil {
			return fmt.Errorf("histogram: %v", err)
		}
		d := makeData(c.in, c.n, c.bins, c.seed)
		bin, err := labkit.Cached(s, fmt.Sprintf("bins %s %d %d %d", c.in, c.n, c.bins, c.seed),
			func() (*gpu.Buffer[int32], error) { return gpu.Upload(s.Device, d.bin) }, (*gpu.Buffer[int32]).Free)
		if err != nil {
			return fmt.Errorf("histogram: uploading %d bins: %v", c.n, err)
		}
		hist, err := gpu.NewBuffer[uint32](s.Device, c.bins)
		if err != nil {
			return fmt.Errorf("histogram: allocating %d bins: %v", c.bins, err)
		}
		defer hist.Free()
		var total float64
		for i := range c.warm + c.runs {
			if err := hist.Zero(); err != nil {
				return fmt.Errorf("histogram: zeroing the bins: %v", err)
			}
			res, err := k.Launch(c.cfg, bin, c.n, hist, c.bins)
			if err != nil {
				return fmt.Errorf("histogram: %s on %s, %d bins: %w", c.k, c.in, c.bins, err)
			}
			s.Launched()
			if i >= c.warm {
				total += res.Timing.Ms
			}
			c.res = res
		}
		c.ms = total / float64(c.runs)
		c.diagnostics = c.res.Diagnostics
		got, err := hist.Download()
		if err != nil {
			return fmt.Errorf("histogram: reading the bins: %v", err)
		}
		if wrong, lost := compare(got, d.want); wrong > 0 {
			c.problem = fmt.Sprintf("%d of %d bins wrong, %d counts lost", wrong, c.bins, lost)
			c.lost, c.wrongBins = lost, wrong
		}
		return nil
	}}
}

// Table renders the shape experiment: each kernel's time, the global and
// shared atomics it sent, and the H200's time at 16M elements.
func (t *ShapeTable) Table() *charts.Table {
	tb := charts.NewTable(fmt.Sprintf("Histogram: launch shape, partitioning and skew (%d elements, %d threads per block)", t.N, t.Block),
		charts.Column{Header: "input"}, charts.Column{Header: "bins"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "grid"}, charts.Column{Header: "time", Unit: "ms"}, charts.Column{Header: "per element", Unit: "ns"},
		charts.Column{Header: "global atomics"}, charts.Column{Header: "shared atomics"}, charts.Column{Header: "counts"},
		charts.Column{Header: "H200 per element", Unit: "ns"})
	tb.Caption = fmt.Sprintf("%s; the last column is %s", t.Timing, H200Source)
	if t.Predicted != "" {
		tb.Columns = append(tb.Columns, charts.Column{Header: "predicted", Unit: "ms"}, charts.Column{Header: "predicted / measured"})
		tb.AddNote("Predicted: %s, the same launches; its counters fill the atomics columns.", t.Predicted)
	}
	for _, r := range t.Rows {
		counts := charts.Text("exact")
		if r.Problem != "" {
			counts = charts.Text(r.Problem).Highlighted()
		}
		h := charts.Text("-")
		if r.H200Ms > 0 {
			h = charts.Float(r.H200Ms*1e6/H200N, 4)
		}
		ns := charts.Float(r.NsPerElement(t.N), 4)
		if best, ok := t.fastest(r.Input, r.Bins); ok && best == r.Kernel {
			ns = ns.Highlighted()
		}
		cells := []charts.Cell{charts.Text(string(r.Input)), charts.Int(int64(r.Bins)), charts.Text(r.Kernel.Title()),
			charts.Int(int64(r.Grid)), charts.Float(r.Ms, 4), ns, charts.Int(r.GlobalAtomics), charts.Int(r.SharedAtomics), counts, h}
		if t.Predicted != "" {
			q := charts.Text("-")
			if r.Ms > 0 {
				q = charts.Float(r.PredictedMs/r.Ms, 2)
			}
			cells = append(cells, charts.Float(r.PredictedMs, 4), q)
		}
		tb.AddRow(cells...)
	}
	tb.AddNote("Highlighted: the fastest kernel of each input. Global and shared atomics are the simulator's counters (0 on a GPU).")
	tb.AddNote("The resident grid is the device's SMs times the blocks of %d threads one SM holds.", t.Block)
	return tb
}

// fastest returns the fastest kernel on an input and bin count.
func (t *ShapeTable) fastest(in Input, bins int) (Kernel, bool) {
	var best ShapeRow
	for _, r := range t.Rows {
		if r.Input == in && r.Bins == bins && (best.Kernel == "" || r.Ms < best.Ms) {
			best = r
		}
	}
	return best.Kernel, best.Kernel != ""
}

// Chart returns the time per element of each kernel by input, beside the
// H200's where it was measured, for the table's first bin count.
func (t *ShapeTable) Chart() *charts.BarChart {
	if len(t.Rows) == 0 {
		return nil
	}
	bins := t.Rows[0].Bins
	var ins []Input
	var ks []Kernel
	for _, r := range t.Rows {
		if r.Bins != bins {
			continue
		}
		if !slices.Contains(ins, r.Input) {
			ins = append(ins, r.Input)
		}
		if !slices.Contains(ks, r.Kernel) {
			ks = append(ks, r.Kernel)
		}
	}
	c := &charts.BarChart{
		Title:    fmt.Sprintf("Histogram, %d bins: time per element", bins),
		Subtitle: t.Timing,
		X:        charts.Axis{Title: "kernel"},
		Y:        charts.Axis{Title: "time per element", Unit: "ns"},
	}
	// The kernels with one global atomic per element take many times
	// longer than the privatised ones: drawn beside them they would
	// flatten the comparison the chart is for, launch shape and
	// partitioning among the privatised kernels. Their times are in the
	// subtitle and the table.
	var shown, global []Kernel
	for _, k := range ks {
		if k == Global || k == GlobalContig {
			global = append(global, k)
			continue
		}
		shown = append(shown, k)
	}
	if len(shown) == 0 {
		shown, global = ks, nil
	}
	for _, k := range global {
		lo, hi := math.Inf(1), 0.0
		for _, in := range ins {
			r, _ := t.Row(in, bins, k)
			v := r.NsPerElement(t.N)
			lo, hi = min(lo, v), max(hi, v)
		}
		c.Subtitle += fmt.Sprintf("; %s (%.2g to %.2g ns) left out: it would dwarf the rest", k, lo, hi)
	}
	ks = shown
	for _, k := range ks {
		c.Categories = append(c.Categories, string(k))
	}
	for _, in := range ins {
		var v charts.Values
		for _, k := range ks {
			r, _ := t.Row(in, bins, k)
			v = append(v, r.NsPerElement(t.N))
		}
		c.AddBars(string(in), v)
	}
	return c
}
