package kernelcheck_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/labs"
	"github.com/warplab/warplab/labs/kernelcheck"
)

// fakeGPU stands in for a real GPU: its launches of sum(x, out, n) add x
// in Go, in index order, or, when shuffled, in an order drawn afresh for
// every launch, as atomics land on hardware. It counts live allocations,
// so that a test sees what the checker leaves behind on a device it does
// not own.
type fakeGPU struct{ shuffled bool }

var (
	registerFakes sync.Once
	fakeLive      = map[string]*int{"fakegpu-fixed": new(int), "fakegpu-shuffled": new(int)}
)

func openFake(t *testing.T, spec string) *gpu.Device {
	t.Helper()
	registerFakes.Do(func() {
		gpu.Register("fakegpu-fixed", fakeGPU{})
		gpu.Register("fakegpu-shuffled", fakeGPU{shuffled: true})
	})
	dev, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

func (g fakeGPU) Open(cfg driver.Config) (driver.Device, error) {
	name := "fakegpu-fixed"
	if g.shuffled {
		name = "fakegpu-shuffled"
	}
	return &fakeDevice{g: g, spec: name, rng: rand.New(rand.NewPCG(1, 2)), live: fakeLive[name]}, nil
}

func (g fakeGPU) Probe() []driver.Availability { return nil }

type fakeDevice struct {
	g    fakeGPU
	spec string
	rng  *rand.Rand
	live *int
}

func (d *fakeDevice) Info() driver.Info {
	return driver.Info{Backend: "cuda", Spec: d.spec, Name: "Fake GPU", Arch: "sm_90", SMs: 132,
		WarpSize: 32, MaxThreadsPerBlock: 1024, MaxSharedPerBlock: 48 << 10}
}
func (d *fakeDevice) Capabilities() driver.Capabilities {
	return driver.Capabilities{MeasuredTiming: true}
}
func (d *fakeDevice) Close() error { return nil }
func (d *fakeDevice) Alloc(size int64) (driver.Memory, error) {
	*d.live++
	return &fakeMem{b: make([]byte, size), live: d.live}, nil
}
func (d *fakeDevice) Compile(*cudac.Program) (driver.Module, error) { return fakeModule{d}, nil }

type fakeMem struct {
	b    []byte
	live *int
}

func (m *fakeMem) Size() int64                              { return int64(len(m.b)) }
func (m *fakeMem) ReadAt(p []byte, off int64) (int, error)  { return copy(p, m.b[off:]), nil }
func (m *fakeMem) WriteAt(p []byte, off int64) (int, error) { return copy(m.b[off:], p), nil }
func (m *fakeMem) Free() error                              { *m.live--; return nil }

type fakeModule struct{ d *fakeDevice }

func (m fakeModule) Launch(fn *cudac.Func, cfg driver.LaunchConfig, args []driver.ArgValue) (*driver.Result, error) {
	in, out := args[0].Mem.(*fakeMem), args[1].Mem.(*fakeMem)
	vals := make([]float32, int(args[2].Bits))
	for i := range vals {
		vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(in.b[4*i:]))
	}
	if m.d.g.shuffled {
		m.d.rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	}
	var sum float32
	for _, v := range vals {
		sum += v
	}
	binary.LittleEndian.PutUint32(out.b, math.Float32bits(sum))
	return &driver.Result{Device: "Fake GPU", Timing: driver.Timing{Ms: 0.01, Source: "measured, Fake GPU", Measured: true}}, nil
}

// TestReproducibleOnGPU runs the reproducibility part on a device that is
// not the simulator: a kernel reproducible on the simulator must also
// give one result in GPURuns launches there, and the check frees every
// buffer it made on a device it does not own.
func TestReproducibleOnGPU(t *testing.T) {
	cfg := fast()
	cfg.Sizes = []int{4133}
	cfg.Seeds = []uint64{1, 2, 3}
	cfg.Budget = 4_000_000
	cfg.ElementsPerAtomic = 0
	h := reproducibleHarness()
	h.GPURuns = 12

	dev := openFake(t, "fakegpu-fixed")
	f := kernelcheck.CheckConfig(dev, h, oneBlockSum, cfg)
	t.Logf("%s", f)
	want(t, f, kernelcheck.PartReproducible, labs.Pass, "On Fake GPU, 12 launches at n = 4133 gave one distinct result too.")
	if live := *fakeLive["fakegpu-fixed"]; live != 0 {
		t.Errorf("%d buffers left allocated on the GPU", live)
	}

	dev = openFake(t, "fakegpu-shuffled")
	f = kernelcheck.CheckConfig(dev, h, oneBlockSum, cfg)
	t.Logf("%s", f)
	want(t, f, kernelcheck.PartReproducible, labs.Fail, "But on Fake GPU, 12 launches at n = 4133 gave", "distinct results")
	if live := *fakeLive["fakegpu-shuffled"]; live != 0 {
		t.Errorf("%d buffers left allocated on the GPU", live)
	}

	// A kernel that is wrong on the simulator is not run on the GPU, and
	// earns nothing for being reproducibly wrong.
	wrong := "__global__ void sum(const float* x, float* out, int n) { if (blockIdx.x == 0 && threadIdx.x == 0) *out = 1.0f; }"
	f = kernelcheck.CheckConfig(dev, h, wrong, cfg)
	want(t, f, kernelcheck.PartReproducible, labs.Fail, "not checked: needs a correct kernel")
}
