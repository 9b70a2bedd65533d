package ordering

import (
	"fmt"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// litmusFile holds the store- and load-buffering kernels.
const litmusFile = "kernels/litmus.cu"

// LitmusSource returns the litmus experiment's kernel file.
func LitmusSource() KernelSource {
	b, err := kernelFS.ReadFile(litmusFile)
	if err != nil {
		// The file is embedded: a missing one is a build error.
		panic(err)
	}
	return KernelSource{File: litmusFile, Text: string(b)}
}

// LitmusShape is one litmus kernel of kernels/litmus.cu.
type LitmusShape struct {
	Kernel string `json:"kernel"`
	// Shape names the test, Outcome the weak outcome it counts.
	Shape   string `json:"shape"`
	Outcome string `json:"outcome"`
	// Between is what stands between each thread's two accesses.
	Between string `json:"between"`
	// Allowed says whether the PTX memory model allows the outcome.
	Allowed bool `json:"allowed"`
	// weak tells whether a pair's two reads are the weak outcome.
	weak func(a, b int32) bool
}

// LitmusShapes lists the experiment's kernels in table order.
func LitmusShapes() []LitmusShape {
	both := func(v int32) func(a, b int32) bool { return func(a, b int32) bool { return a == v && b == v } }
	const (
		sb, lb       = "store buffering", "load buffering"
		read0, read1 = "both read 0", "both read 1"
		fence        = "__threadfence()"
	)
	return []LitmusShape{
		{"sb", sb, read0, "nothing", true, both(0)},
		{"sbFence", sb, read0, fence, false, both(0)},
		{"lb", lb, read1, "nothing", true, both(1)},
		{"lbFence", lb, read1, fence, false, both(1)},
		{"lbBlockFence", lb, read1, "__threadfence_block()", true, both(1)},
		{"lbOneFence", lb, read1, fence + " on one side only", true, both(1)},
		{"lbAtomic", lb, read1, "nothing; the loads are atomicAdd(other, 0)", true, both(1)},
		{"lbAtomicFence", lb, read1, fence + "; the loads are atomicAdd(other, 0)", false, both(1)},
		{"lbDependent", lb, read1, "nothing; the store writes the value read", false, both(1)},
	}
}

// Defaults of LitmusOptions.
const (
	DefaultLitmusPairs    = 64
	DefaultLitmusLaunches = 8
)

// LitmusOptions configure Litmus; the zero value runs the defaults.
type LitmusOptions struct {
	// Pairs is the pairs of blocks per launch, Launches the launches per
	// kernel (on the simulator, one seed each).
	Pairs, Launches int
	// Progress reports the launches; nil is the default one.
	Progress labs.Progress
}

func (o *LitmusOptions) resolve() error {
	if err := orDefault(&o.Pairs, DefaultLitmusPairs, maxPairs, "litmus pairs"); err != nil {
		return err
	}
	return orDefault(&o.Launches, DefaultLitmusLaunches, maxLaunches, "litmus launches")
}

// LitmusRow is one kernel's count.
type LitmusRow struct {
	LitmusShape
	// Trials are the pairs over all launches, Weak those with the weak
	// outcome, FirstWeakSeed the seed of the first simulated launch with
	// one (0 when none, or on a GPU).
	Trials        int64  `json:"trials"`
	Weak          int64  `json:"weak"`
	FirstWeakSeed uint64 `json:"first_weak_seed,omitempty"`
}

// LitmusTable is the litmus experiment on one device.
type LitmusTable struct {
	Device    string      `json:"device"`
	Spec      string      `json:"spec"`
	Simulated bool        `json:"simulated"`
	Rows      []LitmusRow `json:"rows"`
}

// Litmus runs the store- and load-buffering kernels on dev (on the
// simulator under the relaxed memory model, RelaxedSpec) and counts the
// pairs that show each shape's weak outcome.
func Litmus(dev *gpu.Device, o LitmusOptions) (*LitmusTable, error) {
	if err := o.resolve(); err != nil {
		return nil, err
	}
	run, sim, release, err := relaxed(dev)
	if err != nil {
		return nil, err
	}
	defer release()
	t := &LitmusTable{Device: run.Info().Name, Spec: run.Spec().String(), Simulated: sim}
	m, err := run.Compile(litmusFile, []byte(LitmusSource().Text))
	if err != nil {
		return nil, fmt.Errorf("ordering: %w", err)
	}
	base, err := gpu.NewBuffer[int32](run, o.Pairs*2*stride)
	if err != nil {
		return nil, fmt.Errorf("ordering: %w", err)
	}
	defer base.Free()
	out, err := gpu.NewBuffer[int32](run, 2*o.Pairs)
	if err != nil {
		return nil, fmt.Errorf("ordering: %w", err)
	}
	defer out.Free()
	p := labkit.OrDefault(o.Progress, "ordering: litmus")
	defer p.Done()
	shapes := LitmusShapes()
	done := 0
	for _, s := range shapes {
		k, err := m.Kernel(s.Kernel)
		if err != nil {
			return nil, fmt.Errorf("ordering: %w", err)
		}
		row := LitmusRow{LitmusShape: s}
		for range o.Launches {
			if err := base.Zero(); err != nil {
				return nil, fmt.Errorf("ordering: %w", err)
			}
			res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(2 * o.Pairs), Block: gpu.D1(32)}, base, out)
			if err != nil {
				return nil, fmt.Errorf("ordering: %s: %w", s.Kernel, err)
			}
			got, err := out.Download()
			if err != nil {
				return nil, fmt.Errorf("ordering: %w", err)
			}
			var weak int64
			for i := 0; i < o.Pairs; i++ {
				if s.weak(got[2*i], got[2*i+1]) {
					weak++
				}
			}
			row.Trials += int64(o.Pairs)
			row.Weak += weak
			if weak > 0 && row.FirstWeakSeed == 0 && res.Seed != 0 {
				row.FirstWeakSeed = res.Seed
			}
			done++
			p.Update(done, len(shapes)*o.Launches, s.Kernel)
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// Table returns the experiment as a table.
func (t *LitmusTable) Table() *charts.Table {
	where := "measured"
	if t.Simulated {
		where = "simulated"
	}
	tab := charts.NewTable(fmt.Sprintf("Store and load buffering between blocks on %s", t.Device),
		charts.Column{Header: "kernel"}, charts.Column{Header: "shape"}, charts.Column{Header: "between the accesses"},
		charts.Column{Header: "weak outcome"}, charts.Column{Header: "pairs"}, charts.Column{Header: "weak, " + where},
		charts.Column{Header: "first weak seed"}, charts.Column{Header: "PTX"})
	tab.Caption = t.Spec
	for _, r := range t.Rows {
		ptx := "allowed"
		if !r.Allowed {
			ptx = "forbidden"
		}
		weak := charts.Int(r.Weak)
		if r.Weak > 0 {
			weak = weak.Highlighted()
		}
		seed := charts.Text("")
		if r.FirstWeakSeed != 0 {
			seed = charts.Int(int64(r.FirstWeakSeed))
		}
		tab.AddRow(charts.Text(r.Kernel), charts.Text(r.Shape), charts.Text(r.Between), charts.Text(r.Outcome),
			charts.Int(r.Trials), weak, seed, charts.Text(ptx))
	}
	if t.Simulated {
		tab.AddNote("Store buffering: each store waits in its block's buffer while the other thread loads. Load buffering: each load is satisfied late, after the store that follows it in the thread has reached the other block; PTX allows it for plain, volatile and relaxed accesses, relaxed atomic read-modify-writes included, unless something orders each load before its store for the other thread: a fence whose scope includes it (__threadfence_block() between blocks does not; a fence on one side orders one side only), or a store that depends on the value loaded (no value out of thin air). Each forbidden row stays at zero because PTX forbids it; each allowed one shows for some seed.")
	} else {
		tab.AddNote("Measured on the GPU: zero weak outcomes here is what this GPU did, not what the model promises.")
	}
	return tab
}
