package atomics

import (
	"fmt"
	"math"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// SweepOptions configure Sweep. The zero value runs the Day 26 page's
// sweep.
type SweepOptions struct {
	// Sizes are the numbers of elements; nil means DefaultSizes().
	Sizes []int
	// BlockSize is the threads per block, a power of two; 0 means 256.
	BlockSize int
	// WarmUps are untimed launches before the timed ones, per cell: 0
	// means 3 on a GPU and none on the simulator, whose model is
	// deterministic; -1 means none.
	WarmUps int
	// Runs are the timed launches per cell, whose mean the table shows: 0
	// means 10 on a GPU and 1 on the simulator.
	Runs int
	// Predict, on a GPU, is the simulated device whose modelled times go
	// beside the measured ones: "" picks the simulator profile closest to
	// the GPU (labkit.PredictionSpec), "none" skips the prediction. It is
	// not used on the simulator.
	Predict string
	// Progress receives progress; nil means the default (see labs.Progress).
	Progress labs.Progress
}

// SweepTable is the result of Sweep: each kernel's time at each size,
// the bandwidth of the input stream, the bitwise check of every launch's
// sum, and the fastest kernel per size. It renders as a table (Table)
// and as charts (Chart, GBpsChart; PredictedChart on a GPU).
type SweepTable struct {
	// Device is the name of the device that ran the sweep, Spec its spec.
	Device string `json:"device"`
	Spec   string `json:"spec"`
	// Timing says where the times come from: "modelled, t4 profile" or
	// "measured, NVIDIA H200"; Measured is true for the latter.
	Timing    string     `json:"timing"`
	Measured  bool       `json:"measured"`
	BlockSize int        `json:"block_size"`
	WarmUps   int        `json:"warm_ups"`
	Runs      int        `json:"runs"`
	Kernels   []Kernel   `json:"kernels"`
	Input     string     `json:"input"`
	Rows      []SweepRow `json:"rows"`
	// Predicted is the same sweep on the simulator, when the sweep ran on
	// a GPU and a prediction was asked for.
	Predicted *SweepTable `json:"predicted,omitempty"`
}

// SweepRow is one size of a sweep.
type SweepRow struct {
	N int `json:"n"`
	// Reference is the exact sum, computed in double with Kahan's
	// compensation; Exact says every float32 order of the sum equals it,
	// so the check is bitwise.
	Reference float64 `json:"reference"`
	Exact     bool    `json:"exact"`
	// Cells hold one result per kernel, in the order of Kernels.
	Cells []SweepCell `json:"cells"`
}

// SweepCell is one kernel at one size.
type SweepCell struct {
	Kernel Kernel `json:"kernel"`
	// Ms is the mean time of the timed launches; StdevMs their standard
	// deviation (0 for one launch), MinMs and MaxMs the extremes.
	Ms      float64 `json:"ms"`
	StdevMs float64 `json:"stdev_ms"`
	MinMs   float64 `json:"min_ms"`
	MaxMs   float64 `json:"max_ms"`
	// GBps is the input stream's bandwidth: 4 bytes per element over Ms.
	GBps float64 `json:"gbps"`
	// Sums are the totals of every launch, warm-ups first.
	Sums []float32 `json:"sums"`
	// OK says every launch's sum equals the reference bit for bit (when
	// the row is Exact); Mismatch describes the first that does not.
	OK       bool   `json:"ok"`
	Mismatch string `json:"mismatch,omitempty"`
	// Breakdown is the modelled time by resource (simulator only).
	Breakdown []gpu.TimeComponent `json:"breakdown,omitempty"`
	// GlobalAtomics are the global atomic operations of one launch, as the
	// simulator counted them (0 on a GPU).
	GlobalAtomics int64 `json:"global_atomics,omitempty"`
}

// Sweep runs the three sums at each size, on input 0, 1, 2, 3 repeating,
// and checks every launch's sum bitwise against a Kahan double
// reference. On a GPU each cell is the mean of timed launches after
// warm-ups, and the same sweep is predicted on the simulator; on the
// simulator one launch per cell is enough. See SweepOptions.
func Sweep(dev *gpu.Device, opts SweepOptions) (*SweepTable, error) {
	tables, err := sweeps(dev, []int{opts.BlockSize}, opts.Sizes, opts.WarmUps, opts.Runs,
		labkit.OrDefault(opts.Progress, "Day 26 sweep"))
	if err != nil {
		return nil, err
	}
	t := tables[0]
	if t.Measured && opts.Predict != "none" {
		p, err := labkit.Predict(dev, opts.Predict, "atomics", "the sweep", func(sim *gpu.Device) (*SweepTable, error) {
			return Sweep(sim, SweepOptions{Sizes: opts.Sizes, BlockSize: opts.BlockSize,
				Progress: labkit.OrDefault(opts.Progress, "Day 26 sweep, predicted")})
		})
		if err != nil {
			return nil, err
		}
		t.Predicted = p
	}
	return t, nil
}

// sweeps runs one sweep per block size, all in one run.
func sweeps(dev *gpu.Device, blocks, sizes []int, warm, runs int, progress labs.Progress) ([]*SweepTable, error) {
	sizes, err := checkSizes(sizes)
	if err != nil {
		return nil, err
	}
	for i, b := range blocks {
		if b == 0 {
			blocks[i] = DefaultBlockSize
		}
		if err := checkBlockSize(dev, blocks[i]); err != nil {
			return nil, err
		}
	}
	warm, runs, err = labkit.LaunchCounts("atomics", dev.Capabilities(), warm, runs)
	if err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var ss []series
	for _, b := range blocks {
		for _, n := range sizes {
			for _, k := range Kernels() {
				ss = append(ss, series{kernel: k, n: n, block: b, input: exactInput, warm: warm, runs: runs})
			}
		}
	}
	ms, err := measure(r, ss, progress)
	if err != nil {
		return nil, err
	}
	source, measured := sourceOf(dev, ms)
	info := dev.Info()
	var tables []*SweepTable
	i := 0
	for _, b := range blocks {
		t := &SweepTable{
			Device: info.Name, Spec: info.Spec, Timing: source, Measured: measured,
			BlockSize: b, WarmUps: warm, Runs: runs, Kernels: Kernels(), Input: exactInput.String(),
		}
		for _, n := range sizes {
			in := input(exactInput, n)
			row := SweepRow{N: n, Reference: in.reference, Exact: in.exact}
			for _, k := range Kernels() {
				row.Cells = append(row.Cells, sweepCell(k, n, in, ms[i]))
				i++
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	return tables, nil
}

func sweepCell(k Kernel, n int, in *hostInput, m measured) SweepCell {
	c := SweepCell{Kernel: k, Sums: m.sums, OK: true, Breakdown: m.timing.Breakdown}
	c.Ms, c.StdevMs = labkit.Mean(m.ms)
	c.MinMs, c.MaxMs = math.Inf(1), math.Inf(-1)
	for _, v := range m.ms {
		c.MinMs, c.MaxMs = math.Min(c.MinMs, v), math.Max(c.MaxMs, v)
	}
	if c.Ms > 0 {
		c.GBps = 4 * float64(n) / (c.Ms * 1e6)
	}
	if m.counters != nil {
		c.GlobalAtomics = m.counters.GlobalAtomicOps
	}
	if in.exact {
		want := float32(in.reference)
		for l, s := range m.sums {
			if math.Float32bits(s) != math.Float32bits(want) {
				c.OK = false
				c.Mismatch = fmt.Sprintf("launch %d of %d: sum %s, want %s", l+1, len(m.sums), labkit.FormatFloat32(s), labkit.FormatFloat32(want))
				break
			}
		}
	}
	return c
}

// Cell returns kernel k's result at size n.
func (t *SweepTable) Cell(n int, k Kernel) (SweepCell, bool) {
	for _, r := range t.Rows {
		if r.N != n {
			continue
		}
		for _, c := range r.Cells {
			if c.Kernel == k {
				return c, true
			}
		}
	}
	return SweepCell{}, false
}

// Fastest returns the kernels with the least time in row i: one, or more
// when their times are equal.
func (t *SweepTable) Fastest(i int) []Kernel {
	return fastest(t.Rows[i].Cells, 0)
}

// fastest returns the kernels whose time is within rel of the least
// (relative to it), in table order; rel = 0 means equal times.
func fastest(cells []SweepCell, rel float64) []Kernel {
	best := math.Inf(1)
	for _, c := range cells {
		best = math.Min(best, c.Ms)
	}
	var ks []Kernel
	for _, c := range cells {
		if c.Ms <= best*(1+rel)+1e-12 {
			ks = append(ks, c.Kernel)
		}
	}
	return ks
}

// OK reports whether every launch's sum passed the bitwise check.
func (t *SweepTable) OK() bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if !c.OK {
				return false
			}
		}
	}
	return true
}

func joinKernels(ks []Kernel) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, " = ")
}

