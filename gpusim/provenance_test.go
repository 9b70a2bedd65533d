package gpusim_test

import (
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// TestUnmeasuredProfilesSaySo checks that a profile with no measurement
// of its own GPU says so wherever a user picks or reads it: the device
// list (warplab devices), the device's name (a lab's device line) and a
// launch's timing source; and that a measured profile's do not.
func TestUnmeasuredProfilesSaySo(t *testing.T) {
	const mark = "unmeasured: H200 parameters"
	listed := map[string]string{}
	for _, a := range gpu.Devices() {
		listed[a.Spec] = a.Name
	}
	for _, tc := range []struct {
		spec       string
		unmeasured bool
	}{{"sim:a100", true}, {"sim:l4", true}, {"sim:h200", false}, {"sim:t4", false}} {
		if got := strings.Contains(listed[tc.spec], mark); got != tc.unmeasured {
			t.Errorf("%s listed as %q", tc.spec, listed[tc.spec])
		}
		dev, err := gpu.Open(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(dev.Info().Name, mark); got != tc.unmeasured {
			t.Errorf("%s: device name %q", tc.spec, dev.Info().Name)
		}
		mod, err := dev.Compile("k.cu", []byte("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }"))
		if err != nil {
			t.Fatal(err)
		}
		k, err := mod.Kernel("k")
		if err != nil {
			t.Fatal(err)
		}
		buf, err := gpu.NewBuffer[float32](dev, 32)
		if err != nil {
			t.Fatal(err)
		}
		res, err := k.Launch(gpu.LaunchConfig{Grid: gpu.D1(1), Block: gpu.D1(32)}, buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(res.Timing.Source, mark); got != tc.unmeasured {
			t.Errorf("%s: timing source %q", tc.spec, res.Timing.Source)
		}
		dev.Close()
	}
}
