package profile

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
)

// Launch is one kernel launch to profile.
type Launch struct {
	// Name labels the launch's column: "shuffle".
	Name string
	// Block is the launch's threads per block, for occupancy.
	Block int
	// Timing and Counters are the simulator's result for the launch.
	Timing   gpu.Timing
	Counters *gpu.Counters
	// Measured, when not nil, is the same launch's time measured on a
	// GPU; MeasuredHow says how ("10 runs after 3 warm-ups").
	Measured    *gpu.Timing
	MeasuredHow string
	// L2Measured, when not nil, is the same launch's L2 figures as Nsight
	// Compute measured them on a GPU (a profiler run, not this process's:
	// labs take them from committed evidence).
	L2Measured *L2Figures
}

// L2Figures are a launch's L2 figures as Nsight Compute measures them.
type L2Figures struct {
	// HitRate is lts__t_sector_hit_rate as a fraction; Sectors
	// lts__t_sectors.sum; HotSlice lts__t_sectors.max, the busiest
	// slice's sectors, and Slices the slices (lts__t_sectors.sum over
	// .avg).
	HitRate  float64
	Sectors  int64
	HotSlice int64
	Slices   int
	// Source says where the figures come from: the device, the tool and
	// the evidence file.
	Source string
}

// FromResult returns a Launch of a simulator's result.
func FromResult(name string, res *gpu.Result) Launch {
	return Launch{Name: name, Block: res.Block.Count(), Timing: res.Timing, Counters: res.Counters}
}

// View is the profile of one or more launches on one simulated device.
type View struct {
	// Device is the simulated device the counters and model come from.
	Device   gpu.Info `json:"device"`
	Launches []Launch `json:"launches"`
}

// New returns the view of launches on the simulated device described by
// info. Launches without counters (a GPU's results) are left out: pass
// their measured time in Launch.Measured beside the simulator's.
func New(info gpu.Info, launches ...Launch) *View {
	v := &View{Device: info}
	for _, l := range launches {
		if l.Counters != nil {
			v.Launches = append(v.Launches, l)
		}
	}
	return v
}

// The sources of figures.
const (
	Counted  = "counted"
	Modelled = "modelled"
	Measured = "measured"
	// Profiled is a figure Nsight Compute measured (Launch.L2Measured).
	Profiled = "profiled"
)

// metric is one row of the view.
type metric struct {
	section, name, unit, source string
	value                       func(l Launch) (float64, string, bool)
}

func num(v float64, prec int) (float64, string, bool) {
	return v, charts.Float(v, prec).Text, true
}

func count(v int64) (float64, string, bool) { return float64(v), charts.Int(v).Text, true }

// sec returns the launch's modelled time in seconds.
func sec(l Launch) float64 { return l.Timing.Ms / 1e3 }

// bound returns the breakdown's largest resource other than launch.
func bound(t gpu.Timing) (gpu.TimeComponent, bool) {
	for _, c := range t.Breakdown {
		if c.Resource != "launch" {
			return c, true
		}
	}
	return gpu.TimeComponent{}, false
}