// Table returns the sweep as a table: per size, each kernel's time and
// GB/s, the bitwise check and the fastest kernel.
func (t *SweepTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cols := []charts.Column{{Header: "n"}}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k), Unit: "ms"})
	}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k), Unit: "GB/s"})
	}
	cols = append(cols, charts.Column{Header: "exact"}, charts.Column{Header: "fastest"})
	tab := charts.NewTable(fmt.Sprintf("One sum, three ways: %d threads per block", t.BlockSize), cols...)
	tab.Caption = fmt.Sprintf("%s (%s); %s", t.Device, t.Spec, timingNote(t.Timing, t.Measured, t.WarmUps, t.Runs))
	var mismatches []string
	for i, r := range t.Rows {
		best := map[Kernel]bool{}
		for _, k := range t.Fastest(i) {
			best[k] = true
		}
		cells := []charts.Cell{charts.Int(int64(r.N))}
		for _, c := range r.Cells {
			cell := charts.Float(c.Ms, 4)
			if best[c.Kernel] {
				cell = cell.Highlighted()
			}
			cells = append(cells, cell)
		}
		for _, c := range r.Cells {
			cells = append(cells, charts.Float(c.GBps, 1))
		}
		check := charts.Text("yes")
		switch {
		case !r.Exact:
			check = charts.Text("n/a")
		default:
			for _, c := range r.Cells {
				if !c.OK {
					check = charts.Text("NO: " + string(c.Kernel)).Highlighted()
					mismatches = append(mismatches, fmt.Sprintf("n = %d, %s: %s", r.N, c.Kernel, c.Mismatch))
				}
			}
		}
		cells = append(cells, check, charts.Text(joinKernels(t.Fastest(i))))
		tab.AddRow(cells...)
	}
	tab.AddNote("* the fastest kernel at each size.")
	tab.AddNote("GB/s counts the input stream alone: 4 bytes per element, read once.")
	tab.AddNote("exact: every launch's sum equals a Kahan double reference bit for bit (input %s; n/a where the total passes 2^24 and float32 can no longer hold it).", t.Input)
	for _, m := range mismatches {
		tab.AddNote("MISMATCH %s", m)
	}
	return tab
}

