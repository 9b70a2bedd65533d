package ordering

import (
	"fmt"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Defaults and bounds of PublishOptions.
const (
	DefaultPairs    = 16
	DefaultTrials   = 16
	DefaultLaunches = 8

	// maxPairs allows the H200 microbenchmark's 528 pairs (4 per SM, 1056
	// blocks of 32 threads, all resident at once) that TestOnGPU repeats.
	maxPairs    = 1024
	maxTrials   = 1024
	maxLaunches = 1000
)

// stride is the kernels' STRIDE: ints between a pair's payload, flag and
// acknowledgement (each on its own 128-byte line).
const stride = 32

// PublishOptions configure Publish; the zero value runs the defaults.
type PublishOptions struct {
	// Pairs is the number of producer/consumer pairs of blocks per launch.
	Pairs int
	// Trials is the number of publications each pair makes per launch.
	Trials int
	// Launches is the number of launches per variant; on the simulator
	// launch k runs with the device's seed plus k.
	Launches int
	// Variants are the variants to run; nil runs all of them.
	Variants []Variant
	// Progress reports the launches; nil is the default one.
	Progress labs.Progress
}

func (o *PublishOptions) resolve() error {
	if err := orDefault(&o.Pairs, DefaultPairs, maxPairs, "pairs"); err != nil {
		return err
	}
	if err := orDefault(&o.Trials, DefaultTrials, maxTrials, "trials"); err != nil {
		return err
	}
	if err := orDefault(&o.Launches, DefaultLaunches, maxLaunches, "launches"); err != nil {
		return err
	}
	if o.Variants == nil {
		o.Variants = Variants()
	}
	for _, v := range o.Variants {
		if _, err := ParseVariant(string(v)); err != nil {
			return err
		}
	}
	return nil
}

// PublishRow is one variant's count.
type PublishRow struct {
	Variant Variant `json:"variant"`
	// Trials, Stale and Timeouts count the publications, the stale
	// payload reads and the spins that gave up.
	Trials   int64 `json:"trials"`
	Stale    int64 `json:"stale"`
	Timeouts int64 `json:"timeouts"`
	// FirstStaleSeed is the seed of the first simulated launch with a
	// stale read (0 when none or on a GPU): the seed that reproduces it.
	FirstStaleSeed uint64 `json:"first_stale_seed,omitempty"`
}

// PublishTable is the message-passing experiment on one device.
type PublishTable struct {
	// Device names the device that ran, Spec its spec (on the simulator
	// with memory=relaxed).
	Device string `json:"device"`
	Spec   string `json:"spec"`
	// Simulated says the counts are what the weak-memory model allows,
	// not what a GPU did.
	Simulated bool         `json:"simulated"`
	Pairs     int          `json:"pairs"`
	Rows      []PublishRow `json:"rows"`
}

// RelaxedSpec returns the spec the lab runs a simulated device under: the
// same device and seed with the relaxed memory model.
func RelaxedSpec(s gpu.Spec) gpu.Spec { return s.WithMemory(gpu.MemoryRelaxed) }

// relaxed returns the device an experiment runs on: for a simulated dev a
// new device of its profile and seed under the relaxed memory model
// (RelaxedSpec) and sim true; a GPU as it is. The caller calls release when
// the experiment ends: it closes the device relaxed opened, if any.
func relaxed(dev *gpu.Device) (run *gpu.Device, sim bool, release func(), err error) {
	if dev.Spec().Backend() != "sim" {
		return dev, false, func() {}, nil
	}
	run, err = gpu.OpenSpec(RelaxedSpec(dev.Spec()))
	if err != nil {
		return nil, false, nil, fmt.Errorf("ordering: %w", err)
	}
	return run, true, func() { run.Close() }, nil
}

// orDefault sets *x to d when it is 0 and checks that it is from 1 to
// most; what names the option in the error ("scope blocks").
func orDefault(x *int, d, most int, what string) error {
	if *x == 0 {
		*x = d
	}
	if *x < 1 || *x > most {
		return fmt.Errorf("ordering: %s = %d: want 1 to %d", what, *x, most)
	}
	return nil
}

// Publish runs the message-passing test of each variant on dev: on the
// simulator under the relaxed memory model (a device with dev's profile and
// seed and memory=relaxed), on a GPU as it is.
func Publish(dev *gpu.Device, opts PublishOptions) (*PublishTable, error) {
	if err := opts.resolve(); err != nil {
		return nil, err
	}
	run, sim, release, err := relaxed(dev)
	if err != nil {
		return nil, err
	}
	defer release()
	t := &PublishTable{Device: run.Info().Name, Spec: run.Spec().String(), Simulated: sim, Pairs: opts.Pairs}
	m, err := run.Compile(kernelFile, []byte(Source().Text))
	if err != nil {
		return nil, fmt.Errorf("ordering: %w", err)
	}
	p := labkit.OrDefault(opts.Progress, "ordering: message passing")
	defer p.Done()
	total, done := len(opts.Variants)*opts.Launches, 0
	for _, v := range opts.Variants {
		k, err := m.Kernel(string(v))
		if err != nil {
			return nil, fmt.Errorf("ordering: %w", err)
		}
		row, err := publishOne(run, k, v, opts, func() {
			done++
			p.Update(done, total, v.Short())
		})
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func publishOne(dev *gpu.Device, k *gpu.Kernel, v Variant, o PublishOptions, step func()) (PublishRow, error) {
	row := PublishRow{Variant: v}
	base, err := gpu.NewBuffer[int32](dev, o.Pairs*4*stride)
	if err != nil {
		return row, fmt.Errorf("ordering: %w", err)
	}
	defer base.Free()
	counts, err := gpu.NewBuffer[int32](dev, 2*o.Pairs)
	if err != nil {
		return row, fmt.Errorf("ordering: %w", err)
	}
	defer counts.Free()
	for range o.Launches {
		if err := base.Zero(); err != nil {
			return row, fmt.Errorf("ordering: %w", err)
		}
		if err := counts.Zero(); err != nil {
			return row, fmt.Errorf("ordering: %w", err)
		}
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(2 * o.Pairs), Block: gpu.D1(32)}, base, int32(o.Trials), counts)
		if err != nil {
			return row, fmt.Errorf("ordering: %s: %w", v.Short(), err)
		}
		c, err := counts.Download()
		if err != nil {
			return row, fmt.Errorf("ordering: %w", err)
		}
		var stale int64
		for i := 0; i < o.Pairs; i++ {
			stale += int64(c[2*i])
			row.Timeouts += int64(c[2*i+1])
		}
		row.Stale += stale
		row.Trials += int64(o.Pairs * o.Trials)
		if stale > 0 && row.FirstStaleSeed == 0 && res.Seed != 0 {
			row.FirstStaleSeed = res.Seed
		}
		step()
	}
	return row, nil
}

// Table returns the experiment as a table: each variant's stale reads on
// this device beside what PTX allows and what the H200 measured.
func (t *PublishTable) Table() *charts.Table {
	where := "measured"
	if t.Simulated {
		where = "allowed (simulated)"
	}
	tab := charts.NewTable(fmt.Sprintf("Message passing between blocks on %s: stale payload reads", t.Device),
		charts.Column{Header: "variant"}, charts.Column{Header: "orders the accesses with"},
		charts.Column{Header: "trials"}, charts.Column{Header: "stale, " + where},
		charts.Column{Header: "first stale seed"}, charts.Column{Header: "PTX"},
		charts.Column{Header: "stale on the H200 (measured)"})
	for _, r := range t.Rows {
		stale := charts.Int(r.Stale)
		if r.Stale > 0 {
			stale = stale.Highlighted()
		}
		seed := charts.Text("-")
		if r.FirstStaleSeed != 0 {
			seed = charts.Int(int64(r.FirstStaleSeed))
		}
		ptx := "stale read allowed"
		if r.Variant.Correct() {
			ptx = "stale read forbidden"
		}
		h := charts.Text("not measured")
		if m, ok := measuredFor(r.Variant); ok {
			h = charts.Text(fmt.Sprintf("%d of %d", m.Stale, m.Trials))
		}
		tab.AddRow(charts.Text(r.Variant.Short()), charts.Text(r.Variant.Orders()), charts.Int(r.Trials), stale, seed, charts.Text(ptx), h)
	}
	tab.AddNote("spec %s; %d pairs of blocks per launch", t.Spec, t.Pairs)
	if t.Simulated {
		tab.AddNote("the simulator's relaxed memory model shows what the PTX model allows; reproduce a stale read with the spec's profile, memory=relaxed and the seed shown")
	}
	tab.AddNote("the H200's plain variant was stale every time because nvcc loaded the payload once, before the spin loop: nothing ordered it after the flag")
	for _, r := range t.Rows {
		if r.Variant == RelAcq {
			tab.AddNote("the H200's release-acquire figure is the microbenchmark's cuda::atomic_ref store(release)/load(acquire) variant (calibration/microbench/ordering.cu), which publishes as mpRelAcq does")
		}
	}
	for _, r := range t.Rows {
		if r.Timeouts > 0 {
			tab.AddNote("%s: %d spins gave up (counted as timeouts, not stale reads)", r.Variant.Short(), r.Timeouts)
		}
	}
	return tab
}

// Chart returns the stale reads per variant as bars.
func (t *PublishTable) Chart() charts.Figure {
	b := &charts.BarChart{Title: "Stale payload reads per 1,000 publications", Subtitle: t.Spec,
		X: charts.Axis{Title: "variant"}, Y: charts.Axis{Title: "stale per 1,000"}}
	var vals charts.Values
	for _, r := range t.Rows {
		b.Categories = append(b.Categories, r.Variant.Short())
		vals = append(vals, 1000*float64(r.Stale)/float64(max(r.Trials, 1)))
	}
	return b.AddBars(t.Device, vals)
}
