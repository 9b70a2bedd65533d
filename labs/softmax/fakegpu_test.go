package softmax_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/internal/testenv"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/softmax"
)

// fakeGPU stands in for a GPU in tests: its timing is "measured" (from
// per-element costs near an H200's, with noise from a fixed seed) and its
// launches compute the denominator in Go, so the lab's measured path
// (warm-ups, runs, the prediction beside the measurement, the measured
// card row, the profile's measured times) runs without a GPU.
type fakeGPU struct{}

var registerFake sync.Once

func openFake(t *testing.T) *gpu.Device {
	registerFake.Do(func() { gpu.Register("fakesoftmax", fakeGPU{}) })
	return testenv.Open(t, "fakesoftmax")
}

func (fakeGPU) Open(driver.Config) (driver.Device, error) {
	return &fakeDevice{rng: rand.New(rand.NewPCG(3, 4))}, nil
}

func (fakeGPU) Probe() []driver.Availability {
	return []driver.Availability{{Spec: "fakesoftmax", Name: "NVIDIA H200", Usable: true}}
}

type fakeDevice struct{ rng *rand.Rand }

func (d *fakeDevice) Info() driver.Info {
	return driver.Info{Backend: "cuda", Spec: "fakesoftmax", Name: "NVIDIA H200", Arch: "sm_90", SMs: 132,
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxSharedPerBlock: 48 << 10}
}
func (d *fakeDevice) Capabilities() driver.Capabilities {
	return driver.Capabilities{MeasuredTiming: true}
}
func (d *fakeDevice) Close() error { return nil }
func (d *fakeDevice) Alloc(size int64) (driver.Memory, error) {
	return &fakeMem{b: make([]byte, size)}, nil
}
func (d *fakeDevice) Compile(*cudac.Program) (driver.Module, error) { return &fakeModule{d}, nil }

type fakeMem struct{ b []byte }

func (m *fakeMem) Size() int64                              { return int64(len(m.b)) }
func (m *fakeMem) ReadAt(p []byte, off int64) (int, error)  { return copy(p, m.b[off:]), nil }
func (m *fakeMem) WriteAt(p []byte, off int64) (int, error) { return copy(m.b[off:], p), nil }
func (m *fakeMem) Free() error                              { return nil }

type fakeModule struct{ d *fakeDevice }

var fakeNs = map[string]float64{"denomAtomic": 1.76, "denomShared": 0.045, "denomShuffle": 0.007}

func (m *fakeModule) Launch(fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	ns, ok := fakeNs[fn.Name]
	if !ok {
		return nil, fmt.Errorf("fakegpu: unknown kernel %s", fn.Name)
	}
	in, out := args[0].Mem.(*fakeMem), args[1].Mem.(*fakeMem)
	n := int(int32(args[2].Bits))
	at := args[0].Offset
	var sum float32
	for i := range n {
		sum += float32(math.Exp(float64(math.Float32frombits(binary.LittleEndian.Uint32(in.b[at+int64(4*i):])))))
	}
	off := args[1].Offset
	old := math.Float32frombits(binary.LittleEndian.Uint32(out.b[off:]))
	binary.LittleEndian.PutUint32(out.b[off:], math.Float32bits(old+sum))
	base := 0.005 + ns*float64(n)*1e-6
	if fn.Name == "denomShared" && cfg.Grid.X == 1 && n == 256 {
		// One block's queue, in the H200's two modes: fast where the
		// input starts 1 KB (mod 4 KB) into its allocation.
		base = 0.0141
		if at/1024%4 == 1 {
			base = 0.0089
		}
	}
	ms := base * (1 + 0.02*m.d.rng.NormFloat64())
	return &driver.Result{Device: "NVIDIA H200", Timing: driver.Timing{Ms: ms, Source: "measured, NVIDIA H200", Measured: true}}, nil
}

// TestMeasuredPath runs the lab on the fake GPU: measured cells with
// their warm-ups and runs, the h200 profile's prediction beside each, a
// measured row in the card comparison and measured times in the profile.
func TestMeasuredPath(t *testing.T) {
	dev := openFake(t)
	r, err := softmax.Run(dev, softmax.Options{
		Sweep:    softmax.SweepOptions{Sizes: []int{4096, 65536}},
		Cards:    softmax.CardsOptions{N: 65536, Profiles: []string{"h200"}},
		Progress: labs.NoProgress(),
	})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Sweep
	if !s.Measured || s.WarmUps != 3 || s.Runs != 10 || s.Predicted == nil || s.Predicted.Spec == "" ||
		!strings.HasPrefix(s.Predicted.Spec, "sim:h200") {
		t.Fatalf("measured %v, %d warm-ups, %d runs, predicted %+v", s.Measured, s.WarmUps, s.Runs, s.Predicted)
	}
	pt := s.PredictedTable()
	if pt == nil || len(pt.Rows) != 6 {
		t.Fatalf("predicted table %v", pt)
	}
	text := r.String()
	for _, want := range []string{"measured on NVIDIA H200: mean of 10 launches after 3 warm-ups",
		"Softmax: predicted vs measured", "modelled, h200 profile", "measured, NVIDIA H200 (3 warm-ups, 10 runs)",
		"measured, NVIDIA H200 (mean of 10 launches after 3 warm-ups, CUDA events around each launch)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not hold %q:\n%s", want, text)
		}
	}
	last := r.Cards.Rows[len(r.Cards.Rows)-1]
	if last.Kind != "measured" {
		t.Errorf("the last card row is %+v, want the measured GPU", last)
	}
	for _, row := range s.Rows {
		for _, c := range row.Cells {
			if !c.OK || c.Counters != nil {
				t.Errorf("n=%d %s: ok %v, counters %v", row.N, c.Kernel, c.OK, c.Counters)
			}
		}
	}
	if len(r.Figures()) != 6 {
		t.Errorf("%d figures, want sweep, predicted, placements, cards, mix and breakdown", len(r.Figures()))
	}
	pl := r.Placements
	if pl == nil || !pl.Measured || pl.Predicted == nil || len(pl.Rows) != softmax.DefaultPlacements || pl.Runs != 10 {
		t.Fatalf("placements %+v", pl)
	}
	sh := pl.Summary(softmax.Shared)
	if !sh.Modes || len(sh.Fast) != softmax.DefaultPlacements/4 || sh.Fast[0] != 1 || sh.MedianMs < 0.013 {
		t.Errorf("the fake GPU's shared kernel at one block over placements: %+v, want placements 1, 5, 9, 13 fast and a convoy's median", sh)
	}
	if at := pl.Summary(softmax.Atomic); at.Modes {
		t.Errorf("the atomic kernel over placements: %+v, want one mode", at)
	}
	for _, want := range []string{"One block of 256 threads, its input placed 16 ways", "One block over its placements: predicted vs measured",
		"two modes: 4 placement(s) fast, below the midpoint of the least and the largest (1, 5, 9, 13)", "4 of 16: 1, 5, 9, 13"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not hold %q", want)
		}
	}
}
