package atomics

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
)

// fakeGPU is a stand-in for a real GPU in tests: a backend whose timing
// is "measured" (noisy, from a fixed seed) and whose launches compute the
// lab's sums in Go, the global atomic's in a shuffled order. It lets the
// tests run the measured path (warm-ups, timed runs, a slot per launch,
// the prediction beside the measurement) without a GPU.
type fakeGPU struct{}

var registerFake sync.Once

// openFake opens a fake H200 (named like the real one, so the prediction
// picks the simulator's h200 profile).
func openFake() (*gpu.Device, error) {
	registerFake.Do(func() { gpu.Register("fakegpu", fakeGPU{}) })
	return gpu.Open("fakegpu")
}

func (fakeGPU) Open(driver.Config) (driver.Device, error) {
	return &fakeDevice{rng: rand.New(rand.NewPCG(1, 2))}, nil
}

func (fakeGPU) Probe() []driver.Availability {
	return []driver.Availability{{Spec: "fakegpu", Name: "NVIDIA H200", Usable: true}}
}

type fakeDevice struct {
	rng      *rand.Rand
	launches int
}

func (d *fakeDevice) Info() driver.Info {
	return driver.Info{Backend: "cuda", Spec: "fakegpu", Name: "NVIDIA H200", Arch: "sm_90", SMs: 132,
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

func (m *fakeMem) Size() int64 { return int64(len(m.b)) }
func (m *fakeMem) ReadAt(p []byte, off int64) (int, error) {
	return copy(p, m.b[off:]), nil
}
func (m *fakeMem) WriteAt(p []byte, off int64) (int, error) {
	return copy(m.b[off:], p), nil
}
func (m *fakeMem) Free() error { return nil }

type fakeModule struct{ d *fakeDevice }

// fakeMs are the fake's mean times per element (ns), roughly an H200's.
var fakeNs = map[string]float64{"sumGlobal": 1.75, "sumShared": 0.04, "sumTree": 0.009}

func (m *fakeModule) Launch(fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	d := m.d
	d.launches++
	in := args[0].Mem.(*fakeMem)
	out := args[1].Mem.(*fakeMem)
	n := int(args[2].Bits)
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(in.b[4*i:]))
	}
	name, _, _ := strings.Cut(fn.Name, "<")
	if name == "sumGlobal" {
		d.rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	}
	var sum float32
	for _, v := range vals {
		sum += v
	}
	off := args[1].Offset
	old := math.Float32frombits(binary.LittleEndian.Uint32(out.b[off:]))
	binary.LittleEndian.PutUint32(out.b[off:], math.Float32bits(old+sum))
	ns, ok := fakeNs[name]
	if !ok {
		return nil, fmt.Errorf("fakegpu: unknown kernel %s", fn.Name)
	}
	ms := (0.005 + ns*float64(n)*1e-6) * (1 + 0.02*d.rng.NormFloat64())
	return &driver.Result{Device: "NVIDIA H200", Timing: driver.Timing{Ms: ms, Source: "measured, NVIDIA H200", Measured: true}}, nil
}
