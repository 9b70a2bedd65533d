package cas

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of ContentionOptions.
const (
	DefaultN    = 1 << 18
	DefaultSeed = 1
)

// DefaultContenders returns the threads per address the contention
// experiment tries by default: the H200 rows' counts up to 65,536.
func DefaultContenders() []int { return []int{1, 32, 256, 4096, 65536} }

// Launch counts on a GPU.
const (
	gpuWarmUps = 2
	gpuRuns    = 7
)

// ContentionOptions configure Contention; the zero value runs the
// defaults.
type ContentionOptions struct {
	// N is the threads, each folding one value.
	N int
	// Contenders are the threads per address, each from 1 to N.
	Contenders []int
	// Seed draws the values.
	Seed uint64
	// Progress reports launches; nil means none.
	Progress labs.Progress
}

func (o *ContentionOptions) resolve() error {
	if o.N == 0 {
		o.N = DefaultN
	}
	if len(o.Contenders) == 0 {
		o.Contenders = DefaultContenders()
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.N < 1 || o.N > maxN {
		return fmt.Errorf("cas: N %d: want 1 to %d threads", o.N, maxN)
	}
	for _, c := range o.Contenders {
		if c < 1 || c > o.N {
			return fmt.Errorf("cas: %d contenders: want 1 to N = %d", c, o.N)
		}
	}
	return nil
}

// ContentionRow is one kernel at one number of contenders per address.
type ContentionRow struct {
	Kernel     Kernel `json:"kernel"`
	Contenders int    `json:"contenders"`
	Groups     int    `json:"groups"`
	// Ms is the time: modelled, or the mean of the timed launches.
	Ms float64 `json:"ms"`
	// CASFailures are the failed compare-and-swaps, the CAS loop's
	// retries, and GlobalAtomics the atomics issued to the L2 (simulator
	// only).
	CASFailures   int64 `json:"cas_failures"`
	GlobalAtomics int64 `json:"global_atomics"`
	// Wrong is the groups whose maximum is wrong.
	Wrong int `json:"wrong"`
	// PredictedMs is the simulator's time for the same launches on the
	// profile that predicts the GPU; set on a GPU only.
	PredictedMs float64 `json:"predicted_ms,omitempty"`
	// H200Ms and H200Retries are the H200's time and retries per thread
	// at H200Threads threads (retries for MaxCAS only); 0 where not
	// measured.
	H200Ms      float64 `json:"h200_ms,omitempty"`
	H200Retries float64 `json:"h200_retries_per_thread,omitempty"`
	// timing is the row's timing source.
	timing string
}

// ContentionTable is the contention experiment's result.
type ContentionTable struct {
	N      int    `json:"n"`
	Device string `json:"device"`
	Timing string `json:"timing"`
	// Predicted is the timing source of PredictedMs; empty off a GPU.
	Predicted string          `json:"predicted,omitempty"`
	Rows      []ContentionRow `json:"rows"`
}

// Row returns kernel k's row at c contenders.
func (t *ContentionTable) Row(k Kernel, c int) (ContentionRow, bool) {
	for _, r := range t.Rows {
		if r.Kernel == k && r.Contenders == c {
			return r, true
		}
	}
	return ContentionRow{}, false
}

// contentionKernels are the kernels the H200 timed.
func contentionKernels() []Kernel { return []Kernel{MaxCAS, MaxIntTrick, MaxSignAware} }

// Contention times the CAS loop and the two integer tricks against the
// threads contending per address, counts the CAS loop's retries, checks
// every maximum, and puts the H200's row beside each.
func Contention(dev *gpu.Device, o ContentionOptions) (*ContentionTable, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	warm, runs := 0, 1
	if dev.Capabilities().MeasuredTiming {
		warm, runs = gpuWarmUps, gpuRuns
	}
	t := &ContentionTable{N: o.N, Device: dev.Info().Name}
	rows, err := runContention(r, o, warm, runs)
	if err != nil {
		return nil, err
	}
	// On a GPU, the simulator predicts the same launches and counts the
	// retries.
	if dev.Capabilities().MeasuredTiming {
		if spec := labkit.PredictionSpec(dev.Info()); !spec.IsAuto() {
			sim, err := gpu.OpenSpec(spec)
			if err != nil {
				return nil, fmt.Errorf("cas: opening the predicting simulator %s: %v", spec, err)
			}
			defer sim.Close()
			pr, err := labkit.NewRunner(sim)
			if err != nil {
				return nil, err
			}
			pred, err := runContention(pr, o, 0, 1)
			if err != nil {
				return nil, err
			}
			for i := range rows {
				rows[i].PredictedMs = pred[i].Ms
				rows[i].CASFailures, rows[i].GlobalAtomics = pred[i].CASFailures, pred[i].GlobalAtomics
				t.Predicted = pred[i].timing
			}
		}
	}
	for _, row := range rows {
		t.Timing = row.timing
	}
	t.Rows = rows
	return t, nil
}

// runContention runs the contention cells on r.
func runContention(r *labkit.Runner, o ContentionOptions, warm, runs int) ([]ContentionRow, error) {
	v := Values(o.N, o.Seed)
	type out struct {
		m   []float32
		res []*gpu.Result
	}
	var rows []ContentionRow
	var outs []*out
	var jobs []labkit.Job
	for _, c := range o.Contenders {
		for _, k := range contentionKernels() {
			rows = append(rows, ContentionRow{Kernel: k, Contenders: c, Groups: (o.N + c - 1) / c})
			res := &out{}
			outs = append(outs, res)
			jobs = append(jobs, labkit.Job{Launches: warm + runs, Detail: fmt.Sprintf("%s C=%d", k, c), Do: func(s *labkit.Session) error {
				var err error
				res.m, res.res, err = launchMax(s, k, v, c, warm+runs)
				return err
			}})
		}
	}
	if err := r.Run(jobs, labkit.OrDefault(o.Progress, "cas contention")); err != nil {
		return nil, err
	}
	for i := range rows {
		row, res := &rows[i], outs[i]
		var total float64
		for _, x := range res.res[warm:] {
			total += x.Timing.Ms
		}
		row.Ms = total / float64(runs)
		last := res.res[len(res.res)-1]
		row.timing = last.Timing.Source
		if c := last.Counters; c != nil {
			row.CASFailures, row.GlobalAtomics = c.CASFailures, c.GlobalAtomicIssued
		}
		want := Maxima(v, row.Contenders)
		for g := range want {
			if !same(res.m[g], want[g]) {
				row.Wrong++
			}
		}
		if h, ok := H200(row.Kernel, row.Contenders); ok {
			row.H200Ms = h.Ms
		}
		if row.Kernel == MaxCAS {
			if h, ok := H200(casCount, row.Contenders); ok {
				row.H200Retries = float64(h.Retries) / H200Threads
			}
		}
	}
	return rows, nil
}

// modelNote says where the model's times are more than 30% off the
// H200's, from the rows when they ran at the H200's size, and where to
// look otherwise.
func (t *ContentionTable) modelNote() string {
	if t.N != H200Threads {
		return fmt.Sprintf("The model is least sure of the CAS loop, whose time follows how many of its compares fail (compare the retries columns); at %d threads (--set n=%d) this table sets every modelled time beside the H200's at the same size, and warplab fidelity's cas cells give the ratios.", H200Threads, H200Threads)
	}
	var off []string
	for _, r := range t.Rows {
		model := r.Ms
		if t.Predicted != "" {
			model = r.PredictedMs
		}
		if r.H200Ms <= 0 || model <= 0 {
			continue
		}
		if q := model / r.H200Ms; q < 1/1.3 || q > 1.3 {
			off = append(off, fmt.Sprintf("%s at %d (%.2fx)", r.Kernel, r.Contenders, q))
		}
	}
	if len(off) == 0 {
		return "Every modelled time is within 30% of the H200's."
	}
	return fmt.Sprintf("Modelled times more than 30%% off the H200's (model / H200): %s. The CAS loop's error follows its retries: compare the two retries columns.", strings.Join(off, ", "))
}

// Table renders the contention experiment.
func (t *ContentionTable) Table() *charts.Table {
	tb := charts.NewTable(fmt.Sprintf("Float maximum under contention: %d threads", t.N),
		charts.Column{Header: "contenders per address"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "time", Unit: "ms"}, charts.Column{Header: "CAS retries per thread"},
		charts.Column{Header: "global atomics"}, charts.Column{Header: "wrong groups"},
		charts.Column{Header: "H200", Unit: "ms"}, charts.Column{Header: "H200 retries per thread"})
	tb.Caption = fmt.Sprintf("%s; the H200 columns are %s", t.Timing, H200Source)
	if t.Predicted != "" {
		tb.Columns = append(tb.Columns, charts.Column{Header: "predicted", Unit: "ms"}, charts.Column{Header: "predicted / measured"})
		tb.AddNote("Predicted: %s, the same launches; its counters fill the retries and atomics columns.", t.Predicted)
	}
	for _, r := range t.Rows {
		ms := charts.Float(r.Ms, 4)
		if best, ok := t.fastest(r.Contenders); ok && best == r.Kernel {
			ms = ms.Highlighted()
		}
		wrong := charts.Int(int64(r.Wrong))
		if r.Wrong > 0 {
			wrong = wrong.Highlighted()
		}
		h, hr := charts.Text("-"), charts.Text("-")
		if r.H200Ms > 0 {
			h = charts.Float(r.H200Ms, 4)
		}
		if r.Kernel == MaxCAS && r.H200Ms > 0 {
			hr = charts.Float(r.H200Retries, 3)
		}
		cells := []charts.Cell{charts.Int(int64(r.Contenders)), charts.Text(r.Kernel.Title()), ms, charts.Float(float64(r.CASFailures)/float64(t.N), 3),
			charts.Int(r.GlobalAtomics), wrong, h, hr}
		if t.Predicted != "" {
			q := charts.Text("-")
			if r.Ms > 0 {
				q = charts.Float(r.PredictedMs/r.Ms, 2)
			}
			cells = append(cells, charts.Float(r.PredictedMs, 4), q)
		}
		tb.AddRow(cells...)
	}
	tb.AddNote("Highlighted time: the fastest kernel at each contention among those with no wrong group. CAS retries are the atomicCAS calls whose compare failed (the simulator's counter; 0 on a GPU, where the H200 column counted them in the kernel).")
	tb.AddNote("%s", t.modelNote())
	if c, ok := t.casBeatsAtomicMax(); ok {
		tb.AddNote("At %d contenders per address the H200 ran the CAS loop %.1fx faster than the hardware atomicMax: a thread that reads a value already larger leaves without any atomic, while every atomicMax queues at the address. Here the model gives %.2fx.", c.contenders, c.h200, c.here)
	}
	tb.AddNote("The H200 ran 4,194,304 threads, so at the same contention it had %d times the groups of this run.", max(1, H200Threads/max(1, t.N)))
	return tb
}

// fastest returns the fastest kernel at c contenders per address among
// those whose every maximum was right: a wrong kernel is never the one to
// copy, however quick.
func (t *ContentionTable) fastest(c int) (Kernel, bool) {
	var best ContentionRow
	for _, r := range t.Rows {
		if r.Contenders == c && r.Wrong == 0 && (best.Kernel == "" || r.Ms < best.Ms) {
			best = r
		}
	}
	return best.Kernel, best.Kernel != ""
}

// Chart returns the time of each kernel against the contenders per
// address, with the H200's.
func (t *ContentionTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Float maximum: time vs contenders per address",
		Subtitle: fmt.Sprintf("%s, %d threads; H200 at 4,194,304", t.Timing, t.N),
		X:        charts.Axis{Title: "threads per address", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for _, k := range contentionKernels() {
		var here, h200 charts.XYs
		zero := false
		for _, r := range t.Rows {
			if r.Kernel != k {
				continue
			}
			here = append(here, charts.XY{X: float64(r.Contenders), Y: r.Ms})
			zero = zero || r.Ms <= 0
			if r.H200Ms > 0 {
				h200 = append(h200, charts.XY{X: float64(r.Contenders), Y: r.H200Ms})
			}
		}
		// The table's names, so that a line and its rows read alike.
		if len(here) > 0 && !zero {
			c.AddLine(k.Title(), here)
		}
		if len(h200) > 0 {
			c.AddLine(k.Title()+" (H200)", h200)
		}
	}
	return c
}

// crossing is the CAS loop's speed-up over the hardware atomicMax at one
// contention, here and on the H200.
type crossing struct {
	contenders int
	here, h200 float64
}

// casBeatsAtomicMax returns the largest contention of the table at which
// the H200 ran the CAS loop faster than maxIntTrick.
func (t *ContentionTable) casBeatsAtomicMax() (crossing, bool) {
	var best crossing
	for _, r := range t.Rows {
		if r.Kernel != MaxCAS || r.H200Ms <= 0 || r.Ms <= 0 {
			continue
		}
		a, ok := t.Row(MaxIntTrick, r.Contenders)
		if !ok || a.H200Ms <= r.H200Ms || r.Contenders < best.contenders {
			continue
		}
		best = crossing{contenders: r.Contenders, here: a.Ms / r.Ms, h200: a.H200Ms / r.H200Ms}
	}
	return best, best.contenders > 0
}