func (v *View) metrics() []metric {
	maxWarps := v.Device.MaxWarpsPerSM
	ms := []metric{
		{"duration", "time", "ms", Modelled, func(l Launch) (float64, string, bool) { return num(l.Timing.Ms, 4) }},
		{"duration", "time", "ms", Measured, func(l Launch) (float64, string, bool) {
			if l.Measured == nil {
				return 0, "", false
			}
			return num(l.Measured.Ms, 4)
		}},
		{"duration", "bound by", "", Modelled, func(l Launch) (float64, string, bool) {
			c, ok := bound(l.Timing)
			if !ok {
				return 0, "", false
			}
			return c.Ms, fmt.Sprintf("%s (%.4f ms)", c.Resource, c.Ms), true
		}},
		{"memory", "DRAM bytes (32-byte sectors)", "MB", Counted, func(l Launch) (float64, string, bool) {
			return num(float64(l.Counters.GlobalLoadSectors+l.Counters.GlobalStoreSectors)*32/1e6, 3)
		}},
		{"memory", "memory throughput", "GB/s", Modelled, func(l Launch) (float64, string, bool) {
			b := float64(l.Counters.GlobalLoadSectors+l.Counters.GlobalStoreSectors) * 32
			return num(b/sec(l)/1e9, 1)
		}},
		{"memory", "global load requests", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.GlobalLoadRequests) }},
		{"memory", "global store requests", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.GlobalStoreRequests) }},
		{"memory", "shared load / store requests", "", Counted, func(l Launch) (float64, string, bool) {
			c := l.Counters
			return float64(c.SharedLoadRequests + c.SharedStoreRequests), fmt.Sprintf("%d / %d", c.SharedLoadRequests, c.SharedStoreRequests), true
		}},
		{"L2", "L2 hit rate", "%", Modelled, func(l Launch) (float64, string, bool) {
			r, ok := l.Counters.L2HitRate()
			if !ok {
				return 0, "-", true
			}
			return num(100*r, 1)
		}},
		{"L2", "L2 hit rate", "%", Profiled, func(l Launch) (float64, string, bool) {
			if l.L2Measured == nil {
				return 0, "", false
			}
			return num(100*l.L2Measured.HitRate, 1)
		}},
		{"L2", "L2 sector accesses", "", Modelled, func(l Launch) (float64, string, bool) { return count(l.Counters.L2Sectors) }},
		{"L2", "L2 sector accesses", "", Profiled, func(l Launch) (float64, string, bool) {
			if l.L2Measured == nil {
				return 0, "", false
			}
			return count(l.L2Measured.Sectors)
		}},
		{"L2", "busiest slice's share of sectors", "%", Modelled, func(l Launch) (float64, string, bool) {
			share, over, ok := l.Counters.L2HotSliceShare()
			if !ok {
				return 0, "-", true
			}
			return share, fmt.Sprintf("%.1f (%.1fx the mean of %d slices)", 100*share, over, l.Counters.L2Slices), true
		}},
		{"L2", "busiest slice's share of sectors", "%", Profiled, func(l Launch) (float64, string, bool) {
			m := l.L2Measured
			if m == nil || m.Sectors == 0 || m.Slices == 0 {
				return 0, "", false
			}
			share := float64(m.HotSlice) / float64(m.Sectors)
			return share, fmt.Sprintf("%.1f (%.1fx the mean of %d slices)", 100*share, share*float64(m.Slices), m.Slices), true
		}},
		{"L2", "DRAM traffic (L2 load misses, stores)", "MB", Modelled, func(l Launch) (float64, string, bool) {
			return num(float64(l.Counters.DRAMBytes)/1e6, 3)
		}},
		{"L2 atomics", "global atomics issued", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.GlobalAtomicIssued) }},
		{"L2 atomics", "atomic throughput", "G/s", Modelled, func(l Launch) (float64, string, bool) {
			return num(float64(l.Counters.GlobalAtomicIssued)/sec(l)/1e9, 3)
		}},
		{"L2 atomics", "128-byte lines hit by atomics", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.GlobalAtomicLines) }},
		{"L2 atomics", "busiest line's share of atomics", "%", Counted, func(l Launch) (float64, string, bool) {
			c := l.Counters
			if c.GlobalAtomicIssued == 0 {
				return 0, "-", true
			}
			return num(100*float64(c.GlobalAtomicMaxLine)/float64(c.GlobalAtomicIssued), 1)
		}},
		{"L2 atomics", "longest chain on one address", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.GlobalAtomicMaxChain) }},
		{"L2 atomics", "shared atomics (lanes)", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.SharedAtomicOps) }},
		{"instructions", "warp instructions", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.WarpInstructions) }},
	}
	for _, cl := range classes {
		cl := cl
		ms = append(ms, metric{"instructions", "  " + cl.name, "", Counted, func(l Launch) (float64, string, bool) { return count(cl.get(l.Counters.ByClass)) }})
	}
	ms = append(ms,
		metric{"instructions", "shuffles", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.Shuffles) }},
		metric{"occupancy", "resident blocks per SM", "", Modelled, func(l Launch) (float64, string, bool) {
			return count(int64(l.Counters.ResidentBlocksPerSM))
		}},
		metric{"occupancy", "theoretical occupancy", "%", Modelled, func(l Launch) (float64, string, bool) {
			if maxWarps == 0 || l.Block == 0 {
				return 0, "", false
			}
			warps := min(l.Counters.ResidentBlocksPerSM*((l.Block+31)/32), maxWarps)
			return num(100*float64(warps)/float64(maxWarps), 1)
		}},
		metric{"occupancy", "waves", "", Modelled, func(l Launch) (float64, string, bool) { return count(l.Counters.Waves) }},
		metric{"barriers", "barriers completed (per block)", "", Counted, func(l Launch) (float64, string, bool) { return count(l.Counters.Barriers) }},
		metric{"barriers", "warp-cycles waiting at barriers", "", Modelled, func(l Launch) (float64, string, bool) {
			return count(l.Counters.BarrierWaitCycles)
		}},
		metric{"barriers", "mean wait per warp per barrier", "cycles", Modelled, func(l Launch) (float64, string, bool) {
			c := l.Counters
			if c.Barriers == 0 || c.Blocks == 0 {
				return 0, "-", true
			}
			warpsPerBlock := float64(c.Warps) / float64(c.Blocks)
			return num(float64(c.BarrierWaitCycles)/(float64(c.Barriers)*warpsPerBlock), 1)
		}},
	)
	return ms
}

