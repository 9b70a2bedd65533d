package queue

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

// h200CSV is a verbatim copy of the H200's queue.csv from
// calibration/evidence/2026-11-30-h200-microbench-gated3 (a test keeps the two
// the same): 4,194,304 items, 1056 blocks of 256 threads (8 per SM), each
// cell the median of 7 launches after 2 warm-ups, timed gated as the lab
// times its own (the round-2 run's ungated figures are within 1% but at
// k >= 1024, where the launches spread).
//
//go:embed h200/queue.csv
var h200CSV string

// H200Evidence names where the committed measurements come from.
const H200Evidence = "calibration/evidence/2026-11-30-h200-microbench-gated3/csv/queue.csv"

// h200LabCSV is a verbatim copy of H200LabEvidence: the lab's own kernels
// (kernels/queue.cu, whose runtime item costs nvcc cannot specialise as it
// does queue.cu's) built by nvcc, whose machine code is NVRTC's
// instruction for instruction, timed as the lab times them on a GPU:
// gated (cudarun's timing=gated, the default; the microbenchmarks'
// EvTimer), the head and the output reset before each launch by a copy
// from host zeros, as gpu.Buffer.Zero does. Ungated, the same launches
// took 5 to 20 us longer through warplab than through nvcc's harness:
// the host's submission of the launch, timed by an idle GPU
// (calibration/evidence/2026-11-30-h200-queue-timing-gated/README.md).
//
//go:embed h200/queue_lab.csv
var h200LabCSV string

// H200LabEvidence names where the lab's own kernels were measured.
const H200LabEvidence = "calibration/evidence/2026-11-30-h200-queue-timing-gated/nvcc-queue_lab-gate1-copy.csv"

const (
	h200Items  = 1 << 22
	h200Blocks = 1056
)

// Measurement is one row of the H200's queue.csv.
type Measurement struct {
	Costs    Costs   `json:"costs"`
	Pop      Pop     `json:"pop"`
	K        int     `json:"k"`
	MedianMs float64 `json:"median_ms"`
	// MinMs and MaxMs are the fastest and slowest of the timed launches.
	MinMs float64 `json:"min_ms"`
	MaxMs float64 `json:"max_ms"`
}

// H200Measurements returns the committed H200 rows of queue.csv.
func H200Measurements() ([]Measurement, error) { return parseH200(h200CSV, H200Evidence) }

// H200LabMeasurements returns the committed H200 rows of the lab's own
// kernels (H200LabEvidence).
func H200LabMeasurements() ([]Measurement, error) { return parseH200(h200LabCSV, H200LabEvidence) }

