package fidelity

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/warplab/warplab/gpu"
)

// Role says what a measured cell is for: fitting a profile parameter, or
// checking the model on a kernel nothing was fitted to.
type Role string

const (
	// Calibration cells were used to fit a parameter (Bench.Fits names it);
	// the model matching them shows only that the fit holds.
	Calibration Role = "calibration"
	// Validation cells were never used to fit anything: they are the
	// evidence of how the model does out of sample.
	Validation Role = "validation"
)

// GeoMeanTarget is the largest geometric-mean error (exp of the mean
// |log(predicted/measured)|) the round-2 cells may have.
const GeoMeanTarget = 1.15

// BenchRun is the ungated round-2 run of the microbenchmarks, the run a
// cell comes from unless Bench.Run names another; no scored cell does
// now. GatedRun re-measured the access patterns, counters, histogram
// shapes, the histogram walk against the L1's share (l1reuse) and the CAS
// loops gated, and Gated3Run the work queue and the reproducible sums, as
// cudarun and the labs time a launch (the start event and the launch
// queued behind a gate kernel the host releases once the stop event is
// queued), so that a cell of tens of microseconds holds the GPU's time
// alone and not the host's submission of the launch.
const (
	BenchRun  = "calibration/evidence/2026-11-30-h200-microbenchmarks-round2"
	GatedRun  = "calibration/evidence/2026-11-30-h200-microbenchmarks-gated2"
	Gated3Run = "calibration/evidence/2026-11-30-h200-microbench-gated3"
)

// Bench is one measured microbenchmark cell: a kernel launched as the H200
// ran it, and the median time of the CSV row that measured it.
type Bench struct {
	// Group names cells that are ranked against each other ("which is
	// faster"): "transpose n=4096".
	Group string `json:"group"`
	Name  string `json:"name"`
	// Run is the evidence folder of the measurement ("": BenchRun).
	Run string `json:"run,omitempty"`
	// CSV and Row find the measurement: the file under Run/csv and the
	// row's leading fields, comma-separated.
	CSV string  `json:"csv"`
	Row string  `json:"row"`
	Ms  float64 `json:"measured_ms"`
	// Col is the 0-based column of Ms in the row.
	Col  int    `json:"-"`
	Role Role   `json:"role"`
	Fits string `json:"fits,omitempty"`
	run  func(*benchEnv) (gpu.Timing, error)
}

// Dir is the evidence folder of the cell's measurement.
func (b *Bench) Dir() string {
	if b.Run == "" {
		return BenchRun
	}
	return b.Run
}

// BenchResult is one cell, predicted and measured.
type BenchResult struct {
	Bench
	Predicted float64 `json:"predicted_ms"`
	Ratio     float64 `json:"ratio"`
	OK        bool    `json:"ok"`
	Binding   string  `json:"binding"`
}

// Order is one pair of a group whose measured times differ by more than
// the tie tolerance: the model must order them the same way.
type Order struct {
	Group  string `json:"group"`
	Faster string `json:"faster"`
	Slower string `json:"slower"`
	OK     bool   `json:"ok"`
	// Validation: neither cell fitted anything.
	Validation bool `json:"validation"`
}

// BenchReport is the round-2 microbenchmarks' fidelity on a profile.
type BenchReport struct {
	Profile string        `json:"profile"`
	Source  string        `json:"source"`
	Cells   []BenchResult `json:"cells"`
	Orders  []Order       `json:"orders"`
	// GeoMean is the geometric-mean error of the validation and of the
	// calibration cells.
	GeoMean map[Role]float64 `json:"geomean_error"`
}

// OrderTolerance: two cells of a group whose measured times are closer
// than this are tied, and the model may order them either way.
const OrderTolerance = 0.10

// BenchOptions select what RunBenches does.
type BenchOptions struct {
	// Groups, if set, runs only the cells whose group contains one of
	// these strings ("queue", "transpose").
	Groups []string
	// Tolerance is the relative error a modelled time may have (0: the
	// package's Tolerance).
	Tolerance float64
	// Progress, if set, is called as cells finish.
	Progress func(done, total int, what string)
}

// benchSpec is the device every round-2 cell runs on: the H200 profile at
// the simulator's first seed, no wall-clock limit (timeout=0: the large
// cells run for minutes on a busy machine, and each has an instruction
// budget).
const benchSpec = "sim:h200?seed=1&racecheck=false&timeout=0"