// class is one instruction class of gpu.InstrMix.
type class struct {
	name, short string
	get         func(gpu.InstrMix) int64
}

var classes = []class{
	{"integer", "int", func(m gpu.InstrMix) int64 { return m.Int }},
	{"fp32", "fp32", func(m gpu.InstrMix) int64 { return m.FP32 }},
	{"fp64", "fp64", func(m gpu.InstrMix) int64 { return m.FP64 }},
	{"special functions", "sfu", func(m gpu.InstrMix) int64 { return m.SFU }},
	{"conversions", "cvt", func(m gpu.InstrMix) int64 { return m.Convert }},
	{"loads and stores", "ld/st", func(m gpu.InstrMix) int64 { return m.Memory }},
	{"atomics", "atomic", func(m gpu.InstrMix) int64 { return m.Atomic }},
	{"warp (shuffle, vote)", "warp", func(m gpu.InstrMix) int64 { return m.Warp }},
	{"control", "control", func(m gpu.InstrMix) int64 { return m.Control }},
	{"sync (barriers, fences)", "sync", func(m gpu.InstrMix) int64 { return m.Sync }},
}

// Table returns the view: one row per figure, one column per launch, and
// a column that says where each figure comes from.
func (v *View) Table() *charts.Table {
	cols := []charts.Column{{Header: "section"}, {Header: "figure"}, {Header: "source"}}
	for _, l := range v.Launches {
		cols = append(cols, charts.Column{Header: l.Name, Align: charts.AlignRight})
	}
	t := charts.NewTable("Profile: "+strings.Join(v.names(), " vs "), cols...)
	t.Caption = "counted and modelled on the simulator: " + v.Device.Name
	measured := ""
	for _, m := range v.metrics() {
		var cells []charts.Cell
		shown := false
		for _, l := range v.Launches {
			_, text, ok := m.value(l)
			if !ok {
				cells = append(cells, charts.Text("-"))
				continue
			}
			shown = true
			cells = append(cells, charts.Text(text))
		}
		if !shown {
			continue
		}
		src := m.source
		switch src {
		case Modelled:
			src = "modelled, " + v.Device.Profile
		case Measured:
			for _, l := range v.Launches {
				if l.Measured != nil {
					measured = fmt.Sprintf("%s (%s)", l.Measured.Source, l.MeasuredHow)
					src = measured
					break
				}
			}
		case Profiled:
			for _, l := range v.Launches {
				if l.L2Measured != nil {
					src = "profiled: " + l.L2Measured.Source
					break
				}
			}
		}
		name := m.name
		if m.unit != "" {
			name += " (" + m.unit + ")"
		}
		t.AddRow(append([]charts.Cell{charts.Text(m.section), charts.Text(name), charts.Text(src)}, cells...)...)
	}
	t.AddNote("counted: events of the simulator's run of the launch; modelled: the cost model on the %s profile; measured: CUDA events on a GPU; profiled: Nsight Compute's counters of the same kernel on a GPU, from committed evidence.", v.Device.Profile)
	t.AddNote("L2 (modelled): the L2 starts the launch empty, as under Nsight Compute, which flushes the caches before each profiled launch; a 64-byte granule's first touch misses and later touches hit while it is resident (least recently used, in the profile's L2 size). Sector accesses are the loads that miss the L1, the stores and one per atomic operation. Lines go to slices by a hash (the devices' own hashes are not documented), so the busiest slice is right when a few hot lines load it and only statistical otherwise.")
	t.AddNote("Not modelled, so not shown: achieved occupancy over time, per-pipeline utilisation and stall reasons other than barrier waits.")
	return t
}