func parseH200(text, evidence string) ([]Measurement, error) {
	var ms []Measurement
	err := labkit.ReadEvidence("queue", evidence, text, "costs,", 13, func(f []string) error {
		m := Measurement{Costs: Even()}
		if f[0] == "uneven" {
			m.Costs = Uneven()
		}
		var err error
		if m.Pop, err = ParsePop(f[1]); err != nil {
			return err
		}
		if m.K, err = strconv.Atoi(f[2]); err != nil {
			return fmt.Errorf("k: %v", err)
		}
		for i, v := range []*float64{&m.MedianMs, &m.MinMs, &m.MaxMs} {
			col := []int{7, 9, 10}[i]
			if *v, err = strconv.ParseFloat(f[col], 64); err != nil {
				return fmt.Errorf("%s: %v", []string{"median_ms", "min_ms", "max_ms"}[i], err)
			}
		}
		if f[12] != "PASS" {
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

// H200Measured returns the H200's median for one cell of queue.csv.
func H200Measured(c Costs, p Pop, k int) (Measurement, bool) {
	return find(H200Measurements, c, p, k)
}

// H200LabMeasured returns the H200's median for one cell of the lab's own
// kernels (k = 1, 4, 8, 64 and 1024).
func H200LabMeasured(c Costs, p Pop, k int) (Measurement, bool) {
	return find(H200LabMeasurements, c, p, k)
}

func find(rows func() ([]Measurement, error), c Costs, p Pop, k int) (Measurement, bool) {
	ms, err := rows()
	if err != nil {
		return Measurement{}, false
	}
	for _, m := range ms {
		if m.Costs == c && m.Pop == p && m.K == k {
			return m, true
		}
	}
	return Measurement{}, false
}

// H200Set names a set of the H200's cells to predict.
type H200Set string

const (
	// EvenSet: even costs, per thread, k = 1, 8 and 1024: the fall and
	// the rise.
	EvenSet H200Set = "even"
	// AllSet: EvenSet and uneven costs at k = 1, 64 and 1024 (slow on the
	// simulator: about 10 s of CPU a cell).
	AllSet H200Set = "all"
	// NoH200 predicts nothing.
	NoH200 H200Set = "none"
)

func (s H200Set) cells() ([]cell, error) {
	type ck struct {
		c Costs
		k int
	}
	var list []ck
	switch s {
	case EvenSet, "":
		list = []ck{{Even(), 1}, {Even(), 8}, {Even(), 1024}}
	case AllSet:
		list = []ck{{Even(), 1}, {Even(), 8}, {Even(), 1024}, {Uneven(), 1}, {Uneven(), 64}, {Uneven(), 1024}}
	case NoH200:
		return nil, nil
	default:
		return nil, fmt.Errorf("queue: H200 set %q: want %s, %s or %s", s, EvenSet, AllSet, NoH200)
	}
	var cs []cell
	for _, x := range list {
		cs = append(cs, cell{pop: PerThread, k: x.k, costs: x.c, items: h200Items, blocks: h200Blocks, block: DefaultBlockSize, runs: 1})
	}
	return cs, nil
}

// FidelityTable sets the H200's committed measurements beside the
// simulator's prediction for the same kernels at the same size.
type FidelityTable struct {
	Spec string        `json:"spec"`
	Rows []FidelityRow `json:"rows"`
}

// FidelityRow is one cell.
type FidelityRow struct {
	Costs       Costs   `json:"costs"`
	K           int     `json:"k"`
	MeasuredMs  float64 `json:"measured_ms"`
	PredictedMs float64 `json:"predicted_ms"`
	Issued      int64   `json:"issued"`
	LaneAtomics int64   `json:"lane_atomics"`
}

// Ratio is predicted over measured.
func (r FidelityRow) Ratio() float64 { return r.PredictedMs / r.MeasuredMs }

// Within30 reports whether the prediction is within ±30%.
func (r FidelityRow) Within30() bool { return labkit.Within30(r.Ratio()) }

// Fidelity runs the simulator (spec, "" for sim:h200) on the cells of
// set at the H200's size and grid, beside the committed medians.
func Fidelity(spec string, set H200Set, progress labs.Progress) (*FidelityTable, error) {
	cs, err := set.cells()
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	if spec == "" {
		spec = "sim:h200"
	}
	dev, err := labkit.OpenModel("queue", spec)
	if err != nil {
		return nil, err
	}
	defer dev.Close()
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(progress, "queue, H200 cells"))
	if err != nil {
		return nil, err
	}
	t := &FidelityTable{Spec: dev.Info().Spec}
	for i, c := range cs {
		m, ok := H200LabMeasured(c.costs, c.pop, c.k)
		if !ok {
			return nil, fmt.Errorf("queue: no H200 row for %s", c.detail())
		}
		if outs[i].problem != "" {
			return nil, fmt.Errorf("queue: %s on %s: %s", c.detail(), spec, outs[i].problem)
		}
		fr := FidelityRow{Costs: c.costs, K: c.k, MeasuredMs: m.MedianMs, PredictedMs: outs[i].timing.Ms}
		if k := outs[i].counters; k != nil {
			fr.Issued, fr.LaneAtomics = k.GlobalAtomicIssued, k.GlobalAtomicOps
		}
		t.Rows = append(t.Rows, fr)
	}
	return t, nil
}

// Table returns measured and predicted side by side.
func (t *FidelityTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable("The H200's measurements beside the simulator's prediction: 4,194,304 items, 1056 blocks of 256",
		charts.Column{Header: "costs"}, charts.Column{Header: "k"},
		charts.Column{Header: "lane atomicAdds (simulator)"}, charts.Column{Header: "atomics to the L2 (simulator)"},
		charts.Column{Header: "measured, H200", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"})
	tab.Caption = fmt.Sprintf("measured: NVIDIA H200, this lab's kernels built by nvcc, per-thread pops, the median of 7 launches after 2 warm-ups; predicted: modelled, %s", t.Spec)
	var misses []string
	startOrder := false
	for _, r := range t.Rows {
		ratio := labkit.RatioCell(r.Ratio())
		if !r.Within30() {
			misses = append(misses, fmt.Sprintf("%s k=%d (%.2fx)", r.Costs, r.K, r.Ratio()))
		}
		startOrder = startOrder || r.K*DefaultBlockSize >= h200Items/h200Blocks
		tab.AddRow(charts.Text(r.Costs.String()), charts.Int(int64(r.K)), charts.Int(r.LaneAtomics), charts.Int(r.Issued),
			charts.Float(r.MeasuredMs, 4), charts.Float(r.PredictedMs, 4), ratio)
	}
	tab.AddNote("* a prediction more than 30%% off the measurement.")
	if len(misses) > 0 {
		tab.AddNote("The model misses %s; the shape (the k at which the time turns back up) is what to read here.", strings.Join(misses, "; "))
	}
	if startOrder {
		tab.AddNote("Where a thread's share is a single batch or less, a few warps win all the batches and the time is the batches on the busiest SM (33.5 us each at k = 1,024 on the H200). " +
			"Which SMs win is settled at the launch's start, by which SMs start first: on the H200 the busiest SM won 12 to 23 of the 128 batches at k = 1,024 from launch to launch. " +
			"The simulator models the SMs' staggered start, so its time at that k depends on the same thing.")
	}
	for _, n := range missNotes() {
		tab.AddNote("%s", n)
	}
	return tab
}
