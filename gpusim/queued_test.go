package gpusim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpusim"
	"github.com/warplab/warplab/gpusim/profiles"
)

// launchEmpty times one launch of an empty kernel on spec.
func launchEmpty(t testing.TB, spec string) gpu.Timing {
	t.Helper()
	dev, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	mod, err := dev.Compile("empty.cu", []byte(`__global__ void empty() {}`))
	if err != nil {
		t.Fatal(err)
	}
	k, err := mod.Kernel("empty")
	if err != nil {
		t.Fatal(err)
	}
	res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Timing
}

func TestQueued(t *testing.T) {
	p, err := profiles.Get("h200")
	if err != nil {
		t.Fatal(err)
	}
	one := launchEmpty(t, "sim:h200")
	got, err := gpusim.Queued("h200", one, one)
	if err != nil {
		t.Fatal(err)
	}
	// Two lone launches hold two launch terms; queued, the second holds
	// the dispatch of a queued kernel instead.
	if want := 2*one.Ms - p.Cost.LaunchUs/1e3 + p.Cost.QueuedLaunchUs/1e3; math.Abs(got.Ms-want) > 1e-12 {
		t.Errorf("queued %.6f ms, want %.6f (two launches of %.6f)", got.Ms, want, one.Ms)
	}
	if got.Ms >= 2*one.Ms {
		t.Errorf("queued %.6f ms, not below two lone launches (%.6f)", got.Ms, 2*one.Ms)
	}
	if got.Source != one.Source || len(got.Breakdown) != len(one.Breakdown) {
		t.Errorf("queued timing %+v: want the first launch's source and breakdown", got)
	}

	for _, c := range []struct {
		profile       string
		first, second gpu.Timing
		want          string
	}{
		{"nosuch", one, one, "gpusim: queued launches: "},
		{"h200", one, gpu.Timing{Ms: 0.01, Source: "measured, NVIDIA H200", Measured: true}, "a measured time"},
		{"h200", one, gpu.Timing{Ms: 0.01, Source: "modelled, h200 profile"}, "has no launch term"},
	} {
		if _, err := gpusim.Queued(c.profile, c.first, c.second); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Queued(%q, ..., %+v): error %v, want one containing %q", c.profile, c.second, err, c.want)
		}
	}
}

// Two launches of one stream between one pair of events: the second,
// queued behind the first, costs its kernel and the GPU's dispatch, not a
// second launch overhead.
func ExampleQueued() {
	dev, _ := gpu.Open("sim:h200")
	defer dev.Close()
	mod, _ := dev.Compile("empty.cu", []byte(`__global__ void empty() {}`))
	k, _ := mod.Kernel("empty")
	res, _ := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)})
	both, err := gpusim.Queued("h200", res.Timing, res.Timing)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("one launch %.4f ms, two timed apart %.4f ms, two queued %.4f ms\n", res.Timing.Ms, 2*res.Timing.Ms, both.Ms)
	// Output:
	// one launch 0.0027 ms, two timed apart 0.0054 ms, two queued 0.0041 ms
}

// TestDeviceQueued checks that gpu.Device.Queued on a simulated device is
// Queued on its profile, so that labs need not import gpusim.
func TestDeviceQueued(t *testing.T) {
	one := launchEmpty(t, "sim:h200")
	want, err := gpusim.Queued("h200", one, one)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := gpu.Open("sim:h200")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	got, err := dev.Queued(one, one)
	if err != nil {
		t.Fatal(err)
	}
	if got.Ms != want.Ms || got.Source != want.Source || len(got.Breakdown) != len(want.Breakdown) {
		t.Errorf("Device.Queued = %+v, want %+v", got, want)
	}
	if _, err := dev.Queued(one, gpu.Timing{Ms: 1, Measured: true}); err == nil {
		t.Error("Device.Queued accepted a measured time")
	}
}
