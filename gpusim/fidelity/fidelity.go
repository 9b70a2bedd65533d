package fidelity

import (
	"embed"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/warplab/warplab/gpu"
	_ "github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/internal/coursekernels"
)

//go:embed kernels/*.cu
var kernelFS embed.FS

// Tolerance is how far a modelled time may be from the measured one: the
// hardware's own run-to-run and toolkit-to-toolkit spread (the Day 26 course
// page's T4 moved by up to 27% between CUDA 12.6 and 13.0). It bounds the
// ratio either way: ±30% is predicted/measured from 1/1.3 (0.77) to 1.3,
// the band the labs' GPU tests use (labtest.Tolerance), so that a model
// 30% too fast misses as surely as one 30% too slow.
const Tolerance = 0.30

// TieTolerance makes kernels whose measured times are this close to the
// fastest count as tied for fastest: closer than that, the measurement's
// own noise decides.
const TieTolerance = 0.05

// kernelNames maps a table's column to its kernel.
var kernelNames = map[string]string{
	"global": "sumGlobalAtomic", "shared": "sumSharedAtomic", "tree": "sumTreeAtomic", "shuffle": "sumShuffleAtomic",
}

// CellResult is one table cell, predicted and measured.
type CellResult struct {
	Kernel    string  `json:"kernel"`
	N         int     `json:"n"`
	Clock     string  `json:"clock"`
	Predicted float64 `json:"predicted_ms"`
	Measured  float64 `json:"measured_ms"`
	Ratio     float64 `json:"ratio"`
	OK        bool    `json:"ok"`
	Binding   string  `json:"binding"` // the resource that bound the modelled time
	// Runs holds each run's time, in the order of Report.Runs; 0 where a
	// run did not measure the cell. Measured is the mean of the others.
	Runs []float64 `json:"runs_ms"`
	// Spread is (max - min) / mean over the runs that measured the cell:
	// how far the measurements disagree; 0 for one run.
	Spread float64 `json:"spread"`
	// Fits names what the cell was used to fit (see Cell.Fits); a
	// validation cell fitted nothing.
	Fits       []string `json:"fits,omitempty"`
	Validation bool     `json:"validation"`
}

// Ranking is the fastest kernel at one size.
type Ranking struct {
	N         int      `json:"n"`
	Predicted string   `json:"predicted"`
	Measured  []string `json:"measured"` // the fastest, and any within TieTolerance of it
	OK        bool     `json:"ok"`
	// Validation: every cell at this size is a validation cell.
	Validation bool `json:"validation"`
}

// RatioCheck compares a ratio of two kernels' times.
type RatioCheck struct {
	Name      string  `json:"name"`
	Predicted float64 `json:"predicted"`
	Measured  float64 `json:"measured"`
	OK        bool    `json:"ok"`
	// Fits names what the measurements behind the ratio were used to fit;
	// Validation is true when they fitted nothing.
	Fits       []string `json:"fits,omitempty"`
	Validation bool     `json:"validation"`
}

