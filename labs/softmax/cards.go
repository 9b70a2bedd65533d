package softmax

import (
	"fmt"
	"strings"

	"github.com/warplab/warplab/charts"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/internal/labkit"
)

// Notes returns the atomics-vs-warp-shuffle course notes' measurement of the
// pair: a 14-SM Turing GeForce (sm_75), 16,777,216 elements, 256 threads per block, CUDA events over
// 100 iterations.
func Notes() Quote { return notes }

var notes = Quote{Card: "14-SM Turing GeForce (sm_75)", Label: "Turing, 14 SMs (notes)", N: 16777216, AtomicMs: 34.95, ShuffleMs: 0.93082,
	Source: "the atomics-vs-warp-shuffle course notes (online softmax)"}

// H200Microbench returns the project's H200 measurement of the same pair at
// four sizes (calibration/evidence/2026-11-30-h200-microbench-gated/csv/softmax.csv:
// 256 threads per block, the mean of 10 timed launches after 3 warm-ups,
// CUDA 13.0), timed gated as the labs time a launch on a GPU. The earlier
// run (calibration/evidence/2026-11-29-h200-microbenchmarks/csv/softmax.csv) was
// ungated: its launches followed nothing queued, so each also timed the
// host's submission, 2 to 4 us (the shuffle at 65536: 0.0072 ms ungated,
// 0.0037 gated).
func H200Microbench() []Quote { return append([]Quote(nil), h200Microbench...) }

var h200Microbench = []Quote{
	{Card: "NVIDIA H200 (sm_90, 132 SMs)", Label: "H200 (measured earlier)", N: 65536, AtomicMs: 0.1179, ShuffleMs: 0.0037, Source: h200Source},
	{Card: "NVIDIA H200 (sm_90, 132 SMs)", Label: "H200 (measured earlier)", N: 1048576, AtomicMs: 1.8430, ShuffleMs: 0.0104, Source: h200Source},
	{Card: "NVIDIA H200 (sm_90, 132 SMs)", Label: "H200 (measured earlier)", N: 4194304, AtomicMs: 7.3644, ShuffleMs: 0.0325, Source: h200Source},
	{Card: "NVIDIA H200 (sm_90, 132 SMs)", Label: "H200 (measured earlier)", N: 16777216, AtomicMs: 29.4552, ShuffleMs: 0.1191, Source: h200Source},
}

const h200Source = "warplab microbenchmark softmax.cu on the H200, 2026-11-30"

// h200Quote returns the H200 measurement at n, or at the notes' size
// when none was made at n.
func h200Quote(n int) Quote {
	for _, q := range h200Microbench {
		if q.N == n {
			return q
		}
	}
	return h200Microbench[len(h200Microbench)-1]
}

// Quote is a measured pair quoted from a document or an earlier run.
type Quote struct {
	Card string
	// Label is the card's short name in a chart.
	Label               string
	N                   int
	AtomicMs, ShuffleMs float64
	Source              string
}

// DefaultCardN is the size of the card comparison on the simulator,
// chosen to keep the lab fast: on the 14-SM card both kernels already
// scale linearly with n there, so the ratio is the notes'; on the H200
// the shuffle kernel has not yet reached its streaming rate, and the
// project's measurement at the same size is quoted beside it.
// CardsOptions.N (--set card-n=16777216) runs the notes' size.
const DefaultCardN = 1048576

// DefaultCards returns the simulator profiles the comparison predicts:
// the notes' 14-SM Turing card and the H200.
func DefaultCards() []string { return []string{"gtx1650", "h200"} }

// CardsOptions configure Cards.
type CardsOptions struct {
	// N is the number of elements; 0 means DefaultCardN.
	N int
	// BlockSize is the threads per block; 0 means DefaultBlockSize.
	BlockSize int
	// Profiles are the simulator profiles to predict; nil means
	// DefaultCards().
	Profiles []string
	// Progress receives progress; nil means the default.
	Progress labs.Progress
}

// CardsTable is the atomic/shuffle pair on several cards: quoted
// measurements, the simulator's predictions, and a measurement on the
// device when it is a GPU.
type CardsTable struct {
	N         int       `json:"n"`
	BlockSize int       `json:"block_size"`
	Rows      []CardRow `json:"rows"`
}

// CardRow is one card's pair.
type CardRow struct {
	Card string `json:"card"`
	// Label is the row's short name in a chart: "h200 (modelled)".
	Label string `json:"label"`
	// Source says where the times come from: "quoted: ...", "modelled,
	// gtx1650 profile" or "measured, NVIDIA H200 (3 warm-ups, 10 runs)".
	Source    string  `json:"source"`
	Kind      string  `json:"kind"` // "quoted", "modelled" or "measured"
	N         int     `json:"n"`
	SMs       int     `json:"sms,omitempty"`
	AtomicMs  float64 `json:"atomic_ms"`
	ShuffleMs float64 `json:"shuffle_ms"`
	// AtomicNs is the atomic kernel's time per element, the L2's
	// same-address rate; ShuffleGBps the shuffle kernel's input stream.
	AtomicNs    float64 `json:"atomic_ns"`
	ShuffleGBps float64 `json:"shuffle_gbps"`
}

// Ratio is the atomic kernel's time over the shuffle kernel's.
func (r CardRow) Ratio() float64 { return r.AtomicMs / r.ShuffleMs }

func quoteRow(q Quote) CardRow {
	return finish(CardRow{Card: q.Card, Label: q.Label, Source: "quoted: " + q.Source, Kind: "quoted", N: q.N,
		AtomicMs: q.AtomicMs, ShuffleMs: q.ShuffleMs})
}

