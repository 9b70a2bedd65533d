package atomics

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// BlockSizeOptions configure BlockSizes. The zero value runs the Day 26
// exercise: the sweep at 64, 256 and 1024 threads per block.
type BlockSizeOptions struct {
	// BlockSizes are the block sizes to sweep, powers of two; nil means
	// ExerciseBlockSizes().
	BlockSizes []int
	// Baseline is the block size the ratios are taken against; 0 means
	// 256. It is swept too if BlockSizes lacks it.
	Baseline int
	// Sizes, WarmUps and Runs are as in SweepOptions.
	Sizes   []int
	WarmUps int
	Runs    int
	// Progress receives progress; nil means the default (see labs.Progress).
	Progress labs.Progress
}

// BlockSizeTable is the result of BlockSizes: a sweep per block size,
// and at the largest size each kernel's time relative to the baseline
// block size's.
type BlockSizeTable struct {
	Device   string `json:"device"`
	Spec     string `json:"spec"`
	Timing   string `json:"timing"`
	Measured bool   `json:"measured"`
	Baseline int    `json:"baseline"`
	// N is the size the ratios are taken at: the largest swept.
	N       int            `json:"n"`
	Kernels []Kernel       `json:"kernels"`
	Rows    []BlockSizeRow `json:"rows"`
	// Sweeps are the full sweeps, one per row.
	Sweeps []*SweepTable `json:"sweeps"`
}

// BlockSizeRow is one block size at the largest size.
type BlockSizeRow struct {
	BlockSize int `json:"block_size"`
	// Ms are the kernels' times and Ratios each time over the baseline
	// block size's time for the same kernel, in the order of Kernels.
	Ms     []float64 `json:"ms"`
	Ratios []float64 `json:"ratios"`
	// Fastest are the kernels with the least time (more than one when
	// equal).
	Fastest []Kernel `json:"fastest"`
	// OK says every launch of this block size's sweep, at every size,
	// passed the bitwise check.
	OK bool `json:"ok"`
}

// BlockSizes runs the sweep at each block size and compares the kernels'
// times at the largest size with those of the baseline block size. It
// never judges a ratio: it reports them.
func BlockSizes(dev *gpu.Device, opts BlockSizeOptions) (*BlockSizeTable, error) {
	blocks := slices.Clone(opts.BlockSizes)
	if len(blocks) == 0 {
		blocks = ExerciseBlockSizes()
	}
	if opts.Baseline == 0 {
		opts.Baseline = DefaultBlockSize
	}
	if !slices.Contains(blocks, opts.Baseline) {
		blocks = append(blocks, opts.Baseline)
	}
	slices.Sort(blocks)
	blocks = slices.Compact(blocks)
	sweeps, err := sweeps(dev, blocks, opts.Sizes, opts.WarmUps, opts.Runs,
		labkit.OrDefault(opts.Progress, "Day 26 block sizes"))
	if err != nil {
		return nil, err
	}
	return blockSizeTable(sweeps, opts.Baseline), nil
}

