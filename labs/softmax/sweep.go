package softmax

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// DefaultSizes returns the sweep's sizes: from one warp to a million
// elements, fast on the simulator. The notes' size, 16,777,216, is a
// setting away (MaxN).
func DefaultSizes() []int { return []int{32, 256, 1024, 4096, 16384, 65536, 262144, 1048576} }

// MaxN is the largest size the lab accepts: the notes' 16,777,216.
const MaxN = 1 << 24

// DefaultBlockSize is the threads per block of every launch, the notes'.
const DefaultBlockSize = 256

// SweepOptions configure Sweep; the zero value runs the default sweep.
type SweepOptions struct {
	// Sizes are the element counts; nil means DefaultSizes().
	Sizes []int
	// BlockSize is the threads per block, a multiple of 32 up to 1024; 0
	// means DefaultBlockSize.
	BlockSize int
	// WarmUps and Runs are the untimed and timed launches per cell on a
	// GPU (0: 3 and 10); the simulator launches once.
	WarmUps, Runs int
	// Predict, on a GPU, is the simulated device whose modelled times go
	// beside the measured ones: "" picks the profile closest to the GPU,
	// "none" skips it.
	Predict string
	// Progress receives progress; nil means the default.
	Progress labs.Progress
}

// SweepTable is the result of Sweep: each kernel's time at each size,
// its input bandwidth, its global atomics and the check of its
// denominator.
type SweepTable struct {
	Device    string   `json:"device"`
	Spec      string   `json:"spec"`
	Timing    string   `json:"timing"`
	Measured  bool     `json:"measured"`
	BlockSize int      `json:"block_size"`
	WarmUps   int      `json:"warm_ups"`
	Runs      int      `json:"runs"`
	Kernels   []Kernel `json:"kernels"`
	Rows      []Row    `json:"rows"`
	// Predicted is the same sweep on the simulator, when this one ran on
	// a GPU.
	Predicted *SweepTable `json:"predicted,omitempty"`
}

// Row is one size of a sweep.
type Row struct {
	N int `json:"n"`
	// Denom is the double-precision reference sum(exp(x)).
	Denom float64 `json:"denom"`
	Cells []Cell  `json:"cells"`
}