// RunBenches runs the round-2 microbenchmark cells on the simulator's
// H200 profile. Each cell runs on a device of its own, opened at the same
// seed, so that its figure is the same whichever cells run before it (a
// shared device would give the k-th launch seed 1+k and keep the L2's
// lines from the cells before): a cell run alone (Groups) equals the same
// cell in the full run.
func RunBenches(opts BenchOptions) (*BenchReport, error) {
	var cells []Bench
	for _, b := range Benches() {
		keep := len(opts.Groups) == 0
		for _, g := range opts.Groups {
			keep = keep || strings.Contains(b.Group, g)
		}
		if keep {
			cells = append(cells, b)
		}
	}
	return runBenches(cells, opts)
}

// runBenches runs cells, each on a fresh device, and reports them.
func runBenches(cells []Bench, opts BenchOptions) (*BenchReport, error) {
	progress := opts.Progress
	tol := opts.Tolerance
	if tol == 0 {
		tol = Tolerance
	}
	r := &BenchReport{Profile: "h200", Source: GatedRun + " and " + Gated3Run + " (queue, reproducible sums), timed gated", GeoMean: map[Role]float64{}}
	for i, b := range cells {
		t, err := runBench(b)
		if err != nil {
			return nil, fmt.Errorf("fidelity: %s %s: %w", b.Group, b.Name, err)
		}
		br := BenchResult{Bench: b, Predicted: t.Ms, Ratio: t.Ms / b.Ms, OK: within(t.Ms, b.Ms, tol), Binding: t.Breakdown[0].Resource}
		r.Cells = append(r.Cells, br)
		if progress != nil {
			progress(i+1, len(cells), b.Group+" "+b.Name)
		}
	}
	r.order()
	for _, role := range []Role{Validation, Calibration} {
		sum, n := 0.0, 0
		for _, c := range r.Cells {
			if c.Role == role {
				sum += math.Abs(math.Log(c.Ratio))
				n++
			}
		}
		if n > 0 {
			r.GeoMean[role] = math.Exp(sum / float64(n))
		}
	}
	return r, nil
}

// runBench runs one cell on a fresh device (benchSpec).
func runBench(b Bench) (gpu.Timing, error) {
	env, err := newBenchEnv(benchSpec)
	if err != nil {
		return gpu.Timing{}, err
	}
	defer env.close()
	return b.run(env)
}

func (r *BenchReport) order() {
	groups := map[string][]BenchResult{}
	var names []string
	for _, c := range r.Cells {
		if _, ok := groups[c.Group]; !ok {
			names = append(names, c.Group)
		}
		groups[c.Group] = append(groups[c.Group], c)
	}
	for _, g := range names {
		cs := groups[g]
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Ms < cs[j].Ms })
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				if cs[j].Ms < cs[i].Ms*(1+OrderTolerance) {
					continue
				}
				r.Orders = append(r.Orders, Order{Group: g, Faster: cs[i].Name, Slower: cs[j].Name,
					OK: cs[i].Predicted < cs[j].Predicted, Validation: cs[i].Role == Validation && cs[j].Role == Validation})
			}
		}
	}
}

// Misses lists every target the report misses, each prefixed with
// "validation: " or "calibration: " as Report.Misses does: cells outside
// the tolerance, wrong orders, and a geometric-mean error over the target.
func (r *BenchReport) Misses() []string {
	var m []string
	for _, c := range r.Cells {
		if !c.OK {
			m = append(m, fmt.Sprintf("%s: %s %s: predicted %.4f ms, measured %.4f ms (ratio %.2f)", c.Role, c.Group, c.Name, c.Predicted, c.Ms, c.Ratio))
		}
	}
	for _, o := range r.Orders {
		if !o.OK {
			role := Calibration
			if o.Validation {
				role = Validation
			}
			m = append(m, fmt.Sprintf("%s: %s: measured %s faster than %s, predicted the other way", role, o.Group, o.Faster, o.Slower))
		}
	}
	for _, role := range []Role{Validation, Calibration} {
		if g, ok := r.GeoMean[role]; ok && g > GeoMeanTarget {
			m = append(m, fmt.Sprintf("%s: geometric-mean error %.3f, target %.2f", role, g, GeoMeanTarget))
		}
	}
	return m
}