// blockSizeTable compares sweeps (one per block size, over the same
// sizes) at their largest size.
func blockSizeTable(sweeps []*SweepTable, baseline int) *BlockSizeTable {
	first := sweeps[0]
	last := len(first.Rows) - 1
	t := &BlockSizeTable{
		Device: first.Device, Spec: first.Spec, Timing: first.Timing, Measured: first.Measured,
		Baseline: baseline, N: first.Rows[last].N, Kernels: first.Kernels, Sweeps: sweeps,
	}
	var base []SweepCell
	for _, s := range sweeps {
		if s.BlockSize == baseline {
			base = s.Rows[last].Cells
		}
	}
	for _, s := range sweeps {
		cells := s.Rows[last].Cells
		row := BlockSizeRow{BlockSize: s.BlockSize, Fastest: fastest(cells, 0), OK: s.OK()}
		for j, c := range cells {
			row.Ms = append(row.Ms, c.Ms)
			ratio := 0.0
			if base != nil && base[j].Ms > 0 {
				ratio = c.Ms / base[j].Ms
			}
			row.Ratios = append(row.Ratios, ratio)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Ratio returns kernel k's time at block size b over its time at the
// baseline block size, at the largest size.
func (t *BlockSizeTable) Ratio(b int, k Kernel) (float64, bool) {
	r, ok := t.row(b)
	if !ok {
		return 0, false
	}
	j := slices.Index(t.Kernels, k)
	if j < 0 {
		return 0, false
	}
	return r.Ratios[j], true
}

func (t *BlockSizeTable) row(b int) (BlockSizeRow, bool) {
	for _, r := range t.Rows {
		if r.BlockSize == b {
			return r, true
		}
	}
	return BlockSizeRow{}, false
}

// sweep returns the sweep at block size b.
func (t *BlockSizeTable) sweep(b int) *SweepTable {
	for _, s := range t.Sweeps {
		if s.BlockSize == b {
			return s
		}
	}
	return nil
}

// OK reports whether every launch of every block size passed the bitwise
// check.
func (t *BlockSizeTable) OK() bool {
	for _, r := range t.Rows {
		if !r.OK {
			return false
		}
	}
	return true
}

// Table returns, per block size, the kernels' times at the largest size,
// their ratios to the baseline block size, the fastest kernel and the
// bitwise check over every size.
func (t *BlockSizeTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cols := []charts.Column{{Header: "threads per block"}}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k), Unit: "ms"})
	}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k) + " / " + strconv.Itoa(t.Baseline)})
	}
	cols = append(cols, charts.Column{Header: "fastest"}, charts.Column{Header: "exact"})
	tab := charts.NewTable(fmt.Sprintf("Block sizes at n = %d: each column's ratio to the %d-thread run", t.N, t.Baseline), cols...)
	warm, runs := 0, 1
	if len(t.Sweeps) > 0 {
		warm, runs = t.Sweeps[0].WarmUps, t.Sweeps[0].Runs
	}
	tab.Caption = fmt.Sprintf("%s (%s); %s", t.Device, t.Spec, timingNote(t.Timing, t.Measured, warm, runs))
	for _, r := range t.Rows {
		best := map[Kernel]bool{}
		for _, k := range r.Fastest {
			best[k] = true
		}
		cells := []charts.Cell{charts.Int(int64(r.BlockSize))}
		for j, ms := range r.Ms {
			c := charts.Float(ms, 4)
			if best[t.Kernels[j]] {
				c = c.Highlighted()
			}
			cells = append(cells, c)
		}
		for _, ratio := range r.Ratios {
			cells = append(cells, charts.Float(ratio, 2))
		}
		exact := charts.Text("yes")
		if !r.OK {
			exact = charts.Text("NO").Highlighted()
		}
		cells = append(cells, charts.Text(joinKernels(r.Fastest)), exact)
		tab.AddRow(cells...)
	}
	tab.AddNote("* the fastest kernel at this block size.")
	tab.AddNote("A ratio above 1 is slower than the %d-thread run, below 1 faster.", t.Baseline)
	tab.AddNote("exact: every launch of this block size's sweep, at every size, returned the exact sum bit for bit.")
	return tab
}

// Chart returns the ratios as grouped bars, one group per block size,
// with the baseline at 1.
func (t *BlockSizeTable) Chart() *charts.BarChart {
	c := &charts.BarChart{
		Title:    fmt.Sprintf("Time relative to %d threads per block, n = %d", t.Baseline, t.N),
		Subtitle: t.Timing,
		X:        charts.Axis{Title: "threads per block"},
		Y:        charts.Axis{Title: fmt.Sprintf("ratio to %d", t.Baseline)},
	}
	for _, r := range t.Rows {
		c.Categories = append(c.Categories, strconv.Itoa(r.BlockSize))
	}
	for j, k := range t.Kernels {
		var v charts.Values
		for _, r := range t.Rows {
			v = append(v, r.Ratios[j])
		}
		c.AddBars(k.Title(), v)
	}
	c.AddRefLine(fmt.Sprintf("%d threads", t.Baseline), 1)
	return c
}

// TimeChart returns every kernel's time against n at every block size,
// on log axes.
func (t *BlockSizeTable) TimeChart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Time vs n at each block size",
		Subtitle: t.Timing,
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for _, s := range t.Sweeps {
		for j, k := range s.Kernels {
			c.AddLine(fmt.Sprintf("%s, %d", k, s.BlockSize), s.column(j, func(c SweepCell) float64 { return c.Ms }))
		}
	}
	return c
}