// Sweep runs the three denominators at each size on dev. On a GPU each
// cell is the mean of timed launches after warm-ups, and the sweep is
// also predicted on the simulator.
func Sweep(dev *gpu.Device, opts SweepOptions) (*SweepTable, error) {
	sizes := opts.Sizes
	if len(sizes) == 0 {
		sizes = DefaultSizes()
	}
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	for _, n := range sizes {
		if n < 1 || n > MaxN {
			return nil, fmt.Errorf("softmax: size %d: want 1 to %d", n, MaxN)
		}
	}
	block := opts.BlockSize
	if block == 0 {
		block = DefaultBlockSize
	}
	if err := checkBlockSize(dev, block); err != nil {
		return nil, err
	}
	warm, runs := launchCounts(dev, opts.WarmUps, opts.Runs)
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var ss []series
	for _, n := range sizes {
		for _, k := range Kernels() {
			ss = append(ss, series{kernel: k, n: n, block: block, warm: warm, runs: runs})
		}
	}
	ms, err := measure(r, ss, labkit.OrDefault(opts.Progress, "softmax sweep"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &SweepTable{Device: info.Name, Spec: info.Spec, Measured: dev.Capabilities().MeasuredTiming,
		BlockSize: block, WarmUps: warm, Runs: runs, Kernels: Kernels()}
	t.Timing = ms[0].timing.Source
	i := 0
	for _, n := range sizes {
		in := input(n, InputSeed)
		row := Row{N: n, Denom: in.denom}
		for range Kernels() {
			row.Cells = append(row.Cells, cellOf(ss[i], ms[i], in.denom))
			i++
		}
		t.Rows = append(t.Rows, row)
	}
	if t.Measured && opts.Predict != "none" {
		p, err := labkit.Predict(dev, opts.Predict, "softmax", "the sweep", func(sim *gpu.Device) (*SweepTable, error) {
			return Sweep(sim, SweepOptions{Sizes: sizes, BlockSize: block,
				Progress: labkit.OrDefault(opts.Progress, "softmax sweep, predicted")})
		})
		if err != nil {
			return nil, err
		}
		t.Predicted = p
	}
	return t, nil
}

func checkBlockSize(dev *gpu.Device, b int) error {
	max := dev.Info().MaxThreadsPerBlock
	if max == 0 {
		max = 1024
	}
	if b < 32 || b%32 != 0 || b > max {
		return fmt.Errorf("softmax: block size %d: want a multiple of 32 from 32 to %d (the shuffle kernel reduces whole warps)", b, max)
	}
	return nil
}

// Cell returns the cell of kernel k at size n.
func (t *SweepTable) Cell(n int, k Kernel) (Cell, bool) {
	j := slices.Index(t.Kernels, k)
	for _, r := range t.Rows {
		if r.N == n && j >= 0 {
			return r.Cells[j], true
		}
	}
	return Cell{}, false
}

// Crossover returns the smallest size of the sweep from which kernel
// fast is faster than kernel slow by more than 10% at every size, and
// whether there is one. Below it the two are within 10%: at a few
// thousand elements both take about the launch overhead.
func (t *SweepTable) Crossover(slow, fast Kernel) (int, bool) {
	i, j := slices.Index(t.Kernels, slow), slices.Index(t.Kernels, fast)
	if i < 0 || j < 0 {
		return 0, false
	}
	n, ok := 0, false
	for k := len(t.Rows) - 1; k >= 0; k-- {
		r := t.Rows[k]
		if !(r.Cells[j].Ms < 0.9*r.Cells[i].Ms) {
			break
		}
		n, ok = r.N, true
	}
	return n, ok
}

// Fastest returns the fastest kernel at row r.
func (r Row) Fastest() Kernel {
	best := 0
	for i, c := range r.Cells {
		if c.Ms < r.Cells[best].Ms {
			best = i
		}
	}
	return r.Cells[best].Kernel
}

// Table returns the sweep as a table: time per kernel, the ratio of the
// per-element atomic to the shuffle, global atomics, and the check.
func (t *SweepTable) Table() *charts.Table {
	cols := []charts.Column{{Header: "n"}}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k), Unit: "ms"})
	}
	cols = append(cols, charts.Column{Header: "atomic / shuffle"}, charts.Column{Header: "fastest"})
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k) + " atomics"})
	}
	cols = append(cols, charts.Column{Header: "denominator check"})
	tab := charts.NewTable(fmt.Sprintf("Softmax denominator, three ways: %d threads per block", t.BlockSize), cols...)
	tab.Caption = t.caption()
	for _, r := range t.Rows {
		cells := []charts.Cell{charts.Int(int64(r.N))}
		fastest := r.Fastest()
		for _, c := range r.Cells {
			cell := charts.Float(c.Ms, 4)
			if c.Kernel == fastest {
				cell = cell.Highlighted()
			}
			cells = append(cells, cell)
		}
		a, _ := t.cellAt(r, Atomic)
		s, _ := t.cellAt(r, Shuffle)
		ratio := charts.Text("-")
		if s.Ms > 0 {
			ratio = charts.Float(a.Ms/s.Ms, 1)
		}
		cells = append(cells, ratio, charts.Text(string(fastest)))
		for _, c := range r.Cells {
			if c.Counters == nil {
				cells = append(cells, charts.Text("-"))
			} else {
				cells = append(cells, charts.Int(c.GlobalAtomics))
			}
		}
		check := "ok"
		for _, c := range r.Cells {
			if !c.OK {
				check = fmt.Sprintf("%s off by %.2g (bound %.2g)", c.Kernel, c.RelErr, c.Tolerance)
				break
			}
		}
		cells = append(cells, charts.Text(check))
		tab.AddRow(cells...)
	}
	for _, pair := range [][2]Kernel{{Atomic, Shuffle}, {Shared, Shuffle}, {Atomic, Shared}} {
		if n, ok := t.Crossover(pair[0], pair[1]); ok {
			tab.AddNote("Crossover: %s is more than 10%% faster than %s from n = %d on.", pair[1], pair[0], n)
		} else {
			tab.AddNote("Crossover: %s is not clearly faster than %s at the largest size.", pair[1], pair[0])
		}
	}
	tab.AddNote("Input: x uniform in [-1, 1) (PCG seed %d); every denominator is checked against a double-precision sum, within the worst-case float32 rounding of its additions.", InputSeed)
	if !t.Measured {
		tab.AddNote("Atomics: global atomic operations that reached the L2 per launch, as the simulator counted them.")
	}
	return tab
}

