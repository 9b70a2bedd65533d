// Package testenv lets tests that need something the machine may lack (a
// GPU, Jupyter) skip where it is missing, and fail instead where a run must
// not pass by skipping: the evidence runs on the GPU machine set
// WARPLAB_REQUIRE_GPU=1, scripts/test.sh sets WARPLAB_REQUIRE_JUPYTER=1.
package testenv

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/warplab/warplab/gpu"
)

// RequireGPUEnv names the environment variable that, set to 1, turns every
// skip for a missing or unusable GPU into a failure.
const RequireGPUEnv = "WARPLAB_REQUIRE_GPU"

// Required reports whether the environment variable env is set to 1.
func Required(env string) bool { return os.Getenv(env) == "1" }

// SkipOrFail ends t for want of something: it skips with msg, or fails
// with msg when the environment variable env is 1.
func SkipOrFail(t testing.TB, env, msg string) {
	t.Helper()
	if Required(env) {
		t.Fatal(msg + " (" + env + "=1 requires it)")
	}
	t.Skip(msg)
}

// NoGPU ends t because no GPU can be used, for the reasons given: a skip,
// or a failure under WARPLAB_REQUIRE_GPU=1.
func NoGPU(t testing.TB, reasons ...string) {
	t.Helper()
	SkipOrFail(t, RequireGPUEnv, "no usable GPU: "+strings.Join(reasons, "; "))
}

// GPU returns the spec of the first usable CUDA device that gpu.Devices
// lists (the cuda backend must be linked in, by a blank import of
// cudarun), or ends t with NoGPU and the reasons none is usable.
func GPU(t testing.TB) string {
	t.Helper()
	var why []string
	for _, a := range gpu.Devices() {
		if !strings.HasPrefix(a.Spec, "cuda") {
			continue
		}
		if a.Usable {
			return a.Spec
		}
		why = append(why, fmt.Sprintf("%s: %s", a.Spec, a.Reason))
	}
	if len(why) == 0 {
		why = append(why, "the cuda backend is not linked into this test")
	}
	NoGPU(t, why...)
	return ""
}

// Open opens the device spec names ("sim:t4") for t and closes it when t
// ends; a device that does not open fails t.
func Open(t testing.TB, spec string) *gpu.Device {
	t.Helper()
	dev, err := gpu.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}