// DeterminismResult is one kernel's spread of sums over seeds.
type DeterminismResult struct {
	Kernel   string  `json:"kernel"`
	Distinct int     `json:"distinct"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Spread   float64 `json:"spread"`
	// MeasuredDistinct and MeasuredSpread are the page's figures.
	MeasuredDistinct int     `json:"measured_distinct"`
	MeasuredSpread   float64 `json:"measured_spread"`
}

// Report is a fidelity run's results.
type Report struct {
	Profile     string              `json:"profile"`
	Table       string              `json:"table"`
	Source      string              `json:"source"`
	Runs        []string            `json:"runs"`      // the measurement runs of the table's cells
	Tolerance   float64             `json:"tolerance"` // the relative error a modelled time may have
	ClockNote   string              `json:"clock_note,omitempty"`
	Cells       []CellResult        `json:"cells"`
	Rankings    []Ranking           `json:"rankings"`
	Ratios      []RatioCheck        `json:"ratios"`
	Determinism []DeterminismResult `json:"determinism,omitempty"`
	// DeterminismChecks are the determinism targets, each with whether it holds.
	DeterminismChecks []Check `json:"determinism_checks,omitempty"`
	// DeterminismFits names what the measured determinism table fitted.
	DeterminismFits []string `json:"determinism_fits,omitempty"`
}

// Check is one named target.
type Check struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
}

// Options select what Run does.
type Options struct {
	// Determinism runs the determinism experiment (T4 only).
	Determinism bool
	// Softmax checks the atomics-vs-warp-shuffle course notes' ratio on
	// the Turing-class profile.
	Softmax bool
	// Tolerance is the relative error a modelled time or ratio may have;
	// zero means the package's Tolerance.
	Tolerance float64
	// Progress, if set, is called as cells finish.
	Progress func(done, total int, what string)
}

// Run runs the reference kernels of profile's table on the simulator.
func Run(profile string, opts Options) (*Report, error) {
	tab, ok := Reference(profile)
	if !ok {
		return nil, fmt.Errorf("fidelity: no reference table for profile %q (have t4, h200)", profile)
	}
	tol := opts.Tolerance
	if tol == 0 {
		tol = Tolerance
	}
	if tol < 0 || tol >= 1 {
		return nil, fmt.Errorf("fidelity: tolerance %g: want a fraction between 0 and 1", tol)
	}
	r := &Report{Profile: profile, Table: tab.Name, Source: tab.Source, Runs: tab.Runs, Tolerance: tol, ClockNote: tab.ClockNote}
	total := len(tab.Cells)
	if opts.Determinism {
		total += 3
	}
	if opts.Softmax {
		total += 2
	}
	done := 0
	step := func(what string) {
		done++
		if opts.Progress != nil {
			opts.Progress(done, total, what)
		}
	}
	runs := map[string]*sumRunner{}
	defer func() {
		for _, s := range runs {
			s.close()
		}
	}()
	for _, c := range tab.Cells {
		clock := tab.Clock[c.N]
		if clock == "" {
			clock = "boost"
		}
		s := runs[clock]
		if s == nil {
			var err error
			if s, err = newSumRunner(fmt.Sprintf("sim:%s?clock=%s&racecheck=false&timeout=0", profile, clock)); err != nil {
				return nil, err
			}
			runs[clock] = s
		}
		res, err := s.run(c.Kernel, c.N, tab.Block, exactInput)
		if err != nil {
			return nil, err
		}
		mean, spread := meanSpread(c.Ms)
		if mean <= 0 {
			return nil, fmt.Errorf("fidelity: %s n=%d of %s has no measurement", c.Kernel, c.N, tab.Name)
		}
		cr := CellResult{Kernel: c.Kernel, N: c.N, Clock: clock, Predicted: res.timing.Ms, Measured: mean, Runs: c.Ms,
			Spread: spread, Ratio: res.timing.Ms / mean, Binding: res.timing.Breakdown[0].Resource,
			Fits: c.Fits, Validation: c.Validation()}
		cr.OK = within(cr.Predicted, mean, tol)
		r.Cells = append(r.Cells, cr)
		step(fmt.Sprintf("%s n=%d", c.Kernel, c.N))
	}
	r.rank()
	r.ratio(tab)
	if opts.Softmax {
		sc, err := runSoftmax(step, tol)
		if err != nil {
			return nil, err
		}
		r.Ratios = append(r.Ratios, sc)
	}
	if opts.Determinism {
		if err := r.determinism(step); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// within reports whether pred/meas lies between 1/(1+tol) and 1+tol.
func within(pred, meas, tol float64) bool {
	q := pred / meas
	return q >= 1/(1+tol) && q <= 1+tol
}

// meanSpread returns the mean of the non-zero times and their spread,
// (max - min) / mean.
func meanSpread(ms []float64) (mean, spread float64) {
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, m := range ms {
		if m > 0 {
			mean += m
			lo, hi, n = min(lo, m), max(hi, m), n+1
		}
	}
	if n == 0 {
		return 0, 0
	}
	mean /= float64(n)
	return mean, (hi - lo) / mean
}

// union joins lists of names, each name once, in order.
func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// rank checks the fastest kernel at each size.
func (r *Report) rank() {
	bySize := map[int][]CellResult{}
	var sizes []int
	for _, c := range r.Cells {
		if _, ok := bySize[c.N]; !ok {
			sizes = append(sizes, c.N)
		}
		bySize[c.N] = append(bySize[c.N], c)
	}
	sort.Ints(sizes)
	for _, n := range sizes {
		cells := bySize[n]
		pred, meas := cells[0], cells[0]
		for _, c := range cells {
			if c.Predicted < pred.Predicted {
				pred = c
			}
			if c.Measured < meas.Measured {
				meas = c
			}
		}
		rk := Ranking{N: n, Predicted: pred.Kernel, Validation: true}
		for _, c := range cells {
			rk.Validation = rk.Validation && c.Validation
		}
		for _, c := range cells {
			if c.Measured <= meas.Measured*(1+TieTolerance) {
				rk.Measured = append(rk.Measured, c.Kernel)
				rk.OK = rk.OK || c.Kernel == pred.Kernel
			}
		}
		r.Rankings = append(r.Rankings, rk)
	}
}

func (r *Report) cell(kernel string, n int) *CellResult {
	for i := range r.Cells {
		if r.Cells[i].Kernel == kernel && r.Cells[i].N == n {
			return &r.Cells[i]
		}
	}
	return nil
}

// ratio checks global/tree at the table's ratio size.
func (r *Report) ratio(tab Table) {
	g, t := r.cell("global", tab.RatioAt), r.cell("tree", tab.RatioAt)
	if g == nil || t == nil {
		return
	}
	rc := RatioCheck{Name: fmt.Sprintf("global/tree at n=%d", tab.RatioAt), Predicted: g.Predicted / t.Predicted,
		Measured: g.Measured / t.Measured, Fits: union(g.Fits, t.Fits), Validation: g.Validation && t.Validation}
	rc.OK = within(rc.Predicted, rc.Measured, r.Tolerance)
	r.Ratios = append(r.Ratios, rc)
}

// kind names a target's kind: validation (nothing was fitted to its
// measurements) or calibration.
func kind(validation bool) string {
	if validation {
		return "validation"
	}
	return "calibration"
}

// Misses lists every target the report misses, validation targets first,
// each prefixed with its kind, or nothing.
func (r *Report) Misses() []string {
	var m []string
	for _, v := range []bool{true, false} {
		for _, c := range r.Cells {
			if !c.OK && c.Validation == v {
				m = append(m, fmt.Sprintf("%s: %s n=%d: predicted %.4f ms, measured %.4f ms (ratio %.2f)", kind(v), c.Kernel, c.N, c.Predicted, c.Measured, c.Ratio))
			}
		}
		for _, k := range r.Rankings {
			if !k.OK && k.Validation == v {
				m = append(m, fmt.Sprintf("%s: n=%d: predicted fastest %s, measured %v", kind(v), k.N, k.Predicted, k.Measured))
			}
		}
		for _, x := range r.Ratios {
			if !x.OK && x.Validation == v {
				m = append(m, fmt.Sprintf("%s: %s: predicted %.1f, measured %.1f", kind(v), x.Name, x.Predicted, x.Measured))
			}
		}
	}
	for _, c := range r.DeterminismChecks {
		if !c.OK {
			m = append(m, "calibration: determinism: "+c.Name)
		}
	}
	return m
}

// Failures returns the misses that fail a fidelity check: those of
// validation targets, which test the model out of sample; with strict,
// every miss. A calibration target that misses shows a fit that no longer
// holds: it is reported, and fails only a strict check.
func (r *Report) Failures(strict bool) []string {
	var out []string
	for _, m := range r.Misses() {
		if strict || strings.HasPrefix(m, "validation: ") {
			out = append(out, m)
		}
	}
	return out
}

// Count returns how many cells of a kind (validation or calibration) the
// report has, and how many of them are within tolerance.
func (r *Report) Count(validation bool) (ok, total int) {
	for _, c := range r.Cells {
		if c.Validation == validation {
			total++
			if c.OK {
				ok++
			}
		}
	}
	return ok, total
}

// sumRunner launches the Day 26 sums on one device.
type sumRunner struct {
	dev     *gpu.Device
	kernels map[string]*gpu.Kernel
	inputs  map[int]*gpu.Buffer[float32]
}

type sumResult struct {
	timing gpu.Timing
	sum    float32
}

func newSumRunner(spec string) (*sumRunner, error) {
	dev, err := gpu.Open(spec)
	if err != nil {
		return nil, err
	}
	s := &sumRunner{dev: dev, kernels: map[string]*gpu.Kernel{}, inputs: map[int]*gpu.Buffer[float32]{}}
	shuffle, _ := kernelFS.ReadFile("kernels/shuffle_sum.cu")
	for file, src := range map[string][]byte{"day26_sums.cu": coursekernels.Source("day26_sums.cu"), "shuffle_sum.cu": shuffle} {
		mod, err := dev.Compile(file, src)
		if err != nil {
			dev.Close()
			return nil, err
		}
		for col, name := range kernelNames {
			if k, err := mod.Kernel(name); err == nil {
				s.kernels[col] = k
			}
		}
	}
	return s, nil
}

func (s *sumRunner) close() { s.dev.Close() }

// exactInput is the page's 0, 1, 2, 3, ... input: every sum is exact.
func exactInput(i int) float32 { return float32(i % 4) }

// inexactInput is the determinism input: 1 + (i mod 1000)/1000.
func inexactInput(i int) float32 { return 1.0 + float32(i%1000)*0.001 }

func (s *sumRunner) run(kernel string, n, block int, input func(int) float32) (*sumResult, error) {
	k := s.kernels[kernel]
	if k == nil {
		return nil, fmt.Errorf("fidelity: no kernel for %s", kernel)
	}
	in := s.inputs[n]
	if in == nil {
		data := make([]float32, n)
		for i := range data {
			data[i] = input(i)
		}
		var err error
		if in, err = gpu.Upload(s.dev, data); err != nil {
			return nil, err
		}
		s.inputs[n] = in
	}
	total, err := gpu.NewBuffer[float32](s.dev, 1)
	if err != nil {
		return nil, err
	}
	defer total.Free()
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1((n + block - 1) / block), Block: gpu.D1(block)}, in, total, uint64(n))
	if err != nil {
		return nil, err
	}
	got, err := total.Download()
	if err != nil {
		return nil, err
	}
	return &sumResult{timing: res.Timing, sum: got[0]}, nil
}

// determinism runs the T4 determinism experiment: 20 seeds per kernel.
func (r *Report) determinism(step func(string)) error {
	d := determinismRef
	kernels := []string{"global", "shared", "tree"}
	results := make([]DeterminismResult, len(kernels))
	errs := make([]error, len(kernels))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, kname := range kernels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s, err := newSumRunner(fmt.Sprintf("sim:%s?seed=1&racecheck=false&timeout=0", d.Profile))
			if err != nil {
				errs[i] = err
				return
			}
			defer s.close()
			seen := map[float32]bool{}
			res := DeterminismResult{Kernel: kname, Min: math.Inf(1), Max: math.Inf(-1),
				MeasuredDistinct: d.Distinct[kname], MeasuredSpread: d.Spread[kname]}
			for run := 0; run < d.Runs; run++ {
				out, err := s.run(kname, d.N, 256, inexactInput)
				if err != nil {
					errs[i] = err
					return
				}
				seen[out.sum] = true
				res.Min = math.Min(res.Min, float64(out.sum))
				res.Max = math.Max(res.Max, float64(out.sum))
			}
			res.Distinct = len(seen)
			res.Spread = res.Max - res.Min
			results[i] = res
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return err
		}
		step("determinism " + kernels[i])
	}
	r.Determinism = results
	r.DeterminismFits = d.Fits
	r.DeterminismChecks = determinismChecks(results, r.Tolerance)
	return nil
}

// The determinism table's tolerances. A distinct count of 20 runs is
// itself a small sample: the model's may differ from the page's by
// DistinctTolerance. The sum is near 6.29e6, where a float's spacing (one
// ulp) is 0.5: the shared and tree spreads, a few ulps, may differ by
// SpreadUlpTolerance ulps; the global atomic's, hundreds of ulps, by the
// report's relative tolerance.
const (
	DistinctTolerance  = 3
	SpreadUlpTolerance = 2
)

// determinismChecks compares the model's distinct counts and spreads with
// the page's, kernel by kernel, with the tolerances above, and checks the
// order of the spreads the lesson teaches (global far above shared).
func determinismChecks(res []DeterminismResult, tol float64) []Check {
	ref := float32(determinismRef.Reference)
	ulp := float64(math.Nextafter32(ref, float32(math.Inf(1))) - ref)
	var cs []Check
	for _, d := range res {
		cs = append(cs, Check{fmt.Sprintf("%s: %d distinct sums, the page %d (within %d)", d.Kernel, d.Distinct, d.MeasuredDistinct, DistinctTolerance),
			abs(d.Distinct-d.MeasuredDistinct) <= DistinctTolerance})
		if d.Kernel == "global" {
			cs = append(cs, Check{fmt.Sprintf("%s: spread %g, the page %g (within %.0f%%)", d.Kernel, d.Spread, d.MeasuredSpread, tol*100),
				within(d.Spread, d.MeasuredSpread, tol)})
			continue
		}
		cs = append(cs, Check{fmt.Sprintf("%s: spread %g, the page %g (within %d ulps of %g)", d.Kernel, d.Spread, d.MeasuredSpread, SpreadUlpTolerance, ulp),
			math.Abs(d.Spread-d.MeasuredSpread) <= SpreadUlpTolerance*ulp})
	}
	if len(res) == 3 {
		g, s := res[0], res[1]
		cs = append(cs, Check{fmt.Sprintf("spread global (%g) over ten times shared (%g)", g.Spread, s.Spread), g.Spread > 10*s.Spread})
	}
	return cs
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// runSoftmax checks the atomics-vs-warp-shuffle course notes' ratio on
// their 14-SM Turing GPU.
func runSoftmax(step func(string), tol float64) (RatioCheck, error) {
	sm := softmaxRef
	rc := RatioCheck{Name: fmt.Sprintf("softmax denominator atomic/shuffle at n=%d (%s)", sm.N, sm.Profile),
		Measured: sm.AtomicMs / sm.ShuffleMs, Fits: sm.Fits}
	dev, err := gpu.Open("sim:" + sm.Profile + "?racecheck=false&timeout=0")
	if err != nil {
		return rc, err
	}
	defer dev.Close()
	mod, err := dev.Compile("softmax_denom.cu", coursekernels.Source("softmax_denom.cu"))
	if err != nil {
		return rc, err
	}
	data := make([]float32, sm.N)
	for i := range data {
		data[i] = float32(i%2001)/1000 - 1 // in [-1, 1]
	}
	in, err := gpu.Upload(dev, data)
	if err != nil {
		return rc, err
	}
	var ms [2]float64
	for i, name := range []string{"onlineSoftmaxDenom_Atomic", "onlineSoftmaxDenom_WarpShuffle"} {
		k, err := mod.Kernel(name)
		if err != nil {
			return rc, err
		}
		denom, _ := gpu.NewBuffer[float32](dev, 1)
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(sm.N / 256), Block: gpu.D1(256)}, in, denom, sm.N)
		if err != nil {
			return rc, err
		}
		ms[i] = res.Timing.Ms
		step(name)
	}
	rc.Predicted = ms[0] / ms[1]
	rc.OK = within(rc.Predicted, rc.Measured, tol)
	return rc, nil
}
