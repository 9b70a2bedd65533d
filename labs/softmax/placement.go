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

// One block's input, placed several ways. A single block of the shared
// kernel runs its queue in one of two modes on the H200, picked by when
// its warps reach it, which follows when the L2 returns each warp's line
// of x: where x lies in memory picks the mode
// (calibration/evidence/2026-11-30-h200-microbench-blockq and -blockq-2). One
// placement is a lottery on the GPU and in the model alike; the
// placement table runs the one-block cells on many.

// DefaultPlacements is how many placements of one block's input the
// placement table runs by default: blockq.cu's 16 blocks' worth of x.
const DefaultPlacements = 16

// MaxPlacements is the most placements the table runs.
const MaxPlacements = 256

// ModeGap is the ratio of a kernel's largest time over the placements to
// its least from which the placements count as two modes, split at the
// midpoint of the two: the H200's two modes of one block's shared queue
// are 1.4 to 1.6 times apart (0.0086 to 0.0102 ms against 0.0141), its
// launches of one placement within a few percent, and a placement whose
// launches mix the modes falls between (calibration/evidence/2026-11-30-h200-l2line).
const ModeGap = 1.2

// PlacementOptions configure Placements; the zero value runs the default
// table.
type PlacementOptions struct {
	// Placements is how many blocks' worth of input the one-block cells
	// run on, each BlockSize elements after the one before in one
	// allocation; 0 means DefaultPlacements.
	Placements int
	// BlockSize is the threads of the one block (and the elements it
	// adds); 0 means DefaultBlockSize.
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

// PlacementTable is the result of Placements: each kernel's time at one
// block on each placement of its input.
type PlacementTable struct {
	Device    string         `json:"device"`
	Spec      string         `json:"spec"`
	Timing    string         `json:"timing"`
	Measured  bool           `json:"measured"`
	BlockSize int            `json:"block_size"`
	WarmUps   int            `json:"warm_ups"`
	Runs      int            `json:"runs"`
	Kernels   []Kernel       `json:"kernels"`
	Rows      []PlacementRow `json:"rows"`
	// Predicted is the same table on the simulator, when this one ran on
	// a GPU.
	Predicted *PlacementTable `json:"predicted,omitempty"`
}

// PlacementRow is one placement: the block's input starts Offset
// elements into the allocation.
type PlacementRow struct {
	Offset int    `json:"offset"`
	Cells  []Cell `json:"cells"`
}

// Placements runs the three kernels at one block of opts.BlockSize
// threads on opts.Placements placements of its input, each a block's
// worth of elements after the one before in one allocation: the same
// offsets on the simulator and on a GPU.
func Placements(dev *gpu.Device, opts PlacementOptions) (*PlacementTable, error) {
	np := opts.Placements
	if np == 0 {
		np = DefaultPlacements
	}
	if np < 1 || np > MaxPlacements {
		return nil, fmt.Errorf("softmax: %d placements: want 1 to %d", np, MaxPlacements)
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
	for p := range np {
		for _, k := range Kernels() {
			ss = append(ss, series{kernel: k, n: block, block: block, warm: warm, runs: runs, offset: p * block, alloc: np * block})
		}
	}
	ms, err := measure(r, ss, labkit.OrDefault(opts.Progress, "softmax placements"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &PlacementTable{Device: info.Name, Spec: info.Spec, Measured: dev.Capabilities().MeasuredTiming,
		BlockSize: block, WarmUps: warm, Runs: runs, Kernels: Kernels(), Timing: ms[0].timing.Source}
	x := input(np*block, InputSeed).x
	i := 0
	for p := range np {
		row := PlacementRow{Offset: p * block}
		denom := sumExp(x[p*block : (p+1)*block])
		for range Kernels() {
			row.Cells = append(row.Cells, cellOf(ss[i], ms[i], denom))
			i++
		}
		t.Rows = append(t.Rows, row)
	}
	if t.Measured && opts.Predict != "none" {
		p, err := labkit.Predict(dev, opts.Predict, "softmax", "the placements", func(sim *gpu.Device) (*PlacementTable, error) {
			return Placements(sim, PlacementOptions{Placements: np, BlockSize: block,
				Progress: labkit.OrDefault(opts.Progress, "softmax placements, predicted")})
		})
		if err != nil {
			return nil, err
		}
		t.Predicted = p
	}
	return t, nil
}

// PlacementSummary is one kernel's times over the placements.
type PlacementSummary struct {
	Kernel Kernel `json:"kernel"`
	// MinMs, MedianMs and MaxMs are over the placements' times.
	MinMs    float64 `json:"min_ms"`
	MedianMs float64 `json:"median_ms"`
	MaxMs    float64 `json:"max_ms"`
	// Modes says the largest time is more than ModeGap times the least;
	// Fast are then the indices of the placements below their midpoint.
	Modes bool  `json:"modes"`
	Fast  []int `json:"fast,omitempty"`
}

// Summary returns kernel k's times over the placements.
func (t *PlacementTable) Summary(k Kernel) PlacementSummary {
	s := PlacementSummary{Kernel: k}
	j := slices.Index(t.Kernels, k)
	if j < 0 || len(t.Rows) == 0 {
		return s
	}
	ms := make([]float64, len(t.Rows))
	for i, r := range t.Rows {
		ms[i] = r.Cells[j].Ms
	}
	st := gpu.Summarize(ms)
	s.MinMs, s.MedianMs, s.MaxMs = st.Min, st.Median, st.Max
	if s.MinMs > 0 && s.MaxMs > ModeGap*s.MinMs {
		s.Modes = true
		cut := (s.MinMs + s.MaxMs) / 2
		for i, m := range ms {
			if m < cut {
				s.Fast = append(s.Fast, i)
			}
		}
	}
	return s
}

// Table returns the placements as a table: each kernel's time per
// placement, the shared kernel's mode, and the summary in the notes.
func (t *PlacementTable) Table() *charts.Table {
	cols := []charts.Column{{Header: "placement"}, {Header: "offset", Unit: "bytes"}}
	for _, k := range t.Kernels {
		cols = append(cols, charts.Column{Header: string(k), Unit: "ms"})
	}
	cols = append(cols, charts.Column{Header: "shared queue"})
	tab := charts.NewTable(fmt.Sprintf("One block of %d threads, its input placed %d ways", t.BlockSize, len(t.Rows)), cols...)
	tab.Caption = t.caption()
	shared := t.Summary(Shared)
	for i, r := range t.Rows {
		cells := []charts.Cell{charts.Int(int64(i)), charts.Int(int64(4 * r.Offset))}
		for _, c := range r.Cells {
			cells = append(cells, charts.Float(c.Ms, 4))
		}
		cells = append(cells, charts.Text(modeOf(shared, i)))
		tab.AddRow(cells...)
	}
	for _, k := range t.Kernels {
		tab.AddNote("%s", t.Summary(k).sentence())
	}
	tab.AddNote("Placement p: the block adds x[%d p .. %d p + %d] of one allocation of %d elements (x uniform in [-1, 1), PCG seed %d); every sum is checked.",
		t.BlockSize, t.BlockSize, t.BlockSize-1, t.BlockSize*len(t.Rows), InputSeed)
	return tab
}

func modeOf(s PlacementSummary, i int) string {
	switch {
	case !s.Modes:
		return "one mode"
	case slices.Contains(s.Fast, i):
		return "fast"
	}
	return "convoy"
}

func (s PlacementSummary) sentence() string {
	b := fmt.Sprintf("%s: %.4f to %.4f ms, median %.4f", s.Kernel, s.MinMs, s.MaxMs, s.MedianMs)
	if !s.Modes {
		return b + "; one mode (the largest time within " + fmt.Sprint(ModeGap) + " times the least)."
	}
	return fmt.Sprintf("%s; two modes: %d placement(s) fast, below the midpoint of the least and the largest (%s), the others a convoy.", b, len(s.Fast), joinInts(s.Fast))
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func (t *PlacementTable) caption() string {
	if t.Measured {
		return fmt.Sprintf("measured on %s: %s", t.Device, gpu.MethodOf(true, t.WarmUps, t.Runs, gpu.StatMean))
	}
	return fmt.Sprintf("%s (%s): %s", t.Timing, t.Spec, gpu.MethodOf(false, 0, 1, gpu.StatMean))
}

// PredictedTable compares the placements' spread on the GPU with the
// simulator's, kernel by kernel; nil without a prediction.
func (t *PlacementTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("One block over its placements: predicted vs measured",
		charts.Column{Header: "kernel"},
		charts.Column{Header: "measured min", Unit: "ms"}, charts.Column{Header: "measured median", Unit: "ms"}, charts.Column{Header: "measured max", Unit: "ms"},
		charts.Column{Header: "predicted min", Unit: "ms"}, charts.Column{Header: "predicted median", Unit: "ms"}, charts.Column{Header: "predicted max", Unit: "ms"},
		charts.Column{Header: "median predicted / measured"},
		charts.Column{Header: "fast placements measured"}, charts.Column{Header: "fast placements predicted"})
	tab.Caption = fmt.Sprintf("%d placements; measured: %s (%d runs after %d warm-ups); predicted: %s (%s)", len(t.Rows), t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, k := range t.Kernels {
		m, q := t.Summary(k), p.Summary(k)
		ratio := charts.Text("-")
		if m.MedianMs > 0 {
			ratio = labkit.RatioCell(q.MedianMs / m.MedianMs)
		}
		tab.AddRow(charts.Text(string(k)),
			charts.Float(m.MinMs, 4), charts.Float(m.MedianMs, 4), charts.Float(m.MaxMs, 4),
			charts.Float(q.MinMs, 4), charts.Float(q.MedianMs, 4), charts.Float(q.MaxMs, 4),
			ratio, charts.Text(fastText(m, len(t.Rows))), charts.Text(fastText(q, len(p.Rows))))
	}
	tab.AddNote("Highlighted: a median more than 30%% off the measured one. Compare the medians and the spread, not placement by placement: on the GPU which placements run fast changes from process to process with the physical pages the buffer gets, which the simulator does not know.")
	return tab
}

func fastText(s PlacementSummary, n int) string {
	if !s.Modes {
		return fmt.Sprintf("one mode (%d)", n)
	}
	return fmt.Sprintf("%d of %d: %s", len(s.Fast), n, joinInts(s.Fast))
}

// Chart draws each kernel's time against the placement; on a GPU the
// measured times as lines and the predicted as points.
func (t *PlacementTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    fmt.Sprintf("One block of %d threads: time against where its input lies", t.BlockSize),
		Subtitle: t.caption(),
		X:        charts.Axis{Title: "placement", Unit: "blocks' worth into the allocation"},
		Y:        charts.Axis{Title: "time", Unit: "ms"},
	}
	for j, k := range t.Kernels {
		c.AddLine(k.Title(), t.column(j))
	}
	if t.Predicted != nil {
		for j, k := range t.Predicted.Kernels {
			c.AddScatter(k.Title()+" (predicted)", t.Predicted.column(j))
		}
	}
	return c
}

func (t *PlacementTable) column(j int) charts.XYs {
	var pts charts.XYs
	for i, r := range t.Rows {
		pts = append(pts, charts.XY{X: float64(i), Y: r.Cells[j].Ms})
	}
	return pts
}

// String returns the table as text.
func (t *PlacementTable) String() string {
	var b strings.Builder
	b.WriteString(t.Table().String())
	if p := t.PredictedTable(); p != nil {
		b.WriteString("\n" + p.String())
	}
	return b.String()
}
