package counters

import (
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// h200CSV is a verbatim copy of the H200's counters.csv from
// calibration/evidence/2026-11-30-h200-microbenchmarks-gated2 (a test keeps the
// two the same): the same kernels, 16,777,216 threads, 256 per block,
// each cell the median of 7 timed launches after 2 warm-ups, timed gated
// (the round-2 run's ungated cells were up to 2.4 us slower).
//
//go:embed h200/counters.csv
var h200CSV string

// H200Evidence names where the committed measurements come from.
const H200Evidence = "calibration/evidence/2026-11-30-h200-microbenchmarks-gated2/csv/counters.csv"

// h200Threads and h200Block are the measured launches' shape.
const (
	h200Threads = 1 << 24
	h200Block   = 256
)

// Measurement is one row of the H200's counters.csv.
type Measurement struct {
	Rung     Rung    `json:"rung"`
	Float    bool    `json:"float"`
	Padded   bool    `json:"padded"`
	Slices   int     `json:"slices"`
	MedianMs float64 `json:"median_ms"`
	StdevMs  float64 `json:"stdev_ms"`
}

// H200Measurements returns the committed H200 rows.
func H200Measurements() ([]Measurement, error) {
	var ms []Measurement
	err := labkit.ReadEvidence("counters", H200Evidence, h200CSV, "type,", 14, func(f []string) error {
		m := Measurement{Float: f[0] == "f32", Padded: f[2] == "padded"}
		switch f[1] {
		case "thread_warp":
			m.Rung = ByWarp
		case "thread_lane":
			m.Rung = ByLane
		case "warp":
			m.Rung = PerWarp
		default:
			return fmt.Errorf("unknown mode %q", f[1])
		}
		var err error
		if m.Slices, err = strconv.Atoi(f[3]); err != nil {
			return fmt.Errorf("k: %v", err)
		}
		if m.MedianMs, err = strconv.ParseFloat(f[7], 64); err != nil {
			return fmt.Errorf("median_ms: %v", err)
		}
		if m.StdevMs, err = strconv.ParseFloat(f[11], 64); err != nil {
			return fmt.Errorf("stdev_ms: %v", err)
		}
		if f[13] != "PASS" {
			return errors.New("the H200's check did not pass")
		}
		ms = append(ms, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ms, nil
}

// H200Measured returns the H200's median for one cell.
func H200Measured(rung Rung, float bool, k int, padded bool) (Measurement, bool) {
	ms, err := H200Measurements()
	if err != nil {
		return Measurement{}, false
	}
	for _, m := range ms {
		if m.Rung == rung && m.Float == float && m.Slices == k && m.Padded == padded {
			return m, true
		}
	}
	return Measurement{}, false
}

// H200Set names a set of the H200's cells to predict.
type H200Set string

// The sets of cells Fidelity predicts.
const (
	// Claim: unsigned, k = 32, per thread, slice by warp and by lane,
	// packed and padded: the two patterns of the course notes' claim.
	Claim H200Set = "claim"
	// K32: unsigned, k = 32, the three per-thread and per-warp rungs,
	// packed and padded: the two patterns of the course notes' claim.
	K32 H200Set = "k32"
	// K32Float: K32 and the same in float.
	K32Float H200Set = "k32-float"
	// NoH200 predicts nothing.
	NoH200 H200Set = "none"
)

func (s H200Set) cells() ([]cell, error) {
	var floats []bool
	rungs := []Rung{ByWarp, ByLane, PerWarp}
	switch s {
	case Claim, "":
		floats, rungs = []bool{false}, []Rung{ByWarp, ByLane}
	case K32:
		floats = []bool{false}
	case K32Float:
		floats = []bool{false, true}
	case NoH200:
		return nil, nil
	default:
		return nil, fmt.Errorf("counters: H200 set %q: want %s, %s, %s or %s", s, Claim, K32, K32Float, NoH200)
	}
	var cs []cell
	for _, f := range floats {
		for _, r := range rungs {
			for _, padded := range []bool{false, true} {
				cs = append(cs, cell{rung: r, float: f, k: 32, padded: padded, threads: h200Threads, block: h200Block, runs: 1})
			}
		}
	}
	return cs, nil
}

// FidelityTable sets the H200's committed measurements beside the
// simulator's prediction for the same kernels at the same size.
type FidelityTable struct {
	// Spec is the simulator that predicted: sim:h200.
	Spec string        `json:"spec"`
	Rows []FidelityRow `json:"rows"`
}

// FidelityRow is one cell: measured on the H200, predicted by the model.
type FidelityRow struct {
	Rung        Rung    `json:"rung"`
	Float       bool    `json:"float"`
	Slices      int     `json:"slices"`
	Padded      bool    `json:"padded"`
	MeasuredMs  float64 `json:"measured_ms"`
	PredictedMs float64 `json:"predicted_ms"`
	// Lines and MaxChain are the simulator's counters of the launch.
	Lines    int64 `json:"lines"`
	MaxChain int64 `json:"max_chain"`
}

// Ratio is predicted over measured.
func (r FidelityRow) Ratio() float64 { return r.PredictedMs / r.MeasuredMs }

// Within30 reports whether the prediction is within ±30% of the
// measurement.
func (r FidelityRow) Within30() bool { return labkit.Within30(r.Ratio()) }

// Row returns one cell's row.
func (t *FidelityTable) Row(rung Rung, float bool, k int, padded bool) (FidelityRow, bool) {
	for _, r := range t.Rows {
		if r.Rung == rung && r.Float == float && r.Slices == k && r.Padded == padded {
			return r, true
		}
	}
	return FidelityRow{}, false
}

// OrderRight reports whether the model picks the same faster layout as
// the H200 for a rung at k.
func (t *FidelityTable) OrderRight(rung Rung, float bool, k int) (measured, predicted string, ok bool) {
	a, ok1 := t.Row(rung, float, k, false)
	b, ok2 := t.Row(rung, float, k, true)
	if !ok1 || !ok2 {
		return "", "", false
	}
	return fasterOf(a.MeasuredMs, b.MeasuredMs), fasterOf(a.PredictedMs, b.PredictedMs), true
}

// Fidelity runs the simulator (spec, "" for sim:h200) on the cells of
// set at the H200's size, 16,777,216 threads, and sets each beside the
// committed H200 median.
func Fidelity(spec string, set H200Set, progress labs.Progress) (*FidelityTable, error) {
	cs, err := set.cells()
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	if spec == "" {
		spec = "sim:h200"
	}
	dev, err := labkit.OpenModel("counters", spec)
	if err != nil {
		return nil, err
	}
	defer dev.Close()
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(progress, "counters, H200 cells"))
	if err != nil {
		return nil, err
	}
	t := &FidelityTable{Spec: dev.Info().Spec}
	for i, c := range cs {
		m, ok := H200Measured(c.rung, c.float, c.k, c.padded)
		if !ok {
			return nil, fmt.Errorf("counters: no H200 row for %s", c.detail())
		}
		if outs[i].total != float64(c.threads) {
			return nil, fmt.Errorf("counters: %s on %s counted %.0f of %d threads", c.detail(), spec, outs[i].total, c.threads)
		}
		fr := FidelityRow{Rung: c.rung, Float: c.float, Slices: c.k, Padded: c.padded, MeasuredMs: m.MedianMs, PredictedMs: outs[i].timing.Ms}
		if k := outs[i].counters; k != nil {
			fr.Lines, fr.MaxChain = k.GlobalAtomicLines, k.GlobalAtomicMaxChain
		}
		t.Rows = append(t.Rows, fr)
	}
	return t, nil
}

// Table returns the measured and predicted times side by side, with the
// faster layout by each.
func (t *FidelityTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable("The H200's measurements beside the simulator's prediction: 16,777,216 threads",
		charts.Column{Header: "type"}, charts.Column{Header: "rung"}, charts.Column{Header: "k"}, charts.Column{Header: "layout"},
		charts.Column{Header: "lines (simulator)"}, charts.Column{Header: "longest chain (simulator)"},
		charts.Column{Header: "measured, H200", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"},
		charts.Column{Header: "faster layout, H200"}, charts.Column{Header: "faster layout, predicted"})
	tab.Caption = fmt.Sprintf("measured: NVIDIA H200, the median of 7 launches after 2 warm-ups; predicted: modelled, %s", t.Spec)
	var misses []string
	for _, r := range t.Rows {
		ratio := labkit.RatioCell(r.Ratio())
		if !r.Within30() {
			misses = append(misses, fmt.Sprintf("%s %s k=%d %s (%.2fx)", typeName(r.Float), r.Rung, r.Slices, layoutName(r.Padded), r.Ratio()))
		}
		mf, pf, _ := t.OrderRight(r.Rung, r.Float, r.Slices)
		pfc := charts.Text(pf)
		if mf != pf {
			pfc = pfc.Highlighted()
		}
		tab.AddRow(charts.Text(typeName(r.Float)), charts.Text(string(r.Rung)), charts.Int(int64(r.Slices)), charts.Text(layoutName(r.Padded)),
			charts.Int(r.Lines), charts.Int(r.MaxChain),
			charts.Float(r.MeasuredMs, 4), charts.Float(r.PredictedMs, 4), ratio, charts.Text(mf), pfc)
	}
	tab.AddNote("* a prediction more than 30%% off the measurement, or a faster layout the model gets wrong.")
	if len(misses) > 0 {
		tab.AddNote("The model misses %s: it is a first-order model and these cells are where it is weakest.", strings.Join(misses, "; "))
	}
	return tab
}

func typeName(float bool) string {
	if float {
		return "f32"
	}
	return "u32"
}
