package aggregation

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// The order experiment's defaults.
const (
	defaultOrderN    = 1 << 16
	defaultOrderRuns = 5
)

// OrderOptions configure Order; the zero value runs the lab's experiment.
type OrderOptions struct {
	// N is the compaction's input size; 0 means 65,536.
	N int
	// Runs are the launches per kernel; 0 means 5.
	Runs int
	// Kernels are the compaction kernels to run; nil means compactAtomic
	// and compactAggInc.
	Kernels []Kernel
	// Seed draws the input; 0 means 1.
	Seed uint64
	// Progress receives progress; nil means the default: a line updated
	// in place in a notebook, or on a terminal's stderr.
	Progress labs.Progress
}

// OrderTable is the result of Order: the same compaction launched again
// and again, each launch's output compared with the first's.
type OrderTable struct {
	Device string `json:"device"`
	Spec   string `json:"spec"`
	// Seeded says the launches ran on the simulator, each with a
	// scheduler seed of its own.
	Seeded bool       `json:"seeded"`
	N      int        `json:"n"`
	Kept   int        `json:"kept"`
	Rows   []OrderRow `json:"rows"`
}

// OrderRow is one launch.
type OrderRow struct {
	Kernel Kernel `json:"kernel"`
	Run    int    `json:"run"`
	// Seed is the simulator's scheduler seed of the launch (0 on a GPU).
	Seed uint64 `json:"seed"`
	// Permutation says out[0:count] holds the kept values, each once;
	// Problem says what is wrong when not.
	Permutation bool   `json:"permutation"`
	Problem     string `json:"problem,omitempty"`
	// Moved counts the positions whose value differs from the kernel's
	// first launch; First are the first values of the output.
	Moved int     `json:"moved"`
	First []int32 `json:"first"`
}

// Order runs compaction kernels several times on the same input and
// compares the outputs: the set of kept values is the same every time,
// their order is not, because the warps reach the counter in a different
// order. On the simulator each launch has a scheduler seed of its own, so
// the experiment replays exactly; on a GPU the order is whatever the
// hardware did.
func Order(dev *gpu.Device, opts OrderOptions) (*OrderTable, error) {
	if err := opts.resolve(); err != nil {
		return nil, err
	}
	r, err := labkit.NewRunner(dev)
	if err != nil {
		return nil, err
	}
	var cs []cell
	for _, k := range opts.Kernels {
		for range opts.Runs {
			cs = append(cs, cell{kernel: k, n: opts.N, block: DefaultBlockSize, seed: opts.Seed, runs: 1, keep: true})
		}
	}
	outs, err := measureCells(r, cs, labkit.OrDefault(opts.Progress, "aggregation order"))
	if err != nil {
		return nil, err
	}
	info := dev.Info()
	t := &OrderTable{Device: info.Name, Spec: info.Spec, Seeded: r.Simulated(), N: opts.N, Kept: len(compaction(opts.N, opts.Seed).kept)}
	for i, c := range cs {
		o := outs[i]
		row := OrderRow{Kernel: c.kernel, Run: i%opts.Runs + 1, Seed: o.seed, Permutation: o.problem == "", Problem: o.problem}
		row.First = o.compacted[:min(6, len(o.compacted))]
		first := outs[i-i%opts.Runs].compacted
		for j := range min(len(first), len(o.compacted)) {
			if first[j] != o.compacted[j] {
				row.Moved++
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// resolve fills in the defaults and checks the options.
func (opts *OrderOptions) resolve() error {
	if opts.N == 0 {
		opts.N = defaultOrderN
	}
	if opts.Runs == 0 {
		opts.Runs = defaultOrderRuns
	}
	if opts.Kernels == nil {
		opts.Kernels = []Kernel{CompactAtomic, CompactAggInc}
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	switch {
	case opts.N < 1 || opts.N > 1<<24:
		return fmt.Errorf("aggregation: order over %d elements: want 1 to %d", opts.N, 1<<24)
	case opts.Runs < 2 || opts.Runs > 100:
		return fmt.Errorf("aggregation: %d runs: want 2 to 100", opts.Runs)
	}
	for _, k := range opts.Kernels {
		if !k.Valid() || k.Bucketed() {
			return fmt.Errorf("aggregation: order: %q is not a compaction kernel (want compactAtomic, compactBallot, compactAggInc or compactHidden)", k)
		}
	}
	return nil
}

// Differs reports whether some launch of kernel k put the kept values in
// another order than its first launch.
func (t *OrderTable) Differs(k Kernel) bool {
	for _, r := range t.Rows {
		if r.Kernel == k && r.Moved > 0 {
			return true
		}
	}
	return false
}

// OK reports whether every launch's output was a permutation of the kept
// values.
func (t *OrderTable) OK() bool {
	for _, r := range t.Rows {
		if !r.Permutation {
			return false
		}
	}
	return true
}

// Table returns the launches as a table: per launch its seed, whether the
// output holds every kept value once, how many positions differ from the
// first launch, and the first values.
func (t *OrderTable) Table() *charts.Table {
	if t == nil {
		return nil
	}
	tab := charts.NewTable(fmt.Sprintf("Same input, same kernel, %d launches: which order?", len(t.Rows)),
		charts.Column{Header: "kernel"}, charts.Column{Header: "launch"}, charts.Column{Header: "seed"},
		charts.Column{Header: "kept values, each once"}, charts.Column{Header: "positions moved vs launch 1"},
		charts.Column{Header: "out[0:6]"})
	how := "each launch on the simulator with a scheduler seed of its own"
	if !t.Seeded {
		how = "launched again and again on the GPU"
	}
	tab.Caption = fmt.Sprintf("%s (%s); %d elements, %d kept; %s", t.Device, t.Spec, t.N, t.Kept, how)
	for _, r := range t.Rows {
		seed := charts.Text("-")
		if t.Seeded {
			seed = charts.Int(int64(r.Seed))
		}
		perm := charts.Text("yes")
		if !r.Permutation {
			perm = charts.Text("NO: " + r.Problem).Highlighted()
		}
		moved := charts.Int(int64(r.Moved))
		if r.Moved > 0 {
			moved = moved.Highlighted()
		}
		vals := make([]string, len(r.First))
		for i, v := range r.First {
			vals[i] = fmt.Sprint(v)
		}
		tab.AddRow(charts.Text(string(r.Kernel)), charts.Int(int64(r.Run)), seed, perm, moved, charts.Text(strings.Join(vals, " ")))
	}
	tab.AddNote("The tickets are always a permutation: every kept value lands once. Which warp reaches the counter first is up to the scheduler, so the order is not stable from run to run, the same non-determinism as a float sum built from atomics.")
	if t.Seeded {
		tab.AddNote("The same device spec and seed replay the same order exactly; ?order=deterministic fixes it.")
	}
	return tab
}
