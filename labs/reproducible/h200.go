package reproducible

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// H200Row is one row of the H200 microbenchmark reproducible.cu: 20 runs
// of one sum after 3 warm-ups, each into a fresh accumulator, 256 threads
// per block, timed gated (cudarun's method), from
// calibration/evidence/2026-11-30-h200-microbench-gated3/csv/reproducible.csv.
type H200Row struct {
	Method   Method  `json:"method"`
	N        int     `json:"n"`
	Runs     int     `json:"runs"`
	Distinct int     `json:"distinct"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	// WorstError is the largest |sum - Kahan double reference|.
	WorstError float64 `json:"worst_error"`
	// Ms is the median time of one sum (both kernels of a two-pass sum).
	Ms float64 `json:"ms"`
}

// H200SmallN and H200LargeN are the sizes the H200 ran.
const (
	H200SmallN = 1 << 22
	H200LargeN = 1 << 24
)

// H200Source says where the H200 rows come from.
const H200Source = "measured on an NVIDIA H200, 20 runs each (reproducible.cu, 2026-11-30)"

// H200Rows returns the H200 measurements.
func H200Rows() []H200Row { return append([]H200Row(nil), h200Rows...) }

// H200 returns the H200 row of method m at n elements.
func H200(n int, m Method) (H200Row, bool) {
	for _, r := range h200Rows {
		if r.N == n && r.Method == m {
			return r, true
		}
	}
	return H200Row{}, false
}

var h200Rows = []H200Row{
	{AtomicGlobal, 4194304, 20, 19, 6288742.5, 6289395.5, 510.556, 7.37005},
	{TreeAtomic, 4194304, 20, 12, 6289237, 6289262, 16.0559999, 0.03290},
	{TwoPass, 4194304, 20, 1, 6289253, 6289253, 0.0559998751, 0.02605},
	{TwoPassKahan, 4194304, 20, 1, 6289253, 6289253, 0.0559998751, 0.02634},
	{FixedPoint, 4194304, 20, 1, 6289253.07, 6289253.07, 0.011993289, 0.02022},
	{AtomicGlobal, 16777216, 20, 20, 27947270, 27951132, 2793781.28, 29.47822},
	{TreeAtomic, 16777216, 20, 17, 25157304, 25157372, 46.7200001, 0.11933},
	{TwoPass, 16777216, 20, 1, 25157352, 25157352, 1.27999985, 0.09677},
	{TwoPassKahan, 16777216, 20, 1, 25157352, 25157352, 1.27999985, 0.09781},
	{FixedPoint, 16777216, 20, 1, 25157350.8, 25157350.8, 0.0480357409, 0.07477},
}

// predictProfile is the simulator profile Predict models the H200 with.
const predictProfile = "h200"

// PredictOptions configure Predict.
type PredictOptions struct {
	// N is the elements summed: H200SmallN or H200LargeN; 0 means the smaller.
	N int
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

// PredictTable is the result of Predict: the simulator's h200 profile
// beside the H200's measurements, and this GPU's when there is one.
type PredictTable struct {
	N int `json:"n"`
	// Device is the GPU measured beside the prediction, empty on the
	// simulator.
	Device string       `json:"device,omitempty"`
	Rows   []PredictRow `json:"rows"`
}

// PredictRow is one sum.
type PredictRow struct {
	Method Method `json:"method"`
	// Predicted is the modelled time on the h200 profile of one sum timed
	// as the H200 column was (reproducible.cu): its launches between one
	// pair of events, the second launch of a two-pass sum queued behind
	// the first (gpu.Device.Queued, as warplab fidelity prices the same cell).
	Predicted float64 `json:"predicted_ms"`
	// PredictedApart is the modelled time of the sum's launches each timed
	// alone and added, as Sums times them and so as the Measured column
	// was taken: a launch overhead for each launch. It equals Predicted
	// for a sum of one launch.
	PredictedApart float64 `json:"predicted_apart_ms"`
	// H200 is the H200's measured median.
	H200 float64 `json:"h200_ms"`
	// Measured is this GPU's median, 0 on the simulator.
	Measured float64 `json:"measured_ms,omitempty"`
	// Distinct is this GPU's distinct totals, 0 on the simulator.
	Distinct int `json:"distinct,omitempty"`
}

// Ratio returns predicted over measured on the H200.
func (r PredictRow) Ratio() float64 { return r.Predicted / r.H200 }

// Predict models one run of each sum over Input(opts.N) on the
// simulator's h200 profile and sets it beside the H200's measured
// medians, timed as they were: the launches of a two-pass sum between one
// pair of events. On a GPU it also runs each sum 20 times on it (the
// H200's runs), with their distinct totals, timed as Sums times them
// (each launch by its own events), beside the model of that.
func Predict(dev *gpu.Device, opts PredictOptions) (*PredictTable, error) {
	if opts.N == 0 {
		opts.N = H200SmallN
	}
	if opts.N != H200SmallN && opts.N != H200LargeN {
		return nil, fmt.Errorf("reproducible: predict N %d: want %d or %d, the sizes the H200 ran", opts.N, H200SmallN, H200LargeN)
	}
	sim, err := gpu.Open("sim:" + predictProfile + "?seed=1")
	if err != nil {
		return nil, err
	}
	defer sim.Close()
	pred, err := Sums(sim, SumOptions{N: opts.N, Runs: 1, Progress: labkit.OrDefault(opts.Progress, "h200 prediction")})
	if err != nil {
		return nil, err
	}
	t := &PredictTable{N: opts.N}
	var meas *SumTable
	if !dev.Capabilities().ModelledTiming {
		t.Device = dev.Info().Name
		if meas, err = Sums(dev, SumOptions{N: opts.N, Runs: 20, Progress: labkit.OrDefault(opts.Progress, "this GPU, 20 runs")}); err != nil {
			return nil, err
		}
	}
	for _, p := range pred.Rows {
		row := PredictRow{Method: p.Method, PredictedApart: p.Ms}
		if row.Predicted, err = queued(sim, p); err != nil {
			return nil, err
		}
		if h, ok := H200(opts.N, p.Method); ok {
			row.H200 = h.Ms
		}
		if meas != nil {
			if m, ok := meas.Row(p.Method); ok {
				row.Measured, row.Distinct = m.Ms, m.Distinct
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// queued returns the modelled time of row's one run with its launches
// between one pair of events.
func queued(sim *gpu.Device, row SumRow) (float64, error) {
	if len(row.launches) != 1 || len(row.launches[0]) == 0 {
		return 0, fmt.Errorf("reproducible: predict %s: %d runs, want 1", row.Method, len(row.launches))
	}
	l := row.launches[0]
	t := l[0]
	for _, next := range l[1:] {
		var err error
		if t, err = sim.Queued(t, next); err != nil {
			return 0, fmt.Errorf("reproducible: predict %s: %w", row.Method, err)
		}
	}
	return t.Ms, nil
}

// WithinPct reports whether every prediction is within pct percent of
// the H200's measurement; the rows that are not come back.
func (t *PredictTable) WithinPct(pct float64) (bool, []Method) {
	var off []Method
	for _, r := range t.Rows {
		if math.Abs(r.Ratio()-1)*100 > pct {
			off = append(off, r.Method)
		}
	}
	return len(off) == 0, off
}

// Table returns the prediction beside the measurements.
func (t *PredictTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cols := []charts.Column{{Header: "sum"}, {Header: "predicted ms (sim h200)"}, {Header: "H200 ms (measured)"}, {Header: "predicted / H200"},
		{Header: "H200 distinct (20 runs)"}}
	if t.Device != "" {
		cols = append(cols, charts.Column{Header: t.Device + " ms"}, charts.Column{Header: "predicted ms, launches timed apart"},
			charts.Column{Header: "predicted / " + t.Device}, charts.Column{Header: t.Device + " distinct (20 runs)"})
	}
	tab := charts.NewTable(fmt.Sprintf("The simulator's prediction beside the H200, n = %d", t.N), cols...)
	tab.Caption = H200Source
	for _, r := range t.Rows {
		ratio := charts.Float(r.Ratio(), 2)
		if math.Abs(r.Ratio()-1) > 0.3 {
			ratio = ratio.Highlighted()
		}
		distinct := 0
		if h, ok := H200(t.N, r.Method); ok {
			distinct = h.Distinct
		}
		cells := []charts.Cell{charts.Text(r.Method.Title()), charts.Float(r.Predicted, 4), charts.Float(r.H200, 4), ratio,
			charts.Int(int64(distinct))}
		if t.Device != "" {
			q := charts.Text("-")
			if r.Measured > 0 {
				q = charts.Float(r.PredictedApart/r.Measured, 2)
				if math.Abs(r.PredictedApart/r.Measured-1) > 0.3 {
					q = q.Highlighted()
				}
			}
			cells = append(cells, charts.Float(r.Measured, 4), charts.Float(r.PredictedApart, 4), q, charts.Int(int64(r.Distinct)))
		}
		tab.AddRow(cells...)
	}
	tab.AddNote("* more than 30%% from the measurement.")
	tab.AddNote("The H200 column timed the two launches of a two-pass sum between one pair of events, and so does the prediction beside it: the second launch, queued behind the first, costs the GPU's dispatch of a queued kernel, not a second launch overhead.")
	if t.Device != "" {
		tab.AddNote("This lab times each launch by its own events, so its %s column holds a launch overhead for each launch of a two-pass sum; the prediction beside it models that (launches timed apart).", t.Device)
	}
	tp, okTP := t.row(TwoPass)
	tree, okTree := t.row(TreeAtomic)
	if okTP && okTree && tp.H200 > 0 && tree.H200 > 0 {
		if tp.H200 < tree.H200 {
			tab.AddNote("On the H200 the two-pass sum was faster than the atomic tree (%.4f against %.4f ms): it writes one partial per block where the tree sends one atomic per block to a single address.", tp.H200, tree.H200)
		} else {
			tab.AddNote("On the H200 the two-pass sum was slower than the atomic tree (%.4f against %.4f ms).", tp.H200, tree.H200)
		}
		if (tp.Predicted < tree.Predicted) == (tp.H200 < tree.H200) {
			tab.AddNote("The model ranks the two the same way.")
		} else {
			tab.AddNote("The model ranks them the other way (%.4f against %.4f ms): it prices the second pass, one block looping over the partials, as dependent memory round trips, which the hardware overlaps.", tp.Predicted, tree.Predicted)
		}
	}
	return tab
}

// row returns the row of method m.
func (t *PredictTable) row(m Method) (PredictRow, bool) {
	for _, r := range t.Rows {
		if r.Method == m {
			return r, true
		}
	}
	return PredictRow{}, false
}
