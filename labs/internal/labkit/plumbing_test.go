package labkit

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/driver"
)

// fakeGPU is a device whose timing is measured, as a real GPU's is; it
// cannot allocate or compile, which these tests never ask of it.
type fakeGPU struct{}

var registerFake sync.Once

func openFake(t *testing.T) *gpu.Device {
	t.Helper()
	registerFake.Do(func() { gpu.Register("labkitfake", fakeGPU{}) })
	dev, err := gpu.Open("labkitfake")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

func (fakeGPU) Open(driver.Config) (driver.Device, error) { return fakeGPU{}, nil }
func (fakeGPU) Probe() []driver.Availability              { return nil }
func (fakeGPU) Info() driver.Info {
	return driver.Info{Backend: "labkitfake", Spec: "labkitfake", Name: "Tesla T4", Arch: "sm_75", SMs: 40, WarpSize: 32}
}
func (fakeGPU) Capabilities() driver.Capabilities { return driver.Capabilities{MeasuredTiming: true} }
func (fakeGPU) Alloc(int64) (driver.Memory, error) {
	return nil, errors.New("labkitfake: no memory")
}
func (fakeGPU) Compile(*cudac.Program) (driver.Module, error) {
	return nil, errors.New("labkitfake: no compiler")
}
func (fakeGPU) Close() error { return nil }

func openSim(t *testing.T, spec string) *gpu.Device {
	t.Helper()
	dev, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

func TestOpenPrediction(t *testing.T) {
	dev := openFake(t)
	sim, err := OpenPrediction(dev, "", "lab", "")
	if err != nil || sim == nil {
		t.Fatalf("the closest profile: %v, %v", sim, err)
	}
	if got := sim.Spec().Profile(); got != "t4" {
		t.Errorf("a Tesla T4 is predicted by %s, want the t4 profile", sim.Spec())
	}
	sim.Close()
	if sim, err := OpenPrediction(dev, "none", "lab", ""); sim != nil || err != nil {
		t.Errorf("none: %v, %v; want nothing", sim, err)
	}
	if sim, err := OpenPrediction(dev, "sim:h200", "lab", ""); err != nil || sim.Info().SMs != 132 {
		t.Errorf("sim:h200: %v", err)
	} else {
		sim.Close()
	}
	for _, c := range []struct{ spec, what, want string }{
		{"nosuch:x", "the sweep", "softmax: opening nosuch:x to predict the sweep: "},
		{"nosuch:x", "", "softmax: opening nosuch:x to predict: "},
		{"labkitfake", "", "softmax: predicting with labkitfake: not a simulator"},
	} {
		sim, err := OpenPrediction(dev, c.spec, "softmax", c.what)
		if sim != nil || err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an error %q", c.spec, sim, err, c.want)
		}
	}
}

func TestPredictUsage(t *testing.T) {
	if u := PredictUsage("modelled times"); !strings.Contains(u, "whose modelled times go beside the measured ones") {
		t.Errorf("%q", u)
	}
}

func TestTimingSource(t *testing.T) {
	type out struct{ timing gpu.Timing }
	timing := func(o out) gpu.Timing { return o.timing }
	outs := []out{{}, {gpu.Timing{Source: "measured, NVIDIA H200", Measured: true}}}
	if s, m := TimingSource(openSim(t, "sim:t4"), outs, timing); s != "measured, NVIDIA H200" || !m {
		t.Errorf("from the launches: %q, %v", s, m)
	}
	if s, m := TimingSource(openSim(t, "sim:t4"), outs[:1], timing); s != "modelled, t4 profile" || m {
		t.Errorf("a simulator's: %q, %v", s, m)
	}
	if s, m := TimingSource(openFake(t), []out(nil), timing); s != "measured, Tesla T4" || !m {
		t.Errorf("a GPU's: %q, %v", s, m)
	}
}

func TestWithin30(t *testing.T) {
	for q, want := range map[float64]bool{1: true, 1.3: true, 1 / 1.3: true, 1.31: false, 0.76: false, 0: false, math.NaN(): false, math.Inf(1): false} {
		if Within30(q) != want {
			t.Errorf("Within30(%v) = %v", q, !want)
		}
		if c := RatioCell(q); c.Highlight == want || (!math.IsNaN(q) && c.Value != q) {
			t.Errorf("RatioCell(%v) = %+v", q, c)
		}
	}
	if c := RatioCell(1.234); c.Text != "1.23" {
		t.Errorf("RatioCell(1.234) reads %q, want 1.23", c.Text)
	}
}

func TestLaunchJobs(t *testing.T) {
	type span struct{ from, to int }
	collect := func(r *Runner, n int) []span {
		var got []span
		jobs := r.LaunchJobs(n, func(from, to int) Job {
			got = append(got, span{from, to})
			return Job{Launches: to - from}
		})
		if len(jobs) != len(got) {
			t.Errorf("%d jobs from %d calls", len(jobs), len(got))
		}
		return got
	}
	sim, _ := NewRunner(openSim(t, "sim:t4"))
	if got := collect(sim, 3); len(got) != 3 || got[0] != (span{0, 1}) || got[2] != (span{2, 3}) {
		t.Errorf("on the simulator: %v, want a job per launch", got)
	}
	g, _ := NewRunner(openFake(t))
	if got := collect(g, 3); len(got) != 1 || got[0] != (span{0, 3}) {
		t.Errorf("on a GPU: %v, want one job of 3 launches", got)
	}
}

func TestReadEvidence(t *testing.T) {
	text := "# a comment\nk,ms,check\n\n1,0.5,PASS\n2,0.25,PASS\n"
	var rows [][]string
	if err := ReadEvidence("queue", "x.csv", text, "k,", 3, func(f []string) error { rows = append(rows, f); return nil }); err != nil || len(rows) != 2 || rows[1][1] != "0.25" {
		t.Errorf("rows %v, %v", rows, err)
	}
	err := ReadEvidence("queue", "x.csv", text+"3,1\n", "k,", 3, func([]string) error { return nil })
	if err == nil || err.Error() != "queue: x.csv:6: 2 fields, want 3" {
		t.Errorf("a short line: %v", err)
	}
	boom := errors.New("k: not a number")
	err = ReadEvidence("queue", "x.csv", text, "k,", 3, func(f []string) error {
		if f[0] == "2" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || err.Error() != "queue: x.csv:5: k: not a number" {
		t.Errorf("a bad row: %v", err)
	}
}

func TestOpenModel(t *testing.T) {
	dev, err := OpenModel("counters", "sim:h200")
	if err != nil {
		t.Fatal(err)
	}
	dev.Close()
	openFake(t) // registers the fake
	if _, err := OpenModel("counters", "labkitfake"); err == nil || err.Error() != "counters: labkitfake is not a simulator: the H200 table compares the model with committed measurements" {
		t.Errorf("a GPU: %v", err)
	}
	if _, err := OpenModel("counters", "nosuch:x"); err == nil || !strings.HasPrefix(err.Error(), "counters: opening nosuch:x: ") {
		t.Errorf("no such device: %v", err)
	}
}

func TestPredict(t *testing.T) {
	dev := openFake(t)
	var k *gpu.Kernel
	got, err := Predict(dev, "sim:h200", "lab", "", func(sim *gpu.Device) (string, error) {
		m, err := sim.Compile("k.cu", []byte("__global__ void k() {}"))
		if err != nil {
			return "", err
		}
		k, err = m.Kernel("k")
		return sim.Info().Profile, err
	})
	if err != nil || got != "h200" {
		t.Fatalf("Predict = %q, %v", got, err)
	}
	if _, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a launch on the simulator after Predict: %v, want it closed", err)
	}
	calls := 0
	run := func(*gpu.Device) (*int, error) { calls++; return new(int), nil }
	if p, err := Predict(dev, "none", "lab", "", run); p != nil || err != nil || calls != 0 {
		t.Errorf("none: %v, %v after %d runs", p, err, calls)
	}
	if _, err := Predict(dev, "nosuch:x", "lab", "the sweep", run); err == nil || calls != 0 {
		t.Errorf("no such device: %v after %d runs", err, calls)
	}
	boom := errors.New("boom")
	if _, err := Predict(dev, "", "lab", "", func(*gpu.Device) (int, error) { return 0, boom }); err != boom {
		t.Errorf("run's error: %v", err)
	}
}

func TestSimProfile(t *testing.T) {
	def, _ := gpu.ParseSpec(gpu.DefaultSim)
	for _, c := range []struct {
		dev  *gpu.Device
		want string
	}{
		{openSim(t, "sim:h200"), "h200"},
		{openFake(t), "t4"}, // a Tesla T4
		{nil, def.Profile()},
	} {
		if got := SimProfile(c.dev); got != c.want {
			t.Errorf("SimProfile(%v) = %q, want %q", c.dev, got, c.want)
		}
	}
}
