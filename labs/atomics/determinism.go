package atomics

import (
	"fmt"
	"math"
	"slices"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// DeterminismOptions configure Determinism. The zero value runs the Day
// 26 page's experiment.
type DeterminismOptions struct {
	// N is the number of elements; 0 means 4,194,304.
	N int
	// Runs are the launches per kernel; 0 means 20.
	Runs int
	// BlockSize is the threads per block, a power of two; 0 means 256.
	BlockSize int
	// Progress receives progress; nil means the default (see labs.Progress).
	Progress labs.Progress
}

// DeterminismTable is the result of Determinism: how far each kernel's
// sums over the same input spread from run to run.
type DeterminismTable struct {
	Device    string `json:"device"`
	Spec      string `json:"spec"`
	Measured  bool   `json:"measured"`
	N         int    `json:"n"`
	Runs      int    `json:"runs"`
	BlockSize int    `json:"block_size"`
	Input     string `json:"input"`
	// Reference is the sum computed in double with Kahan's compensation.
	Reference float64          `json:"reference"`
	Rows      []DeterminismRow `json:"rows"`
}

// DeterminismRow is one kernel's runs.
type DeterminismRow struct {
	Kernel Kernel `json:"kernel"`
	// Sums are the runs' totals in launch order.
	Sums []float32 `json:"sums"`
	// Distinct counts the different totals; Min and Max are the extremes
	// and Spread is Max - Min.
	Distinct int     `json:"distinct"`
	Min      float32 `json:"min"`
	Max      float32 `json:"max"`
	Spread   float64 `json:"spread"`
	// WorstError is the largest |sum - Reference|.
	WorstError float64 `json:"worst_error"`
}

// Determinism runs each sum opts.Runs times over one input that float32
// cannot hold exactly (1 + (i mod 1000) / 1000), each run into a fresh
// accumulator, and reports how many different totals each kernel
// produced. On the simulator the order in which atomics to one address
// land is drawn from the launch's seed, as arrival order varies on
// hardware; with the spec option order=deterministic it is fixed.
func Determinism(dev *gpu.Device, opts DeterminismOptions) (*DeterminismTable, error) {
	if opts.N == 0 {
		opts.N = defaultDeterminismN
	}
	if opts.Runs == 0 {
		opts.Runs = defaultDeterminismRuns
	}
	if opts.BlockSize == 0 {
		opts.BlockSize = DefaultBlockSize
	}
	if opts.N < 1 || opts.Runs < 1 {
		return nil, fmt.Errorf("atomics: determinism over %d elements and %d runs: want at least 1 of each", opts.N, opts.Runs)
	}
	if err := checkBlockSize(dev, opts.BlockSize); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var ss []series
	for _, k := range Kernels() {
		ss = append(ss, series{kernel: k, n: opts.N, block: opts.BlockSize, input: inexactInput, runs: opts.Runs})
	}
	ms, err := measure(r, ss, labkit.OrDefault(opts.Progress, "Day 26 determinism"))
	if err != nil {
		return nil, err
	}
	_, measuredTiming := sourceOf(dev, ms)
	in := input(inexactInput, opts.N)
	info := dev.Info()
	t := &DeterminismTable{
		Device: info.Name, Spec: info.Spec, Measured: measuredTiming, N: opts.N, Runs: opts.Runs,
		BlockSize: opts.BlockSize, Input: inexactInput.String(), Reference: in.reference,
	}
	for i, k := range Kernels() {
		t.Rows = append(t.Rows, determinismRow(k, ms[i].sums, in.reference))
	}
	return t, nil
}

func determinismRow(k Kernel, sums []float32, ref float64) DeterminismRow {
	row := DeterminismRow{Kernel: k, Sums: sums}
	if len(sums) == 0 {
		return row
	}
	row.Min, row.Max = slices.Min(sums), slices.Max(sums)
	row.Spread = float64(row.Max) - float64(row.Min)
	seen := map[uint32]bool{}
	for _, s := range sums {
		seen[math.Float32bits(s)] = true
		row.WorstError = math.Max(row.WorstError, math.Abs(float64(s)-ref))
	}
	row.Distinct = len(seen)
	return row
}

// Table returns the spread of each kernel's sums.
func (t *DeterminismTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable(fmt.Sprintf("Same input, %d runs each: how many different sums?", t.Runs),
		charts.Column{Header: "kernel"}, charts.Column{Header: "distinct"},
		charts.Column{Header: "min"}, charts.Column{Header: "max"},
		charts.Column{Header: "max - min"}, charts.Column{Header: "worst |sum - reference|"})
	tab.Caption = fmt.Sprintf("%s (%s); n = %d, %d threads per block, input %s; Kahan double reference %.2f",
		t.Device, t.Spec, t.N, t.BlockSize, t.Input, t.Reference)
	for _, r := range t.Rows {
		distinct := charts.Int(int64(r.Distinct))
		if r.Distinct > 1 {
			distinct = distinct.Highlighted()
		}
		tab.AddRow(charts.Text(r.Kernel.Title()), distinct,
			charts.Number(float64(r.Min), labkit.FormatFloat32(r.Min)),
			charts.Number(float64(r.Max), labkit.FormatFloat32(r.Max)),
			charts.Number(r.Spread, labkit.FormatFloat32(float32(r.Spread))),
			charts.Float(r.WorstError, 2))
	}
	tab.AddNote("* more than one distinct sum: the same program gave different answers on the same data.")
	if t.Measured {
		tab.AddNote("The order in which atomics to one address land is whatever the hardware did on each run.")
	} else {
		tab.AddNote("On the simulator the order in which atomics to one address land is drawn from each launch's seed, so a rerun with the same device spec replays the same sums; the option order=deterministic fixes the order.")
	}
	return tab
}

// Chart shows every run's sum, as its distance from the reference, one
// series of points per kernel, with the reference as a line at zero.
func (t *DeterminismTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    fmt.Sprintf("Run-to-run spread of the sum, n = %d", t.N),
		Subtitle: fmt.Sprintf("%s: one point per run, its sum minus the reference", t.Device),
		X:        charts.Axis{Title: "run"},
		Y:        charts.Axis{Title: "sum - reference"},
	}
	// Each kernel's points sit a little to the side of their run (a
	// dodge), so that kernels whose sums agree, or lie within a pixel of
	// each other, are all seen rather than drawn one over the other.
	for k, r := range t.Rows {
		dodge := (float64(k) - float64(len(t.Rows)-1)/2) * 0.25
		var xy charts.XYs
		for i, s := range r.Sums {
			xy = append(xy, charts.XY{X: float64(i+1) + dodge, Y: float64(s) - t.Reference})
		}
		c.AddScatter(r.Kernel.Title(), xy)
	}
	c.AddRefLine(fmt.Sprintf("Kahan reference %.2f", t.Reference), 0)
	return c
}