func (t *SweepTable) cellAt(r Row, k Kernel) (Cell, bool) {
	j := slices.Index(t.Kernels, k)
	if j < 0 {
		return Cell{}, false
	}
	return r.Cells[j], true
}

func (t *SweepTable) caption() string {
	if t.Measured {
		return fmt.Sprintf("measured on %s: %s", t.Device, gpu.MethodOf(true, t.WarmUps, t.Runs, gpu.StatMean))
	}
	return fmt.Sprintf("%s (%s): %s", t.Timing, t.Spec, gpu.MethodOf(false, 0, 1, gpu.StatMean))
}

// Chart returns each kernel's time against n, on log axes.
func (t *SweepTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Softmax denominator: time against n",
		Subtitle: t.caption(),
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title(), t.column(j))
	}
	return c
}

func (t *SweepTable) column(j int) charts.XYs {
	var pts charts.XYs
	for _, r := range t.Rows {
		pts = append(pts, charts.XY{X: float64(r.N), Y: r.Cells[j].Ms})
	}
	return pts
}

// PredictedTable puts the simulator's prediction beside every measured
// cell; nil when the sweep has no prediction (it ran on the simulator).
func (t *SweepTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("Softmax: predicted vs measured",
		charts.Column{Header: "n"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "measured", Unit: "ms"}, charts.Column{Header: "stdev", Unit: "ms"},
		charts.Column{Header: "predicted", Unit: "ms"}, charts.Column{Header: "predicted / measured"},
		charts.Column{Header: "fastest measured"}, charts.Column{Header: "fastest predicted"})
	tab.Caption = fmt.Sprintf("measured: %s (%d runs after %d warm-ups); predicted: %s (%s)", t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, r := range t.Rows {
		pr, ok := p.row(r.N)
		for _, c := range r.Cells {
			pc, okc := p.Cell(r.N, c.Kernel)
			if !ok || !okc || c.Ms <= 0 {
				continue
			}
			ratio := labkit.RatioCell(pc.Ms / c.Ms)
			tab.AddRow(charts.Int(int64(r.N)), charts.Text(string(c.Kernel)),
				charts.Float(c.Ms, 4), charts.Float(c.StdevMs, 4), charts.Float(pc.Ms, 4), ratio,
				charts.Text(string(r.Fastest())), charts.Text(string(pr.Fastest())))
		}
	}
	tab.AddNote("Highlighted: a prediction more than 30%% off the measurement.")
	return tab
}

func (t *SweepTable) row(n int) (Row, bool) {
	for _, r := range t.Rows {
		if r.N == n {
			return r, true
		}
	}
	return Row{}, false
}

// PredictedChart draws measured times as lines and predicted times as
// points; nil without a prediction.
func (t *SweepTable) PredictedChart() *charts.Chart {
	if t == nil || t.Predicted == nil {
		return nil
	}
	c := &charts.Chart{
		Title:    "Softmax: predicted vs measured",
		Subtitle: fmt.Sprintf("lines: %s; points: %s", t.Timing, t.Predicted.Timing),
		X:        charts.Axis{Title: "n", Unit: "elements", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title()+" (measured)", t.column(j))
	}
	for j, k := range t.Predicted.Kernels {
		c.AddScatter(k.Title()+" (predicted)", t.Predicted.column(j))
	}
	return c
}

// String returns the sweep as text.
func (t *SweepTable) String() string {
	var b strings.Builder
	b.WriteString(t.Table().String())
	if p := t.PredictedTable(); p != nil {
		b.WriteString("\n" + p.String())
	}
	return b.String()
}
