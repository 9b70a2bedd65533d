//go:build !linux || !cgo

package cudarun_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/cudarun"
	"github.com/warplab/warplab/gpu"
)

// howToEnable is what every error of the stub must say: on Linux, how to
// rebuild with the backend; elsewhere, that the backend needs Linux and
// what to use instead.
func howToEnable() []string {
	if runtime.GOOS != "linux" {
		return []string{"cudarun: ", "Linux only", "sim:t4"}
	}
	return []string{"cudarun: ", "CGO_ENABLED=0", "rebuild with CGO_ENABLED=1", "C compiler"}
}

func checkHowToEnable(t *testing.T, what, msg string) {
	t.Helper()
	for _, want := range howToEnable() {
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q does not say %q", what, msg, want)
		}
	}
}

// TestStubSaysHowToEnable checks that every way a user reaches the CUDA
// backend in a build without it (opening a device, listing devices,
// compiling for a GPU, asking a GPU's architecture) fails with an error
// that says how to get the backend.
func TestStubSaysHowToEnable(t *testing.T) {
	for _, spec := range []string{"cuda", "cuda:1", "cuda:0?fmad=false"} {
		d, err := gpu.Open(spec)
		if err == nil {
			d.Close()
			t.Errorf("gpu.Open(%q) succeeded in a build without the CUDA backend", spec)
			continue
		}
		checkHowToEnable(t, "gpu.Open("+spec+")", err.Error())
	}

	found := false
	for _, a := range gpu.Devices() {
		if !strings.HasPrefix(a.Spec, "cuda") {
			continue
		}
		found = true
		if a.Usable {
			t.Errorf("gpu.Devices() lists %s as usable in a build without the CUDA backend", a.Spec)
		}
		checkHowToEnable(t, "gpu.Devices() "+a.Spec, a.Reason)
	}
	if !found {
		t.Error("gpu.Devices() has no cuda row: `warplab devices` would not say why there is no GPU")
	}

	prog, err := cudac.Compile("k.cu", []byte("__global__ void k(int* p) { p[0] = 1; }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cudarun.Build(prog, cudarun.BuildOptions{}); err == nil {
		t.Error("cudarun.Build succeeded in a build without the CUDA backend")
	} else {
		checkHowToEnable(t, "cudarun.Build", err.Error())
	}
	if _, err := cudarun.DeviceArch(0); err == nil {
		t.Error("cudarun.DeviceArch succeeded in a build without the CUDA backend")
	} else {
		checkHowToEnable(t, "cudarun.DeviceArch", err.Error())
	}
}

// TestStubRejectsBadSpecs checks that a malformed spec gets the spec's
// own error, not the stub's: the user has a typo to fix first.
func TestStubRejectsBadSpecs(t *testing.T) {
	_, err := gpu.Open("cuda:x")
	if err == nil {
		t.Fatal(`gpu.Open("cuda:x") succeeded`)
	}
	if strings.Contains(err.Error(), "CGO_ENABLED") {
		t.Errorf(`gpu.Open("cuda:x") = %q, want the spec's error, not the stub's`, err)
	}
}