// Chart returns each kernel's time against n, on log axes.
func (t *SweepTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Time vs n, one sum three ways",
		Subtitle: fmt.Sprintf("%s, %d threads per block", t.Timing, t.BlockSize),
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title(), t.column(j, func(c SweepCell) float64 { return c.Ms }))
	}
	return c
}

// GBpsChart returns each kernel's input bandwidth against n.
func (t *SweepTable) GBpsChart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Input bandwidth vs n",
		Subtitle: fmt.Sprintf("%s, %d threads per block; 4 bytes per element over the time", t.Timing, t.BlockSize),
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "input stream", Unit: "GB/s", Log: true},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title(), t.column(j, func(c SweepCell) float64 { return c.GBps }))
	}
	return c
}

// column returns kernel j's values against n.
func (t *SweepTable) column(j int, v func(SweepCell) float64) charts.XYs {
	var xy charts.XYs
	for _, r := range t.Rows {
		xy = append(xy, charts.XY{X: float64(r.N), Y: v(r.Cells[j])})
	}
	return xy
}

// PredictedTable returns the simulator's predicted times beside the
// measured ones, or nil when the sweep has no prediction.
func (t *SweepTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("Predicted vs measured",
		charts.Column{Header: "n"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "measured", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"})
	tab.Caption = fmt.Sprintf("measured: %s (%d runs after %d warm-ups); predicted: %s (%s)", t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			pc, ok := p.Cell(r.N, c.Kernel)
			if !ok || c.Ms <= 0 {
				continue
			}
			tab.AddRow(charts.Int(int64(r.N)), charts.Text(string(c.Kernel)),
				charts.Float(c.Ms, 4), charts.Float(pc.Ms, 4), charts.Float(pc.Ms/c.Ms, 2))
		}
	}
	tab.AddNote("The simulator's cost model is first-order; a prediction within ±30%% of the measurement is as close as two toolkits on one card (the Day 26 course page's T4 runs).")
	return tab
}

// PredictedChart returns measured times as lines and predicted times as
// points, against n on log axes; nil when the sweep has no prediction.
func (t *SweepTable) PredictedChart() *charts.Chart {
	if t == nil || t.Predicted == nil {
		return nil
	}
	c := &charts.Chart{
		Title:    "Predicted vs measured",
		Subtitle: fmt.Sprintf("lines: %s; points: %s", t.Timing, t.Predicted.Timing),
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title()+" (measured)", t.column(j, func(c SweepCell) float64 { return c.Ms }))
	}
	for j, k := range t.Predicted.Kernels {
		c.AddScatter(k.Title()+" (predicted)", t.Predicted.column(j, func(c SweepCell) float64 { return c.Ms }))
	}
	return c
}
