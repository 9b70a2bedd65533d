package gpusim_test

import (
	"path"
	"testing"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/gpu/gputest"
)

// knownBugs are conformance subtests gpusim fails, with the bug; they are
// skipped until it is fixed.
var knownBugs = map[string]string{}

// TestConformance runs the backend-neutral suite, which cudarun runs on a
// GPU, on two simulated profiles.
func TestConformance(t *testing.T) {
	for _, spec := range []string{"sim:t4", "sim:h200", "sim:h200?memory=relaxed"} {
		t.Run(spec, func(t *testing.T) {
			gputest.RunAll(t, func(t *testing.T) *gpu.Device {
				if bug, ok := knownBugs[path.Base(t.Name())]; ok {
					t.Skip("gpusim bug: " + bug)
				}
				d, err := gpu.Open(spec)
				if err != nil {
					t.Fatal(err)
				}
				return d
			})
		})
	}
}