// Failures returns the misses that fail the check: the validation ones, and
// with strict the calibration ones too.
func (r *BenchReport) Failures(strict bool) []string {
	var out []string
	for _, m := range r.Misses() {
		if strict || strings.HasPrefix(m, string(Validation)+": ") {
			out = append(out, m)
		}
	}
	return out
}

// Summary is one line per role: how many cells, how many within
// tolerance, the geometric-mean error.
func (r *BenchReport) Summary() []string {
	var out []string
	for _, role := range []Role{Validation, Calibration} {
		n, ok := 0, 0
		for _, c := range r.Cells {
			if c.Role == role {
				n++
				if c.OK {
					ok++
				}
			}
		}
		out = append(out, fmt.Sprintf("%s: %d of %d cells within ±%.0f%%, geometric-mean error %.3f", role, ok, n, Tolerance*100, r.GeoMean[role]))
	}
	bad := 0
	for _, o := range r.Orders {
		if !o.OK {
			bad++
		}
	}
	out = append(out, fmt.Sprintf("orders: %d of %d right", len(r.Orders)-bad, len(r.Orders)))
	return out
}

// WriteText renders the report as aligned text, validation cells first.
func (r *BenchReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Round-2 microbenchmarks — simulator profile %s\nmeasured: %s (NVIDIA H200, CUDA 13.0, median of the timed runs)\n", r.Profile, r.Source)
	for _, role := range []Role{Validation, Calibration} {
		fmt.Fprintf(w, "\n%s cells\n", role)
		fmt.Fprintf(w, "%-34s %-24s %12s %12s %7s  %-4s %s\n", "group", "cell", "predicted ms", "measured ms", "ratio", "ok", "bound by")
		fmt.Fprintf(w, "%s\n", strings.Repeat("-", 110))
		for _, c := range r.Cells {
			if c.Role != role {
				continue
			}
			fmt.Fprintf(w, "%-34s %-24s %12.4f %12.4f %7.2f  %-4s %s", c.Group, c.Name, c.Predicted, c.Ms, c.Ratio, okText(c.OK), c.Binding)
			if c.Fits != "" {
				fmt.Fprintf(w, " (fits %s)", c.Fits)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "\nwhich is faster (pairs of a group more than %.0f%% apart)\n", OrderTolerance*100)
	for _, o := range r.Orders {
		if !o.OK {
			fmt.Fprintf(w, "  %-34s measured %s faster than %s: predicted the other way\n", o.Group, o.Faster, o.Slower)
		}
	}
	for _, s := range r.Summary() {
		fmt.Fprintf(w, "  %s\n", s)
	}
	if m := r.Misses(); len(m) > 0 {
		fmt.Fprintf(w, "\n%d targets missed\n", len(m))
	} else {
		fmt.Fprintf(w, "\nevery target met (±%.0f%%, orders, geometric-mean error under %.2f)\n", Tolerance*100, GeoMeanTarget)
	}
}

// WriteMarkdown renders the report as Markdown tables, validation first.
func (r *BenchReport) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "#### Round-2 microbenchmarks, simulator profile `%s`\n\nMeasured: `%s` (NVIDIA H200, CUDA 13.0, median of the timed runs).\n", r.Profile, r.Source)
	for _, role := range []Role{Validation, Calibration} {
		fmt.Fprintf(w, "\n%s cells:\n\n| group | cell | predicted ms | measured ms | ratio | ok | bound by |\n| --- | --- | ---: | ---: | ---: | --- | --- |\n", strings.ToUpper(string(role[:1]))+string(role[1:]))
		for _, c := range r.Cells {
			if c.Role != role {
				continue
			}
			bound := c.Binding
			if c.Fits != "" {
				bound += " (fits " + c.Fits + ")"
			}
			fmt.Fprintf(w, "| %s | %s | %.4f | %.4f | %.2f | %s | %s |\n", c.Group, c.Name, c.Predicted, c.Ms, c.Ratio, okText(c.OK), bound)
		}
	}
	fmt.Fprintln(w)
	for _, o := range r.Orders {
		if !o.OK {
			fmt.Fprintf(w, "- %s: measured %s faster than %s, predicted the other way\n", o.Group, o.Faster, o.Slower)
		}
	}
	for _, s := range r.Summary() {
		fmt.Fprintf(w, "- %s\n", s)
	}
}