// names returns the launches' names.
func (v *View) names() []string {
	var ns []string
	for _, l := range v.Launches {
		ns = append(ns, l.Name)
	}
	return ns
}

// String returns the view as text.
func (v *View) String() string { return v.Table().String() }

// HTML returns the view as an HTML table.
func (v *View) HTML() string { return v.Table().HTML() }

// MixChart returns the instruction mix by class, one bar group per class
// and one series per launch: a kernel can run more instructions and
// still be faster.
func (v *View) MixChart() *charts.BarChart {
	b := &charts.BarChart{
		Title:    "Instruction mix (counted)",
		Subtitle: fmt.Sprintf("warp instructions by class (sfu: special functions, cvt: conversions), simulator, %s profile", v.Device.Profile),
		X:        charts.Axis{Title: "class"},
		Y:        charts.Axis{Title: "warp instructions"},
	}
	var used []class
	for _, cl := range classes {
		for _, l := range v.Launches {
			if cl.get(l.Counters.ByClass) > 0 {
				used = append(used, cl)
				break
			}
		}
	}
	for _, cl := range used {
		b.Categories = append(b.Categories, cl.short)
	}
	for _, l := range v.Launches {
		var vals charts.Values
		for _, cl := range used {
			vals = append(vals, float64(cl.get(l.Counters.ByClass)))
		}
		b.AddBars(l.Name, vals)
	}
	return b
}

// BreakdownChart returns each launch's modelled time by resource, the
// terms of the cost model that run in parallel (the largest binds).
func (v *View) BreakdownChart() *charts.BarChart {
	b := &charts.BarChart{
		Title:    "Where the modelled time goes",
		Subtitle: fmt.Sprintf("cost model terms, %s profile: the largest one (plus launch) is the time", v.Device.Profile),
		X:        charts.Axis{Title: "resource"},
		Y:        charts.Axis{Title: "time", Unit: "ms"},
	}
	var res []string
	for _, l := range v.Launches {
		for _, c := range l.Timing.Breakdown {
			if !contains(res, c.Resource) {
				res = append(res, c.Resource)
			}
		}
	}
	b.Categories = res
	for _, l := range v.Launches {
		vals := make(charts.Values, len(res))
		for _, c := range l.Timing.Breakdown {
			for i, r := range res {
				if r == c.Resource {
					vals[i] = c.Ms
				}
			}
		}
		b.AddBars(l.Name, vals)
	}
	return b
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
