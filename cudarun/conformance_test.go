package cudarun

import (
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/gputest"
)

// TestConformance runs the backend-neutral suite on the GPU, skipping with
// the reason where none can be used.
func TestConformance(t *testing.T) {
	requireGPU(t)
	gputest.RunAll(t, func(t *testing.T) *gpu.Device {
		d, err := gpu.Open("cuda")
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}
