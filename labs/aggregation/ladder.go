package aggregation

import (
	"fmt"
	"math"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults of the ladder.
const (
	// DefaultN is the elements of every kernel's input: 2,097,152.
	DefaultN = 1 << 21
	// DefaultBlockSize is the threads per block.
	DefaultBlockSize = 256
	// DefaultBuckets is the per-bucket append's number of buckets.
	DefaultBuckets = 64
)

// DefaultKeysPerWarp returns the distinct keys per warp of the
// per-bucket rows: one (the address is the same for the whole warp, but
// the compiler cannot know it), a few, and every lane its own.
func DefaultKeysPerWarp() []int { return []int{1, 2, 4, 8, 16, 32} }

// LadderOptions configure Ladder; the zero value runs the lab's ladder.
type LadderOptions struct {
	// N is the elements of every input; 0 means DefaultN.
	N int
	// BlockSize is the threads per block; 0 means 256.
	BlockSize int
	// Buckets is the per-bucket append's number of buckets; 0 means 64.
	Buckets int
	// KeysPerWarp are the distinct keys in each warp for the per-bucket
	// rows, each dividing 32 and at most Buckets; nil means
	// DefaultKeysPerWarp().
	KeysPerWarp []int
	// Seed draws the compaction's input (about half of it kept); 0 means
	// 1.
	Seed uint64
	// WarmUps are untimed launches before the timed ones, per cell: 0
	// means 3 on a GPU and none on the simulator; -1 means none.
	WarmUps int
	// Runs are the timed launches per cell: 0 means 10 on a GPU and 1 on
	// the simulator, whose model is deterministic.
	Runs int
	// Predict, on a GPU, is the simulated device whose modelled times and
	// counters go beside the measured ones: "" picks the profile closest
	// to the GPU, "none" skips the prediction.
	Predict string
	// Progress receives progress; nil means the default: a line updated
	// in place in a notebook, or on a terminal's stderr.
	Progress labs.Progress
}

func (o *LadderOptions) resolve(dev *gpu.Device) error {
	if o.N == 0 {
		o.N = DefaultN
	}
	if o.BlockSize == 0 {
		o.BlockSize = DefaultBlockSize
	}
	if o.Buckets == 0 {
		o.Buckets = DefaultBuckets
	}
	if o.KeysPerWarp == nil {
		o.KeysPerWarp = DefaultKeysPerWarp()
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	switch {
	case o.N < 1:
		return fmt.Errorf("aggregation: N %d: want at least 1 element", o.N)
	case o.N > 1<<26:
		return fmt.Errorf("aggregation: N %d: at most %d", o.N, 1<<26)
	case o.Buckets < 1:
		return fmt.Errorf("aggregation: %d buckets: want at least 1", o.Buckets)
	}
	if err := checkBlockSize(dev, o.BlockSize); err != nil {
		return err
	}
	for _, d := range o.KeysPerWarp {
		if err := checkKeys(d, o.Buckets); err != nil {
			return err
		}
	}
	return nil
}

// checkBlockSize validates a block size for dev: whole warps, within the
// device's limit.
func checkBlockSize(dev *gpu.Device, b int) error {
	if b < 32 || b%32 != 0 {
		return fmt.Errorf("aggregation: block size %d: want a multiple of 32 (whole warps)", b)
	}
	if limit := dev.Info().MaxThreadsPerBlock; limit > 0 && b > limit {
		return fmt.Errorf("aggregation: block size %d: %s allows at most %d threads per block", b, dev.Info().Name, limit)
	}
	return nil
}

// LadderTable is the result of Ladder: every kernel's time, its atomics
// as the simulator counts them, and the check of its output. It renders
// as a table (Table), as charts (Chart, KeysChart) and, on a GPU, beside
// the simulator's prediction (PredictedTable).
type LadderTable struct {
	Device string `json:"device"`
	Spec   string `json:"spec"`
	// Timing says where the times come from: "modelled, t4 profile" or
	// "measured, NVIDIA H200"; Measured is true for the latter.
	Timing    string      `json:"timing"`
	Measured  bool        `json:"measured"`
	N         int         `json:"n"`
	BlockSize int         `json:"block_size"`
	Buckets   int         `json:"buckets"`
	WarmUps   int         `json:"warm_ups"`
	Runs      int         `json:"runs"`
	Rows      []LadderRow `json:"rows"`
	// Predicted is the same ladder on the simulator, when the ladder ran
	// on a GPU and a prediction was asked for.
	Predicted *LadderTable `json:"predicted,omitempty"`
}

// LadderRow is one kernel on one input.
type LadderRow struct {
	Kernel Kernel `json:"kernel"`
	// KeysPerWarp is the distinct counters each warp's lanes ask: 1 for
	// the single counter.
	KeysPerWarp int `json:"keys_per_warp"`
	// Ms is the mean time of the timed launches, StdevMs their standard
	// deviation.
	Ms      float64 `json:"ms"`
	StdevMs float64 `json:"stdev_ms"`
	// Speedup is the time of the case's per-lane atomicAdd kernel over
	// this one's.
	Speedup float64 `json:"speedup"`
	// Tickets are the tickets handed out: the kept elements, or n.
	Tickets int64 `json:"tickets"`
	// Groups are the (warp, counter) pairs: the fewest global atomics a
	// warp-level aggregation can send.
	Groups int64 `json:"groups"`
	// LaneAtomics, Issued and CompilerAggregated are the simulator's
	// counts of one launch: the lanes' atomic operations, what reached the
	// L2, and how many lanes' operations nvcc's aggregation folded away
	// (all 0 on a GPU; see the prediction).
	LaneAtomics        int64 `json:"lane_atomics"`
	Issued             int64 `json:"issued"`
	CompilerAggregated int64 `json:"compiler_aggregated"`
	// OK says the last launch handed out every ticket once: a
	// permutation; Problem says what was wrong when not.
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
	// Breakdown is the modelled time by resource (simulator only).
	Breakdown []gpu.TimeComponent `json:"breakdown,omitempty"`
}

// Case names the row's input: "one counter" or "64 buckets, 8 keys per
// warp".
func (r LadderRow) Case(buckets int) string {
	if !r.Kernel.Bucketed() {
		return "one counter"
	}
	return fmt.Sprintf("%d buckets, %d keys per warp", buckets, r.KeysPerWarp)
}

// Ladder runs the aggregation ladder on dev: stream compaction through
// one counter with four kernels (the per-lane atomicAdd that nvcc
// aggregates, a ballot by hand, atomicAggInc, and the per-lane atomicAdd
// with its address hidden from the compiler), then per-bucket append
// with a per-lane atomicAdd and with atomicAggInc at each number of
// distinct keys per warp. Every launch's tickets are checked to be a
// permutation. On a GPU each cell is the mean of timed launches after
// warm-ups, and the same ladder is predicted on the simulator.
func Ladder(dev *gpu.Device, opts LadderOptions) (*LadderTable, error) {
	if err := opts.resolve(dev); err != nil {
		return nil, err
	}
	warm, runs, err := labkit.LaunchCounts("aggregation", dev.Capabilities(), opts.WarmUps, opts.Runs)
	if err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var cs []cell
	for _, k := range []Kernel{CompactAtomic, CompactBallot, CompactAggInc, CompactHidden} {
		cs = append(cs, cell{kernel: k, n: opts.N, block: opts.BlockSize, seed: opts.Seed, warm: warm, runs: runs})
	}
	for _, d := range opts.KeysPerWarp {
		keys, err := keysPerWarp(opts.N, d, opts.Buckets)
		if err != nil {
			return nil, err
		}
		for _, k := range []Kernel{BucketAtomic, BucketAggInc} {
			cs = append(cs, cell{kernel: k, n: opts.N, block: opts.BlockSize, keys: keys, warm: warm, runs: runs})
		}
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(opts.Progress, "aggregation ladder"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &LadderTable{Device: info.Name, Spec: info.Spec, N: opts.N, BlockSize: opts.BlockSize,
		Buckets: opts.Buckets, WarmUps: warm, Runs: runs}
	t.Timing, t.Measured = timingSource(dev, outs)
	for i, c := range cs {
		t.Rows = append(t.Rows, ladderRow(c, outs[i]))
	}
	t.speedups()
	if t.Measured && opts.Predict != "none" {
		if t.Predicted, err = predict(dev, opts); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// predict runs the ladder on the simulator profile that predicts dev.
func predict(dev *gpu.Device, opts LadderOptions) (*LadderTable, error) {
	return labkit.Predict(dev, opts.Predict, "aggregation", "the ladder", func(sim *gpu.Device) (*LadderTable, error) {
		p := opts
		p.WarmUps, p.Runs, p.Predict = 0, 0, "none"
		p.Progress = labkit.OrDefault(opts.Progress, "aggregation ladder, predicted")
		return Ladder(sim, p)
	})
}

func timingSource(dev *gpu.Device, outs []outcome) (string, bool) {
	return labkit.TimingSource(dev, outs, func(o outcome) gpu.Timing { return o.timing })
}

func ladderRow(c cell, o outcome) LadderRow {
	r := LadderRow{Kernel: c.kernel, KeysPerWarp: 1, OK: o.problem == "", Problem: o.problem, Breakdown: o.timing.Breakdown}
	r.Ms, r.StdevMs = labkit.Mean(o.ms)
	if c.keys != nil {
		r.KeysPerWarp = distinctPerWarp(c.keys)
		r.Tickets, r.Groups = int64(c.n), c.keys.groups
	} else {
		in := compaction(c.n, c.seed)
		r.Tickets = int64(len(in.kept))
		r.Groups = keptWarps(in.data)
	}
	if k := o.counters; k != nil {
		r.LaneAtomics, r.Issued, r.CompilerAggregated = k.GlobalAtomicOps, k.GlobalAtomicIssued, k.GlobalAtomicAggregated
	}
	return r
}

// keptWarps counts the warps with at least one kept (odd) value.
func keptWarps(data []int32) int64 {
	var w int64
	for i := 0; i < len(data); i += 32 {
		for _, v := range data[i:min(i+32, len(data))] {
			if v&1 == 1 {
				w++
				break
			}
		}
	}
	return w
}

// baseline returns the per-lane atomicAdd kernel of a row's case.
func baseline(r LadderRow) Kernel {
	if r.Kernel.Bucketed() {
		return BucketAtomic
	}
	return CompactAtomic
}

func (t *LadderTable) speedups() {
	for i := range t.Rows {
		r := &t.Rows[i]
		if b, ok := t.Row(baseline(*r), r.KeysPerWarp); ok && r.Ms > 0 {
			r.Speedup = b.Ms / r.Ms
		}
	}
}

// Row returns kernel k's row at keysPerWarp distinct keys per warp (1 for
// the single counter's kernels).
func (t *LadderTable) Row(k Kernel, keysPerWarp int) (LadderRow, bool) {
	for _, r := range t.Rows {
		if r.Kernel == k && r.KeysPerWarp == keysPerWarp {
			return r, true
		}
	}
	return LadderRow{}, false
}

// OK reports whether every kernel handed out every ticket once.
func (t *LadderTable) OK() bool {
	for _, r := range t.Rows {
		if !r.OK {
			return false
		}
	}
	return true
}

// counts returns the table whose rows hold the simulator's counters: t
// itself on the simulator, its prediction on a GPU (nil if none).
func (t *LadderTable) counts() *LadderTable {
	if !t.Measured {
		return t
	}
	return t.Predicted
}

// timingNote says where the times come from and how they were taken, in
// the words of gpu.Method that `warplab run` prints too.
func timingNote(t *LadderTable) string {
	m := gpu.MethodOf(t.Measured, t.WarmUps, t.Runs, gpu.StatMean)
	if t.Measured {
		return fmt.Sprintf("times %s: %s, each launch with fresh counters", t.Timing, m)
	}
	return fmt.Sprintf("times %s: %s", t.Timing, m)
}

// Table returns the ladder as a table: per case and kernel, the atomics
// the lanes ask for, those that reach the L2, those nvcc folded away, the
// time, the speed-up over the case's per-lane atomicAdd and the check.
func (t *LadderTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	cnt := t.counts()
	src := ""
	if t.Measured {
		src = " (simulator)"
	}
	tab := charts.NewTable(fmt.Sprintf("The aggregation ladder: %d elements, %d threads per block", t.N, t.BlockSize),
		charts.Column{Header: "case"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "tickets"}, charts.Column{Header: "warp groups"},
		charts.Column{Header: "lane atomics" + src}, charts.Column{Header: "reach the L2" + src},
		charts.Column{Header: "folded by nvcc" + src},
		charts.Column{Header: "time", Unit: "ms"}, charts.Column{Header: "vs per-lane atomicAdd"},
		charts.Column{Header: "tickets a permutation"})
	tab.Caption = fmt.Sprintf("%s (%s); %s", t.Device, t.Spec, timingNote(t))
	var problems []string
	for _, r := range t.Rows {
		var lane, issued, folded charts.Cell = charts.Text("n/a"), charts.Text("n/a"), charts.Text("n/a")
		if cnt != nil {
			if c, ok := cnt.Row(r.Kernel, r.KeysPerWarp); ok {
				lane, issued, folded = charts.Int(c.LaneAtomics), charts.Int(c.Issued), charts.Int(c.CompilerAggregated)
				if c.Issued <= c.Groups {
					issued = issued.Highlighted()
				}
			}
		}
		speed := charts.Float(r.Speedup, 2)
		if r.Speedup > 1.5 {
			speed = speed.Highlighted()
		}
		check := charts.Text("yes")
		if !r.OK {
			check = charts.Text("NO").Highlighted()
			problems = append(problems, fmt.Sprintf("%s, %s: %s", r.Case(t.Buckets), r.Kernel, r.Problem))
		}
		tab.AddRow(charts.Text(r.Case(t.Buckets)), charts.Text(string(r.Kernel)),
			charts.Int(r.Tickets), charts.Int(r.Groups), lane, issued, folded,
			charts.Float(r.Ms, 4), speed, check)
	}
	tab.AddNote("tickets: the slots handed out (the kept values, or every element); warp groups: the (warp, counter) pairs, the fewest global atomics any warp-level aggregation can send.")
	tab.AddNote("lane atomics: the atomic operations the lanes ask for; reach the L2: what the L2 serves after nvcc's own aggregation (* at the warp-group minimum); folded by nvcc: lane operations the compiler merged, as it does for an integer add to an address it can prove is the same for the whole warp.")
	if t.Measured {
		tab.AddNote("A GPU has no counters here: the atomic columns are the simulator's (%s) for the same launches.", t.Predicted.Spec)
	}
	tab.AddNote("vs per-lane atomicAdd: the case's compactAtomic or bucketAtomic time over this kernel's (* above 1.5).")
	for _, p := range problems {
		tab.AddNote("WRONG %s", p)
	}
	return tab
}

// Chart returns, for the per-bucket append, each kernel's time against
// the distinct keys per warp, with the single counter's kernels as
// reference lines at the left.
func (t *LadderTable) Chart() *charts.Chart {
	c := &charts.Chart{
		Title:    "Per-bucket append: time vs distinct keys per warp",
		Subtitle: fmt.Sprintf("%s, %d elements, %d buckets", t.Timing, t.N, t.Buckets),
		X:        charts.Axis{Title: "distinct keys per warp", Log: true},
		Y:        charts.Axis{Title: "time", Unit: "ms", Log: true},
	}
	for _, k := range []Kernel{BucketAtomic, BucketAggInc} {
		c.AddLine(string(k), t.keysSeries(k, func(r LadderRow) float64 { return r.Ms }))
	}
	if r, ok := t.Row(CompactAtomic, 1); ok && r.Ms > 0 {
		c.AddRefLine("one counter, compactAtomic (nvcc aggregates)", r.Ms)
	}
	if r, ok := t.Row(CompactHidden, 1); ok && r.Ms > 0 {
		c.AddRefLine("one counter, address hidden", r.Ms)
	}
	return c
}

// AtomicsChart returns the global atomics that reach the L2 per kernel,
// from the simulator's counters (the prediction's on a GPU), against the
// distinct keys per warp; nil when there are no counters.
func (t *LadderTable) AtomicsChart() *charts.Chart {
	cnt := t.counts()
	if cnt == nil {
		return nil
	}
	c := &charts.Chart{
		Title:    "Per-bucket append: global atomics that reach the L2",
		Subtitle: fmt.Sprintf("simulator counters (%s), %d elements", cnt.Spec, t.N),
		X:        charts.Axis{Title: "distinct keys per warp", Log: true},
		Y:        charts.Axis{Title: "atomics per launch", Log: true},
	}
	for _, k := range []Kernel{BucketAtomic, BucketAggInc} {
		c.AddLine(string(k), cnt.keysSeries(k, func(r LadderRow) float64 { return float64(max(r.Issued, 1)) }))
	}
	c.AddScatter("warp groups (the minimum)", cnt.keysSeries(BucketAggInc, func(r LadderRow) float64 { return float64(max(r.Groups, 1)) }))
	return c
}

func (t *LadderTable) keysSeries(k Kernel, v func(LadderRow) float64) charts.XYs {
	var xy charts.XYs
	for _, r := range t.Rows {
		if r.Kernel == k {
			xy = append(xy, charts.XY{X: float64(r.KeysPerWarp), Y: v(r)})
		}
	}
	return xy
}

// PredictedTable returns the simulator's predicted time beside the
// measured one for every kernel, or nil when the ladder has no
// prediction.
func (t *LadderTable) PredictedTable() *charts.Table {
	if t == nil || t.Predicted == nil {
		return nil
	}
	p := t.Predicted
	tab := charts.NewTable("Predicted vs measured: the aggregation ladder",
		charts.Column{Header: "case"}, charts.Column{Header: "kernel"},
		charts.Column{Header: "measured", Unit: "ms"}, charts.Column{Header: "predicted", Unit: "ms"},
		charts.Column{Header: "predicted / measured"},
		charts.Column{Header: "fastest of its case, measured"}, charts.Column{Header: "fastest, predicted"})
	tab.Caption = fmt.Sprintf("measured: %s (%d runs after %d warm-ups); predicted: %s (%s)", t.Device, t.Runs, t.WarmUps, p.Timing, p.Spec)
	for _, r := range t.Rows {
		pr, ok := p.Row(r.Kernel, r.KeysPerWarp)
		if !ok || r.Ms <= 0 {
			continue
		}
		ratio := labkit.RatioCell(pr.Ms / r.Ms)
		tab.AddRow(charts.Text(r.Case(t.Buckets)), charts.Text(string(r.Kernel)),
			charts.Float(r.Ms, 4), charts.Float(pr.Ms, 4), ratio,
			charts.Text(yesNo(t.fastestOfCase(r))), charts.Text(yesNo(p.fastestOfCase(pr))))
	}
	tab.AddNote("* a prediction more than 30%% off the measurement. The simulator's cost model is first-order; within ±30%% is as close as two toolkits on one card.")
	return tab
}

// fastestOfCase reports whether r is the fastest kernel of its case.
func (t *LadderTable) fastestOfCase(r LadderRow) bool {
	best := math.Inf(1)
	for _, x := range t.Rows {
		if x.Kernel.Bucketed() == r.Kernel.Bucketed() && x.KeysPerWarp == r.KeysPerWarp {
			best = math.Min(best, x.Ms)
		}
	}
	return r.Ms <= best
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return ""
}
