package reproducible

import (
	"fmt"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of SumOptions.
const (
	DefaultN    = 1 << 19
	DefaultRuns = 8
)

// SumOptions configure Sums; the zero value runs every method DefaultRuns
// times over DefaultN elements.
type SumOptions struct {
	// N is the elements summed.
	N int
	// Runs are the sums per method, each into fresh outputs and, on the
	// simulator, under its own scheduler seed.
	Runs int
	// Methods are the sums; nil means Methods().
	Methods []Method
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

func (o *SumOptions) resolve() error {
	if o.N == 0 {
		o.N = DefaultN
	}
	if o.Runs == 0 {
		o.Runs = DefaultRuns
	}
	if len(o.Methods) == 0 {
		o.Methods = Methods()
	}
	switch {
	case o.N < 1 || o.N > maxN:
		return fmt.Errorf("reproducible: N %d: want 1 to %d elements", o.N, maxN)
	case o.Runs < 1 || o.Runs > maxRuns:
		return fmt.Errorf("reproducible: Runs %d: want 1 to %d", o.Runs, maxRuns)
	}
	for _, m := range o.Methods {
		if _, err := ParseMethod(string(m)); err != nil {
			return err
		}
	}
	return nil
}

// SumTable is the result of Sums.
type SumTable struct {
	Device   string   `json:"device"`
	Spec     string   `json:"spec"`
	Measured bool     `json:"measured"`
	Timing   string   `json:"timing"`
	N        int      `json:"n"`
	Runs     int      `json:"runs"`
	Ref      float64  `json:"reference"`
	Rows     []SumRow `json:"rows"`
}

// SumRow is one method's runs.
type SumRow struct {
	Method Method `json:"method"`
	// Sums are the runs' totals in run order.
	Sums []float64 `json:"sums"`
	Spread
	// Ms is the median time of one sum: its launches, each timed alone,
	// added (both launches of a two-pass sum).
	Ms float64 `json:"ms"`
	// VsAtomicTree is Ms over the atomic tree's Ms, 0 without that row.
	VsAtomicTree float64 `json:"vs_atomic_tree,omitempty"`

	// launches are each run's launch times, in run order.
	launches [][]gpu.Timing
}

// Sums runs each method opts.Runs times over Input(opts.N) and reports,
// per method, how many distinct totals came out, their error against the
// double reference and the median time. On the simulator each run has
// its own scheduler seed, so the order in which atomics to one address
// land changes from run to run as it does on hardware; on a GPU the runs
// are consecutive launches.
func Sums(dev *gpu.Device, opts SumOptions) (*SumTable, error) {
	if err := opts.resolve(); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	n := opts.N
	host := Input(n)
	results := make([][]sum, len(opts.Methods))
	var jobs []labkit.Job
	for i, m := range opts.Methods {
		results[i] = make([]sum, opts.Runs)
		for run := range opts.Runs {
			jobs = append(jobs, labkit.Job{
				Launches: m.Launches(),
				Detail:   fmt.Sprintf("%s run %d", m, run+1),
				Do: func(s *labkit.Session) error {
					in, err := labkit.Cached(s, "input", func() (*gpu.Buffer[float32], error) { return gpu.Upload(s.Device, host) },
						(*gpu.Buffer[float32]).Free)
					if err != nil {
						return err
					}
					results[i][run], err = runSum(s, m, in, n)
					return err
				},
			})
		}
	}
	if err := r.Run(jobs, labkit.OrDefault(opts.Progress, "reproducible sums")); err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &SumTable{Device: info.Name, Spec: info.Spec, N: n, Runs: opts.Runs, Ref: labkit.KahanSum(host)}
	var treeMs float64
	for i, m := range opts.Methods {
		row := SumRow{Method: m}
		var ms []float64
		for _, s := range results[i] {
			row.Sums = append(row.Sums, s.value)
			ms = append(ms, s.ms)
			row.launches = append(row.launches, s.launches)
			t.Measured, t.Timing = s.measured, s.source
		}
		row.Spread = SpreadOf(row.Sums, t.Ref)
		row.Ms = gpu.Summarize(ms).Median
		if m == TreeAtomic {
			treeMs = row.Ms
		}
		t.Rows = append(t.Rows, row)
	}
	if treeMs > 0 {
		for i := range t.Rows {
			t.Rows[i].VsAtomicTree = t.Rows[i].Ms / treeMs
		}
	}
	return t, nil
}

// Row returns the row of method m.
func (t *SumTable) Row(m Method) (SumRow, bool) {
	for _, r := range t.Rows {
		if r.Method == m {
			return r, true
		}
	}
	return SumRow{}, false
}

// Table returns the sums' bits, errors and times.
func (t *SumTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable(fmt.Sprintf("One input, %d runs per sum: bits, error and time", t.Runs),
		charts.Column{Header: "sum"}, charts.Column{Header: "distinct"},
		charts.Column{Header: "min"}, charts.Column{Header: "max"},
		charts.Column{Header: "worst |sum - reference|"},
		charts.Column{Header: "ms (median)"}, charts.Column{Header: "vs atomic tree"})
	tab.Caption = fmt.Sprintf("%s (%s); n = %d, %d threads per block, input 1 + (i mod 1000)/1000; Kahan double reference %.4f; times %s",
		t.Device, t.Spec, t.N, Block, t.Ref, t.Timing)
	for _, r := range t.Rows {
		distinct := charts.Int(int64(r.Distinct))
		if r.Distinct > 1 {
			distinct = distinct.Highlighted()
		}
		vs := charts.Text("")
		if r.VsAtomicTree > 0 {
			vs = charts.Float(r.VsAtomicTree, 2)
		}
		tab.AddRow(charts.Text(r.Method.Title()), distinct,
			charts.Float(r.Min, 4), charts.Float(r.Max, 4), charts.Float(r.WorstError, 4),
			charts.Float(r.Ms, 4), vs)
	}
	tab.AddNote("* more than one distinct total: the same program gave different bits on the same data.")
	if t.Measured {
		tab.AddNote("Each run is one more launch on this GPU: the order of the atomics is whatever the hardware did.")
	} else {
		tab.AddNote("Each run has its own scheduler seed, which draws the order in which atomics to one address land.")
	}
	if _, ok := t.Row(AtomicGlobal); ok {
		tab.AddNote("The chart leaves out " + string(AtomicGlobal) + ", many times slower than every other sum: drawn beside them it would flatten the comparison the lesson is about.")
	}
	return tab
}

// Chart shows each method's median time as a bar.
func (t *SumTable) Chart() *charts.BarChart {
	if t == nil {
		return nil
	}
	c := &charts.BarChart{
		Title:    fmt.Sprintf("What a reproducible sum costs, n = %d", t.N),
		Subtitle: fmt.Sprintf("%s, median of %d runs; each bar's label says how many different totals its runs gave", t.Device, t.Runs),
		X:        charts.Axis{Title: "sum"},
		Y:        charts.Axis{Title: "median time", Unit: "ms"},
	}
	// The per-element atomic is many times slower than every other sum:
	// drawn beside them it would flatten the comparison the lesson is
	// about, the fixed-order sums against the atomic tree. Its time is
	// in the subtitle and the table.
	var ys charts.Values
	for _, r := range t.Rows {
		if r.Method == AtomicGlobal {
			c.Subtitle += fmt.Sprintf("; %s (%.3g ms) not drawn", r.Method, r.Ms)
			continue
		}
		totals := "totals"
		if r.Distinct == 1 {
			totals = "total"
		}
		c.Categories = append(c.Categories, fmt.Sprintf("%s (%d %s)", r.Method, r.Distinct, totals))
		ys = append(ys, r.Ms)
	}
	c.AddBars("median ms", ys)
	if r, ok := t.Row(TreeAtomic); ok && r.Ms > 0 {
		c.AddRefLine("the atomic tree", r.Ms)
	}
	return c
}