func finish(r CardRow) CardRow {
	r.AtomicNs = r.AtomicMs * 1e6 / float64(r.N)
	r.ShuffleGBps = 4 * float64(r.N) / (r.ShuffleMs * 1e6)
	return r
}

// Cards runs the atomic and shuffle kernels at opts.N on each simulator
// profile, and on dev itself when it is a GPU, beside the quoted
// measurements.
func Cards(dev *gpu.Device, opts CardsOptions) (*CardsTable, error) {
	n := opts.N
	if n == 0 {
		n = DefaultCardN
	}
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("softmax: card comparison at %d elements: want 1 to %d", n, MaxN)
	}
	block := opts.BlockSize
	if block == 0 {
		block = DefaultBlockSize
	}
	profiles := opts.Profiles
	if profiles == nil {
		profiles = DefaultCards()
	}
	t := &CardsTable{N: n, BlockSize: block, Rows: []CardRow{quoteRow(notes), quoteRow(h200Quote(n))}}
	progress := labkit.OrDefault(opts.Progress, "softmax cards")
	pair := func(d *gpu.Device, runner *labkit.Runner) (CardRow, error) {
		warm, runs := launchCounts(d, 0, 0)
		ss := []series{{kernel: Atomic, n: n, block: block, warm: warm, runs: runs}, {kernel: Shuffle, n: n, block: block, warm: warm, runs: runs}}
		ms, err := measure(runner, ss, labs.NoProgress())
		if err != nil {
			return CardRow{}, err
		}
		in := input(n, InputSeed)
		a, s := cellOf(ss[0], ms[0], in.denom), cellOf(ss[1], ms[1], in.denom)
		for _, c := range []Cell{a, s} {
			if !c.OK {
				return CardRow{}, fmt.Errorf("softmax: %s on %s: denominator %g off by %.2g, more than the bound %.2g",
					c.Kernel, d.Info().Name, c.Denom, c.RelErr, c.Tolerance)
			}
		}
		info := d.Info()
		row := CardRow{Card: info.Name, Label: info.Profile + " (modelled)", Source: a.Timing.Source, N: n, SMs: info.SMs,
			AtomicMs: a.Ms, ShuffleMs: s.Ms, Kind: "modelled"}
		if d.Capabilities().MeasuredTiming {
			row.Kind = "measured"
			row.Label = strings.TrimPrefix(info.Name, "NVIDIA ") + " (measured now)"
			row.Source = fmt.Sprintf("%s (%d warm-ups, %d runs)", a.Timing.Source, warm, runs)
		}
		return finish(row), nil
	}
	steps := len(profiles)
	if dev.Capabilities().MeasuredTiming {
		steps++
	}
	for i, p := range profiles {
		spec, err := gpu.SimSpec(p)
		if err != nil {
			return nil, fmt.Errorf("softmax: card %s: %v", p, err)
		}
		progress.Update(i, steps, spec.String())
		sim, err := gpu.OpenSpec(spec)
		if err != nil {
			return nil, fmt.Errorf("softmax: card %s: %v", p, err)
		}
		r, err := labkit.NewRunner(sim)
		if err == nil {
			var row CardRow
			if row, err = pair(sim, r); err == nil {
				t.Rows = append(t.Rows, row)
			}
		}
		sim.Close()
		if err != nil {
			return nil, err
		}
	}
	if dev.Capabilities().MeasuredTiming {
		progress.Update(len(profiles), steps, dev.Info().Name)
		r, err := labkit.NewRunner(dev)
		if err != nil {
			return nil, err
		}
		row, err := pair(dev, r)
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, row)
	}
	progress.Update(steps, steps, "")
	progress.Done()
	return t, nil
}

// Table returns the comparison.
func (t *CardsTable) Table() *charts.Table {
	tab := charts.NewTable("Per-element atomics vs the register cache, card by card",
		charts.Column{Header: "card"}, charts.Column{Header: "times"}, charts.Column{Header: "n"},
		charts.Column{Header: "atomic", Unit: "ms"}, charts.Column{Header: "shuffle", Unit: "ms"},
		charts.Column{Header: "atomic / shuffle"},
		charts.Column{Header: "atomic per element", Unit: "ns"}, charts.Column{Header: "shuffle input", Unit: "GB/s"})
	tab.Caption = fmt.Sprintf("%d threads per block; each row at its own n: the notes measured 16,777,216 elements, the simulator runs %d", t.BlockSize, t.N)
	for _, r := range t.Rows {
		ratio := charts.Float(r.Ratio(), 1)
		if r.Kind != "quoted" {
			ratio = ratio.Highlighted()
		}
		tab.AddRow(charts.Text(r.Card), charts.Text(r.Source), charts.Int(int64(r.N)),
			charts.Float(r.AtomicMs, 4), charts.Float(r.ShuffleMs, 4), ratio,
			charts.Float(r.AtomicNs, 2), charts.Float(r.ShuffleGBps, 0))
	}
	tab.AddNote("The per-element atomic kernel costs about the same per element on every card (one address, one L2 line: the L2 serves its atomics one after another), while the shuffle kernel streams its input at the card's memory bandwidth, which grows with the number of SMs and memory channels. So the ratio grows with the card.")
	return tab
}

// Chart draws each card's atomic/shuffle ratio as a bar.
func (t *CardsTable) Chart() *charts.BarChart {
	b := &charts.BarChart{
		Title:    "How many times faster the register cache is, card by card",
		Subtitle: "quoted, modelled by the simulator, or measured here",
		X:        charts.Axis{Title: "card"},
		Y:        charts.Axis{Title: "atomic time / shuffle time"},
	}
	var ratios charts.Values
	for _, r := range t.Rows {
		b.Categories = append(b.Categories, r.Label)
		ratios = append(ratios, r.Ratio())
	}
	b.AddBars("atomic / shuffle", ratios)
	return b
}
