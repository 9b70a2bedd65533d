//go:build !linux || !cgo

package cudarun

import (
	"errors"
	"runtime"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu"
	gpudriver "github.com/warplab/warplab/gpu/driver"
)

func init() { gpu.Register("cuda", backend{}) }

// errStub says why this build has no GPU backend and how to get one.
var errStub = func() error {
	if runtime.GOOS != "linux" {
		return errors.New("cudarun: warplab was built for " + runtime.GOOS + ": the CUDA backend runs on Linux only (use the simulator, sim:t4)")
	}
	return errors.New("cudarun: warplab was built without cgo (CGO_ENABLED=0): rebuild with CGO_ENABLED=1 and a C compiler to use a GPU")
}()

type backend struct{}

func (backend) Open(gpudriver.Config) (gpudriver.Device, error) { return nil, errStub }

func (backend) Probe() []gpudriver.Availability {
	return []gpudriver.Availability{{Spec: "cuda", Name: "CUDA GPU", Reason: errStub.Error()}}
}

// Build compiles prog with NVRTC; in this build it always fails.
func Build(prog *cudac.Program, opts BuildOptions) (*Image, error) { return nil, errStub }

// DeviceArch returns the target NVRTC would compile for on GPU ordinal; in
// this build it always fails.
func DeviceArch(ordinal int) (string, error) { return "", errStub }
